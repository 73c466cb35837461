//! Mobs: kinematic bodies that patrol back and forth along their `patrol` points at 75 px/s,
//! pushing the player out of their way (as the original's do); a mob without points stands.

use bevy::prelude::*;
use bevy_platformer_physics::ldtk::{LdtkLevelReady, LevelPhysics};
use bevy_platformer_physics::prelude::*;

use super::objects::{LevelObject, new_placements};
use super::physics::body_size;

/// A patrolling enemy.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Enemy;

/// Patrol speed, px/s.
const PATROL_SPEED: f32 = 75.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        spawn_mobs.after(bevy_platformer_physics::ldtk::LdtkPhysicsSystems),
    );
}

fn spawn_mobs(
    mut commands: Commands,
    mut ready: MessageReader<LdtkLevelReady>,
    levels: Query<&LevelPhysics>,
    existing: Query<&LevelObject>,
) {
    for level in ready.read() {
        let Ok(physics) = levels.get(level.level) else { continue };
        let cell = physics.grids.first().map_or(16.0, |(_, grid, _)| grid.cell_size);
        for (mob, marks) in new_placements(level, physics, "Mob", &existing) {
            let size = body_size("Mob");
            let start = mob.rect.center();
            // A patrol point is a cell the mob's feet stand at the bottom of, as where it is placed.
            let lift = mob.rect.size().y * 0.5 - cell * 0.5;
            let mut points = vec![start];
            points.extend(
                mob.points
                    .get("patrol")
                    .into_iter()
                    .flatten()
                    .map(|p| *p + Vec2::new(0.0, lift)),
            );
            let mut entity = commands.spawn((
                marks,
                Enemy,
                Kinematic,
                Collider::rectangle(size.x, size.y),
                Transform::from_translation(start.extend(10.0)),
            ));
            if points.len() > 1 {
                entity.insert(PathFollower::new(points, PATROL_SPEED, PathMode::PingPong).with_wait(0.0));
            }
        }
    }
}
