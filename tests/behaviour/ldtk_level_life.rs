//! A level's life through the LDtk bridge (feature `ldtk`), headless: the bridge says when a level's
//! physics is ready ([`LdtkLevelReady`]) or why a level was refused ([`LdtkLevelRefused`]), spawns a
//! level again when asked ([`RespawnLdtkLevel`]), and with [`LdtkLiveReloadPlugin`] plays a file
//! saved while it runs, keeping what it read last when the save is broken.

use std::path::{Path, PathBuf};

use bevy::asset::io::AssetSourceId;
use bevy::prelude::*;
use bevy_ecs_ldtk::{LevelSelection, LevelSpawnBehavior};
use bevy_platformer_physics::ldtk::*;
use bevy_platformer_physics::prelude::*;

use crate::ldtk_projects::{
    TYPICAL, data_folder, pipeline, report_lines, solid_cells, staged_from, typical_mapping, update_until,
    wait_for_physics,
};

/// What the bridge said, as a game's system after it reads it.
#[derive(Resource, Default)]
struct Heard {
    /// Each ready level's iid, and whether its physics existed when the message was read.
    ready: Vec<(String, bool)>,
    refused: Vec<LdtkLevelRefused>,
}

fn listen(
    mut heard: ResMut<Heard>,
    mut ready: MessageReader<LdtkLevelReady>,
    mut refused: MessageReader<LdtkLevelRefused>,
    physics: Query<&LdtkLevelPhysics>,
    levels: Query<&LevelPhysics>,
) {
    for level in ready.read() {
        let spawned = physics.iter().any(|p| p.level_iid == level.level_iid)
            && levels.get(level.level).is_ok_and(|l| l.iid == level.level_iid);
        heard.ready.push((level.level_iid.clone(), spawned));
    }
    heard.refused.extend(refused.read().cloned());
}

/// The typical sample staged in a folder of its own (`tag`), loaded through bevy_ecs_ldtk with
/// its first level selected, and a listener after the bridge. Returns the app, the folder and the
/// first level's iid.
fn typical_app(tag: &str, edit: impl FnOnce(&mut serde_json::Value)) -> (App, PathBuf, String) {
    let folder = staged_from(&data_folder(), TYPICAL, tag);
    let path = folder.join(TYPICAL);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let iid = json["levels"][0]["iid"].as_str().unwrap().to_string();
    edit(&mut json);
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    let mut app = pipeline(
        folder.clone(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseWorldTranslation {
            load_level_neighbors: false,
        },
        Vec2::ZERO,
    );
    app.init_resource::<Heard>()
        .add_systems(PreUpdate, listen.after(LdtkPhysicsSystems))
        .insert_resource(LevelSelection::index(0));
    (app, folder, iid)
}

/// `app` with the bridge's live reload on, checking at every frame, reading `folder`.
fn with_live_reload(app: &mut App, folder: &Path, enabled: bool) {
    app.add_plugins(LdtkLiveReloadPlugin);
    let mut live = LdtkLiveReload::default().with_source_folder(AssetSourceId::Default, folder);
    live.check_every = std::time::Duration::ZERO;
    live.enabled = enabled;
    app.insert_resource(live);
}

/// The typical project in `folder` saved again after `edit`.
fn save_edited(folder: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = folder.join(TYPICAL);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut json);
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
}

/// Every other solid cell of the first level's Collisions layer removed.
fn fewer_walls(json: &mut serde_json::Value) {
    for layer in json["levels"][0]["layerInstances"].as_array_mut().unwrap() {
        if layer["__identifier"] == "Collisions" {
            for (i, cell) in layer["intGridCsv"].as_array_mut().unwrap().iter_mut().enumerate() {
                if i % 2 == 0 && *cell == serde_json::json!(1) {
                    *cell = serde_json::json!(0);
                }
            }
        }
    }
}

/// The first level's first entity given a definition the project does not have: bevy_ecs_ldtk
/// would panic spawning it.
fn unspawnable(json: &mut serde_json::Value) {
    for layer in json["levels"][0]["layerInstances"].as_array_mut().unwrap() {
        if layer["__identifier"] == "Entities" {
            layer["entityInstances"][0]["defUid"] = serde_json::json!(999_999);
        }
    }
}

/// The identifier of the staged typical project's first level.
fn level_identifier(folder: &Path) -> String {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join(TYPICAL)).unwrap()).unwrap();
    json["levels"][0]["identifier"].as_str().unwrap().to_string()
}

/// The grid entities of level `iid`'s physics.
fn grids_of(app: &mut App, iid: &str) -> Vec<Entity> {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &LdtkLevelPhysics), With<TileGrid>>()
        .iter(world)
        .filter(|(_, p)| p.level_iid == iid)
        .map(|(e, _)| e)
        .collect()
}

fn ready_count(app: &App, iid: &str) -> usize {
    app.world()
        .resource::<Heard>()
        .ready
        .iter()
        .filter(|(i, _)| i == iid)
        .count()
}

#[test]
fn a_spawned_level_is_said_ready_once_with_its_physics_and_again_when_its_mapping_changes() {
    let (mut app, folder, iid) = typical_app("ready-", |_| {});
    wait_for_physics(&mut app, &iid);
    for _ in 0..20 {
        app.update();
    }
    let heard = &app.world().resource::<Heard>().ready;
    assert_eq!(heard, &vec![(iid.clone(), true)], "once, with its physics there");
    let before = solid_cells(&mut app, &iid);
    // The ladders (value 2) made solid: the physics is made again, and the level said ready again.
    app.insert_resource(typical_mapping().with_cell("Collisions", 2, CellKind::Solid));
    app.update();
    assert_eq!(
        ready_count(&app, &iid),
        2,
        "ready again in the frame the mapping changed"
    );
    assert!(solid_cells(&mut app, &iid) > before);
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_level_that_cannot_be_spawned_is_said_refused_with_its_problems() {
    let (mut app, folder, iid) = typical_app("refused-", unspawnable);
    let identifier = level_identifier(&folder);
    update_until(&mut app, "the refusal", |app| {
        !app.world().resource::<Heard>().refused.is_empty()
    });
    let refused = app.world().resource::<Heard>().refused[0].clone();
    assert_eq!(refused.level_iid, iid);
    assert_eq!(refused.level, identifier);
    assert!(
        refused
            .problems
            .iter()
            .any(|p| p.to_string().contains("no entity definition 999999")),
        "{:?}",
        refused.problems
    );
    assert_eq!(ready_count(&app, &iid), 0, "never ready");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_level_asked_to_respawn_is_spawned_again_in_the_next_frame() {
    let (mut app, folder, iid) = typical_app("respawn-", |_| {});
    wait_for_physics(&mut app, &iid);
    app.update();
    let old = grids_of(&mut app, &iid);
    assert_eq!(old.len(), 1);
    // Asked in frame 1 (as a game's restart in `Update` does): cleared after its `Update`, spawned
    // again with its physics in frame 2's `PreUpdate`.
    app.world_mut().write_message(RespawnLdtkLevel::new(&iid));
    app.update();
    assert_eq!(ready_count(&app, &iid), 1, "frame 1: not yet");
    app.update();
    assert_eq!(ready_count(&app, &iid), 2, "frame 2: back");
    let new = grids_of(&mut app, &iid);
    assert_eq!(new.len(), 1, "one grid, the old one gone");
    assert_ne!(new, old, "made again");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn live_reload_plays_a_saved_project_only_while_it_is_enabled() {
    let (mut app, folder, iid) = typical_app("live-", |_| {});
    with_live_reload(&mut app, &folder, false);
    wait_for_physics(&mut app, &iid);
    app.update();
    let before = solid_cells(&mut app, &iid);
    save_edited(&folder, fewer_walls);
    for _ in 0..50 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(
        solid_cells(&mut app, &iid),
        before,
        "disabled: the file is not read again"
    );
    app.world_mut().resource_mut::<LdtkLiveReload>().enabled = true;
    update_until(&mut app, "the saved walls", |app| {
        let now = solid_cells(app, &iid);
        now > 0 && now < before
    });
    assert_eq!(ready_count(&app, &iid), 2, "spawned again once");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_project_saved_with_a_level_that_cannot_spawn_keeps_the_level_and_a_respawn_reads_the_last_good_one() {
    let (mut app, folder, iid) = typical_app("live-broken-", |_| {});
    with_live_reload(&mut app, &folder, true);
    wait_for_physics(&mut app, &iid);
    app.update();
    let (grids, cells) = (grids_of(&mut app, &iid), solid_cells(&mut app, &iid));
    save_edited(&folder, |json| {
        fewer_walls(json);
        unspawnable(json);
    });
    update_until(&mut app, "the error", |app| {
        report_lines(app, |r| &r.errors)
            .iter()
            .any(|e| e.contains("no entity definition 999999") && e.contains(TYPICAL))
    });
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(grids_of(&mut app, &iid), grids, "the level is not spawned again");
    assert_eq!(solid_cells(&mut app, &iid), cells);
    assert_eq!(ready_count(&app, &iid), 1);
    // A restart reads what was read last, not the broken save.
    app.world_mut().write_message(RespawnLdtkLevel::new(&iid));
    update_until(&mut app, "the level back", |app| ready_count(app, &iid) == 2);
    assert_eq!(solid_cells(&mut app, &iid), cells, "the last good walls");
    assert!(app.world().resource::<Heard>().refused.is_empty(), "not refused");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_project_saved_half_way_is_named_and_its_levels_stay() {
    let (mut app, folder, iid) = typical_app("live-half-", |_| {});
    with_live_reload(&mut app, &folder, true);
    wait_for_physics(&mut app, &iid);
    app.update();
    let (grids, cells) = (grids_of(&mut app, &iid), solid_cells(&mut app, &iid));
    let path = folder.join(TYPICAL);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    update_until(&mut app, "the error", |app| {
        report_lines(app, |r| &r.errors)
            .iter()
            .any(|e| e.contains("did not load") && e.contains(TYPICAL))
    });
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(grids_of(&mut app, &iid), grids, "the level stays");
    assert_eq!(solid_cells(&mut app, &iid), cells);
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn live_reload_plays_a_saved_level_file_and_keeps_the_level_when_the_save_cannot_spawn() {
    let folder = staged_from(
        &platformer_tests::data_dir().join("ldtk/samples"),
        "SeparateLevelFiles.ldtk",
        "live-",
    );
    let mut app = pipeline(
        folder.clone(),
        "SeparateLevelFiles.ldtk",
        LdtkPhysicsMapping::default(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    with_live_reload(&mut app, &folder, true);
    let relative = "SeparateLevelFiles/World_Level_0.ldtkl";
    let level_file = folder.join(relative);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&level_file).unwrap()).unwrap();
    let iid = json["iid"].as_str().unwrap().to_string();
    app.insert_resource(LevelSelection::iid(iid.clone()));
    wait_for_physics(&mut app, &iid);
    update_until(&mut app, "walls", |app| solid_cells(app, &iid) > 0);
    let before = solid_cells(&mut app, &iid);
    for layer in json["layerInstances"].as_array_mut().unwrap() {
        if let Some(cells) = layer["intGridCsv"].as_array_mut() {
            for (i, cell) in cells.iter_mut().enumerate() {
                if i % 2 == 0 {
                    *cell = serde_json::json!(0);
                }
            }
        }
    }
    std::fs::write(&level_file, serde_json::to_string(&json).unwrap()).unwrap();
    update_until(&mut app, "fewer walls", |app| {
        let now = solid_cells(app, &iid);
        now > 0 && now < before
    });
    app.update();
    let (grids, fewer) = (grids_of(&mut app, &iid), solid_cells(&mut app, &iid));
    // Saved with a value its layer does not define: bevy_ecs_ldtk would panic; the level stays.
    for layer in json["layerInstances"].as_array_mut().unwrap() {
        if let Some(cells) = layer["intGridCsv"].as_array_mut() {
            cells[0] = serde_json::json!(77);
        }
    }
    std::fs::write(&level_file, serde_json::to_string(&json).unwrap()).unwrap();
    update_until(&mut app, "the error", |app| {
        report_lines(app, |r| &r.errors)
            .iter()
            .any(|e| e.contains("[77] have no definition") && e.contains("World_Level_0.ldtkl"))
    });
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(grids_of(&mut app, &iid), grids, "the level is not spawned again");
    // A restart reads the last good file.
    app.world_mut().write_message(RespawnLdtkLevel::new(&iid));
    for _ in 0..3 {
        app.update();
    }
    assert_ne!(grids_of(&mut app, &iid), grids, "spawned again");
    assert_eq!(solid_cells(&mut app, &iid), fewer, "from the last good file");
    let _ = std::fs::remove_dir_all(folder);
}
