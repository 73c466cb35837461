//! Levels through `bevy_ecs_ldtk`, the path a Bevy game takes: the game spawns the level's project
//! as an `LdtkWorldBundle` and selects its first level (`LevelSelection`); `bevy_ecs_ldtk` spawns
//! the level (its layers, tiles and entity instances) where its world layout puts it; the plugin's
//! `LdtkPhysicsPlugin` checks it, spawns the level's physics there and says so
//! (`LdtkLevelReady`); then [`finish_level`] makes the game's view of the level ([`LevelInfo`]) and
//! spawns the game's objects from the level's entities, before the frame's fixed steps. The
//! headless game and the window take the same path.
//!
//! A level is ready ([`LevelReady`]) from the frame its objects exist; the game's rules run only
//! then. A restart ([`LoadLevel`], asked for in a fixed step) asks the bridge to spawn the level
//! again (`RespawnLdtkLevel`) at the end of that frame, and the level is back, objects and all, for
//! the next frame's fixed steps: the project stays loaded.
//!
//! Live edits are the bridge's `LdtkLiveReloadPlugin`, on in the window: the level's project, its
//! `.ldtkl` files and its mapping, saved again (from the LDtk editor, say), are played within half
//! a second, from the last checkpoint; a save that cannot be played is reported and the level
//! being played stays. The files are read from the asset sources of [`super::sources`].

use bevy::asset::io::AssetSourceId;
use bevy::asset::{LoadState, RecursiveDependencyLoadState};
use bevy::ecs::message::MessageCursor;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ecs_ldtk::assets::LdtkExternalLevel;
use bevy_ecs_ldtk::ldtk::raw_level_accessor::RawLevelAccessor;
use bevy_ecs_ldtk::prelude::{
    IntGridRendering, LdtkPlugin, LdtkProject, LdtkProjectHandle, LdtkSettings, LdtkWorldBundle, LevelBackground,
    LevelIid, LevelSelection, LevelSpawnBehavior, SetClearColor,
};
use bevy_platformer_physics::TileGrid;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::{
    LdtkLevelPhysics, LdtkLevelProblems, LdtkLevelReady, LdtkLevelRefused, LdtkLiveReload, LdtkLiveReloadPlugin,
    LdtkPhysicsMapping, LdtkPhysicsMappingAsset, LdtkPhysicsMappingFile, LdtkPhysicsPlugin, LdtkPhysicsSystems, Level,
    LevelPhysics, RespawnLdtkLevel, loaded_level,
};

use super::sources::{DATA_SOURCE, FILE_SOURCE, UndecodedPictureLoader, asset_path, file_asset_path, file_system_root};
use super::{
    CurrentLevel, LevelClock, LevelData, LevelEntity, LevelLoadError, LevelObject, LevelObjects, LevelSource,
    LevelSpawned, LevelWorld, LoadLevel, ObjectFields, PIPE, PLAYER, PipeArrival, level_data,
};
use crate::paths::DataRoot;
use crate::screens::state::Screen;
use crate::tuning::Tuning;

/// Updates after a project and its files have loaded (or failed to) in which its level may still
/// appear; after them, a level that did not is reported as not loading.
const SETTLE_UPDATES: u32 = 30;

/// Whether the current level is spawned with its objects: the game's rules run only then.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelReady(pub bool);

/// Run condition: the current level is ready.
pub fn level_ready(ready: Res<LevelReady>) -> bool {
    ready.0
}

/// Every project loaded so far, kept loaded so that a restart or a return is immediate.
#[derive(Resource, Default)]
struct LoadedProjects(HashMap<String, Handle<LdtkProject>>);

/// The level whose physics mapping is the `LdtkPhysicsMapping` resource.
#[derive(Resource, Default)]
struct MappingOf(Option<LevelSource>);

pub(super) fn plugin(app: &mut App) {
    let live_reload = live_reload(app.world().resource::<DataRoot>());
    app.add_plugins((LdtkPlugin, LdtkPhysicsPlugin, LdtkLiveReloadPlugin))
        .insert_resource(live_reload)
        .insert_resource(LdtkSettings {
            // The level where the project's world layout puts it: the physics and the objects
            // follow it (the game's levels have their top-left corner at the origin).
            level_spawn_behavior: LevelSpawnBehavior::UseWorldTranslation {
                load_level_neighbors: false,
            },
            set_clear_color: SetClearColor::No,
            // The game draws what the physics is; an IntGrid layer's own colours are not drawn.
            int_grid_rendering: IntGridRendering::Invisible,
            level_background: LevelBackground::Nonexistent,
            ..default()
        })
        .init_resource::<LevelReady>()
        .init_resource::<LoadedProjects>()
        .init_resource::<MappingOf>();
    app.add_systems(OnEnter(Screen::Playing), start_level);
    app.add_systems(OnExit(Screen::Playing), despawn_level);
    app.init_asset_loader::<UndecodedPictureLoader>();
    // A restart asked for in this frame's fixed steps: the level is back for the next frame's.
    app.add_systems(
        Update,
        (restart_level.run_if(on_message::<LoadLevel>), watch_loading).chain(),
    );
    app.add_systems(PreUpdate, finish_level.after(LdtkPhysicsSystems));
}

/// The bridge's live reload, reading the game's two asset sources; off until the window turns it
/// on (a headless run stays deterministic).
fn live_reload(root: &DataRoot) -> LdtkLiveReload {
    let data = std::path::absolute(&root.0).unwrap_or_else(|_| root.0.clone());
    let mut live = LdtkLiveReload::default()
        .with_source_folder(AssetSourceId::from(DATA_SOURCE), data)
        .with_source_folder(AssetSourceId::from(FILE_SOURCE), file_system_root());
    live.enabled = false;
    live
}

/// Despawns the level: its objects and its `bevy_ecs_ldtk` world (the bridge despawns the
/// physics it made for it).
fn despawn_level(world: &mut World) {
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<LevelEntity>>()
        .iter(world)
        .collect();
    for entity in old {
        if let Ok(e) = world.get_entity_mut(entity) {
            e.despawn();
        }
    }
    world.resource_mut::<LevelReady>().0 = false;
}

/// Despawns the old level and spawns the current one's project; [`finish_level`] completes it.
pub fn start_level(world: &mut World) {
    world.resource_mut::<Messages<LoadLevel>>().clear();
    despawn_level(world);
    world.resource_mut::<LevelLoadError>().0 = None;
    let current = world.resource::<CurrentLevel>().clone();
    let root = world.resource::<DataRoot>().clone();
    if let Err(e) = spawn_level_world(world, &current.source, &root) {
        error!("{e}");
        world.resource_mut::<LevelLoadError>().0 = Some(e);
    }
}

/// Plays the current level again from its file, or goes to the level a pipe leads to. The level
/// being played: `bevy_ecs_ldtk` spawns it again (`Respawn`), and its objects start over when it is
/// back, before the next frame's fixed steps (until then the old ones stay). Another level of the
/// same project (a pipe's): `bevy_ecs_ldtk` spawns that one instead (`LevelSelection`). Another
/// project: as [`start_level`].
pub fn restart_level(world: &mut World) {
    world.resource_mut::<Messages<LoadLevel>>().clear();
    let current = world.resource::<CurrentLevel>().clone();
    let Ok(file) = asset_path(&current.source) else {
        return start_level(world);
    };
    let level = world
        .query::<(Entity, &ChildOf, &LevelIid)>()
        .iter(world)
        .find(|(_, child_of, _)| {
            world
                .get::<LevelWorld>(child_of.parent())
                .is_some_and(|w| w.file == file)
        })
        .map(|(_, child_of, iid)| (child_of.parent(), iid.get().clone()));
    let Some((level_world, spawned_iid)) = level else {
        return start_level(world);
    };
    if !world.resource::<LevelReady>().0 {
        return start_level(world);
    }
    let wanted = world
        .get::<LdtkProjectHandle>(level_world)
        .and_then(|handle| world.resource::<Assets<LdtkProject>>().get(&handle.handle))
        .and_then(|project| wanted_level(project, current.arrival.as_ref()))
        .map(|(iid, _)| iid);
    match wanted {
        Some(iid) if iid != spawned_iid => {
            world.insert_resource(LevelSelection::iid(iid));
            world.resource_mut::<LevelReady>().0 = false;
        }
        _ => {
            world.write_message(RespawnLdtkLevel::new(spawned_iid));
        }
    }
}

/// The level of `project` to play: the one a pipe leads to (by identifier), else the first. Its
/// iid and identifier; `None` for a project with no level, or a pipe's level it does not have.
fn wanted_level(project: &LdtkProject, arrival: Option<&PipeArrival>) -> Option<(String, String)> {
    let level = match arrival {
        Some(arrival) => project
            .iter_raw_levels()
            .find(|level| level.identifier == arrival.level)?,
        None => project.iter_raw_levels().next()?,
    };
    Some((level.iid.clone(), level.identifier.clone()))
}

fn spawn_level_world(world: &mut World, source: &LevelSource, root: &DataRoot) -> Result<(), String> {
    let (_, mapping_file) = source.files(root)?;
    if world.resource::<MappingOf>().0.as_ref() != Some(source) {
        let mapping = match &mapping_file {
            Some(m) => LdtkPhysicsMapping::load(m).map_err(|e| e.to_string())?,
            None => LdtkPhysicsMapping::default(),
        };
        world.insert_resource(mapping);
        world.resource_mut::<MappingOf>().0 = Some(source.clone());
    }
    let file = asset_path(source)?;
    let handle = match world.resource::<LoadedProjects>().0.get(&file) {
        Some(handle) => handle.clone(),
        None => {
            let handle: Handle<LdtkProject> = world.resource::<AssetServer>().load(file.clone());
            world
                .resource_mut::<LoadedProjects>()
                .0
                .insert(file.clone(), handle.clone());
            handle
        }
    };
    // The bridge follows the mapping's file (read above, so that a broken one is said at once).
    match &mapping_file {
        Some(mapping) => {
            let handle = world
                .resource::<AssetServer>()
                .load::<LdtkPhysicsMappingAsset>(file_asset_path(mapping)?);
            world.insert_resource(LdtkPhysicsMappingFile(handle));
        }
        None => {
            world.remove_resource::<LdtkPhysicsMappingFile>();
        }
    }
    world.spawn((
        Name::new(format!("level {file}")),
        LdtkWorldBundle {
            ldtk_handle: handle.into(),
            ..default()
        },
        LevelWorld { file },
        LevelEntity,
    ));
    Ok(())
}

/// Selects the level to play once the project has loaded (its first level, or the one a pipe leads
/// to), and reports a project that cannot be played: it failed to load, has no level, a pipe leads
/// to a level it does not have, or its level's file did not load.
fn watch_loading(
    mut commands: Commands,
    current: Res<CurrentLevel>,
    server: Res<AssetServer>,
    projects: Res<Assets<LdtkProject>>,
    worlds: Query<(&LdtkProjectHandle, &LevelWorld)>,
    mut refused: MessageReader<LdtkLevelRefused>,
    selection: Option<Res<LevelSelection>>,
    ready: Res<LevelReady>,
    mut load_error: ResMut<LevelLoadError>,
    mut settled_for: Local<u32>,
) {
    if ready.0 || load_error.0.is_some() {
        *settled_for = 0;
        return;
    }
    let Ok((handle, level_world)) = worlds.single() else {
        return;
    };
    let file = &level_world.file;
    if let Some(LoadState::Failed(e)) = server.get_load_state(handle.handle.id()) {
        load_error.0 = Some(format!("{file}: {e}"));
        error!("{file}: {e}");
        return;
    }
    let Some(project) = projects.get(&handle.handle) else {
        return;
    };
    let Some((iid, identifier)) = wanted_level(project, current.arrival.as_ref()) else {
        let message = match &current.arrival {
            Some(arrival) => format!(
                "{file}: a pipe leads to level {:?}, which the project does not have",
                arrival.level
            ),
            None => format!("{file}: the project has no level"),
        };
        error!("{message}");
        load_error.0 = Some(message);
        return;
    };
    match server.get_recursive_dependency_load_state(handle.handle.id()) {
        Some(RecursiveDependencyLoadState::Loaded | RecursiveDependencyLoadState::Failed(_)) => *settled_for += 1,
        _ => return,
    }
    // A level bevy_ecs_ldtk cannot spawn (the bridge refused it): said at once, with why.
    if let Some(refusal) = refused.read().find(|refusal| refusal.level_iid == iid) {
        let message = format!(
            "{file}: level {} cannot be played: {}",
            identifier,
            refusal
                .problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        );
        error!("{message}");
        load_error.0 = Some(message);
        return;
    }
    let wanted = LevelSelection::iid(iid);
    if selection.as_deref() != Some(&wanted) {
        commands.insert_resource(wanted);
    }
    if *settled_for > SETTLE_UPDATES {
        let why = match server.get_recursive_dependency_load_state(handle.handle.id()) {
            Some(RecursiveDependencyLoadState::Failed(e)) => e.to_string(),
            _ => "it was not spawned".to_string(),
        };
        let message = format!("{file}: level {identifier} did not load: {why}");
        error!("{message}");
        load_error.0 = Some(message);
    }
}

/// For each level whose physics the bridge spawned this frame ([`LdtkLevelReady`]: the level was
/// spawned, again or for the first time, or its mapping changed): the game's view of it, its
/// objects, its clock; then [`LevelSpawned`].
pub fn finish_level(world: &mut World, mut cursor: Local<MessageCursor<LdtkLevelReady>>) {
    let spawned: Vec<String> = cursor
        .read(world.resource::<Messages<LdtkLevelReady>>())
        .map(|ready| ready.level_iid.clone())
        .collect();
    for iid in spawned {
        if let Some(data) = read_spawned_level(world, &iid) {
            spawn_objects(world, data, &iid);
        }
    }
}

/// The game's view of level `iid`, as `bevy_ecs_ldtk` placed it and the bridge made its physics,
/// if it is the game's level.
fn read_spawned_level(world: &mut World, iid: &str) -> Option<LevelData> {
    let (physics, problems, parent) = world
        .query::<(&LevelIid, &LevelPhysics, &LdtkLevelProblems, &ChildOf)>()
        .iter(world)
        .find(|(level, ..)| level.get() == iid)
        .map(|(_, physics, problems, child_of)| (physics.clone(), problems.0.clone(), child_of.parent()))?;
    let file = world.get::<LevelWorld>(parent)?.file.clone();
    let handle = world.get::<LdtkProjectHandle>(parent)?.handle.clone();
    let projects = world.resource::<Assets<LdtkProject>>();
    let project = projects.get(&handle)?;
    let level: Level = loaded_level(project, world.get_resource::<Assets<LdtkExternalLevel>>(), iid)?.clone();
    let defs = project.json_data().defs.clone();
    // The bridge logged its problems; the game's own are logged here.
    let known: Vec<String> = problems.iter().map(ToString::to_string).collect();
    let logged = known.len();
    let mut data = level_data(&file, &level, &defs, physics, known);
    for problem in &data.info.problems[logged..] {
        error!("{problem}");
    }
    // A collision layer whose tileset picture is missing (read blank) is drawn by the game.
    let current = world.resource::<CurrentLevel>().source.clone();
    let root = world.resource::<DataRoot>().clone();
    let tileset = level
        .layer_instances
        .iter()
        .flatten()
        .find(|l| l.identifier == data.info.cells.layer)
        .and_then(|l| l.tileset_rel_path.clone());
    if let (Some(tileset), Ok((project_file, _))) = (tileset, current.files(&root))
        && !project_file.parent().unwrap_or(&project_file).join(tileset).is_file()
    {
        data.info.cells.drawn_by_project = false;
    }
    Some(data)
}

fn spawn_objects(world: &mut World, mut data: LevelData, iid: &str) {
    // A level spawned again (its file changed): its objects start over.
    let stale: Vec<Entity> = world
        .query_filtered::<Entity, (With<LevelEntity>, Without<LevelWorld>)>()
        .iter(world)
        .collect();
    for entity in stale {
        world.despawn(entity);
    }
    if let Some((_, expected, origin)) = data.physics.grids.first() {
        data.info.cells.grid = world
            .query::<(Entity, &LdtkLevelPhysics, &TileGrid, &Transform)>()
            .iter(world)
            .find(|(_, marker, grid, at)| {
                marker.level_iid == iid && *grid == expected && at.translation.truncate() == *origin
            })
            .map(|(entity, ..)| entity);
    }
    let current = world.resource::<CurrentLevel>().clone();
    let tuning = world.resource::<Tuning>().clone();
    let objects = world.get_resource::<LevelObjects>().cloned().unwrap_or_default();
    let arrival_pipe = current.arrival.as_ref().map(|arrival| {
        let pipe = data
            .objects
            .iter()
            .find(|(p, fields)| p.identifier == PIPE && fields.text("name") == arrival.pipe);
        match pipe {
            // Out of the pipe: standing on its top, in its middle.
            Some((p, _)) => Vec2::new(p.rect.center().x, p.rect.max.y),
            None => {
                error!(
                    "level {}: no pipe named {:?} to come out of; starting at the level's start",
                    data.info.name, arrival.pipe
                );
                data.info.player_start
            }
        }
    });
    let start = arrival_pipe
        .or(current.start_override)
        .or(current.checkpoint)
        .unwrap_or(data.info.player_start);
    let no_fields = ObjectFields::default();
    let object = |rect, fields| LevelObject {
        rect,
        fields,
        checkpoint: current.checkpoint,
        tuning: &tuning,
    };
    let mut commands = world.commands();
    // The player first, at its start (the override or checkpoint wins over its entity), then the
    // objects in the file's order: the same order every run, so replays stay identical.
    if let Some(spawn) = objects.get(PLAYER) {
        spawn(
            &mut commands,
            &object(Aabb::from_min_size(start, Vec2::ZERO), &no_fields),
        );
    }
    for (placement, fields) in data.objects.iter().filter(|(p, _)| p.identifier != PLAYER) {
        if let Some(spawn) = objects.get(&placement.identifier) {
            spawn(&mut commands, &object(placement.rect, fields));
        }
    }
    world.flush();
    // Through a pipe the clock goes on; a start or a restart sets it.
    if arrival_pipe.is_none() {
        world.insert_resource(LevelClock {
            left: data.info.time_limit,
            steps: 0,
        });
    }
    world.insert_resource(data.info);
    world.resource_mut::<LevelReady>().0 = true;
    world.write_message(LevelSpawned);
}
