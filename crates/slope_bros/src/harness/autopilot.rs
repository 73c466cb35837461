//! A planner that finds an input sequence that brings the player to the goal, by simulation: the
//! game is deterministic, so a candidate continuation is judged by replaying it headless from the
//! start. Random short continuations are tried, the best (furthest right, alive) is kept in part,
//! and when every candidate dies the plan backs up. `slope_bros --autopilot out.ron --level sky`
//! writes the result as a replay; the committed replays in `levels/replays/` were made this way.
//! With `--replay old.ron` the plan starts from an older replay, kept up to two seconds before
//! where it now dies (after a change to the rules), which is much quicker than from the start.

use bevy::prelude::*;

use crate::gameplay::player::{Player, PlayerStatus};
use crate::gameplay::run::progress::RunOutcome;
use crate::harness::app::headless_app;
use crate::input::InputSource;
use crate::input::replay::{InputFrame, Replay, ReplayCursor};
use crate::level::{LevelInfo, LevelSource};
use crate::paths::DataRoot;

/// Steps per decision.
const DECISION: usize = 6;
/// Steps per candidate continuation.
const HORIZON: usize = 240;
/// Decisions kept from the best candidate: half its horizon, so that a candidate that takes a
/// run-up and a long jump is kept through its take-off.
const KEEP: usize = 20;
/// Candidates per round.
const CANDIDATES: usize = 16;

/// What a simulation came to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Step at which the goal was reached.
    pub completed_at: Option<usize>,
    /// The player died.
    pub died: bool,
    /// Final x of the player.
    pub x: f32,
    /// Final height of the player's centre.
    pub y: f32,
    /// Steps played (up to the goal or the death, if any).
    pub steps: usize,
}

/// Plays `frames` from the level's start.
pub fn simulate(root: &DataRoot, level: &LevelSource, frames: &[InputFrame]) -> Outcome {
    let replay = Replay::from_frames(None, frames);
    let mut app = headless_app(
        root.clone(),
        level.clone(),
        None,
        InputSource::Replay(ReplayCursor::new(&replay)),
    );
    let mut outcome = Outcome {
        completed_at: None,
        died: false,
        x: 0.0,
        y: 0.0,
        steps: 0,
    };
    for step in 0..frames.len() {
        app.update();
        outcome.steps = step + 1;
        let world = app.world_mut();
        let run = world.resource::<RunOutcome>().clone();
        if let Some((player, transform)) = world.query::<(&Player, &Transform)>().iter(world).next() {
            outcome.x = transform.translation.x;
            outcome.y = transform.translation.y;
            if matches!(player.status, PlayerStatus::Dying(_)) {
                outcome.died = true;
            }
        }
        if run.deaths > 0 {
            outcome.died = true;
        }
        if run.completed_at.is_some() {
            outcome.completed_at = Some(step + 1);
        }
        if outcome.died || outcome.completed_at.is_some() {
            break;
        }
    }
    outcome
}

/// A small deterministic random source (xorshift; the seed must not be 0).
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64().checked_rem(n).unwrap_or(0)
    }
}

/// A random decision: mostly run right, sometimes jump (held for a while), wait, step back,
/// drop through a one-way platform, or take a run-up (run right for up to a second and a half,
/// then a long jump: the only way over the widest pits, which a run of short decisions almost
/// never strings together).
fn decision(rng: &mut Rng, jumping: &mut u32) -> (InputFrame, usize) {
    let mut frame = InputFrame::default();
    let mut steps = DECISION;
    match rng.below(24) {
        22 | 23 => {
            frame.right = true;
            frame.run = true;
            steps = 12 + rng.below(78) as usize;
            // The jump, held for two to six decisions, starts with the next decision.
            *jumping = 2 + rng.below(5) as u32;
            return (frame, steps);
        }
        0..=11 => {
            frame.right = true;
            frame.run = rng.below(4) != 0;
        }
        12..=16 => {
            frame.right = true;
            frame.run = rng.below(2) == 0;
            *jumping = 1 + rng.below(6) as u32;
        }
        // Waiting (for a lift, for an enemy to pass) takes longer.
        17 => steps = 12 + rng.below(80) as usize,
        18 => frame.left = true,
        19 => {
            frame.left = true;
            *jumping = 1 + rng.below(6) as u32;
        }
        20 => {
            frame.down = true;
            *jumping = 1;
        }
        _ => *jumping = 1 + rng.below(6) as u32,
    }
    if *jumping > 0 {
        frame.jump = true;
        *jumping -= 1;
    }
    (frame, steps)
}

fn continuation(rng: &mut Rng) -> Vec<InputFrame> {
    let mut frames = Vec::with_capacity(HORIZON + 96);
    let mut jumping = 0;
    // A quarter of the candidates are patient: they wait before each move (for a lift to come
    // back, an enemy to pass), which a mostly-running candidate almost never does long enough.
    let patient = rng.below(4) == 0;
    while frames.len() < HORIZON {
        let (frame, steps) = if patient && jumping == 0 && rng.below(3) == 0 {
            (InputFrame::default(), 12 + rng.below(60) as usize)
        } else {
            decision(rng, &mut jumping)
        };
        for i in 0..steps {
            let mut f = frame;
            // A new jump needs the button released first: free the last step of a decision.
            if i == steps - 1 && jumping == 0 {
                f.jump = false;
            }
            frames.push(f);
        }
    }
    frames
}

/// Steps of an older plan given up before where it dies: two seconds.
const GIVE_UP_BEFORE_DEATH: usize = 120;

/// Plans a replay from the level's start to its goal, within `max_rounds` rounds, starting from
/// the frames of `start` (empty: from nothing) as far as they stay alive. `progress` is given
/// the plan after every round that extends it (a plan so far, to resume from with `start`).
pub fn plan(
    root: &DataRoot,
    level: &LevelSource,
    seed: u64,
    max_rounds: usize,
    start: &[InputFrame],
    progress: &mut dyn FnMut(&Replay),
) -> Result<Replay, String> {
    let mut app = headless_app(root.clone(), level.clone(), None, InputSource::Idle);
    app.update();
    let goal_x = app.world().resource::<LevelInfo>().bounds.max.x;
    drop(app);
    let mut rng = Rng(seed.max(1));
    let mut plan: Vec<InputFrame> = start.to_vec();
    if !plan.is_empty() {
        let outcome = simulate(root, level, &plan);
        if let Some(step) = outcome.completed_at {
            plan.truncate(step);
            return Ok(Replay::from_frames(Some(level.name()), &plan));
        }
        let keep = if outcome.died {
            outcome.steps.saturating_sub(GIVE_UP_BEFORE_DEATH)
        } else {
            outcome.steps
        };
        plan.truncate(keep);
        eprintln!("starting from {keep} steps of the given replay");
    }
    let mut failures = 0;
    for round in 0..max_rounds {
        let mut best: Option<(f32, Vec<InputFrame>, Outcome)> = None;
        for _ in 0..CANDIDATES {
            let mut frames = plan.clone();
            frames.extend(continuation(&mut rng));
            let outcome = simulate(root, level, &frames);
            if let Some(step) = outcome.completed_at {
                frames.truncate(step);
                eprintln!("round {round}: the goal is reached after {step} steps");
                return Ok(Replay::from_frames(Some(level.name()), &frames));
            }
            let score = if outcome.died {
                f32::MIN
            } else {
                outcome.x + outcome.y * 0.1
            };
            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                best = Some((score, frames, outcome));
            }
        }
        let (score, frames, outcome) = best.expect("at least one candidate");
        if score == f32::MIN {
            failures += 1;
            let back = (KEEP * DECISION * failures.min(6)).min(plan.len());
            plan.truncate(plan.len() - back);
            eprintln!("round {round}: every candidate died; backing up to step {}", plan.len());
            continue;
        }
        failures = 0;
        plan = frames[..(plan.len() + KEEP * DECISION).min(frames.len())].to_vec();
        progress(&Replay::from_frames(Some(level.name()), &plan));
        eprintln!(
            "round {round}: {} steps planned, x {:.0} of {goal_x:.0}",
            plan.len(),
            outcome.x
        );
    }
    Err(format!(
        "no way to the goal of {} found in {max_rounds} rounds ({} steps planned)",
        level.name(),
        plan.len()
    ))
}
