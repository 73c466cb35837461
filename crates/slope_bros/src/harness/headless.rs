//! Headless runs: the real game rules without a window or GPU, one fixed step per frame, for
//! tests and bug reports. Deterministic: the same level and replay give the same trace.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::gameplay::player::{Form, Player};
use crate::gameplay::run::progress::{GameProgress, RunOutcome};
use crate::harness::app::headless_app_starting_as;
use crate::harness::trace::Trace;
use crate::input::InputSource;
use crate::input::replay::{Replay, ReplayCursor};
use crate::level::{LevelLoadError, LevelSource};
use crate::paths::DataRoot;
use crate::tuning::Feel;

/// A headless run.
#[derive(Clone, Debug)]
pub struct HeadlessRun {
    /// Where the data is.
    pub root: DataRoot,
    /// The level.
    pub level: LevelSource,
    /// Input, frame by frame (nothing held when absent or after its end).
    pub replay: Option<Replay>,
    /// Steps to run at most (stops early when the level is done, after the goal's finale, or at
    /// game over).
    pub frames: u64,
    /// A start position for the player's feet instead of the level's `Player` entity.
    pub start: Option<Vec2>,
    /// Write the trace here.
    pub trace: Option<PathBuf>,
    /// Keep running after the goal is reached (until `frames`).
    pub run_past_goal: bool,
    /// The form the player starts in.
    pub power_up: Form,
    /// How the player moves (`--feel`); `None`: the replay's feel (the modern one without a
    /// replay).
    pub feel: Option<Feel>,
}

/// What a headless run came to.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadlessReport {
    /// Steps run.
    pub steps: u64,
    /// The step at which the goal was reached.
    pub completed_at: Option<u64>,
    /// Deaths.
    pub deaths: u32,
    /// The player's final position.
    pub final_position: Option<Vec2>,
    /// Score at the end.
    pub score: u32,
    /// The trace (CSV).
    pub trace: String,
}

/// Plays `run`; an unusable level or replay is an error naming the file.
pub fn run(run: &HeadlessRun) -> Result<HeadlessReport, String> {
    let input = match &run.replay {
        Some(replay) => InputSource::Replay(ReplayCursor::new(replay)),
        None => InputSource::Idle,
    };
    let mut app = headless_app_starting_as(run.root.clone(), run.level.clone(), run.start, input, run.power_up);
    if let Some(feel) = run.feel.or(run.replay.as_ref().map(|r| r.feel)) {
        app.insert_resource(feel);
    }
    let mut steps = 0;
    while steps < run.frames {
        app.update();
        steps += 1;
        if let Some(error) = &app.world().resource::<LevelLoadError>().0 {
            return Err(error.clone());
        }
        let outcome = app.world().resource::<RunOutcome>();
        if outcome.game_over || (outcome.level_done && !run.run_past_goal) {
            break;
        }
    }
    let trace = app.world().resource::<Trace>().to_csv();
    if let Some(path) = &run.trace {
        std::fs::write(path, &trace).map_err(|e| format!("cannot write the trace {}: {e}", path.display()))?;
    }
    let world = app.world_mut();
    let outcome = world.resource::<RunOutcome>().clone();
    let score = world.resource::<GameProgress>().score;
    let final_position = world
        .query_filtered::<&Transform, With<Player>>()
        .iter(world)
        .next()
        .map(|t| t.translation.truncate());
    Ok(HeadlessReport {
        steps,
        completed_at: outcome.completed_at,
        deaths: outcome.deaths,
        final_position,
        score,
        trace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::app::headless_app;
    use crate::level::LevelClock;

    #[test]
    fn each_update_is_exactly_one_fixed_step() {
        let mut app = headless_app(DataRoot::built_from(), LevelSource::Builtin(0), None, InputSource::Idle);
        let mut counts = Vec::new();
        for _ in 0..300 {
            app.update();
            counts.push(app.world().resource::<LevelClock>().steps);
        }
        let expected: Vec<u64> = (1..=300).collect();
        assert_eq!(counts, expected);
    }
}
