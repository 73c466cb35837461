//! Blocks hit from below: question blocks give a coin or a mushroom once; bricks break for a big
//! player only (a tile edit the physics sees on the next step).

use crate::common::*;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use slope_bros::gameplay::items::{PowerUp, PowerUpKind};
use slope_bros::gameplay::player::Form;
use slope_bros::gameplay::progress::GameProgress;
use slope_bros::level::{Block, LevelInfo};
use slope_bros::replay::Replay;

fn block_cell(app: &App) -> (IVec2, Option<Block>) {
    let info = app.world().resource::<LevelInfo>();
    let cell = IVec2::new(4, info.cells.height as i32 - 1 - 2);
    (cell, info.cells.block(cell))
}

#[test]
fn a_coin_block_gives_one_coin_and_is_used() {
    let mut app = app_on(
        block_level("block", '?'),
        Replay::default().hold(10, "").hold(30, "J").hold(40, "").hold(30, "J"),
    );
    tick(&mut app, 1);
    assert_eq!(block_cell(&app).1, Some(Block::QuestionCoin));
    tick(&mut app, 80);
    assert_eq!(block_cell(&app).1, Some(Block::Used), "the hit block is used");
    assert_eq!(app.world().resource::<GameProgress>().coins, 1);
    tick(&mut app, 60);
    assert_eq!(
        app.world().resource::<GameProgress>().coins,
        1,
        "a used block gives nothing"
    );
}

#[test]
fn a_mushroom_block_releases_a_mushroom_that_walks_with_the_physics() {
    let mut app = app_on(block_level("block", 'M'), Replay::default().hold(10, "").hold(30, "J"));
    tick(&mut app, 60);
    let world = app.world_mut();
    let mushrooms: Vec<Vec2> = world
        .query_filtered::<&Transform, With<PowerUp>>()
        .iter(world)
        .map(|t| t.translation.truncate())
        .collect();
    assert_eq!(mushrooms.len(), 1, "one mushroom came out");
    let start = mushrooms[0];
    tick(&mut app, 30);
    let world = app.world_mut();
    let moved = world
        .query_filtered::<&Transform, With<PowerUp>>()
        .iter(world)
        .next()
        .map(|t| t.translation.truncate());
    // It either still walks or the player already took it (it came out above the player's head).
    if let Some(now) = moved {
        assert!((now.x - start.x).abs() > 5.0, "the mushroom moves: {start} → {now}");
    } else {
        assert_eq!(super_form(&mut app), Form::Big, "the player took the mushroom");
    }
}

fn super_form(app: &mut App) -> Form {
    player(app).0.form
}

#[test]
fn a_small_player_bumps_a_brick_and_a_big_one_breaks_it() {
    let replay = Replay::default().hold(10, "").hold(30, "J").hold(60, "");
    let mut app = app_on(block_level("block", 'B'), replay.clone());
    tick(&mut app, 100);
    assert_eq!(
        block_cell(&app).1,
        Some(Block::Brick),
        "a small player does not break bricks"
    );

    let mut app = app_on(block_level("block", 'B'), replay);
    tick(&mut app, 2);
    // Grow first.
    let feet = player_feet(&mut app);
    let world = app.world_mut();
    slope_bros::gameplay::items::spawn_power_up(&mut world.commands(), PowerUpKind::Mushroom, feet, 1.0);
    world.flush();
    tick(&mut app, 2);
    assert_eq!(super_form(&mut app), Form::Big);
    tick(&mut app, 60);
    let (cell_at, block) = block_cell(&app);
    assert_eq!(block, None, "a big player breaks the brick");
    let info = app.world().resource::<LevelInfo>().clone();
    let world = app.world_mut();
    let grid = world.get::<TileGrid>(info.cells.grid.unwrap()).unwrap();
    assert_eq!(
        grid.get(cell_at.x, cell_at.y),
        TileCell::Empty,
        "the physics grid lost the cell too"
    );
    assert!(app.world().resource::<GameProgress>().score >= 50, "a brick scores");
}
