//! Live edits: the files of the level being played — its project, its levels' own `.ldtkl` files,
//! its physics mapping — are checked twice a second (in the window; a headless run does not
//! unless asked). A file saved again, from the LDtk editor say, is read again and the level starts
//! over from it, from the last checkpoint, with no restart of the game: `bevy_ecs_ldtk` spawns the
//! level again when its project changes, the plugin's bridge when its own file does, and the game
//! spawns the objects of the level it spawned (see [`super::pipeline`]).
//!
//! A project saved half-way, or with a level `bevy_ecs_ldtk` cannot spawn, is reported and not
//! played: the level being played stays until the file is fixed.
//!
//! Polled rather than watched (as `assets/tuning.ron` is): the default build needs no file watcher
//! and no Bevy feature for it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use bevy::asset::AssetPath;
use bevy::prelude::*;
use bevy_ecs_ldtk::ldtk::raw_level_accessor::RawLevelAccessor;
use bevy_ecs_ldtk::prelude::{LdtkProject, LdtkProjectHandle, Respawn};
use bevy_platformer_physics::ldtk::{LdtkPhysicsMapping, LdtkProjectFile, level_spawn_problems};

use super::LevelWorld;

/// How often the files are checked.
const CHECK_EVERY: Duration = Duration::from_millis(500);

/// The files of the level being played, and whether they are checked for changes.
#[derive(Resource, Default)]
pub struct LevelFileWatch {
    /// Check the files for changes (the window does; a headless run does not, unless a test sets it).
    pub enabled: bool,
    files: Vec<WatchedFile>,
    /// The project's `.ldtkl` files are among `files` (known once the project has loaded).
    level_files_listed: bool,
    last_check: Option<Instant>,
}

struct WatchedFile {
    path: PathBuf,
    kind: FileKind,
    modified: Option<SystemTime>,
}

#[derive(Clone)]
enum FileKind {
    /// The project, at this asset path.
    Project(String),
    /// A level's own file, at this asset path.
    LevelFile(String),
    /// The physics mapping.
    Mapping,
}

fn modified(path: &std::path::Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl LevelFileWatch {
    /// Watches the project at `project` (asset path `asset`) and its `mapping`, from now on.
    pub(super) fn watch(&mut self, project: PathBuf, asset: String, mapping: Option<PathBuf>) {
        self.files.clear();
        self.level_files_listed = false;
        self.add(project, FileKind::Project(asset));
        if let Some(mapping) = mapping {
            self.add(mapping, FileKind::Mapping);
        }
    }

    fn add(&mut self, path: PathBuf, kind: FileKind) {
        let modified = modified(&path);
        self.files.push(WatchedFile { path, kind, modified });
    }

    fn project(&self) -> Option<(&PathBuf, &String)> {
        self.files.iter().find_map(|f| match &f.kind {
            FileKind::Project(asset) => Some((&f.path, asset)),
            _ => None,
        })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelFileWatch>();
    app.add_systems(Update, check_level_files);
}

/// Reads again the level's files that changed since the last check.
fn check_level_files(world: &mut World) {
    // Listed as soon as the project is there, so that a change made later is seen as one.
    if !world.resource::<LevelFileWatch>().level_files_listed {
        list_level_files(world);
    }
    let mut watch = world.resource_mut::<LevelFileWatch>();
    if !watch.enabled || watch.last_check.is_some_and(|t| t.elapsed() < CHECK_EVERY) {
        return;
    }
    watch.last_check = Some(Instant::now());
    let mut changed = Vec::new();
    for file in &mut watch.files {
        let now = modified(&file.path);
        if now != file.modified {
            file.modified = now;
            changed.push(file.kind.clone());
            info!("{}: changed; the level starts over from it", file.path.display());
        }
        if now.is_none() {
            warn!(
                "{}: cannot be read; the level keeps what it read last",
                file.path.display()
            );
        }
    }
    let project = world
        .resource::<LevelFileWatch>()
        .project()
        .map(|(path, _)| path.clone());
    for change in changed {
        let is_level = matches!(change, FileKind::Project(_) | FileKind::LevelFile(_));
        if is_level
            && let Some(project) = &project
            && let Err(why) = playable(project)
        {
            error!("{why}; the level keeps what it read last");
            continue;
        }
        match change {
            FileKind::Project(asset) => {
                // Its levels' files may be others now.
                world.resource_mut::<LevelFileWatch>().level_files_listed = false;
                world.resource::<AssetServer>().reload(asset);
            }
            FileKind::LevelFile(asset) => world.resource::<AssetServer>().reload(asset),
            FileKind::Mapping => read_mapping_again(world),
        }
    }
}

/// Whether the project saved at `path` can be played: it reads, and `bevy_ecs_ldtk` can spawn its
/// first level. A file saved half-way, or with a level `bevy_ecs_ldtk` cannot spawn, is not
/// played: the level being played stays.
fn playable(path: &Path) -> Result<(), String> {
    let (project, _) = LdtkProjectFile::load(path).map_err(|e| e.to_string())?;
    let first = project
        .levels
        .first()
        .ok_or_else(|| format!("{}: the project has no level", path.display()))?;
    let problems = level_spawn_problems(&path.display().to_string(), &project.json.defs, &first.level);
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
    }
}

/// Adds the `.ldtkl` files of the project's levels, once the project has loaded.
fn list_level_files(world: &mut World) {
    let Some(handle) = world
        .query_filtered::<&LdtkProjectHandle, With<LevelWorld>>()
        .iter(world)
        .next()
        .map(|h| h.handle.clone())
    else {
        return;
    };
    let Some(project) = world.resource::<Assets<LdtkProject>>().get(&handle) else {
        return;
    };
    let relative_paths: Vec<String> = project
        .json_data()
        .iter_raw_levels()
        .filter_map(|level| level.external_rel_path.clone())
        .collect();
    let mut watch = world.resource_mut::<LevelFileWatch>();
    let Some((project_path, asset)) = watch.project().map(|(p, a)| (p.clone(), a.clone())) else {
        return;
    };
    let folder = project_path.parent().map(PathBuf::from).unwrap_or_default();
    let asset = AssetPath::parse(&asset).into_owned();
    let level_files: Vec<(PathBuf, String)> = relative_paths
        .into_iter()
        .filter_map(|relative| {
            let level_asset = asset.resolve_embed_str(&relative).ok()?.to_string();
            Some((folder.join(&relative), level_asset))
        })
        .collect();
    watch.files.retain(|f| !matches!(f.kind, FileKind::LevelFile(_)));
    for (path, level_asset) in level_files {
        watch.add(path, FileKind::LevelFile(level_asset));
    }
    watch.level_files_listed = true;
}

/// Reads the mapping file again; a level spawned again uses it. A broken file keeps the mapping.
fn read_mapping_again(world: &mut World) {
    let Some(path) = world
        .resource::<LevelFileWatch>()
        .files
        .iter()
        .find(|f| matches!(f.kind, FileKind::Mapping))
        .map(|f| f.path.clone())
    else {
        return;
    };
    match LdtkPhysicsMapping::load(&path) {
        Ok(mapping) => {
            world.insert_resource(mapping);
            let worlds: Vec<Entity> = world.query_filtered::<Entity, With<LevelWorld>>().iter(world).collect();
            for entity in worlds {
                world.entity_mut(entity).insert(Respawn);
            }
        }
        Err(e) => error!("{e}; keeping the previous mapping"),
    }
}
