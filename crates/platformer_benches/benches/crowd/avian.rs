//! The peer a Bevy 0.19 user picks: avian2d 0.7's `MoveAndSlide` on the crowd scene, set up as
//! avian's own `kinematic_character_2d` example does it.
//!
//! - A headless `App` (`MinimalPlugins` + `PhysicsPlugins::default()`, one fixed step of 0.01 s
//!   per `App::update`), the physics world stepped in `FixedPostUpdate` as avian schedules it.
//! - The terrain is static rigid bodies (`RigidBody::Static`: move-and-slide only sees colliders
//!   attached to a body): one polyline along the surface, or one collider per tile (a rectangle per
//!   solid cell, a convex hull per slope cell).
//! - Each character is a `RigidBody::Kinematic` with `CustomPositionIntegration` and
//!   `SpeculativeMargin(0.0)` (what the example's `CharacterController` requires), a rectangle
//!   collider, `LinearVelocity`, and the collision layers of a character: member of `Character`,
//!   colliding with `Terrain`, so characters ignore each other.
//! - One system in `FixedUpdate` does what the example's `apply_gravity`, `movement` and
//!   `move_and_slide` systems do: gravity into the velocity (capped at the fall speed), the walking
//!   speed set, then `MoveAndSlide::move_and_slide` with the example's hit callback (ground up to
//!   the maximum angle, a slope not slid down while standing, a wall not climbed), the new
//!   position written to `Transform` and the velocity's vertical part corrected on ground or
//!   ceiling hits. A character turns round on a hit whose normal opposes its walking direction (a
//!   wall, as for Rapier).
//!
//! Units are tiles (avian's length unit 1 = one tile, its default; its skin width is then 0.01
//! tile, the plugin's contact tolerance). Move-and-slide has no grounded flag: as in the example,
//! a shape cast down (the character's box, a little narrower) after the move says whether it stands
//! on ground (a hit within 0.02 tile, twice the skin width, whose normal is within the maximum
//! angle of up). That cast is part of avian's time, as the example's `update_grounded` is part
//! of its step.
//!
//! Without avian's `parallel` feature and Bevy's `multi_threaded`, everything runs on the calling
//! thread (Bevy's single-threaded task pool), so the thread's CPU time is the whole cost.

use std::time::Duration;

use avian2d::prelude::*;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

use crate::scene::*;
use crate::{Crowd, Observation};

/// How the terrain is given to avian.
#[derive(Clone, Copy, Debug)]
pub enum Terrain {
    /// The surface as one polyline.
    Polyline,
    /// One static collider per tile of the grid.
    Tiles,
}

#[derive(PhysicsLayer, Default)]
enum Layer {
    #[default]
    Default,
    Terrain,
    Character,
}

/// The steepest ground a character stands and walks on: 50°, as for Rapier (the example's 30°
/// would make the 45° ramps walls).
const MAX_GROUND_ANGLE: f32 = 50.0 * std::f32::consts::PI / 180.0;

/// How far below a character the ground may be for it to stand on it (tiles): twice avian's skin
/// width, the gap move-and-slide keeps from what it hits.
const GROUND_PROBE_DISTANCE: f32 = 0.02;

/// The shape cast down to find the ground, as the example's `GroundDetection::cast_shape`: the
/// character's box, a little narrower so that a wall beside it is not found.
#[derive(Resource)]
struct GroundProbe(Collider);

/// The game's state of one character.
#[derive(Component)]
struct Walker {
    /// Walking direction: 1 right, -1 left.
    dir: f32,
    /// The ground probe found ground under it at the end of the last step.
    grounded: bool,
}

/// One step of every character, as the example's `apply_gravity`, `movement`, `move_and_slide`
/// and `update_grounded` systems do it.
fn walk(
    mut characters: Query<(&Collider, &mut Transform, &mut LinearVelocity, &mut Walker)>,
    move_and_slide: MoveAndSlide,
    probe: Res<GroundProbe>,
    time: Res<Time>,
) {
    let filter = SpatialQueryFilter::from_mask(Layer::Terrain);
    let probe_config = ShapeCastConfig::from_max_distance(GROUND_PROBE_DISTANCE);
    let config = MoveAndSlideConfig::default();
    let up = Vec2::Y;
    let dt = time.delta_secs();
    for (collider, mut transform, mut velocity, mut walker) in &mut characters {
        velocity.0.y = (velocity.0.y - GRAVITY * dt).max(-MAX_FALL);
        velocity.0.x = walker.dir * SPEED;
        // What the character asked for, split as the example's rules read it (once per move, not
        // per hit).
        let vertical = up * velocity.0.dot(up);
        let horizontal = velocity.0 - vertical;
        let climbing_intent = up.dot(vertical) > 0.0;
        let dir = walker.dir;
        let (mut ground_or_ceiling, mut wall) = (false, false);
        let out = move_and_slide.move_and_slide(
            collider,
            transform.translation.truncate(),
            0.0,
            velocity.0,
            time.delta(),
            &config,
            &filter,
            |hit| {
                let normal = Vec2::from(*hit.normal);
                let angle = up.angle_to(normal).abs();
                let is_ground = angle <= MAX_GROUND_ANGLE;
                let is_ceiling = angle >= std::f32::consts::PI - MAX_GROUND_ANGLE;
                if normal.x * dir < -0.9 {
                    wall = true;
                }
                // The example's rules: no climbing a wall it did not jump up, no sliding down
                // walkable ground it does not walk down.
                let horizontal_tangent = horizontal - normal * normal.dot(horizontal);
                let normal_part = normal * normal.dot(*hit.velocity);
                let tangent_part = *hit.velocity - normal_part;
                let slipping_intent = up.dot(horizontal_tangent) < -0.001;
                let slipping = up.dot(tangent_part) < -0.001;
                let climbing = up.dot(tangent_part) > 0.0;
                *hit.velocity =
                    if (!is_ground && climbing && !climbing_intent) || (is_ground && slipping && !slipping_intent) {
                        normal_part
                    } else {
                        normal_part + tangent_part
                    };
                ground_or_ceiling |= is_ground || is_ceiling;
                MoveAndSlideHitResponse::Accept
            },
        );
        transform.translation = out.position.extend(transform.translation.z);
        if ground_or_ceiling {
            let correction = out.projected_velocity.dot(up) - velocity.0.dot(up);
            velocity.0 += correction * up;
        }
        if wall {
            walker.dir = -walker.dir;
        }
        // The example's ground detection: a shape cast down from where the character ended.
        let below =
            move_and_slide
                .spatial_query
                .cast_shape(&probe.0, out.position, 0.0, Dir2::NEG_Y, &probe_config, &filter);
        walker.grounded = below.is_some_and(|hit| up.angle_to(hit.normal1).abs() <= MAX_GROUND_ANGLE);
    }
}

/// The crowd in a headless app with avian's physics.
pub struct AvianCrowd {
    app: App,
    walkers: QueryState<(Entity, &'static Transform, &'static Walker)>,
    /// The last observation's characters, sorted by entity: avian may move bodies between
    /// archetypes, which reorders a query.
    seen: Vec<(Entity, Observation)>,
}

impl AvianCrowd {
    /// `n` characters on the terrain `width` tiles wide, given as `terrain`.
    pub fn new(terrain: Terrain, width: i32, n: usize) -> Self {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, PhysicsPlugins::default()))
            .insert_resource(Time::<Fixed>::from_duration(Duration::from_millis(10)))
            .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
            // Characters are kinematic (gravity is the game's), and nothing else moves.
            .insert_resource(Gravity(Vec2::ZERO))
            .insert_resource(GroundProbe(Collider::rectangle(CHAR_SIZE[0] * 0.99, CHAR_SIZE[1])))
            .add_systems(FixedUpdate, walk);
        app.finish();
        app.cleanup();
        let world = app.world_mut();
        let terrain_layers = CollisionLayers::new(Layer::Terrain, Layer::Character);
        match terrain {
            Terrain::Polyline => {
                let points = surface_polyline(width).into_iter().map(Vec2::from).collect();
                world.spawn((
                    RigidBody::Static,
                    Collider::polyline(points, None),
                    terrain_layers,
                    Transform::default(),
                ));
            }
            Terrain::Tiles => {
                for tile in tile_shapes(width) {
                    let (collider, at) = match tile {
                        TileShape::Square { centre } => (Collider::rectangle(1.0, 1.0), Vec2::from(centre)),
                        TileShape::Polygon(points) => {
                            let hull = Collider::convex_hull(points.into_iter().map(Vec2::from).collect())
                                .expect("a convex slope cell");
                            (hull, Vec2::ZERO)
                        }
                    };
                    world.spawn((
                        RigidBody::Static,
                        collider,
                        terrain_layers,
                        Transform::from_translation(at.extend(0.0)),
                    ));
                }
            }
        }
        let [w, h] = CHAR_SIZE;
        for i in 0..n {
            world.spawn((
                RigidBody::Kinematic,
                CustomPositionIntegration,
                SpeculativeMargin(0.0),
                Collider::rectangle(w, h),
                CollisionLayers::new(Layer::Character, Layer::Terrain),
                LinearVelocity::ZERO,
                Transform::from_xyz(spawn_x(width, i, n), SPAWN_Y, 0.0),
                Walker {
                    dir: spawn_dir(i),
                    grounded: false,
                },
            ));
        }
        // The first update starts the clock (no fixed step); the second steps the world once,
        // which puts the terrain into avian's collider trees for the characters' queries.
        app.update();
        app.update();
        let walkers = app.world_mut().query();
        Self {
            app,
            walkers,
            seen: Vec::with_capacity(n),
        }
    }
}

impl Crowd for AvianCrowd {
    fn step(&mut self) {
        self.app.update();
    }

    fn observe(&mut self, out: &mut Vec<Observation>) {
        let half = Vec2::from(CHAR_SIZE) * 0.5;
        self.seen.clear();
        self.seen
            .extend(self.walkers.iter(self.app.world()).map(|(entity, transform, walker)| {
                let centre = transform.translation.truncate();
                let observation = Observation {
                    min: (centre - half).to_array(),
                    max: (centre + half).to_array(),
                    grounded: walker.grounded,
                };
                (entity, observation)
            }));
        self.seen.sort_unstable_by_key(|(entity, _)| *entity);
        out.clear();
        out.extend(self.seen.iter().map(|(_, observation)| *observation));
    }
}
