//! The peer: Rapier 0.36's `KinematicCharacterController::move_shape` on the crowd scene, used
//! as Rapier documents it for a kinematic character: each character is a kinematic
//! position-based body with a cuboid collider in a `PhysicsWorld`; every step the game builds the
//! query pipeline from the broad phase once, moves every character with `move_shape` (gravity and
//! walking integrated here, as a game does), sets the bodies' next kinematic translations and
//! steps the world once, which updates the broad phase (BVH) for the next step's queries.
//!
//! Units are tiles (Rapier's length unit 1 = one tile; its tolerances are tuned for units of
//! that size). Characters and terrain are in different collision groups, and characters do not
//! collide with each other.

use std::time::Duration;

use bevy_platformer_physics::TileCell;
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

struct Character {
    body: RigidBodyHandle,
    vy: f32,
    dir: f32,
    grounded: bool,
}

/// The crowd in a Rapier world.
pub struct RapierCrowd {
    world: PhysicsWorld,
    controller: KinematicCharacterController,
    shape: Cuboid,
    characters: Vec<Character>,
    /// Whether a grounded character's desired movement still has gravity's downward part.
    press: bool,
    next: Vec<Vector>,
    /// CPU time spent in the `move_shape` loop and in `PhysicsWorld::step` (which updates the
    /// broad phase).
    split: (Duration, Duration),
}

/// The polygon of a slope cell at `(x, y)` (tiles, counter-clockwise), or `None`.
fn slope_cell_polygon(cell: TileCell, x: f32, y: f32) -> Option<Vec<Vector>> {
    // Heights of the cell's surface at its left and right edges, above its bottom.
    let (left, right) = match cell {
        TileCell::Slope45 { rises_right: true } => (0.0, 1.0),
        TileCell::Slope45 { rises_right: false } => (1.0, 0.0),
        TileCell::SlopeHalfLow { rises_right: true } => (0.0, 0.5),
        TileCell::SlopeHalfLow { rises_right: false } => (0.5, 0.0),
        TileCell::SlopeHalfHigh { rises_right: true } => (0.5, 1.0),
        TileCell::SlopeHalfHigh { rises_right: false } => (1.0, 0.5),
        _ => return None,
    };
    let mut points = vec![Vector::new(x, y), Vector::new(x + 1.0, y)];
    if right > 0.0 {
        points.push(Vector::new(x + 1.0, y + right));
    }
    if left > 0.0 {
        points.push(Vector::new(x, y + left));
    }
    Some(points)
}

impl RapierCrowd {
    /// `n` characters on the terrain `width` tiles wide, given as `terrain`. With `press`, a
    /// grounded character's desired movement keeps gravity's small downward part (Rapier's guide:
    /// "emulate gravity by adding a downward component to that movement vector"); without it, a
    /// grounded character asks for a horizontal move only and snap-to-ground keeps it down.
    pub fn new(terrain: Terrain, width: i32, n: usize, press: bool) -> Self {
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
                let grid = terrain_grid(width);
                for y in 0..grid.height() as i32 {
                    for x in 0..grid.width() as i32 {
                        let cell = grid.get(x, y);
                        let (fx, fy) = (x as f32, y as f32);
                        let builder = match cell {
                            TileCell::Solid => {
                                ColliderBuilder::cuboid(0.5, 0.5).translation(Vector::new(fx + 0.5, fy + 0.5))
                            }
                            TileCell::Empty | TileCell::OneWay => continue,
                            _ => {
                                let points = slope_cell_polygon(cell, fx, fy).expect("a slope cell");
                                ColliderBuilder::convex_polyline(points).expect("a convex slope cell")
                            }
                        };
                        world.insert_collider(builder.collision_groups(TERRAIN_GROUPS), None);
                    }
                }
            }
        }
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
                    vy: 0.0,
                    dir: spawn_dir(i),
                    grounded: false,
                }
            })
            .collect();
        // Build the broad phase once before the first queries.
        world.step();
        let controller = KinematicCharacterController {
            slide: true,
            autostep: None,
            max_slope_climb_angle: 50f32.to_radians(),
            snap_to_ground: Some(CharacterLength::Absolute(0.5)),
            ..Default::default()
        };
        Self {
            world,
            controller,
            shape: Cuboid::new(Vector::new(w * 0.5, h * 0.5)),
            characters,
            press,
            next: Vec::with_capacity(n),
            split: Default::default(),
        }
    }
}

impl Crowd for RapierCrowd {
    fn step(&mut self) {
        let start = crate::thread_cpu_time();
        let world = &mut self.world;
        let queries = world.broad_phase.as_query_pipeline(
            world.narrow_phase.query_dispatcher(),
            &world.bodies,
            &world.colliders,
            QueryFilter::new().groups(CHARACTER_GROUPS),
        );
        self.next.clear();
        for character in &mut self.characters {
            let pose = *world.bodies[character.body].position();
            // Gravity and walking, integrated by the game: a grounded character starts each step
            // with no vertical speed.
            let mut vy = if character.grounded { 0.0 } else { character.vy };
            vy = (vy - GRAVITY * DT).max(-MAX_FALL);
            let down = if character.grounded && !self.press {
                0.0
            } else {
                vy * DT
            };
            let desired = Vector::new(character.dir * SPEED * DT, down);
            let dir = character.dir;
            let mut wall = false;
            let movement = self
                .controller
                .move_shape(DT, &queries, &self.shape, &pose, desired, |collision| {
                    // A wall facing the way the character walks (not a 45° ramp).
                    if collision.hit.normal1.x * dir < -0.9 {
                        wall = true;
                    }
                });
            if wall {
                character.dir = -character.dir;
            }
            character.grounded = movement.grounded;
            character.vy = if movement.grounded { 0.0 } else { vy };
            self.next.push(pose.translation + movement.translation);
        }
        let moved = crate::thread_cpu_time();
        for (character, next) in self.characters.iter().zip(&self.next) {
            world.bodies[character.body].set_next_kinematic_translation(*next);
        }
        world.step();
        self.split.0 += moved - start;
        self.split.1 += crate::thread_cpu_time() - moved;
    }

    fn observe(&mut self, out: &mut Vec<Observation>) {
        out.clear();
        let half = Vector::from(CHAR_SIZE) * 0.5;
        out.extend(self.characters.iter().map(|c| {
            let centre = self.world.bodies[c.body].translation();
            Observation {
                min: (centre - half).to_array(),
                max: (centre + half).to_array(),
                grounded: c.grounded,
            }
        }));
    }

    fn split(&mut self) -> Option<&mut (Duration, Duration)> {
        Some(&mut self.split)
    }
}
