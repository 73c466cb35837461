//! What a changed LDtk file does, in one place.
//!
//! A project, a level's own `.ldtkl` file or the mapping file loads again when Bevy's
//! `file_watcher` sees it change, when a game calls `AssetServer::reload`, or when
//! [`LdtkLiveReloadPlugin`] (the bridge's own live reload, which needs no Bevy feature) finds its
//! modification time changed. Then:
//! - a project: `bevy_ecs_ldtk` spawns its levels again, and the bridge their physics;
//! - a level's own file: the bridge asks for that level to be spawned again ([`RespawnLdtkLevel`]);
//! - the mapping: the bridge makes the physics of every spawned level again.
//!
//! Each level is sent [`LdtkLevelReady`] once its physics is back. A file saved half-way does not
//! load, and a file saved with a spawned level `bevy_ecs_ldtk` could not spawn is not used: both
//! are reported ([`LdtkPhysicsReport`]) and the levels keep what they read last (with
//! [`LdtkLiveReloadPlugin`], whose copy of the last good file is put back, a later respawn reads
//! that too).

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use bevy::asset::io::AssetSourceId;
use bevy::asset::io::file::FileAssetReader;
use bevy::asset::{AssetLoadFailedEvent, AssetPath, UntypedAssetId};
use bevy::ecs::message::MessageCursor;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy_ecs_ldtk::assets::{LdtkExternalLevel, LdtkProject};
use bevy_ecs_ldtk::ldtk::raw_level_accessor::RawLevelAccessor;
use bevy_ecs_ldtk::{LdtkProjectHandle, LevelIid, Respawn};

use super::{
    LdtkPhysicsError, LdtkPhysicsMappingFile, LdtkPhysicsReport, LdtkPhysicsSystems, RespawnLdtkLevel,
    level_spawn_problems, loaded_level,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        (
            // Between `bevy_ecs_ldtk` asking for a changed project's worlds to respawn and doing it.
            keep_levels_a_changed_project_cannot_spawn
                .after(bevy_ecs_ldtk::systems::process_ldtk_assets)
                .before(bevy_ecs_ldtk::systems::process_ldtk_levels),
            respawn_levels_whose_file_changed.in_set(LdtkPhysicsSystems),
            report_files_that_did_not_load,
        ),
    );
}

/// The last version of each project (or level file) whose spawned levels could all be spawned,
/// kept by [`LdtkLiveReloadPlugin`] so that a bad save can be undone.
#[derive(Resource)]
struct LastGood<A: Asset>(HashMap<AssetId<A>, A>);

impl<A: Asset> Default for LastGood<A> {
    fn default() -> Self {
        Self(HashMap::default())
    }
}

impl<A: Asset + Clone> LastGood<A> {
    /// Keeps asset `id` of `assets` as its last good version.
    fn keep(&mut self, id: AssetId<A>, assets: &Assets<A>) {
        if let Some(now) = assets.get(id) {
            self.0.insert(id, now.clone());
        }
    }

    /// Puts the last good version of `id` back, without an asset event (which would respawn).
    fn restore(&self, id: AssetId<A>, assets: &mut Assets<A>) {
        if let (Some(previous), Some(now)) = (self.0.get(&id), assets.get_mut_untracked(id)) {
            *now = previous.clone();
        }
    }
}

/// The file of an asset, for messages.
fn file_of(server: Option<&AssetServer>, id: impl Into<UntypedAssetId>) -> String {
    server
        .and_then(|server| server.get_path(id))
        .map_or_else(|| "LDtk file".to_string(), |path| path.to_string())
}

/// A project that loaded again with a spawned level `bevy_ecs_ldtk` cannot spawn: its worlds are
/// not spawned again (the levels stay as they are), the problems are reported, and the last good
/// version, if kept, is put back.
#[allow(clippy::too_many_arguments)]
fn keep_levels_a_changed_project_cannot_spawn(
    mut commands: Commands,
    changes: Option<Res<Messages<AssetEvent<LdtkProject>>>>,
    mut cursor: Local<MessageCursor<AssetEvent<LdtkProject>>>,
    // A refused reload whose `Modified` is still to come (`bevy_ecs_ldtk` respawns on it).
    mut refused_awaiting_modified: Local<HashSet<AssetId<LdtkProject>>>,
    mut projects: Option<ResMut<Assets<LdtkProject>>>,
    external: Option<Res<Assets<LdtkExternalLevel>>>,
    server: Option<Res<AssetServer>>,
    worlds: Query<(Entity, &LdtkProjectHandle)>,
    levels: Query<(&LevelIid, &ChildOf)>,
    mut last_good: Option<ResMut<LastGood<LdtkProject>>>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    let (Some(changes), Some(projects)) = (changes, projects.as_deref_mut()) else {
        return;
    };
    let loaded = loaded_assets(cursor.read(&changes).copied());
    let keep_worlds = |commands: &mut Commands, id| {
        for (world, _) in worlds.iter().filter(|(_, handle)| handle.handle.id() == id) {
            commands.entity(world).remove::<Respawn>();
        }
    };
    for (id, modified) in loaded {
        if modified && refused_awaiting_modified.remove(&id) {
            keep_worlds(&mut commands, id);
            continue;
        }
        let Some(project) = projects.get(id) else { continue };
        let file = file_of(server.as_deref(), id);
        let defs = &project.json_data().defs;
        let problems: Vec<LdtkPhysicsError> = levels
            .iter()
            .filter(|(_, child_of)| worlds.get(child_of.parent()).is_ok_and(|(_, h)| h.handle.id() == id))
            .filter_map(|(iid, _)| loaded_level(project, external.as_deref(), iid.get()))
            .flat_map(|level| level_spawn_problems(&file, defs, level))
            .collect();
        if problems.is_empty() {
            if let Some(last_good) = last_good.as_deref_mut() {
                last_good.keep(id, projects);
            }
            continue;
        }
        refuse_save(&file, problems, &mut report);
        keep_worlds(&mut commands, id);
        if !modified {
            refused_awaiting_modified.insert(id);
        }
        if let Some(last_good) = &last_good {
            last_good.restore(id, projects);
        }
    }
}

/// A save of `file` that is not played, because of `problems`: logged and reported.
fn refuse_save(file: &str, problems: Vec<LdtkPhysicsError>, report: &mut LdtkPhysicsReport) {
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    log::error!(
        "{file}: saved with a level that cannot be spawned ({}); the levels keep what they read last",
        text.join("; ")
    );
    report.errors.extend(problems);
}

/// The assets that loaded (again) in this frame's `events`, each once, and whether one of its
/// events said `Modified` (a reload says `LoadedWithDependencies` and `Modified`).
fn loaded_assets<A: Asset>(events: impl Iterator<Item = AssetEvent<A>>) -> Vec<(AssetId<A>, bool)> {
    let mut loaded: Vec<(AssetId<A>, bool)> = Vec::new();
    for event in events {
        let (AssetEvent::LoadedWithDependencies { id } | AssetEvent::Modified { id }) = event else {
            continue;
        };
        let modified = matches!(event, AssetEvent::Modified { .. });
        match loaded.iter_mut().find(|(seen, _)| *seen == id) {
            Some((_, any_modified)) => *any_modified |= modified,
            None => loaded.push((id, modified)),
        }
    }
    loaded
}

/// `bevy_ecs_ldtk` spawns a level again when its project's file changes, not when the level's own
/// `.ldtkl` file does: this asks for it, unless the level cannot be spawned from the new file (then
/// the level stays, the problems are reported, and the last good version, if kept, is put back).
#[allow(clippy::too_many_arguments)]
fn respawn_levels_whose_file_changed(
    mut respawn: MessageWriter<RespawnLdtkLevel>,
    // Optional: an app may spawn its levels without `bevy_ecs_ldtk`'s assets.
    changes: Option<Res<Messages<AssetEvent<LdtkExternalLevel>>>>,
    mut cursor: Local<MessageCursor<AssetEvent<LdtkExternalLevel>>>,
    mut refused_awaiting_modified: Local<HashSet<AssetId<LdtkExternalLevel>>>,
    mut external: Option<ResMut<Assets<LdtkExternalLevel>>>,
    projects: Option<Res<Assets<LdtkProject>>>,
    server: Option<Res<AssetServer>>,
    worlds: Query<&LdtkProjectHandle>,
    levels: Query<(&LevelIid, &ChildOf)>,
    mut last_good: Option<ResMut<LastGood<LdtkExternalLevel>>>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    let (Some(changes), Some(external), Some(projects)) = (changes, external.as_deref_mut(), projects) else {
        return;
    };
    for (id, modified) in loaded_assets(cursor.read(&changes).copied()) {
        if modified && refused_awaiting_modified.remove(&id) {
            continue;
        }
        let Some(level) = external.get(id) else { continue };
        let level = level.data().raw();
        // The project of the spawned level, for its definitions.
        let spawned_in = levels
            .iter()
            .filter(|(iid, _)| *iid.get() == level.iid)
            .find_map(|(_, child_of)| worlds.get(child_of.parent()).ok())
            .and_then(|handle| projects.get(handle.handle.id()));
        let file = file_of(server.as_deref(), id);
        let problems = spawned_in.map_or_else(Vec::new, |project| {
            level_spawn_problems(&file, &project.json_data().defs, level)
        });
        if problems.is_empty() {
            if spawned_in.is_some() && modified {
                respawn.write(RespawnLdtkLevel::new(&level.iid));
            }
            if let Some(last_good) = last_good.as_deref_mut() {
                last_good.keep(id, external);
            }
            continue;
        }
        refuse_save(&file, problems, &mut report);
        if !modified {
            refused_awaiting_modified.insert(id);
        }
        if let Some(last_good) = &last_good {
            last_good.restore(id, external);
        }
    }
}

/// Where [`report_files_that_did_not_load`] is in the two streams of failed loads.
type FailedLoadCursors = (
    MessageCursor<AssetLoadFailedEvent<LdtkProject>>,
    MessageCursor<AssetLoadFailedEvent<LdtkExternalLevel>>,
);

/// A project or level file that did not load (a file saved half-way, say): reported, naming it;
/// the levels spawned from it keep what they read last.
fn report_files_that_did_not_load(
    // Optional: an app may spawn its levels without `bevy_ecs_ldtk`'s assets.
    projects: Option<Res<Messages<AssetLoadFailedEvent<LdtkProject>>>>,
    levels: Option<Res<Messages<AssetLoadFailedEvent<LdtkExternalLevel>>>>,
    mut cursors: Local<FailedLoadCursors>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    let (Some(projects), Some(levels)) = (projects, levels) else {
        return;
    };
    let (project_cursor, level_cursor) = &mut *cursors;
    let failed = project_cursor
        .read(&projects)
        .map(|f| (&f.path, &f.error))
        .chain(level_cursor.read(&levels).map(|f| (&f.path, &f.error)));
    for (path, error) in failed {
        let problem = LdtkPhysicsError::file(
            &path.to_string(),
            format!("did not load ({error}); the levels spawned from it keep what they read last"),
        );
        log::error!("{problem}");
        report.errors.push(problem);
    }
}

/// The bridge's live reload: while [`LdtkLiveReload::enabled`], the files the spawned levels come
/// from (each LDtk project, its levels' own `.ldtkl` files, the [`LdtkPhysicsMappingFile`]) are
/// checked for a new modification time every [`LdtkLiveReload::check_every`] and loaded again
/// when it changed: a changed project spawns its levels again, a changed level file its level, a
/// changed mapping makes the physics again, and each level is sent [`LdtkLevelReady`](super::LdtkLevelReady)
/// again. A designer saves in the LDtk editor and the level plays the edit, with no Bevy feature
/// and no file watcher thread. A file saved half-way, or with a spawned level `bevy_ecs_ldtk` could
/// not spawn, is reported in [`LdtkPhysicsReport`] and not played: the levels keep what they read
/// last, and a later respawn reads that too (the plugin keeps a copy of each file's last good
/// version).
///
/// It reads files where their asset source keeps them: the default source in
/// `FileAssetReader::get_base_path()/assets` (Bevy's default), others where
/// [`LdtkLiveReload::with_source_folder`] says. The checks use the wall clock: a development tool,
/// off in a deterministic run.
///
/// # Example
///
/// ```
/// use bevy::asset::io::AssetSourceId;
/// use bevy::prelude::*;
/// use bevy_platformer_physics::ldtk::{LdtkLiveReload, LdtkLiveReloadPlugin};
///
/// let mut app = App::new();
/// app.add_plugins(LdtkLiveReloadPlugin).insert_resource(
///     LdtkLiveReload::default().with_source_folder(AssetSourceId::from("levels"), "/home/me/game/levels"),
/// );
/// assert!(app.world().resource::<LdtkLiveReload>().enabled);
/// ```
pub struct LdtkLiveReloadPlugin;

impl Plugin for LdtkLiveReloadPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LdtkLiveReload>()
            .init_resource::<LastGood<LdtkProject>>()
            .init_resource::<LastGood<LdtkExternalLevel>>()
            .add_systems(Update, reload_changed_files);
    }
}

/// What [`LdtkLiveReloadPlugin`] checks, and how often.
#[derive(Resource, Clone, Debug)]
pub struct LdtkLiveReload {
    /// Check the files (default true).
    pub enabled: bool,
    /// Time between two checks (default 0.5 s).
    pub check_every: Duration,
    folders: HashMap<AssetSourceId<'static>, PathBuf>,
    modified: HashMap<AssetPath<'static>, Option<SystemTime>>,
    last_check: Option<Instant>,
}

impl Default for LdtkLiveReload {
    fn default() -> Self {
        let mut folders = HashMap::default();
        folders.insert(AssetSourceId::Default, FileAssetReader::get_base_path().join("assets"));
        Self {
            enabled: true,
            check_every: Duration::from_millis(500),
            folders,
            modified: HashMap::default(),
            last_check: None,
        }
    }
}

impl LdtkLiveReload {
    /// The live reload with the files of asset source `source` read in `folder`.
    pub fn with_source_folder(mut self, source: AssetSourceId<'static>, folder: impl Into<PathBuf>) -> Self {
        self.folders.insert(source, folder.into());
        self
    }

    /// Where the file of `path` is, if its source's folder is known.
    fn file(&self, path: &AssetPath) -> Option<PathBuf> {
        let folder = self.folders.get(&path.source().clone_owned())?;
        Some(folder.join(path.path()))
    }
}

/// The asset paths the spawned levels come from.
fn watched_paths(
    worlds: &Query<&LdtkProjectHandle>,
    projects: &Assets<LdtkProject>,
    mapping: Option<&LdtkPhysicsMappingFile>,
) -> Vec<AssetPath<'static>> {
    let mut paths = Vec::new();
    for handle in worlds {
        let Some(project_path) = handle.handle.path() else {
            continue;
        };
        paths.push(project_path.clone());
        let Some(project) = projects.get(handle.handle.id()) else {
            continue;
        };
        let level_files = project
            .json_data()
            .iter_raw_levels()
            .filter_map(|level| level.external_rel_path.as_deref())
            .filter_map(|relative| project_path.resolve_embed_str(relative).ok());
        paths.extend(level_files);
    }
    paths.extend(mapping.and_then(|m| m.0.path()).cloned());
    paths
}

/// Loads again each watched file whose modification time changed since the last check. A file is
/// timed from the first frame it is watched (enabled or not), so that an edit made before the first
/// check is one.
fn reload_changed_files(
    mut live: ResMut<LdtkLiveReload>,
    server: Res<AssetServer>,
    worlds: Query<&LdtkProjectHandle>,
    projects: Option<Res<Assets<LdtkProject>>>,
    mapping: Option<Res<LdtkPhysicsMappingFile>>,
) {
    let Some(projects) = projects else { return };
    let check = live.enabled && live.last_check.is_none_or(|t| t.elapsed() >= live.check_every);
    if check {
        live.last_check = Some(Instant::now());
    }
    let paths = watched_paths(&worlds, &projects, mapping.as_deref());
    let mut seen = HashMap::default();
    for path in paths {
        let Some(file) = live.file(&path) else { continue };
        let modified_at = |file: &PathBuf| std::fs::metadata(file).and_then(|m| m.modified()).ok();
        let now = match live.modified.get(&path) {
            None => modified_at(&file),
            Some(before) if check => {
                let now = modified_at(&file);
                if now != *before {
                    log::info!("{}: changed; loading it again", file.display());
                    server.reload(path.clone());
                }
                now
            }
            Some(before) => *before,
        };
        seen.insert(path, now);
    }
    live.modified = seen;
}
