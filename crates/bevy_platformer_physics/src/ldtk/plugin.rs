//! The plugin that spawns and despawns a level's physics with `bevy_ecs_ldtk`'s level events.

use std::collections::HashSet;

use bevy::ecs::message::MessageCursor;
use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;
use bevy_ecs_ldtk::assets::{LdtkExternalLevel, LdtkProject, LdtkProjectData};
use bevy_ecs_ldtk::{LdtkProjectHandle, LevelEvent, LevelIid, ProcessLdtkApi, Respawn};

use super::*;
use crate::components::SlopeSegment;
use crate::components::{Collider, OneWayPlatform};
use crate::tile_grid::TileGrid;

/// Marks the physics entities the bridge spawns for an LDtk level (grids, slopes, one-way
/// platforms, lifts): made again when the mapping changes, despawned with the level.
#[derive(Component, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug)]
pub struct LdtkLevelPhysics {
    /// The level's iid.
    pub level_iid: String,
}

/// Marks a collider, slope or grid that `bevy_ecs_ldtk` spawned inside a level (an `LdtkEntity`
/// bundle) and the bridge made top-level: despawned with its level (and when the level is
/// spawned again), kept when the mapping changes.
#[derive(Component, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug)]
pub struct LdtkLevelEntity {
    /// The level's iid.
    pub level_iid: String,
}

/// The problems the bridge found in a level and its project's mapping, on the level entity beside
/// the [`LevelPhysics`] its physics was spawned from (each is also in [`LdtkPhysicsReport`]).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct LdtkLevelProblems(pub Vec<LdtkPhysicsError>);

/// Sent once a level's physics is spawned: when `bevy_ecs_ldtk` spawned the level (again), or when
/// a changed mapping made its physics again. Its entity then carries the [`LevelPhysics`] (with
/// the placements of its LDtk entities) and the [`LdtkLevelProblems`]: this is the one place where
/// a game spawns what it makes of a level's entities, in the frame the level appears, before the
/// frame's fixed steps.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::ldtk::{LdtkLevelReady, LevelPhysics};
///
/// fn spawn_coins(mut ready: MessageReader<LdtkLevelReady>, levels: Query<&LevelPhysics>) {
///     for level in ready.read() {
///         let Ok(physics) = levels.get(level.level) else { continue };
///         for coin in physics.entities.iter().filter(|e| e.identifier == "Coin") {
///             info!("a coin at {:?} in level {}", coin.rect.center(), level.level_iid);
///         }
///     }
/// }
/// # App::new().add_message::<LdtkLevelReady>().add_systems(PreUpdate, spawn_coins);
/// ```
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct LdtkLevelReady {
    /// The level's iid.
    pub level_iid: String,
    /// The level's entity (the one with `LevelIid`).
    pub level: Entity,
}

/// Sent when a level `bevy_ecs_ldtk` was about to spawn is refused, because `bevy_ecs_ldtk` would
/// panic on its data ([`level_spawn_problems`]): its entity is despawned, the other levels spawn.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LdtkLevelRefused {
    /// The level's iid.
    pub level_iid: String,
    /// The level's identifier, as the editor shows it.
    pub level: String,
    /// Why, one error per problem, each naming the file, level and layer or entity.
    pub problems: Vec<LdtkPhysicsError>,
}

/// Asks for a spawned level to be spawned again from its project (a game's restart): its entities,
/// physics and objects start over. This is the one way the bridge and a game respawn a level (the
/// bridge asks for it when a level's own file changed); it is carried out after `Update`, and the
/// level is back in the next frame's `PreUpdate`, before its fixed steps.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_ecs_ldtk::LevelIid;
/// use bevy_platformer_physics::ldtk::RespawnLdtkLevel;
///
/// fn restart(levels: Query<&LevelIid>, mut respawn: MessageWriter<RespawnLdtkLevel>) {
///     for iid in &levels {
///         respawn.write(RespawnLdtkLevel::new(iid.get()));
///     }
/// }
/// # App::new().add_message::<RespawnLdtkLevel>().add_systems(Update, restart);
/// ```
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct RespawnLdtkLevel {
    /// The level's iid.
    pub level_iid: String,
}

impl RespawnLdtkLevel {
    /// Asks for the level of iid `level_iid` to be spawned again.
    pub fn new(level_iid: impl Into<String>) -> Self {
        Self {
            level_iid: level_iid.into(),
        }
    }
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
    for ladder in &physics.ladders {
        let size = ladder.size();
        spawned.push(
            commands
                .spawn((
                    marker(),
                    crate::components::Ladder,
                    Collider::rectangle(size.x, size.y),
                    Transform::from_translation(ladder.center().extend(0.0)),
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

/// The bridge's work in `PreUpdate`, right after `bevy_ecs_ldtk` spawns levels: once it has run,
/// every level spawned this frame has its physics. A game's system that reads a new level's
/// physics (its [`TileGrid`] entity, say) runs after it.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::ldtk::{LdtkLevelPhysics, LdtkPhysicsSystems};
///
/// fn read_new_physics(physics: Query<&LdtkLevelPhysics, Added<LdtkLevelPhysics>>) {
///     for level in &physics {
///         info!("physics of level {}", level.level_iid);
///     }
/// }
///
/// App::new().add_systems(PreUpdate, read_new_physics.after(LdtkPhysicsSystems));
/// ```
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LdtkPhysicsSystems;

/// Problems found in the LDtk projects loaded so far, for tools and tests. Each is also logged
/// with `error!`.
#[derive(Resource, Clone, Debug, Default)]
pub struct LdtkPhysicsReport {
    /// Every problem, in the order found.
    pub errors: Vec<LdtkPhysicsError>,
    /// What loaded but may not be what the project means (logged with `warn!`): a mapped layer
    /// whose cells are not [`PhysicsConfig::block_size`](crate::PhysicsConfig::block_size)
    /// pixels, whose bodies get tolerances and slope speeds scaled for the block size.
    pub warnings: Vec<LdtkPhysicsError>,
}

/// Spawns physics for levels as `bevy_ecs_ldtk` spawns them, where it places them (whatever the
/// `LevelSpawnBehavior`, and wherever the world entity is), and despawns it with them; the
/// levels may live in the project file or in their own `.ldtkl` files, in one world or several.
/// Uses the [`LdtkPhysicsMapping`] resource (the default one unless the app inserts another or
/// registers cells with [`LdtkPhysicsAppExt`]).
///
/// A collider, slope or tile grid that `bevy_ecs_ldtk` spawns as a child of a level (an
/// `LdtkEntity` bundle with a [`Dynamic`](crate::Dynamic) body, say) is made top-level at its
/// world position, marked [`LdtkLevelEntity`], so that it despawns with its level: the plugin's
/// physics reads a `Transform` as a world position.
///
/// Each level entity carries the [`LevelPhysics`] its physics was spawned from and its
/// [`LdtkLevelProblems`]. A level's physics goes with the level however it goes: a
/// `LevelEvent::Despawned`, or its entity (or its world's) despawned by the game. A level whose
/// own `.ldtkl` file changed (Bevy's `file_watcher`, or `AssetServer::reload`) is spawned again,
/// as `bevy_ecs_ldtk` does for a changed project file.
#[derive(Default)]
pub struct LdtkPhysicsPlugin;

impl Plugin for LdtkPhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LdtkPhysicsMapping>()
            .init_resource::<LdtkPhysicsReport>()
            .add_message::<LdtkLevelReady>()
            .add_message::<LdtkLevelRefused>()
            .add_message::<RespawnLdtkLevel>()
            .register_type::<LdtkLevelPhysics>()
            .register_type::<LdtkLevelEntity>();
        // Right after bevy_ecs_ldtk spawns a level, before the fixed steps of the frame.
        let follow_levels = (follow_level_events, lift_physics_out_of_levels)
            .chain()
            .in_set(LdtkPhysicsSystems);
        app.configure_sets(
            PreUpdate,
            LdtkPhysicsSystems.after(bevy_ecs_ldtk::systems::process_ldtk_levels),
        );
        // The mapping file is an asset (an app without assets spawns levels itself).
        if app.is_plugin_added::<bevy::asset::AssetPlugin>() {
            app.init_asset::<LdtkPhysicsMappingAsset>()
                .register_asset_loader(LdtkPhysicsMappingLoader)
                .add_systems(
                    PreUpdate,
                    super::mapping_file::follow_mapping_file.before(follow_level_events),
                );
        }
        app.add_systems(PreUpdate, follow_levels);
        super::reload::plugin(app);
        app.add_observer(despawn_physics_with_level);
        // After `Update` (where a game asks for a restart), before `bevy_ecs_ldtk` clears the
        // levels to spawn again: the level is back in the next frame's `PreUpdate`.
        app.add_systems(
            ProcessLdtkApi,
            respawn_asked_levels.before(bevy_ecs_ldtk::systems::clean_respawn_entities),
        );
        app.add_systems(
            PreUpdate,
            refuse_levels_that_cannot_spawn.before(bevy_ecs_ldtk::systems::process_ldtk_levels),
        );
    }
}

/// A level about to be spawned whose data `bevy_ecs_ldtk` would panic on
/// ([`level_spawn_problems`]) is not spawned: its entity goes, and its problems are reported
/// (once for each version of the level). The other levels spawn.
#[allow(clippy::too_many_arguments)]
fn refuse_levels_that_cannot_spawn(
    mut commands: Commands,
    about_to_spawn: Query<(Entity, &LevelIid, &ChildOf), With<Respawn>>,
    projects: Query<&LdtkProjectHandle>,
    assets: Option<Res<Assets<LdtkProject>>>,
    external: Option<Res<Assets<LdtkExternalLevel>>>,
    mut report: ResMut<LdtkPhysicsReport>,
    mut refused: MessageWriter<LdtkLevelRefused>,
    mut reported: Local<HashSet<(String, String)>>,
) {
    let Some(assets) = &assets else { return };
    for (entity, iid, child_of) in &about_to_spawn {
        let Some((handle, project)) = projects
            .get(child_of.parent())
            .ok()
            .and_then(|h| assets.get(&h.handle).map(|p| (h, p)))
        else {
            continue;
        };
        let Some(level) = loaded_level(project, external.as_deref(), iid.get()) else {
            continue;
        };
        let file = handle
            .handle
            .path()
            .map_or_else(|| "LDtk project".to_string(), |p| p.to_string());
        let problems = level_spawn_problems(&file, &project.json_data().defs, level);
        if problems.is_empty() {
            continue;
        }
        commands.entity(entity).despawn();
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        if reported.insert((iid.get().clone(), text.join("\n"))) {
            log::error!(
                "{file}: level {} cannot be spawned: {}",
                level.identifier,
                text.join("; ")
            );
            report.errors.extend(problems.iter().cloned());
        }
        refused.write(LdtkLevelRefused {
            level_iid: iid.get().clone(),
            level: level.identifier.clone(),
            problems,
        });
    }
}

/// Carries out the [`RespawnLdtkLevel`] asked for: the only place a level is given `Respawn`.
fn respawn_asked_levels(world: &mut World, mut cursor: Local<MessageCursor<RespawnLdtkLevel>>) {
    let asked: HashSet<String> = cursor
        .read(world.resource::<Messages<RespawnLdtkLevel>>())
        .map(|ask| ask.level_iid.clone())
        .collect();
    if asked.is_empty() {
        return;
    }
    let levels: Vec<Entity> = world
        .query::<(Entity, &LevelIid)>()
        .iter(world)
        .filter(|(_, iid)| asked.contains(iid.get()))
        .map(|(entity, _)| entity)
        .collect();
    for level in levels {
        world.entity_mut(level).insert(Respawn);
    }
}

/// Level `iid` of `project`, with its layers: from the project file, or from its own `.ldtkl` file
/// (an asset of `external`) once that has loaded.
pub fn loaded_level<'a>(
    project: &'a LdtkProject,
    external: Option<&'a Assets<LdtkExternalLevel>>,
    iid: &str,
) -> Option<&'a Level> {
    let iid = iid.to_string();
    match project.data() {
        LdtkProjectData::Standalone(data) => data.get_loaded_level_by_iid(&iid).map(|l| l.raw()),
        LdtkProjectData::Parent(data) => external
            .and_then(|external| data.get_external_level_by_iid(external, &iid))
            .map(|l| l.raw()),
    }
}

/// A level entity despawned without a `LevelEvent::Despawned` (its world despawned by the game):
/// its physics goes with it.
fn despawn_physics_with_level(
    despawned: On<Despawn, LevelIid>,
    mut commands: Commands,
    levels: Query<&LevelIid>,
    physics: Query<(Entity, &LdtkLevelPhysics)>,
    lifted: Query<(Entity, &LdtkLevelEntity)>,
) {
    let Ok(iid) = levels.get(despawned.entity) else {
        return;
    };
    despawn_level_physics(&mut commands, &physics, iid.get());
    despawn_level_entities(&mut commands, &lifted, iid.get());
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
    lifted: Query<(Entity, &LdtkLevelEntity)>,
    mapping: Res<LdtkPhysicsMapping>,
    config: Option<Res<crate::config::PhysicsConfig>>,
    mut report: ResMut<LdtkPhysicsReport>,
    mut ready: MessageWriter<LdtkLevelReady>,
    mut checked: Local<HashSet<String>>,
) {
    // Levels to make the physics of: those spawned, and every other one when the mapping changed.
    let (mut spawned, mut gone) = (Vec::new(), Vec::new());
    for event in events.read() {
        match event {
            LevelEvent::Spawned(iid) => spawned.push(iid.get().clone()),
            LevelEvent::Despawned(iid) => gone.push(iid.get().clone()),
            _ => {}
        }
    }
    let mut remade: Vec<String> = Vec::new();
    if mapping.is_changed() && !mapping.is_added() {
        checked.clear();
        remade.extend(
            levels
                .iter()
                .map(|(_, iid)| iid.get().clone())
                .filter(|iid| !spawned.contains(iid) && !gone.contains(iid)),
        );
    }
    // Once each, though a level respawned (`Respawn`) is both gone and spawned in one frame: the
    // physics of the levels gone, spawned again or remade, and the bodies lifted out of the levels
    // gone or spawned again.
    let remade_or_gone: HashSet<&String> = gone.iter().chain(&spawned).chain(&remade).collect();
    for iid in remade_or_gone {
        despawn_level_physics(&mut commands, &physics, iid);
    }
    let respawned_or_gone: HashSet<&String> = gone.iter().chain(&spawned).collect();
    for iid in respawned_or_gone {
        despawn_level_entities(&mut commands, &lifted, iid);
    }
    let Some(assets) = &assets else { return };
    for iid in spawned.iter().chain(&remade) {
        for handle in &projects {
            let Some(project) = assets.get(&handle.handle) else {
                continue;
            };
            let Some(level) = loaded_level(project, external.as_deref(), iid) else {
                continue;
            };
            let file = handle
                .handle
                .path()
                .map_or_else(|| "LDtk project".to_string(), |p| p.to_string());
            let defs = &project.json_data().defs;
            let mut errors = Vec::new();
            let mapping_problems = mapping.check(&file, defs);
            if checked.insert(file.clone()) {
                errors.extend(mapping_problems.iter().cloned());
            }
            let level_entity = levels
                .iter()
                .find(|(_, level_iid)| level_iid.get() == iid)
                .map(|(e, _)| e);
            let origin = level_entity.map_or(Vec2::ZERO, |entity| world_translation(entity, &transforms));
            let (level_physics, problems) = level_physics(&file, level, defs, &mapping, origin);
            errors.extend(problems.iter().cloned());
            for problem in errors {
                log::error!("{problem}");
                report.errors.push(problem);
            }
            if let Some(config) = &config {
                for warning in scale_warnings(&file, &level_physics, config.block_size) {
                    if !report.warnings.contains(&warning) {
                        log::warn!("{warning}");
                        report.warnings.push(warning);
                    }
                }
            }
            spawn_level_physics(&mut commands, &level_physics);
            if let Some(entity) = level_entity {
                let all = mapping_problems.into_iter().chain(problems).collect();
                commands.entity(entity).insert((level_physics, LdtkLevelProblems(all)));
                ready.write(LdtkLevelReady {
                    level_iid: iid.clone(),
                    level: entity,
                });
            }
        }
    }
}

/// The mapped layers of `physics` whose cells are not `block_size` pixels (one warning per layer,
/// without the level: the same in every level).
fn scale_warnings(file: &str, physics: &LevelPhysics, block_size: f32) -> Vec<LdtkPhysicsError> {
    physics
        .grids
        .iter()
        .filter(|(_, grid, _)| grid.cell_size != block_size)
        .map(|(layer, grid, _)| LdtkPhysicsError {
            file: file.to_string(),
            level: None,
            layer: Some(layer.clone()),
            entity: None,
            message: format!(
                "its cells are {} px and PhysicsConfig::block_size is {block_size} px: tolerances and slope \
                 speeds are scaled for {block_size} px blocks (set block_size to the game's tile size)",
                grid.cell_size
            ),
        })
        .collect()
}

/// The physics entities `bevy_ecs_ldtk` spawned inside a level (its `LdtkEntity` bundles), not
/// yet made top-level.
type NestedPhysics = (
    Or<(With<Collider>, With<SlopeSegment>, With<TileGrid>)>,
    With<ChildOf>,
    Without<LdtkLevelPhysics>,
    Without<LdtkLevelEntity>,
);

/// The entities above physics in a hierarchy: worlds, levels, layers.
type NotPhysics = (Without<Collider>, Without<SlopeSegment>, Without<TileGrid>);

/// Makes the colliders, slopes and grids spawned inside a level top-level at their world
/// position, marked with [`LdtkLevelEntity`].
fn lift_physics_out_of_levels(
    mut commands: Commands,
    mut nested: Query<(Entity, &mut Transform), NestedPhysics>,
    parents: Query<(&Transform, Option<&ChildOf>), NotPhysics>,
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
        commands.entity(entity).remove::<ChildOf>().insert(LdtkLevelEntity {
            level_iid: level.get().clone(),
        });
    }
}

/// Despawns the entities of level `iid` that were made top-level.
fn despawn_level_entities(commands: &mut Commands, lifted: &Query<(Entity, &LdtkLevelEntity)>, iid: &str) {
    for (entity, marker) in lifted {
        if marker.level_iid == iid {
            commands.entity(entity).despawn();
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
