//! Pipes end to end: Down on an upright pipe's mouth takes the player to the bonus room it leads
//! to (a level of the same project), a side pipe brings it back out of another pipe; the clock,
//! the coins and the score go on; a death in the room restarts the level itself.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use serde_json::json;
use slope_bros::gameplay::objects::pipe::{Pipe, PipeEntry};
use slope_bros::gameplay::player::{Player, PlayerStatus};
use slope_bros::gameplay::run::progress::{GameProgress, RunOutcome};
use slope_bros::harness::app::headless_app;
use slope_bros::input::InputSource;
use slope_bros::input::replay::{Replay, ReplayCursor};
use slope_bros::level::{BUILTIN_LEVELS, LevelClock, LevelInfo, LevelSource};
use slope_bros::schedule::GameSystems;

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

/// The pipes of the level now being played: name, entry, where it leads, its box.
fn pipes_here(app: &mut App) -> Vec<(Pipe, Aabb)> {
    let world = app.world_mut();
    world
        .query::<(&Pipe, &Transform, &Collider)>()
        .iter(world)
        .map(|(pipe, transform, collider)| (pipe.clone(), collider.aabb(transform.translation.truncate())))
        .collect()
}

/// Where to put the player's feet at the start of the next step.
#[derive(Resource)]
struct PutPlayer(Vec2);

/// Moves the player as the game itself would, inside the fixed step (a move between updates
/// would be undone by the transform easing).
fn put_player_in_step(
    mut commands: Commands,
    put: Option<Res<PutPlayer>>,
    mut players: Query<(&mut Transform, &Collider, &mut Velocity), With<Player>>,
) {
    let Some(put) = put else { return };
    for (mut transform, collider, mut velocity) in &mut players {
        transform.translation = (put.0 + Vec2::Y * collider.size.y / 2.0).extend(transform.translation.z);
        velocity.0 = Vec2::ZERO;
    }
    commands.remove_resource::<PutPlayer>();
}

/// Puts the player's feet at `feet`, still, in the next step.
fn put_player(app: &mut App, feet: Vec2) {
    app.insert_resource(PutPlayer(feet));
}

/// The game's own levels, pipe by pipe: the player put on each pipe that leads to a room and
/// holding Down goes into the room (which loads with no problem) and comes out on the pipe it
/// names; put on the room's floor left of its side pipe and holding Right, it goes back and comes
/// out on the main level's pipe that one names. Every level with a room is tried.
#[test]
fn the_levels_pipes_lead_to_their_rooms_and_back() {
    let mut rooms_visited = 0;
    for (i, level) in BUILTIN_LEVELS.iter().enumerate() {
        let replay = Replay::default().hold(150, "D").hold(300, "R");
        let mut app = headless_app(
            root(),
            LevelSource::Builtin(i),
            None,
            InputSource::Replay(ReplayCursor::new(&replay)),
        );
        app.add_systems(FixedUpdate, put_player_in_step.before(GameSystems::Intent));
        app.update();
        let main_level = level_name(&mut app);
        let Some((down, mouth)) = pipes_here(&mut app)
            .into_iter()
            .find(|(pipe, _)| pipe.entry == PipeEntry::Down && pipe.leads_to.is_some())
        else {
            continue;
        };
        let to = down.leads_to.clone().unwrap();
        put_player(&mut app, Vec2::new(mouth.center().x, mouth.max.y));
        let mut steps = 1 + steps_until_level(&mut app, &to.level, 140);
        tick(&mut app, 2);
        steps += 2;
        let problems = app.world().resource::<LevelInfo>().problems.clone();
        assert!(problems.is_empty(), "{level}: room {}: {problems:?}", to.level);
        let room_pipes = pipes_here(&mut app);
        let (_, arrival) = room_pipes
            .iter()
            .find(|(pipe, _)| pipe.name == to.pipe)
            .unwrap_or_else(|| panic!("{level}: room {} has no pipe {}", to.level, to.pipe));
        let feet = player_feet(&mut app);
        assert!(
            (feet.y - arrival.max.y).abs() < 0.5 && (feet.x - arrival.center().x).abs() < 1.0,
            "{level}: the player comes out on {} ({arrival:?}), feet at {feet}",
            to.pipe
        );

        let (exit, exit_box) = room_pipes
            .iter()
            .find(|(pipe, _)| pipe.entry == PipeEntry::Right && pipe.leads_to.is_some())
            .unwrap_or_else(|| panic!("{level}: room {} has no side pipe out", to.level));
        let back = exit.leads_to.clone().unwrap();
        assert_eq!(back.level, main_level, "{level}: the room leads back to its level");
        // Down is held for the first 150 steps, then Right.
        tick(&mut app, 150u32.saturating_sub(steps));
        put_player(&mut app, Vec2::new(exit_box.min.x - 12.0, exit_box.min.y));
        steps_until_level(&mut app, &main_level, 140);
        tick(&mut app, 2);
        let out = pipes_here(&mut app)
            .into_iter()
            .find(|(pipe, _)| pipe.name == back.pipe)
            .unwrap_or_else(|| panic!("{level}: no pipe {} to come back out of", back.pipe))
            .1;
        let feet = player_feet(&mut app);
        assert!(
            (feet.y - out.max.y).abs() < 0.5 && (feet.x - out.center().x).abs() < 4.0,
            "{level}: back out on {} ({out:?}), feet at {feet}",
            back.pipe
        );
        assert_eq!(app.world().resource::<RunOutcome>().deaths, 0, "{level}");
        rooms_visited += 1;
    }
    assert!(
        rooms_visited >= 3,
        "the overworld, hills and caverns have rooms: {rooms_visited} visited"
    );
}
