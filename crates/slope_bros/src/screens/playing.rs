//! Playing: pause and resume (the virtual clock stops, so the fixed step stops), the move to the
//! level-complete and game-over screens.

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::{Screen, big_text, screen_root};
use crate::gameplay::progress::RunOutcome;
use crate::input::{Action, InputController};

/// The game is paused.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paused(pub bool);

#[derive(Component)]
struct PauseMenu;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Paused>();
    app.add_systems(
        Update,
        (toggle_pause, leave_when_done).run_if(in_state(Screen::Playing)),
    );
    app.add_systems(OnExit(Screen::Playing), unpause);
}

fn toggle_pause(
    mut commands: Commands,
    actions: Single<&ActionState<Action>, With<InputController>>,
    mut paused: ResMut<Paused>,
    mut time: ResMut<Time<Virtual>>,
    menus: Query<Entity, With<PauseMenu>>,
) {
    if !actions.just_pressed(&Action::Pause) {
        return;
    }
    paused.0 = !paused.0;
    if paused.0 {
        time.pause();
        commands
            .spawn((PauseMenu, screen_root(Screen::Playing, "Pause menu")))
            .insert(BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.5)))
            .with_children(|root| {
                root.spawn(big_text("PAUSED", 48.0));
                root.spawn(big_text("Esc or P to resume", 24.0));
            });
    } else {
        time.unpause();
        for menu in &menus {
            commands.entity(menu).despawn();
        }
    }
}

fn unpause(mut paused: ResMut<Paused>, mut time: ResMut<Time<Virtual>>) {
    paused.0 = false;
    time.unpause();
}

fn leave_when_done(outcome: Res<RunOutcome>, mut next: ResMut<NextState<Screen>>) {
    if outcome.game_over {
        next.set(Screen::GameOver);
    } else if outcome.completed_at.is_some() {
        next.set(Screen::LevelComplete);
    }
}
