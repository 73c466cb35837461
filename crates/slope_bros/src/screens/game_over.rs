//! Game over: shown for a few seconds, then the title.

use bevy::prelude::*;

use super::{Screen, big_text, screen_root};
use crate::gameplay::run::progress::GameProgress;

#[derive(Resource)]
struct Countdown(f32);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::GameOver), spawn_screen);
    app.add_systems(Update, back_to_title.run_if(in_state(Screen::GameOver)));
}

fn spawn_screen(mut commands: Commands, progress: Res<GameProgress>) {
    commands.insert_resource(Countdown(3.5));
    commands
        .spawn(screen_root(Screen::GameOver, "Game over screen"))
        .insert(BackgroundColor(Color::BLACK))
        .with_children(|root| {
            root.spawn(big_text("GAME OVER", 56.0));
            root.spawn(big_text(&format!("SCORE {:06}", progress.score), 32.0));
        });
}

fn back_to_title(time: Res<Time>, mut countdown: ResMut<Countdown>, mut next: ResMut<NextState<Screen>>) {
    countdown.0 -= time.delta_secs();
    if countdown.0 <= 0.0 {
        next.set(Screen::Title);
    }
}
