//! The screens: the [`Screen`] state and its [`Pause`] sub-state (added by the game core, so the
//! headless run has them too), and the windowed screen flow: loading → title → playing ⇄ pause →
//! level complete → next level / title; game over → title. Headless runs go straight to playing.

mod game_over;
mod level_complete;
mod lives_card;
mod loading;
mod playing;
pub mod state;
mod title;

use bevy::prelude::*;

pub use state::{Pause, Screen, state_plugin};

/// Start on the level given on the command line instead of the title.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StartLevel {
    /// Skip the title.
    pub skip_title: bool,
}

/// A full-window UI column, centred, despawned when `screen` ends.
fn screen_root(screen: Screen, name: &'static str) -> impl Bundle {
    (
        Name::new(name),
        DespawnOnExit(screen),
        Node {
            width: Val::Percent(100.0),
            height: Val::Percent(100.0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: Val::Px(16.0),
            ..default()
        },
    )
}

/// Centred white text.
fn big_text(text: &str, size: f32) -> impl Bundle {
    (
        Text::new(text),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(Color::WHITE),
        TextLayout::justify(Justify::Center),
    )
}

/// The windowed screen flow.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        loading::plugin,
        title::plugin,
        playing::plugin,
        level_complete::plugin,
        game_over::plugin,
        lives_card::plugin,
    ));
}
