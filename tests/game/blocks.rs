//! Blocks hit from below: question blocks give a coin or a mushroom once; bricks break for a big
//! player only (a tile edit the physics sees on the next step).

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::objects::items::{PowerUp, PowerUpKind, Rising, spawn_power_up};
use slope_bros::gameplay::player::Form;
use slope_bros::gameplay::run::progress::GameProgress;
use slope_bros::input::replay::Replay;
use slope_bros::level::{Block, LevelInfo};
use slope_bros::tuning::Tuning;

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

/// The power-up's position and whether it is still rising, if there is one.
fn the_power_up(app: &mut App) -> Option<(Vec2, bool)> {
    let world = app.world_mut();
    world
        .query_filtered::<(&Transform, Has<Rising>), With<PowerUp>>()
        .iter(world)
        .next()
        .map(|(t, rising)| (t.translation.truncate(), rising))
}

/// Frame by frame: the step the block is bumped, a mushroom appears standing on the block, rising;
/// for the rise time it stays exactly there; then it is out and slides off.
#[test]
fn a_power_up_rises_out_of_its_block_then_moves() {
    let mut app = app_on(block_level("rise", 'M'), Replay::default().hold(10, "").hold(30, "J"));
    let rise_steps = (app.world().resource::<Tuning>().items.power_up_rise_time * 60.0).round() as u32;
    let mut appeared = None;
    for _ in 0..60 {
        tick(&mut app, 1);
        if let Some(found) = the_power_up(&mut app) {
            appeared = Some(found);
            break;
        }
    }
    let (start, rising) = appeared.expect("a mushroom came out of the block");
    assert!(rising, "it starts rising");
    let block_top = {
        let info = app.world().resource::<LevelInfo>();
        info.cells.cell_rect(block_cell(&app).0).max.y
    };
    assert!(
        (start.y - POWER_UP_HALF_HEIGHT - block_top).abs() < 0.01,
        "it waits standing on the block: feet {} on {block_top}",
        start.y - POWER_UP_HALF_HEIGHT
    );
    for step in 1..rise_steps - 1 {
        tick(&mut app, 1);
        assert_eq!(
            the_power_up(&mut app),
            Some((start, true)),
            "still rising at step {step}"
        );
    }
    tick(&mut app, 30);
    let (now, rising) = the_power_up(&mut app).expect("the mushroom is still there");
    assert!(!rising, "it is out");
    assert!((now.x - start.x).abs() > 5.0, "out, it slides: {start} → {now}");
}

const POWER_UP_HALF_HEIGHT: f32 = slope_bros::gameplay::objects::items::POWER_UP_SIZE.y / 2.0;

/// A rising power-up on the player's feet is not taken until it is out.
#[test]
fn a_rising_power_up_cannot_be_taken() {
    let mut app = app_on(block_level("rise_take", 'U'), Replay::default().hold(200, ""));
    tick(&mut app, 5);
    let feet = player_feet(&mut app);
    let world = app.world_mut();
    spawn_power_up(&mut world.commands(), PowerUpKind::Mushroom, feet, 1.0, 0.5);
    world.flush();
    tick(&mut app, 27);
    assert_eq!(super_form(&mut app), Form::Small, "not taken while rising");
    assert!(the_power_up(&mut app).is_some());
    tick(&mut app, 10);
    assert_eq!(super_form(&mut app), Form::Big, "taken once out");
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
    slope_bros::gameplay::objects::items::spawn_power_up(&mut world.commands(), PowerUpKind::Mushroom, feet, 1.0, 0.0);
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
