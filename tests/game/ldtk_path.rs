//! The game takes the path a Bevy game with LDtk levels takes: `bevy_ecs_ldtk` spawns the level,
//! the plugin's `LdtkPhysicsPlugin` gives it physics, and the game's objects stand where
//! `bevy_ecs_ldtk` placed the level's entities; a restart spawns the level again from its file.

use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::{EntityInstance, LdtkProjectHandle, LevelIid};
use bevy_platformer_physics::TileGrid;
use bevy_platformer_physics::ldtk::{LdtkLevelPhysics, LdtkLiveReload};
use bevy_platformer_physics::prelude::TileCell;
use platformer_tests::game::*;
use slope_bros::gameplay::objects::items::Coin;
use slope_bros::gameplay::player::Player;
use slope_bros::harness::app::headless_app;
use slope_bros::input::InputSource;
use slope_bros::level::{BUILTIN_LEVELS, Block, LevelClock, LevelInfo, LevelSource, LoadLevel};

/// Where `bevy_ecs_ldtk` put the entities named `identifier` (their centres, rounded to 1/100 px).
fn instances(app: &mut App, identifier: &str) -> Vec<(i64, i64)> {
    let world = app.world_mut();
    let mut query = world.query::<(&EntityInstance, &GlobalTransform)>();
    let mut at: Vec<(i64, i64)> = query
        .iter(world)
        .filter(|(e, _)| e.identifier == identifier)
        .map(|(_, t)| rounded(t.translation().truncate()))
        .collect();
    at.sort_unstable();
    at
}

fn rounded(v: Vec2) -> (i64, i64) {
    ((v.x * 100.0).round() as i64, (v.y * 100.0).round() as i64)
}

#[test]
fn each_level_is_spawned_by_bevy_ecs_ldtk_with_the_plugins_physics_and_the_objects_where_its_entities_are() {
    for (i, name) in BUILTIN_LEVELS.iter().enumerate() {
        let mut app = headless_app(root(), LevelSource::Builtin(i), None, InputSource::Idle);
        let info = app.world().resource::<LevelInfo>().clone();
        let world = app.world_mut();
        assert_eq!(
            world.query::<&LdtkProjectHandle>().iter(world).count(),
            1,
            "{name}: one LDtk world"
        );
        let levels: Vec<String> = world
            .query::<&LevelIid>()
            .iter(world)
            .map(|l| l.get().clone())
            .collect();
        assert_eq!(levels.len(), 1, "{name}: one level spawned");
        let grid = info.cells.grid.expect("a collision grid");
        let physics = world.get::<LdtkLevelPhysics>(grid).expect("the grid is the bridge's");
        assert_eq!(physics.level_iid, levels[0], "{name}: the grid is the spawned level's");
        // Transforms propagate at the end of a frame.
        app.update();
        let coins = instances(&mut app, "Coin");
        assert!(!coins.is_empty(), "{name} has coins");
        let world = app.world_mut();
        let mut spawned: Vec<(i64, i64)> = world
            .query_filtered::<&Transform, With<Coin>>()
            .iter(world)
            .map(|t| rounded(t.translation.truncate()))
            .collect();
        spawned.sort_unstable();
        assert_eq!(
            spawned, coins,
            "{name}: a coin on each Coin entity bevy_ecs_ldtk spawned"
        );
    }
}

#[test]
fn a_restart_spawns_the_level_again_from_its_file_before_the_next_step() {
    let mut app = headless_app(root(), LevelSource::Builtin(0), None, InputSource::Idle);
    let info = app.world().resource::<LevelInfo>().clone();
    let brick = (0..info.cells.height as i32)
        .flat_map(|y| (0..info.cells.width as i32).map(move |x| IVec2::new(x, y)))
        .find(|&cell| info.cells.block(cell) == Some(Block::Brick))
        .expect("the overworld has a brick");
    // The brick is broken: gone from the game's cells and from the physics grid.
    let grid = info.cells.grid.unwrap();
    app.world_mut()
        .get_mut::<TileGrid>(grid)
        .unwrap()
        .set(brick.x, brick.y, TileCell::Empty);
    app.world_mut().resource_mut::<LevelInfo>().cells.set_block(brick, None);
    tick(&mut app, 30);
    app.world_mut().write_message(LoadLevel);
    // As when a death asks for it in a step: this frame's step still plays the old level and its
    // `Update` restarts it, and its objects stay until the new ones replace them (the frame
    // between is drawn with them)...
    tick(&mut app, 1);
    let world = app.world_mut();
    assert_eq!(
        world.query::<&Player>().iter(world).count(),
        1,
        "the player until the new one"
    );
    // ...so that the next frame's step is the new level's first.
    tick(&mut app, 1);
    assert_eq!(
        app.world().resource::<LevelClock>().steps,
        1,
        "the level's clock started over"
    );
    let info = app.world().resource::<LevelInfo>().clone();
    assert_eq!(
        info.cells.block(brick),
        Some(Block::Brick),
        "the brick is back in the game's cells"
    );
    let grid = info.cells.grid.unwrap();
    assert_eq!(
        app.world().get::<TileGrid>(grid).unwrap().get(brick.x, brick.y),
        TileCell::Solid,
        "and in the physics"
    );
    let world = app.world_mut();
    assert_eq!(
        world.query::<&TileGrid>().iter(world).count(),
        1,
        "one grid: the old one is gone"
    );
}

/// A folder of its own under the temporary folder, emptied.
fn scratch(name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("slope_bros-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Updates `app` (as the window does, between checks of the files) until `done` holds.
fn play_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..1000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("never: {what}");
}

fn count<C: Component>(app: &mut App) -> usize {
    let world = app.world_mut();
    world.query_filtered::<(), With<C>>().iter(world).count()
}

/// How many cells of the level's physics grids are solid.
fn solid_cells(app: &mut App) -> usize {
    let world = app.world_mut();
    world
        .query_filtered::<&TileGrid, With<LdtkLevelPhysics>>()
        .iter(world)
        .map(|grid| {
            (0..grid.width() as i32)
                .flat_map(|x| (0..grid.height() as i32).map(move |y| (x, y)))
                .filter(|&(x, y)| grid.get(x, y) == TileCell::Solid)
                .count()
        })
        .sum()
}

#[test]
fn a_level_saved_while_it_is_played_plays_the_edit() {
    let folder = scratch("live-edit");
    let file = folder.join("overworld.ldtk");
    std::fs::copy(root().levels().join("overworld.ldtk"), &file).unwrap();
    let level = LevelSource::File {
        path: file.clone(),
        mapping: Some(root().levels().join("mapping.ron")),
    };
    let mut app = headless_app(root(), level, None, InputSource::Idle);
    app.world_mut().resource_mut::<LdtkLiveReload>().enabled = true;
    assert!(count::<Coin>(&mut app) > 0, "the overworld has coins");
    tick(&mut app, 60);
    let coins = count::<Coin>(&mut app);
    // Saved half-way: reported, and the level being played stays.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, &text[..text.len() / 2]).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(600));
    tick(&mut app, 5);
    assert_eq!(count::<Coin>(&mut app), coins, "the level stays");
    assert_eq!(count::<TileGrid>(&mut app), 1, "with its physics");
    assert!(app.world().resource::<LevelClock>().steps > 60, "and goes on");
    // The designer takes every coin away and gives the level 123 s, and saves.
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let level = &mut json["levels"][0];
    for field in level["fieldInstances"].as_array_mut().unwrap() {
        if field["__identifier"] == "time_limit" {
            field["__value"] = serde_json::json!(123);
        }
    }
    for layer in level["layerInstances"].as_array_mut().unwrap() {
        if let Some(entities) = layer["entityInstances"].as_array_mut() {
            entities.retain(|e| e["__identifier"] != "Coin");
        }
    }
    std::fs::write(&file, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    play_until(&mut app, "the edited level", |app| {
        app.world().resource::<LevelInfo>().time_limit == 123.0
    });
    assert_eq!(count::<Coin>(&mut app), 0, "no coin left");
    assert_eq!(count::<Player>(&mut app), 1, "one player");
    assert_eq!(count::<TileGrid>(&mut app), 1, "one physics grid");
    // The frame that spawned it again played its first step.
    assert!(app.world().resource::<LevelClock>().steps <= 1, "the level starts over");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_level_file_or_mapping_saved_while_it_is_played_plays_the_edit() {
    let samples = platformer_tests::data_dir().join("ldtk/samples");
    let folder = scratch("live-edit-files");
    std::fs::copy(
        samples.join("SeparateLevelFiles.ldtk"),
        folder.join("SeparateLevelFiles.ldtk"),
    )
    .unwrap();
    std::fs::create_dir_all(folder.join("SeparateLevelFiles")).unwrap();
    for file in std::fs::read_dir(samples.join("SeparateLevelFiles")).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(&file, folder.join("SeparateLevelFiles").join(file.file_name().unwrap())).unwrap();
    }
    let mapping = folder.join("mapping.ron");
    std::fs::write(&mapping, "()").unwrap();
    let level = LevelSource::File {
        path: folder.join("SeparateLevelFiles.ldtk"),
        mapping: Some(mapping.clone()),
    };
    let mut app = headless_app(root(), level, None, InputSource::Idle);
    assert_eq!(app.world().resource::<slope_bros::level::LevelLoadError>().0, None);
    app.world_mut().resource_mut::<LdtkLiveReload>().enabled = true;
    let before = solid_cells(&mut app);
    assert!(before > 0, "the first level has walls");
    // Its own file saved with every other wall removed.
    let level_file = folder.join("SeparateLevelFiles/World_Level_0.ldtkl");
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&level_file).unwrap()).unwrap();
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
    play_until(&mut app, "fewer walls", |app| {
        let now = solid_cells(app);
        now > 0 && now < before
    });
    let fewer = solid_cells(&mut app);
    // The mapping saved with the walls made one-way platforms: the grid has no solid cell left.
    std::fs::write(&mapping, r#"(layers: {"IntGrid": {"walls": OneWay}})"#).unwrap();
    play_until(&mut app, "no solid wall", |app| solid_cells(app) == 0);
    assert_eq!(count::<Player>(&mut app), 1, "one player");
    assert!(fewer < before);
    let _ = std::fs::remove_dir_all(folder);
}
