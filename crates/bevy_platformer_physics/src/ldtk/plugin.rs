//! The plugin that spawns and despawns a level's physics with `bevy_ecs_ldtk`'s level events.

use std::collections::HashSet;

use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;
use bevy_ecs_ldtk::assets::{LdtkExternalLevel, LdtkProject, LdtkProjectData};
use bevy_ecs_ldtk::{LdtkProjectHandle, LevelEvent, LevelIid};

use super::*;
use crate::components::{Collider, OneWayPlatform};
use crate::slope::SlopeSegment;
use crate::tile_grid::TileGrid;

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

/// Spawns physics for levels as `bevy_ecs_ldtk` spawns them, where it places them (whatever the
/// `LevelSpawnBehavior`, and wherever the world entity is), and despawns it with them; the
/// levels may live in the project file or in their own `.ldtkl` files, in one world or several.
/// Uses the [`LdtkPhysicsMapping`] resource (the default one unless the app inserts another or
/// registers cells with [`LdtkPhysicsAppExt`]).
///
/// A collider, slope or tile grid that `bevy_ecs_ldtk` spawns as a child of a level (an
/// `LdtkEntity` bundle with a [`Dynamic`](crate::Dynamic) body, say) is made top-level at its
/// world position, keeping [`LdtkLevelPhysics`], so that it despawns with its level: the
/// plugin's physics reads a `Transform` as a world position.
#[derive(Default)]
pub struct LdtkPhysicsPlugin;

impl Plugin for LdtkPhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LdtkPhysicsMapping>()
            .init_resource::<LdtkPhysicsReport>()
            .register_type::<LdtkLevelPhysics>()
            // Right after bevy_ecs_ldtk spawns a level, before the fixed steps of the frame.
            .add_systems(
                PreUpdate,
                (follow_level_events, lift_physics_out_of_levels)
                    .chain()
                    .after(bevy_ecs_ldtk::systems::process_ldtk_levels),
            );
    }
}

/// Registering how IntGrid values become physics, beside `bevy_ecs_ldtk`'s own
/// `register_ldtk_int_cell`.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::ldtk::{CellKind, LdtkPhysicsAppExt, LdtkPhysicsMapping};
///
/// let mut app = App::new();
/// app.register_ldtk_cell_physics("Collisions", "walls", CellKind::Solid)
///     .register_ldtk_cell_physics("Collisions", "platform", CellKind::OneWay);
/// let mapping = app.world().resource::<LdtkPhysicsMapping>();
/// assert_eq!(mapping.layers["Collisions"].len(), 2);
/// ```
pub trait LdtkPhysicsAppExt {
    /// Makes the IntGrid value `value` (its number or its identifier) of layer `layer` `kind`,
    /// in the app's [`LdtkPhysicsMapping`].
    fn register_ldtk_cell_physics(&mut self, layer: &str, value: impl Into<IntGridValue>, kind: CellKind) -> &mut Self;
}

impl LdtkPhysicsAppExt for App {
    fn register_ldtk_cell_physics(&mut self, layer: &str, value: impl Into<IntGridValue>, kind: CellKind) -> &mut Self {
        self.init_resource::<LdtkPhysicsMapping>();
        self.world_mut()
            .resource_mut::<LdtkPhysicsMapping>()
            .set_cell(layer, value, kind);
        self
    }
}

/// The world translation of `entity`, from its own and its ancestors' translations (LDtk
/// worlds, levels and layers are never rotated or scaled).
fn world_translation<F: QueryFilter>(entity: Entity, transforms: &Query<(&Transform, Option<&ChildOf>), F>) -> Vec2 {
    let mut at = Vec2::ZERO;
    let mut next = Some(entity);
    while let Some(e) = next {
        let Ok((transform, parent)) = transforms.get(e) else {
            break;
        };
        at += transform.translation.truncate();
        next = parent.map(ChildOf::parent);
    }
    at
}

#[allow(clippy::too_many_arguments)]
fn follow_level_events(
    mut commands: Commands,
    mut events: MessageReader<LevelEvent>,
    projects: Query<&LdtkProjectHandle>,
    assets: Option<Res<Assets<LdtkProject>>>,
    external: Option<Res<Assets<LdtkExternalLevel>>>,
    levels: Query<(Entity, &LevelIid)>,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
    physics: Query<(Entity, &LdtkLevelPhysics)>,
    mapping: Res<LdtkPhysicsMapping>,
    mut report: ResMut<LdtkPhysicsReport>,
    mut checked: Local<HashSet<String>>,
) {
    for event in events.read() {
        match event {
            LevelEvent::Spawned(iid) => {
                let Some(assets) = &assets else { continue };
                for handle in &projects {
                    let Some(project) = assets.get(&handle.handle) else {
                        continue;
                    };
                    let level = match project.data() {
                        LdtkProjectData::Standalone(data) => data.get_loaded_level_by_iid(iid.get()),
                        LdtkProjectData::Parent(data) => external
                            .as_ref()
                            .and_then(|external| data.get_external_level_by_iid(external, iid.get())),
                    };
                    let Some(level) = level else {
                        continue;
                    };
                    let file = handle
                        .handle
                        .path()
                        .map_or_else(|| "LDtk project".to_string(), |p| p.to_string());
                    let defs = &project.json_data().defs;
                    let mut errors = Vec::new();
                    if checked.insert(file.clone()) {
                        errors.extend(mapping.check(&file, defs));
                    }
                    let origin = levels
                        .iter()
                        .find(|(_, level_iid)| level_iid.get() == iid.get())
                        .map_or(Vec2::ZERO, |(entity, _)| world_translation(entity, &transforms));
                    despawn_level_physics(&mut commands, &physics, iid.get());
                    let (level_physics, problems) = level_physics(&file, level.raw(), defs, &mapping, origin);
                    errors.extend(problems);
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

/// The physics entities `bevy_ecs_ldtk` spawned inside a level (its `LdtkEntity` bundles), not
/// yet made top-level.
type NestedPhysics = (
    Or<(With<Collider>, With<SlopeSegment>, With<TileGrid>)>,
    With<ChildOf>,
    Without<LdtkLevelPhysics>,
);

/// Makes the colliders, slopes and grids spawned inside a level top-level at their world
/// position, marked with the level's iid.
fn lift_physics_out_of_levels(
    mut commands: Commands,
    mut nested: Query<(Entity, &mut Transform), NestedPhysics>,
    parents: Query<(&Transform, Option<&ChildOf>), (Without<Collider>, Without<SlopeSegment>, Without<TileGrid>)>,
    ancestry: Query<&ChildOf>,
    levels: Query<&LevelIid>,
) {
    for (entity, mut transform) in &mut nested {
        let Some(level) = ancestry.iter_ancestors(entity).find_map(|a| levels.get(a).ok()) else {
            continue;
        };
        let parent = ancestry.get(entity).map(ChildOf::parent).ok();
        let offset = parent.map_or(Vec2::ZERO, |p| world_translation(p, &parents));
        transform.translation += offset.extend(0.0);
        commands.entity(entity).remove::<ChildOf>().insert(LdtkLevelPhysics {
            level_iid: level.get().clone(),
        });
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
