//! Level complete: the score with the time bonus, then the next level (or the title after the
//! last one). Lives, score and coins carry over.

use bevy::prelude::*;

use super::{Screen, big_text, screen_root};
use crate::gameplay::run::progress::{GameProgress, RunOutcome};
use crate::level::{BUILTIN_LEVELS, CurrentLevel, LEVELS_PER_WORLD, LevelSource, world_and_level};
use crate::tuning::Tuning;

#[derive(Resource)]
struct Countdown(f32);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::LevelComplete), spawn_screen);
    app.add_systems(Update, next_level.run_if(in_state(Screen::LevelComplete)));
}

fn spawn_screen(mut commands: Commands, progress: Res<GameProgress>, current: Res<CurrentLevel>, tuning: Res<Tuning>) {
    commands.insert_resource(Countdown(tuning.rules.level_complete_time));
    let (last, title) = match current.source {
        LevelSource::Builtin(i) if i + 1 >= BUILTIN_LEVELS.len() => (true, "YOU WIN!".to_string()),
        LevelSource::Builtin(i) if (i + 1) % LEVELS_PER_WORLD == 0 => {
            (false, format!("WORLD {} CLEAR", i / LEVELS_PER_WORLD + 1))
        }
        LevelSource::Builtin(i) => (false, format!("{} COMPLETE", world_and_level(i))),
        LevelSource::File { .. } => (true, "LEVEL COMPLETE".to_string()),
    };
    commands
        .spawn(screen_root(Screen::LevelComplete, "Level complete screen"))
        .insert(BackgroundColor(Color::srgb(0.05, 0.05, 0.12)))
        .with_children(|root| {
            root.spawn(big_text(&title, if last { 56.0 } else { 48.0 }));
            root.spawn(big_text(
                &format!(
                    "SCORE {:06}   COINS x{:02}   LIVES x{}",
                    progress.score, progress.coins, progress.lives
                ),
                32.0,
            ));
        });
}

fn next_level(
    time: Res<Time>,
    mut countdown: ResMut<Countdown>,
    mut current: ResMut<CurrentLevel>,
    mut outcome: ResMut<RunOutcome>,
    mut next: ResMut<NextState<Screen>>,
) {
    countdown.0 -= time.delta_secs();
    if countdown.0 > 0.0 {
        return;
    }
    *outcome = RunOutcome {
        deaths: outcome.deaths,
        ..default()
    };
    match current.source {
        LevelSource::Builtin(i) if i + 1 < BUILTIN_LEVELS.len() => {
            *current = CurrentLevel::new(LevelSource::Builtin(i + 1));
            next.set(Screen::Playing);
        }
        _ => next.set(Screen::Title),
    }
}
