//! The peer: Rapier 0.36's `KinematicCharacterController::move_shape` on the crowd scene, in two
//! setups that share the terrain, the controller's settings and the game's integration:
//!
//! - [`RapierCrowd`], as Rapier documents it for a kinematic character: each character is a
//!   kinematic position-based body with a cuboid collider in a `PhysicsWorld`; every step the game
//!   builds the query pipeline from the broad phase once, moves every character with `move_shape`
//!   (gravity and walking integrated here, as a game does), sets the bodies' next kinematic
//!   translations and steps the world once, which updates the broad phase (BVH) for the next
//!   step's queries.
//! - [`ControllerOnlyCrowd`], the controller alone: the characters are not in the world at all (no
//!   bodies, no colliders, no world step). Their positions are a plain `Vec`, and each step moves
//!   each of them by `move_shape` against the terrain's broad phase, built once at setup (the
//!   terrain never moves). This is the least a game can pay for Rapier's character controller on
//!   this scene: the lower bound of the peer.
//!
//! Units are tiles (Rapier's length unit 1 = one tile; its tolerances are tuned for units of
//! that size). Characters and terrain are in different collision groups, and characters do not
//! collide with each other.

use std::time::Duration;

use rapier2d::control::{CharacterLength, KinematicCharacterController};
use rapier2d::parry::shape::Cuboid;
use rapier2d::prelude::*;

use crate::scene::*;
use crate::{Crowd, Observation};

/// How the terrain is given to Rapier.
#[derive(Clone, Copy, Debug)]
pub enum Terrain {
    /// The surface as one polyline: Rapier's best case (no internal edges).
    Polyline,
    /// One collider per tile of the grid: cuboids for solid cells, convex polygons for slope
    /// cells. What a naive import of a tile map gives.
    Tiles,
}

const TERRAIN_GROUPS: InteractionGroups =
    InteractionGroups::new(Group::GROUP_1, Group::GROUP_2, InteractionTestMode::And);
const CHARACTER_GROUPS: InteractionGroups =
    InteractionGroups::new(Group::GROUP_2, Group::GROUP_1, InteractionTestMode::And);

/// A world holding only the terrain `width` tiles wide, given as `terrain`: standalone colliders
/// in the terrain's group, no bodies. It has no gravity (the game integrates it) and the scene's
/// step. Its broad phase is empty until the first step or collision detection.
fn terrain_world(terrain: Terrain, width: i32) -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::ZERO;
    world.integration_parameters.dt = DT;
    match terrain {
        Terrain::Polyline => {
            let points = surface_polyline(width).into_iter().map(Vector::from).collect();
            world.insert_collider(
                ColliderBuilder::polyline(points, None).collision_groups(TERRAIN_GROUPS),
                None,
            );
        }
        Terrain::Tiles => {
            for tile in tile_shapes(width) {
                let builder = match tile {
                    TileShape::Square { centre } => ColliderBuilder::cuboid(0.5, 0.5).translation(Vector::from(centre)),
                    TileShape::Polygon(points) => {
                        ColliderBuilder::convex_polyline(points.into_iter().map(Vector::from).collect())
                            .expect("a convex slope cell")
                    }
                };
                world.insert_collider(builder.collision_groups(TERRAIN_GROUPS), None);
            }
        }
    }
    world
}

/// The characters' scene queries: everything in `world` a character collides with (the terrain),
/// through the broad phase's BVH as its last update left it. A `QueryPipeline` is only references
/// to the world's parts, so making one costs a few copies; the BVH is what is built or updated.
fn character_queries(world: &PhysicsWorld) -> QueryPipeline<'_> {
    world.broad_phase.as_query_pipeline(
        world.narrow_phase.query_dispatcher(),
        &world.bodies,
        &world.colliders,
        QueryFilter::new().groups(CHARACTER_GROUPS),
    )
}

/// What the game keeps of one character between steps, besides its position.
#[derive(Clone, Copy, Debug)]
struct Walker {
    /// Vertical speed, tiles/s (up is positive).
    vy: f32,
    /// Walking direction: 1 right, -1 left.
    dir: f32,
    /// What `move_shape` said at the end of the last step.
    grounded: bool,
}

impl Walker {
    /// The `i`-th character at spawn: in the air, not moving yet, facing its spawn direction.
    fn spawn(i: usize) -> Self {
        Self {
            vy: 0.0,
            dir: spawn_dir(i),
            grounded: false,
        }
    }
}

/// Rapier's character controller as both setups use it, and the game's integration around it.
struct Mover {
    controller: KinematicCharacterController,
    /// The character's shape, centred on its position.
    shape: Cuboid,
    /// Whether a grounded character's desired movement still has gravity's downward part.
    press: bool,
}

impl Mover {
    /// The controller's settings for this scene (slide, no autostep, climbs up to 50°, snaps
    /// down half a tile), and the character's shape. `press`: see [`RapierCrowd::new`].
    fn new(press: bool) -> Self {
        let [w, h] = CHAR_SIZE;
        Self {
            controller: KinematicCharacterController {
                slide: true,
                autostep: None,
                max_slope_climb_angle: 50f32.to_radians(),
                snap_to_ground: Some(CharacterLength::Absolute(0.5)),
                ..Default::default()
            },
            shape: Cuboid::new(Vector::new(w * 0.5, h * 0.5)),
            press,
        }
    }

    /// One step of one character at `pose`: the game integrates gravity and walking into the
    /// desired movement, `move_shape` moves the shape against `queries`, and the character turns
    /// round at a wall that faces it. Returns the translation Rapier allows; `walker` keeps the
    /// rest of the character's state for the next step.
    #[inline]
    fn step(&self, queries: &QueryPipeline<'_>, pose: &Pose, walker: &mut Walker) -> Vector {
        // A grounded character starts each step with no vertical speed.
        let mut vy = if walker.grounded { 0.0 } else { walker.vy };
        vy = (vy - GRAVITY * DT).max(-MAX_FALL);
        let down = if walker.grounded && !self.press { 0.0 } else { vy * DT };
        let desired = Vector::new(walker.dir * SPEED * DT, down);
        let dir = walker.dir;
        let mut wall = false;
        let movement = self
            .controller
            .move_shape(DT, queries, &self.shape, pose, desired, |collision| {
                // A wall facing the way the character walks (not a 45° ramp).
                if collision.hit.normal1.x * dir < -0.9 {
                    wall = true;
                }
            });
        if wall {
            walker.dir = -walker.dir;
        }
        walker.grounded = movement.grounded;
        walker.vy = if movement.grounded { 0.0 } else { vy };
        movement.translation
    }
}

/// What the correctness pass sees of a character centred on `centre`.
fn observation(centre: Vector, grounded: bool) -> Observation {
    let half = Vector::from(CHAR_SIZE) * 0.5;
    Observation {
        min: (centre - half).to_array(),
        max: (centre + half).to_array(),
        grounded,
    }
}

/// A character of [`RapierCrowd`]: its body in the world, and the game's state.
struct Character {
    body: RigidBodyHandle,
    walker: Walker,
}

/// The crowd in a Rapier world, as Rapier's guide has it.
pub struct RapierCrowd {
    world: PhysicsWorld,
    mover: Mover,
    characters: Vec<Character>,
    next: Vec<Vector>,
    /// CPU time spent in the `move_shape` loop and in `PhysicsWorld::step` (which updates the
    /// broad phase).
    split: (Duration, Duration),
}

impl RapierCrowd {
    /// `n` characters on the terrain `width` tiles wide, given as `terrain`. With `press`, a
    /// grounded character's desired movement keeps gravity's small downward part (Rapier's guide:
    /// "emulate gravity by adding a downward component to that movement vector"); without it, a
    /// grounded character asks for a horizontal move only and snap-to-ground keeps it down.
    pub fn new(terrain: Terrain, width: i32, n: usize, press: bool) -> Self {
        let mut world = terrain_world(terrain, width);
        let [w, h] = CHAR_SIZE;
        let characters = (0..n)
            .map(|i| {
                let (body, _) = world.insert(
                    RigidBodyBuilder::kinematic_position_based()
                        .translation(Vector::new(spawn_x(width, i, n), SPAWN_Y)),
                    ColliderBuilder::cuboid(w * 0.5, h * 0.5).collision_groups(CHARACTER_GROUPS),
                );
                Character {
                    body,
                    walker: Walker::spawn(i),
                }
            })
            .collect();
        // Build the broad phase once before the first queries.
        world.step();
        Self {
            world,
            mover: Mover::new(press),
            characters,
            next: Vec::with_capacity(n),
            split: Default::default(),
        }
    }
}

impl Crowd for RapierCrowd {
    fn step(&mut self) {
        let start = crate::thread_cpu_time();
        let queries = character_queries(&self.world);
        self.next.clear();
        for character in &mut self.characters {
            let pose = *self.world.bodies[character.body].position();
            let translation = self.mover.step(&queries, &pose, &mut character.walker);
            self.next.push(pose.translation + translation);
        }
        let moved = crate::thread_cpu_time();
        for (character, next) in self.characters.iter().zip(&self.next) {
            self.world.bodies[character.body].set_next_kinematic_translation(*next);
        }
        self.world.step();
        self.split.0 += moved - start;
        self.split.1 += crate::thread_cpu_time() - moved;
    }

    fn observe(&mut self, out: &mut Vec<Observation>) {
        out.clear();
        out.extend(
            self.characters
                .iter()
                .map(|c| observation(self.world.bodies[c.body].translation(), c.walker.grounded)),
        );
    }

    fn split(&mut self) -> Option<&mut (Duration, Duration)> {
        Some(&mut self.split)
    }
}

/// The crowd moved by Rapier's character controller alone: the characters are kept out of the
/// physics world, and nothing but `move_shape` and the game's few lines of integration runs per
/// step. There is no world step to tell apart from the controller, so it reports no split.
pub struct ControllerOnlyCrowd {
    /// The terrain alone. Its broad phase is built once in [`Self::new`] and never updated again:
    /// nothing in it moves.
    terrain: PhysicsWorld,
    mover: Mover,
    /// Each character's centre, tiles.
    positions: Vec<Vector>,
    /// Each character's state, in the order of `positions`.
    walkers: Vec<Walker>,
}

impl ControllerOnlyCrowd {
    /// `n` characters on the terrain `width` tiles wide, given as `terrain`, with the same
    /// controller and integration as [`RapierCrowd::new`] (`press` means the same).
    pub fn new(terrain: Terrain, width: i32, n: usize, press: bool) -> Self {
        let mut terrain = terrain_world(terrain, width);
        // Build the terrain's broad phase (BVH) once: collision detection alone, no simulation
        // step; the queries of every later step use it as it is.
        terrain.detect_collisions(&(), &());
        Self {
            terrain,
            mover: Mover::new(press),
            positions: (0..n).map(|i| Vector::new(spawn_x(width, i, n), SPAWN_Y)).collect(),
            walkers: (0..n).map(Walker::spawn).collect(),
        }
    }
}

impl Crowd for ControllerOnlyCrowd {
    fn step(&mut self) {
        let queries = character_queries(&self.terrain);
        for (position, walker) in self.positions.iter_mut().zip(&mut self.walkers) {
            let pose = Pose::from_translation(*position);
            *position += self.mover.step(&queries, &pose, walker);
        }
    }

    fn observe(&mut self, out: &mut Vec<Observation>) {
        out.clear();
        out.extend(
            self.positions
                .iter()
                .zip(&self.walkers)
                .map(|(&centre, walker)| observation(centre, walker.grounded)),
        );
    }
}
