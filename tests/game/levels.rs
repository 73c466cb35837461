//! The game's eight levels: each loads headless with no problem, and its committed replay
//! (`levels/replays/<level>.ron`) reaches the goal; the same replay twice gives identical traces;
//! the command line runs headless and writes a trace; foreign LDtk projects load too.

use bevy::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::player::Player;
use slope_bros::gameplay::run::goal::Goal;
use slope_bros::harness::app::headless_app;
use slope_bros::harness::headless::{self, HeadlessRun};
use slope_bros::input::InputSource;
use slope_bros::input::replay::Replay;
use slope_bros::level::{BUILTIN_LEVELS, LevelInfo, LevelSource};

fn replay_of(level: &str) -> Replay {
    let path = root().levels().join("replays").join(format!("{level}.ron"));
    Replay::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_level_loads_without_problems() {
    for (i, name) in BUILTIN_LEVELS.iter().enumerate() {
        let mut app = headless_app(root(), LevelSource::Builtin(i), None, InputSource::Idle);
        app.update();
        let info = app.world().resource::<LevelInfo>().clone();
        assert!(info.problems.is_empty(), "{name}: {:?}", info.problems);
        assert!(info.cells.grid.is_some(), "{name} has a collision grid");
        let world = app.world_mut();
        assert_eq!(world.query::<&Player>().iter(world).count(), 1, "{name}: one player");
        assert!(world.query::<&Goal>().iter(world).count() >= 1, "{name}: a goal");
    }
}

/// Every level has a replay in `levels/replays/` (named after it), and each reaches its level's
/// goal without a death.
#[test]
fn every_committed_replay_reaches_its_goal() {
    let mut checked = Vec::new();
    let dir = root().levels().join("replays");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "ron")) {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let i = BUILTIN_LEVELS
            .iter()
            .position(|l| *l == name)
            .unwrap_or_else(|| panic!("{}: no built-in level is called {name}", file.display()));
        let replay = replay_of(&name);
        assert_eq!(
            replay.level.as_deref(),
            Some(name.as_str()),
            "the replay says which level it is for"
        );
        let report = headless::run(&HeadlessRun {
            root: root(),
            level: LevelSource::Builtin(i),
            replay: Some(replay.clone()),
            frames: replay.len() + 600,
            start: None,
            trace: None,
            run_past_goal: false,
            power_up: Default::default(),
            feel: None,
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            report.completed_at.is_some(),
            "{name}: the replay did not reach the goal; the player ended at {:?} after {} steps with {} deaths",
            report.final_position,
            report.steps,
            report.deaths
        );
        assert_eq!(report.deaths, 0, "{name}: the replay dies {} times", report.deaths);
        checked.push(name);
    }
    let mut every_level: Vec<String> = BUILTIN_LEVELS.iter().map(|l| l.to_string()).collect();
    every_level.sort();
    assert_eq!(checked, every_level, "every level has a replay");
}

#[test]
fn the_same_replay_twice_gives_identical_traces() {
    let replay = replay_of("overworld");
    let run = HeadlessRun {
        root: root(),
        level: LevelSource::Builtin(0),
        replay: Some(replay),
        frames: 900,
        start: None,
        trace: None,
        run_past_goal: true,
        power_up: Default::default(),
        feel: None,
    };
    let first = headless::run(&run).unwrap();
    let second = headless::run(&run).unwrap();
    assert_eq!(first.trace.lines().count(), 901, "a header and one row per step");
    assert!(first.trace == second.trace, "the traces differ");
    let moved = first.final_position.unwrap().x;
    assert!(moved > 200.0, "the replay moved the player ({moved})");
}

#[test]
fn the_command_line_runs_headless_and_writes_a_trace() {
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join(format!("cli-{}.csv", std::process::id()));
    let replay = root().levels().join("replays").join("underground.ron");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_slope_bros_under_test"))
        .args(["--headless", "--level", "underground", "--frames", "120", "--replay"])
        .arg(&replay)
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run slope_bros");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(slope_bros::harness::trace::HEADER));
    assert_eq!(lines.count(), 120, "one row per step");
}

#[test]
fn bad_command_line_input_is_a_clear_error() {
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join(format!("bad-{}.ron", std::process::id()));
    std::fs::write(&bad, "(runs: [(10, \"R\"), (5, \"RZ\")])").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_slope_bros_under_test"))
        .args(["--headless", "--frames", "10", "--replay"])
        .arg(&bad)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains(&bad.display().to_string()) && stderr.contains("'Z'"),
        "{stderr}"
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_slope_bros_under_test"))
        .args(["--headless", "--frames", "10", "--level", "moon"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("moon"), "{stderr}");
}

#[test]
fn a_foreign_ldtk_project_plays_with_its_own_mapping() {
    let sample = platformer_tests::data_dir().join("ldtk");
    let level = LevelSource::File {
        path: sample.join("Typical_2D_platformer_example.ldtk"),
        mapping: Some(sample.join("sample_mapping.ron")),
    };
    let mut app = headless_app(root(), level.clone(), None, InputSource::Idle);
    app.update();
    let info = app.world().resource::<LevelInfo>().clone();
    assert!(info.problems.is_empty(), "{:?}", info.problems);
    let report = headless::run(&HeadlessRun {
        root: root(),
        level,
        replay: Some(Replay::default().hold(60, "").hold(60, "L")),
        frames: 120,
        start: None,
        trace: None,
        run_past_goal: true,
        power_up: Default::default(),
        feel: None,
    })
    .unwrap();
    assert_eq!(report.deaths, 0);
    let rows: Vec<Vec<String>> = report
        .trace
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 120);
    assert_eq!(
        rows[59][6], "true",
        "the player stands on the sample's ground after a second"
    );
    let x = |row: &Vec<String>| row[2].parse::<f32>().unwrap();
    assert!(
        x(&rows[119]) < x(&rows[59]) - 60.0,
        "walking left for a second moves the player left"
    );
}

/// LDtk's own sample projects, of every shape (several worlds, levels in `.ldtkl` files, 8 px
/// grids, free and linear layouts), play with their mappings: the game loads the first level of
/// the first world, and a player walks and jumps in it for three seconds.
#[test]
fn the_ldtk_samples_of_every_shape_play_with_their_mappings() {
    let samples = platformer_tests::data_dir().join("ldtk/samples");
    for project in [
        "SeparateLevelFiles.ldtk",
        "unitTest.ldtk",
        "Test_file_for_API_showing_all_features.ldtk",
        "WorldMap_Free_layout.ldtk",
    ] {
        let level = LevelSource::File {
            path: samples.join(project),
            mapping: Some(samples.join(project.replace(".ldtk", ".physics.ron"))),
        };
        let report = headless::run(&HeadlessRun {
            root: root(),
            level: level.clone(),
            replay: Some(Replay::default().hold(60, "R").hold(60, "RJ").hold(60, "L")),
            frames: 180,
            start: None,
            trace: None,
            run_past_goal: true,
            power_up: Default::default(),
            feel: None,
        })
        .unwrap_or_else(|e| panic!("{project}: {e}"));
        let rows: Vec<&str> = report.trace.lines().skip(1).collect();
        assert_eq!(rows.len(), 180, "{project}: played every frame");
        let mut app = headless_app(root(), level, None, InputSource::Idle);
        app.update();
        let info = app.world().resource::<LevelInfo>().clone();
        // The samples are not Mario levels: no Player entity, unknown entities. Never a problem
        // with the physics mapping or the files.
        assert!(
            info.problems
                .iter()
                .all(|p| !p.contains("mapping") && !p.contains("cannot be read") && !p.contains("no collision layer")),
            "{project}: {:#?}",
            info.problems
        );
    }
}
