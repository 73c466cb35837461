//! Our plugin on the crowd scene: the real systems of `PlatformerPhysicsPlugins` in a headless
//! `App` (`MinimalPlugins`, one fixed step of 0.01 s per `App::update`), with the terrain as one
//! tile grid or as merged colliders and slope segments.
//!
//! The plugin has no ECS-free core step: its stages are Bevy systems reading and writing
//! components, so this is the only way to step it.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;

use crate::Crowd;
use crate::scene::*;

/// How the terrain is given to the plugin.
#[derive(Clone, Copy, Debug)]
pub enum Terrain {
    /// One [`TileGrid`] (solid, 45° and 1/2-gradient slope cells).
    Grid,
    /// Merged [`Collider`] boxes and [`SlopeSegment`]s.
    Merged,
}

#[derive(Component)]
struct Walker;

/// Characters turn round at walls.
fn turn_at_walls(mut walkers: Query<(&Contacts, &mut MovementInput), With<Walker>>) {
    for (contacts, mut input) in &mut walkers {
        if contacts.solid_in(ContactDirection::Right).next().is_some() {
            input.horizontal = -1.0;
        } else if contacts.solid_in(ContactDirection::Left).next().is_some() {
            input.horizontal = 1.0;
        }
    }
}

/// The crowd in a headless app.
pub struct OursCrowd {
    app: App,
    walkers: QueryState<(&'static Transform, &'static Collider, &'static Contacts), With<Walker>>,
}

impl OursCrowd {
    /// `n` characters on the terrain `width` tiles wide, given as `terrain`.
    pub fn new(terrain: Terrain, width: i32, n: usize) -> Self {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)))
            .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
            .add_systems(FixedUpdate, turn_at_walls.before(PlatformerSystems::Integrate));
        app.update();
        let world = app.world_mut();
        match terrain {
            Terrain::Grid => {
                world.spawn((terrain_grid(width), Transform::default()));
            }
            Terrain::Merged => {
                let (boxes, slopes) = merged(width);
                for (min, max) in boxes {
                    let (min, max) = (Vec2::from(min) * TILE, Vec2::from(max) * TILE);
                    let size = max - min;
                    world.spawn((
                        Collider::rectangle(size.x, size.y),
                        Transform::from_translation(((min + max) * 0.5).extend(0.0)),
                    ));
                }
                for (a, b) in slopes {
                    world.spawn((
                        SlopeSegment::new(Vec2::from(a) * TILE, Vec2::from(b) * TILE),
                        Transform::default(),
                    ));
                }
            }
        }
        for i in 0..n {
            world.spawn((
                Walker,
                Dynamic,
                Collider::rectangle(CHAR_SIZE[0] * TILE, CHAR_SIZE[1] * TILE),
                // Bodies ignore each other: member of layer 2, colliding with layer 1 (the terrain).
                CollisionLayers::new(2, 1),
                Transform::from_xyz(spawn_x(width, i, n) * TILE, SPAWN_Y * TILE, 0.0),
                MovementTuning {
                    // Full walking speed within about a step, and a turn at a wall just as quick.
                    acceleration: 1.0e4,
                    skid_deceleration: 1.0e4,
                    max_speed: Vec2::new(SPEED * TILE, MAX_FALL * TILE),
                    ..default()
                },
                MovementInput {
                    horizontal: spawn_dir(i),
                    ..default()
                },
            ));
        }
        // The plugin's defaults are the scene's gravity (60 tiles/s² of 16 px) and 100 Hz.
        let config = world.resource::<PhysicsConfig>();
        assert_eq!(config.gravity, Vec2::new(0.0, -GRAVITY * TILE));
        assert_eq!(config.block_size, TILE);
        assert_eq!(world.resource::<Time<Fixed>>().timestep().as_secs_f32(), DT);
        let walkers = world.query_filtered();
        Self { app, walkers }
    }
}

impl Crowd for OursCrowd {
    fn step(&mut self) {
        self.app.update();
    }

    fn observe(&mut self, out: &mut Vec<crate::Observation>) {
        out.clear();
        out.extend(
            self.walkers
                .iter(self.app.world())
                .map(|(transform, collider, contacts)| {
                    let aabb = collider.aabb(transform.translation.truncate());
                    crate::Observation {
                        min: (aabb.min / TILE).to_array(),
                        max: (aabb.max / TILE).to_array(),
                        grounded: contacts.on_floor(),
                    }
                }),
        );
    }
}
