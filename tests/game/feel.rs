//! The classic feel against Super Mario Bros.: every quantity of the player's motion that
//! `docs/feel.md` lists, measured from headless runs of the real player on a flat level, within
//! 10 % of the reference value. `cargo test -p platformer_tests --test game feel:: -- --nocapture` prints the table.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::player::Player;
use slope_bros::input::replay::Replay;
use slope_bros::tuning::Feel;

const FLAT: [&str; 10] = [
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..P...........................................................S",
    "################################################################",
];

/// One step of 60.
const DT: f32 = 1.0 / 60.0;

/// The player's state after each step.
#[derive(Clone, Copy, Debug)]
struct Sample {
    v: Vec2,
    feet: f32,
    on_floor: bool,
}

/// Plays `replay` with the classic feel and samples the player after every step.
fn play(replay: Replay) -> Vec<Sample> {
    let steps = replay.len() as u32;
    let mut app = app_on(write_level("feel", &FLAT, &[]), replay);
    app.insert_resource(Feel::Classic);
    let mut samples = Vec::new();
    for _ in 0..steps {
        tick(&mut app, 1);
        let feet = player_feet(&mut app).y;
        let world = app.world_mut();
        let (v, contacts) = world
            .query_filtered::<(&Velocity, &Contacts), With<Player>>()
            .single(world)
            .unwrap();
        samples.push(Sample {
            v: v.0,
            feet,
            on_floor: contacts.on_floor(),
        });
    }
    samples
}

/// The rate of change of `f` over samples `from..to`, per second.
fn rate(samples: &[Sample], from: usize, to: usize, f: impl Fn(&Sample) -> f32) -> f32 {
    (f(&samples[to]) - f(&samples[from])) / ((to - from) as f32 * DT)
}

/// The index of the first sample after `start` where `f` holds.
fn first(samples: &[Sample], start: usize, f: impl Fn(&Sample) -> bool) -> usize {
    (start..samples.len()).find(|&i| f(&samples[i])).expect("it happens")
}

/// A quantity measured, its reference (a value, or a range) and whether it is within 10 %.
struct Row {
    name: &'static str,
    measured: f32,
    low: f32,
    high: f32,
}

impl Row {
    fn value(name: &'static str, measured: f32, reference: f32) -> Self {
        Self::range(name, measured, reference, reference)
    }

    fn range(name: &'static str, measured: f32, low: f32, high: f32) -> Self {
        Self {
            name,
            measured,
            low,
            high,
        }
    }

    fn within_ten_percent(&self) -> bool {
        self.measured >= self.low * 0.9 && self.measured <= self.high * 1.1
    }
}

#[test]
fn the_classic_feel_is_within_ten_percent_of_super_mario_bros() {
    let mut rows = Vec::new();
    let settle = Replay::default().hold(10, "");

    // Top speeds, and the ground accelerations from rest.
    let walk = play(settle.clone().hold(150, "R"));
    let run = play(settle.clone().hold(150, "RB"));
    let top = |s: &[Sample]| s.iter().map(|s| s.v.x).fold(0.0, f32::max);
    rows.push(Row::value("walk top speed (px/s)", top(&walk), 90.0));
    rows.push(Row::value("run top speed (px/s)", top(&run), 150.0));
    rows.push(Row::value(
        "walk acceleration (px/s²)",
        rate(&walk, 11, 25, |s| s.v.x),
        134.0,
    ));
    rows.push(Row::value(
        "run acceleration (px/s²)",
        rate(&run, 11, 25, |s| s.v.x),
        200.0,
    ));

    // Letting go at walking and at running speed; turning back at each (a skid).
    let release_walk = play(settle.clone().hold(150, "R").hold(30, ""));
    let release_run = play(settle.clone().hold(150, "RB").hold(30, ""));
    let skid_walk = play(settle.clone().hold(150, "R").hold(30, "L"));
    let skid_run = play(settle.clone().hold(150, "RB").hold(30, "LB"));
    let slowing = |s: &[Sample]| -rate(s, 161, 167, |s| s.v.x);
    rows.push(Row::value(
        "release deceleration, walking (px/s²)",
        slowing(&release_walk),
        134.0,
    ));
    rows.push(Row::value(
        "release deceleration, running (px/s²)",
        slowing(&release_run),
        183.0,
    ));
    rows.push(Row::value(
        "skid deceleration, walking (px/s²)",
        slowing(&skid_walk),
        267.0,
    ));
    rows.push(Row::value(
        "skid deceleration, running (px/s²)",
        slowing(&skid_run),
        366.0,
    ));

    // A full standing jump, with right held in the air: launch, air acceleration, the gravity
    // while rising with jump held, the top fall speed, the height and the time in the air.
    let standing = play(settle.clone().hold(1, "J").hold(25, "JR").hold(60, "J"));
    let up = first(&standing, 10, |s| !s.on_floor);
    let landed = first(&standing, up + 1, |s| s.on_floor);
    let ground = standing[up - 1].feet;
    rows.push(Row::value("launch speed, standing (px/s)", standing[up].v.y, 240.0));
    rows.push(Row::value(
        "air acceleration (px/s²)",
        rate(&standing, up + 2, up + 12, |s| s.v.x),
        134.0,
    ));
    rows.push(Row::range(
        "gravity rising with jump held (px/s²)",
        -rate(&standing, up + 2, up + 12, |s| s.v.y),
        420.0,
        560.0,
    ));
    let lowest = standing.iter().map(|s| s.v.y).fold(0.0, f32::min);
    rows.push(Row::value("top fall speed (px/s)", -lowest, 240.0));
    let apex = standing.iter().map(|s| s.feet).fold(f32::MIN, f32::max);
    rows.push(Row::value("full jump height, standing (px)", apex - ground, 62.0));
    rows.push(Row::value(
        "air time of a full standing jump (s)",
        (landed - up) as f32 * DT,
        0.87,
    ));

    // A running jump: launch, height, and its gravity with jump held.
    let running = play(settle.clone().hold(150, "RB").hold(60, "RBJ"));
    let up = first(&running, 161, |s| !s.on_floor);
    let ground = running[up - 1].feet;
    let apex = running.iter().map(|s| s.feet).fold(f32::MIN, f32::max);
    rows.push(Row::value("launch speed, running (px/s)", running[up].v.y, 300.0));
    rows.push(Row::range(
        "gravity rising with jump held, running (px/s²)",
        -rate(&running, up + 2, up + 12, |s| s.v.y),
        420.0,
        560.0,
    ));
    rows.push(Row::value("full jump height, running (px)", apex - ground, 78.0));

    // A jump let go of at once: the gravity after release, while still rising.
    let tapped = play(settle.clone().hold(2, "J").hold(40, ""));
    let up = first(&tapped, 10, |s| !s.on_floor);
    let rising_until = first(&tapped, up, |s| s.v.y <= 0.0);
    rows.push(Row::range(
        "gravity rising after release (px/s²)",
        -rate(&tapped, up + 2, rising_until - 1, |s| s.v.y),
        1350.0,
        2025.0,
    ));

    println!("| quantity | reference | classic, measured |");
    println!("| --- | ---: | ---: |");
    for row in &rows {
        let reference = if row.low == row.high {
            format!("{}", row.low)
        } else {
            format!("{}–{}", row.low, row.high)
        };
        println!("| {} | {reference} | {:.2} |", row.name, row.measured);
    }
    let off: Vec<String> = rows
        .iter()
        .filter(|r| !r.within_ten_percent())
        .map(|r| format!("{}: {} (reference {}–{})", r.name, r.measured, r.low, r.high))
        .collect();
    assert!(off.is_empty(), "more than 10 % off Super Mario Bros.: {off:#?}");
}

#[test]
fn a_replay_names_its_feel_and_plays_with_it() {
    let replay = Replay {
        feel: Feel::Classic,
        ..Replay::default().hold(150, "RB")
    };
    let text = replay.to_ron();
    assert!(text.contains("feel: Classic"), "{text}");
    let back = Replay::from_ron(&text, std::path::Path::new("r.ron")).unwrap();
    assert_eq!(back, replay);
    // Without the field: the modern feel, as every replay recorded before it.
    let old = Replay::from_ron("(runs: [(1, \"R\")])", std::path::Path::new("old.ron")).unwrap();
    assert_eq!(old.feel, Feel::Modern);
    // Headless runs take the replay's feel: the classic run tops out at its 150 px/s, the modern
    // one at the same speed but sooner.
    let top_speed_at = |feel: Feel, step: u64| speed_at(feel, None, step);
    assert!(
        top_speed_at(Feel::Modern, 30) > top_speed_at(Feel::Classic, 30) + 20.0,
        "half a second in, the modern feel is faster"
    );
    // `--feel` wins over the replay's feel, as in the windowed game.
    assert_eq!(
        speed_at(Feel::Modern, Some(Feel::Classic), 30),
        top_speed_at(Feel::Classic, 30),
        "a modern replay run with --feel classic"
    );
}

/// The player's speed after `step` steps of a headless run holding run-right on flat ground, with
/// a replay of `replay_feel` and `--feel` `option`.
fn speed_at(replay_feel: Feel, option: Option<Feel>, step: u64) -> f32 {
    let report = slope_bros::harness::headless::run(&slope_bros::harness::headless::HeadlessRun {
        root: root(),
        level: slope_bros::level::LevelSource::File {
            path: write_level("feel-replay", &FLAT, &[]),
            mapping: Some(root().levels().join("mapping.ron")),
        },
        replay: Some(Replay {
            feel: replay_feel,
            ..Replay::default().hold(150, "RB")
        }),
        frames: step,
        start: None,
        trace: None,
        run_past_goal: true,
        power_up: Default::default(),
        feel: option,
    })
    .unwrap();
    let last = report.trace.lines().last().unwrap().to_string();
    last.split(',').nth(4).unwrap().parse::<f32>().unwrap()
}
