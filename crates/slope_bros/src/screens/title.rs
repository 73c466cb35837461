//! The title: logo, controls, the feel (F toggles it), "press jump", and whether the build has
//! sound.

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::{Screen, big_text, screen_root};
use crate::gameplay::run::progress::{GameProgress, RunOutcome, StartingForm};
use crate::input::{Action, InputController};
use crate::level::{CurrentLevel, LevelSource};
use crate::presentation::GameAssets;
use crate::tuning::{Feel, Tuning};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Title), spawn_title);
    app.add_systems(
        Update,
        (toggle_feel, show_feel, start_game)
            .chain()
            .run_if(in_state(Screen::Title)),
    );
}

/// The title's line that names the feel.
#[derive(Component)]
struct FeelLine;

fn feel_line(feel: Feel) -> String {
    let what = match feel {
        Feel::Modern => "the game's own: quick starts, high jumps",
        Feel::Classic => "Super Mario Bros.'s: heavy starts, long skids, low floaty jumps",
    };
    format!("Feel: {} ({what})\nF changes it", feel.name())
}

/// What the title says about sound.
fn sound_line() -> Option<&'static str> {
    if cfg!(feature = "audio") {
        None
    } else {
        Some(
            "No sound in this build. With sound: sudo apt-get install -y libasound2-dev,\n\
             then cargo run --release --features audio",
        )
    }
}

fn spawn_title(mut commands: Commands, assets: Res<GameAssets>, feel: Res<Feel>) {
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
            root.spawn((FeelLine, big_text(&feel_line(*feel), 16.0)));
            root.spawn(big_text(
                "Arrows / WASD move,  Space / Z jump,  Shift / X run\n\
                 With the fire flower, Shift / X throws a fireball\n\
                 Down + jump drops through a one-way platform\n\
                 Down on a slope slides,  Down crouches when big\n\
                 Esc / P pause,  C colliders,  R object rects\n\
                 N contacts and slope samples",
                16.0,
            ));
            if let Some(line) = sound_line() {
                root.spawn(big_text(line, 16.0));
            }
        });
}

fn toggle_feel(keys: Res<ButtonInput<KeyCode>>, mut feel: ResMut<Feel>) {
    if keys.just_pressed(KeyCode::KeyF) {
        *feel = feel.toggled();
    }
}

fn show_feel(feel: Res<Feel>, mut lines: Query<&mut Text, With<FeelLine>>) {
    if feel.is_changed() {
        for mut text in &mut lines {
            text.0 = feel_line(*feel);
        }
    }
}

fn start_game(
    actions: Single<&ActionState<Action>, With<InputController>>,
    tuning: Res<Tuning>,
    form: Res<StartingForm>,
    mut current: ResMut<CurrentLevel>,
    mut progress: ResMut<GameProgress>,
    mut outcome: ResMut<RunOutcome>,
    mut next: ResMut<NextState<Screen>>,
) {
    if actions.just_pressed(&Action::Jump) {
        *progress = GameProgress::new(&tuning.rules, *form);
        *outcome = RunOutcome::default();
        if matches!(current.source, LevelSource::Builtin(_)) {
            *current = CurrentLevel::new(LevelSource::Builtin(0));
        }
        next.set(Screen::Playing);
    }
}
