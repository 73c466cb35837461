//! The title: logo, controls, "press jump".

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::{Screen, big_text, screen_root};
use crate::gameplay::progress::{GameProgress, RunOutcome};
use crate::input::{Action, InputController};
use crate::level::{CurrentLevel, LevelSource};
use crate::presentation::GameAssets;
use crate::tuning::Tuning;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Title), spawn_title);
    app.add_systems(Update, start_game.run_if(in_state(Screen::Title)));
}

fn spawn_title(mut commands: Commands, assets: Res<GameAssets>) {
    commands
        .spawn(screen_root(Screen::Title, "Title screen"))
        .with_children(|root| {
            root.spawn((
                ImageNode::new(assets.title.clone()),
                Node {
                    width: Val::Px(768.0),
                    height: Val::Px(192.0),
                    margin: UiRect::bottom(Val::Px(24.0)),
                    ..default()
                },
            ));
            root.spawn(big_text("Press Space or Z to start", 32.0));
            root.spawn(big_text(
                "Arrows / WASD move · Space / Z jump · Shift / X run · Down + jump drops through\n\
                 Esc / P pause · C colliders · R object rects · N contacts and slope samples",
                18.0,
            ));
        });
}

fn start_game(
    actions: Single<&ActionState<Action>, With<InputController>>,
    tuning: Res<Tuning>,
    mut current: ResMut<CurrentLevel>,
    mut progress: ResMut<GameProgress>,
    mut outcome: ResMut<RunOutcome>,
    mut next: ResMut<NextState<Screen>>,
) {
    if actions.just_pressed(&Action::Jump) {
        *progress = GameProgress::new(&tuning.rules);
        *outcome = RunOutcome::default();
        if matches!(current.source, LevelSource::Builtin(_)) {
            *current = CurrentLevel::new(LevelSource::Builtin(0));
        }
        next.set(Screen::Playing);
    }
}
