//! The [`Screen`] state and its [`Pause`] sub-state: added by the game core, so the headless run
//! has them too. Everything that only reads which screen is shown imports this file alone.

use bevy::prelude::*;

/// The game's screens.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Loading images and sounds.
    #[default]
    Loading,
    /// The title.
    Title,
    /// A level is being played (paused or not: [`Pause`]).
    Playing,
    /// The goal was reached.
    LevelComplete,
    /// No lives left.
    GameOver,
}

/// Whether play is paused, while a level is played. Pausing stops the virtual clock, so the
/// fixed step (the game's rules and the physics) stops with it.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum Pause {
    /// Playing.
    #[default]
    Running,
    /// Paused: the pause menu is shown.
    Paused,
}

/// The [`Screen`] state and its [`Pause`] sub-state; the virtual clock stops while paused.
pub fn state_plugin(app: &mut App) {
    app.init_state::<Screen>();
    app.add_sub_state::<Pause>();
    app.add_systems(OnEnter(Pause::Paused), |mut time: ResMut<Time<Virtual>>| time.pause());
    app.add_systems(OnExit(Pause::Paused), |mut time: ResMut<Time<Virtual>>| time.unpause());
}
