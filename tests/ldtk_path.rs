//! The game takes the path a Bevy game with LDtk levels takes: `bevy_ecs_ldtk` spawns the level,
//! the plugin's `LdtkPhysicsPlugin` gives it physics, and the game's objects stand where
//! `bevy_ecs_ldtk` placed the level's entities; a restart spawns the level again from its file.

use crate::common::*;
use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::{EntityInstance, LdtkProjectHandle, LevelIid};
use bevy_platformer_physics::TileGrid;
use bevy_platformer_physics::ldtk::LdtkLevelPhysics;
use bevy_platformer_physics::prelude::TileCell;
use slope_bros::app::headless_app;
use slope_bros::gameplay::items::Coin;
use slope_bros::gameplay::player::Player;
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
