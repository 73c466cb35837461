//! What the game's binary does with its command line: play, play headless, or plan a replay.

use std::process::ExitCode;

use crate::harness::cli::{Options, USAGE};
use crate::harness::headless::{self, HeadlessRun};
use crate::input::replay::Replay;
use crate::level::LevelSource;
use crate::paths::DataRoot;
use crate::presentation::ProcessStart;

/// Parses the process's arguments and does what they ask; the exit code says how it went
/// (2: a bad command line, 1: an error, printed).
pub fn run_command_line() -> ExitCode {
    // First: the start-up time the game logs counts from here.
    let start = ProcessStart::now();
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if options.help {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match run(options, start) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: Options, start: ProcessStart) -> Result<(), String> {
    let root = DataRoot::locate()?;
    let level = match &options.level {
        Some(level) => Some(LevelSource::parse(level, options.mapping.clone())?),
        None => None,
    };
    let replay = match &options.replay {
        Some(path) => Some(Replay::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    if let Some(out) = &options.autopilot {
        let level = level.unwrap_or(LevelSource::Builtin(0));
        let seed = std::env::var("SLOPE_BROS_AUTOPILOT_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x5eed);
        let start: Vec<_> = replay.as_ref().map_or_else(Vec::new, |old| {
            let mut cursor = crate::input::replay::ReplayCursor::new(old);
            (0..old.len()).map(|_| cursor.next_frame()).collect()
        });
        // The plan so far is written after every round: stopped, it resumes with --replay.
        let mut save = |so_far: &crate::input::replay::Replay| {
            if let Err(e) = std::fs::write(out, so_far.to_ron()) {
                eprintln!("cannot write {}: {e}", out.display());
            }
        };
        let replay = crate::harness::autopilot::plan(&root, &level, seed, 600, &start, &mut save)?;
        std::fs::write(out, replay.to_ron()).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {} steps to {}", replay.len(), out.display());
        return Ok(());
    }
    if options.headless {
        let level = level
            .or_else(|| {
                replay
                    .as_ref()
                    .and_then(|r| r.level.as_deref())
                    .and_then(|l| LevelSource::parse(l, None).ok())
            })
            .unwrap_or(LevelSource::Builtin(0));
        let report = headless::run(&HeadlessRun {
            root,
            level,
            replay,
            frames: options.frames.unwrap_or(0),
            start: options.start,
            trace: options.trace.clone(),
            run_past_goal: false,
            power_up: options.power_up.unwrap_or_default(),
            feel: options.feel,
        })?;
        println!(
            "steps {} · goal {} · deaths {} · score {} · final position {}",
            report.steps,
            report
                .completed_at
                .map_or("not reached".to_string(), |s| format!("reached at step {s}")),
            report.deaths,
            report.score,
            report
                .final_position
                .map_or("-".to_string(), |p| format!("({:.1}, {:.1})", p.x, p.y)),
        );
        return Ok(());
    }
    crate::harness::app::run_windowed(root, level, replay, &options, start)
}
