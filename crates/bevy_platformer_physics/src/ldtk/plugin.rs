//! The plugin that spawns and despawns a level's physics with `bevy_ecs_ldtk`'s level events.

use bevy::prelude::*;
use bevy_ecs_ldtk::assets::LdtkProject;
use bevy_ecs_ldtk::{LdtkProjectHandle, LevelEvent};

use super::*;
use crate::components::{Collider, OneWayPlatform};
use crate::slope::SlopeSegment;

/// Marks the physics entities spawned for an LDtk level.
#[derive(Component, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug)]
pub struct LdtkLevelPhysics {
    /// The level's iid.
    pub level_iid: String,
}

/// Spawns the physics of a level: its grids, slopes, one-way platforms and lifts, each marked with
/// [`LdtkLevelPhysics`]. Returns the entities.
pub fn spawn_level_physics(commands: &mut Commands, physics: &LevelPhysics) -> Vec<Entity> {
    let marker = || LdtkLevelPhysics {
        level_iid: physics.iid.clone(),
    };
    let mut spawned = Vec::new();
    for (layer, grid, origin) in &physics.grids {
        spawned.push(
            commands
                .spawn((
                    marker(),
                    Name::new(format!("{} {layer}", physics.level)),
                    grid.clone(),
                    Transform::from_translation(origin.extend(0.0)),
                ))
                .id(),
        );
    }
    for slope in &physics.slopes {
        spawned.push(
            commands
                .spawn((
                    marker(),
                    SlopeSegment::new(slope.left, slope.right),
                    Transform::default(),
                ))
                .id(),
        );
    }
    for platform in &physics.one_way_platforms {
        let size = platform.size();
        spawned.push(
            commands
                .spawn((
                    marker(),
                    OneWayPlatform,
                    Collider::rectangle(size.x, size.y),
                    Transform::from_translation(platform.center().extend(0.0)),
                ))
                .id(),
        );
    }
    for lift in &physics.lifts {
        let start = lift.follower.points[0];
        let mut entity = commands.spawn((
            marker(),
            Collider::rectangle(lift.size.x, lift.size.y),
            Transform::from_translation(start.extend(0.0)),
            lift.follower.clone(),
        ));
        if lift.one_way {
            entity.insert(OneWayPlatform);
        }
        spawned.push(entity.id());
    }
    spawned
}

/// Problems found in the LDtk projects loaded so far, for tools and tests. Each is also logged
/// with `error!`.
#[derive(Resource, Clone, Debug, Default)]
pub struct LdtkPhysicsReport {
    /// Every problem, in the order found.
    pub errors: Vec<LdtkPhysicsError>,
}

/// Spawns physics for levels as `bevy_ecs_ldtk` spawns them, and despawns it with them. Uses the
/// [`LdtkPhysicsMapping`] resource (the default one unless the app inserts another).
#[derive(Default)]
pub struct LdtkPhysicsPlugin;

impl Plugin for LdtkPhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LdtkPhysicsMapping>()
            .init_resource::<LdtkPhysicsReport>()
            .register_type::<LdtkLevelPhysics>()
            .add_systems(Update, follow_level_events);
    }
}

fn follow_level_events(
    mut commands: Commands,
    mut events: MessageReader<LevelEvent>,
    projects: Query<&LdtkProjectHandle>,
    assets: Option<Res<Assets<LdtkProject>>>,
    physics: Query<(Entity, &LdtkLevelPhysics)>,
    mapping: Res<LdtkPhysicsMapping>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    for event in events.read() {
        match event {
            LevelEvent::Spawned(iid) => {
                let Some(assets) = &assets else { continue };
                for handle in &projects {
                    let Some(project) = assets.get(&handle.handle) else {
                        continue;
                    };
                    let Some(level) = project.json_data().levels.iter().find(|l| &l.iid == iid.get()) else {
                        continue;
                    };
                    let file = handle
                        .handle
                        .path()
                        .map_or_else(|| "LDtk project".to_string(), |p| p.to_string());
                    despawn_level_physics(&mut commands, &physics, iid.get());
                    let (level_physics, errors) = level_physics(&file, level, &mapping);
                    for problem in errors {
                        error!("{problem}");
                        report.errors.push(problem);
                    }
                    spawn_level_physics(&mut commands, &level_physics);
                }
            }
            LevelEvent::Despawned(iid) => despawn_level_physics(&mut commands, &physics, iid.get()),
            _ => {}
        }
    }
}

/// Despawns the physics entities of level `iid`.
pub fn despawn_level_physics(commands: &mut Commands, physics: &Query<(Entity, &LdtkLevelPhysics)>, iid: &str) {
    for (entity, marker) in physics {
        if marker.level_iid == iid {
            commands.entity(entity).despawn();
        }
    }
}
