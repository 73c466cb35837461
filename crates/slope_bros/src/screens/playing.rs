//! Playing: pause and resume (the [`Pause`] sub-state; its transitions stop and restart the
//! virtual clock), the move to the level-complete and game-over screens.

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::{Pause, Screen, big_text, screen_root};
use crate::gameplay::run::progress::RunOutcome;
use crate::input::{Action, InputController};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (toggle_pause.run_if(not(super::lives_card::showing)), leave_when_done).run_if(in_state(Screen::Playing)),
    );
    app.add_systems(OnEnter(Pause::Paused), spawn_pause_menu);
}

fn toggle_pause(
    actions: Single<&ActionState<Action>, With<InputController>>,
    pause: Res<State<Pause>>,
    mut next: ResMut<NextState<Pause>>,
) {
    if actions.just_pressed(&Action::Pause) {
        next.set(match pause.get() {
            Pause::Running => Pause::Paused,
            Pause::Paused => Pause::Running,
        });
    }
}

fn spawn_pause_menu(mut commands: Commands) {
    commands
        .spawn(screen_root(Screen::Playing, "Pause menu"))
        .insert((
            DespawnOnExit(Pause::Paused),
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.5)),
        ))
        .with_children(|root| {
            root.spawn(big_text("PAUSED", 48.0));
            root.spawn(big_text("Esc or P to resume", 24.0));
        });
}

fn leave_when_done(outcome: Res<RunOutcome>, mut next: ResMut<NextState<Screen>>) {
    if outcome.game_over {
        next.set(Screen::GameOver);
    } else if outcome.level_done {
        next.set(Screen::LevelComplete);
    }
}
