//! Pipes end to end: Down on an upright pipe's mouth takes the player to the bonus room it leads
//! to (a level of the same project), a side pipe brings it back out of another pipe; the clock,
//! the coins and the score go on; a death in the room restarts the level itself.

use crate::common::*;
use bevy::prelude::*;
use serde_json::json;
use slope_bros::gameplay::player::PlayerStatus;
use slope_bros::gameplay::progress::{GameProgress, RunOutcome};
use slope_bros::level::{LevelClock, LevelInfo};
use slope_bros::replay::Replay;

/// A pipe of `cells` (2 × 2 here) with its top-left cell at `cell`.
fn pipe(cell: IVec2, name: &'static str, enter: &'static str, to_level: &'static str, to_pipe: &'static str) -> Placed {
    Placed {
        identifier: "Pipe",
        cell,
        cells: IVec2::new(2, 2),
        fields: vec![
            ("name", json!(name)),
            ("enter", json!(enter)),
            ("to_level", json!(to_level)),
            ("to_pipe", json!(to_pipe)),
        ],
    }
}

/// The main level: the player starts on pipe `in` (columns 3–4; its feet 8 px right of the
/// pipe's middle), pipe `out` stands at columns 14–15. The room: the player comes out on pipe
/// `room_in` (columns 2–3), three coins lie on the floor to its right, and the side pipe `back`
/// (columns 12–13) leads to `out`. `room_floor` is the room's bottom row.
fn pipe_project(name: &str, room_floor: &str) -> std::path::PathBuf {
    let main = [
        "S..................S",
        "S..................S",
        "S..................S",
        "S..................S",
        "S...P..............S",
        "S..................S",
        "S..................S",
        "####################",
    ];
    let room = [
        "SSSSSSSSSSSSSSSS",
        "S..............S",
        "S..............S",
        "S..............S",
        "S..............S",
        "S..............S",
        "S.....ooo......S",
        room_floor,
    ];
    let main_pipes = [
        pipe(IVec2::new(3, 5), "in", "down", "Room", "room_in"),
        pipe(IVec2::new(14, 5), "out", "none", "", ""),
    ];
    let room_pipes = [
        pipe(IVec2::new(2, 5), "room_in", "none", "", ""),
        pipe(IVec2::new(12, 5), "back", "right", "Overworld", "out"),
    ];
    write_project(name, &[("Overworld", &main, &main_pipes), ("Room", &room, &room_pipes)])
}

fn level_name(app: &mut App) -> String {
    app.world().resource::<LevelInfo>().name.clone()
}

/// Steps until the level is `name` (at most `limit` steps); the steps taken.
fn steps_until_level(app: &mut App, name: &str, limit: u32) -> u32 {
    for step in 1..=limit {
        app.update();
        if level_name(app) == name {
            return step;
        }
    }
    panic!("not in level {name} after {limit} steps (in {})", level_name(app));
}

#[test]
fn down_on_a_pipe_leads_to_its_bonus_room_and_a_side_pipe_back_out_of_another_pipe() {
    let level = pipe_project("pipe_trip", "################");
    // Standing on the pipe without Down: nothing happens.
    let replay = Replay::default().hold(30, "").hold(120, "D").hold(300, "R");
    let mut app = app_on(level, replay);
    tick(&mut app, 30);
    assert_eq!(level_name(&mut app), "Overworld");
    let start = player_feet(&mut app);
    assert_eq!(
        start.y,
        app.world().resource::<LevelInfo>().bounds.min.y + 48.0,
        "on the pipe"
    );

    // Down: into the pipe, then out of `room_in`'s top in the room.
    let took = steps_until_level(&mut app, "Room", 120);
    assert!(took >= 36, "going in takes the pipe's time ({took} steps)");
    assert_eq!(player(&mut app).0.status, PlayerStatus::Alive);
    let room = app.world().resource::<LevelInfo>().bounds;
    let feet = player_feet(&mut app);
    assert_eq!(
        feet,
        Vec2::new(room.min.x + 48.0, room.min.y + 48.0),
        "on top of room_in, in its middle"
    );
    assert!(
        room.max.y < -60.0,
        "the room is its own level, below the main one ({room:?})"
    );
    let problems = app.world().resource::<LevelInfo>().problems.clone();
    assert!(problems.is_empty(), "a room needs no Player entity: {problems:?}");

    // Right: off the pipe, over the coins, into the side pipe: back out of `out`.
    let clock_before = app.world().resource::<LevelClock>().steps;
    let back = steps_until_level(&mut app, "Overworld", 300);
    let main = app.world().resource::<LevelInfo>().bounds;
    let feet = player_feet(&mut app);
    // (Right is held: it has taken its first step off the mouth's middle.)
    assert_eq!(feet.y, main.min.y + 48.0, "on top of out");
    assert!(
        (feet.x - (main.min.x + 15.0 * 16.0)).abs() < 1.0,
        "in its middle: {feet}"
    );
    let progress = app.world().resource::<GameProgress>().clone();
    assert_eq!(progress.coins, 3, "the room's coins are kept");
    let clock = *app.world().resource::<LevelClock>();
    assert!(
        clock.steps >= clock_before + u64::from(back) - 5,
        "the clock went on through the pipes ({} steps, {back} since the room)",
        clock.steps
    );
    assert_eq!(app.world().resource::<RunOutcome>().deaths, 0);
}

#[test]
fn a_death_in_a_bonus_room_restarts_the_level_itself() {
    // The room's floor has a pit left of `room_in`.
    let level = pipe_project("pipe_death", "S...############");
    let replay = Replay::default().hold(80, "D").hold(600, "L");
    let mut app = app_on(level, replay);
    tick(&mut app, 1);
    let start = player_feet(&mut app);
    steps_until_level(&mut app, "Room", 120);
    steps_until_level(&mut app, "Overworld", 400);
    assert_eq!(
        app.world().resource::<RunOutcome>().deaths,
        1,
        "the pit killed the player"
    );
    // (Left is held: it has taken its first step.)
    let feet = player_feet(&mut app);
    assert_eq!(feet.y, start.y, "back at the level's own start, on pipe in");
    assert!(
        (feet.x - start.x).abs() < 1.0,
        "back at the level's own start: {feet} against {start}"
    );
}

#[test]
fn only_a_pipe_that_leads_somewhere_is_entered_and_only_from_its_mouth() {
    // The player starts on `out` (it leads nowhere), 8 px right of its middle.
    let main = [
        "S........S",
        "S........S",
        "S....P...S",
        "S........S",
        "S........S",
        "##########",
    ];
    let pipes = [pipe(IVec2::new(4, 3), "out", "down", "", "")];
    let nowhere = write_project("pipe_nowhere", &[("Overworld", &main, &pipes)]);
    let mut app = app_on(nowhere, Replay::default().hold(120, "D"));
    tick(&mut app, 120);
    assert_eq!(
        player(&mut app).0.status,
        PlayerStatus::Alive,
        "a pipe to nowhere is only solid"
    );

    // Standing on a pipe that leads somewhere, but on its rim: a pipe three cells wide
    // (columns 3–5, its middle at 72 px), the player in column 5 (its middle at 88 px).
    let wide = Placed {
        cells: IVec2::new(3, 2),
        ..pipe(IVec2::new(3, 3), "in", "down", "Overworld", "in")
    };
    let rim = write_project("pipe_rim", &[("Overworld", &main, &[wide])]);
    let mut app = app_on(rim, Replay::default().hold(120, "D"));
    tick(&mut app, 120);
    let feet = player_feet(&mut app);
    let bounds = app.world().resource::<LevelInfo>().bounds;
    assert_eq!(feet.y, bounds.min.y + 48.0, "on the pipe");
    assert_eq!(feet.x - bounds.min.x, 88.0, "16 px off the pipe's middle");
    assert_eq!(
        player(&mut app).0.status,
        PlayerStatus::Alive,
        "on the rim Down does nothing"
    );

    // The same with the player over the mouth goes in.
    let centred = Placed {
        cells: IVec2::new(3, 2),
        ..pipe(IVec2::new(4, 3), "in", "down", "Overworld", "in")
    };
    let mouth = write_project("pipe_mouth", &[("Overworld", &main, &[centred])]);
    let mut app = app_on(mouth, Replay::default().hold(120, "D"));
    tick(&mut app, 20);
    assert_eq!(
        player(&mut app).0.status,
        PlayerStatus::InPipe,
        "over the mouth it goes in"
    );
}
