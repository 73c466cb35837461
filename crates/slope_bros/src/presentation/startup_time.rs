//! Start-up time (issue 6): logs once how long after `main` began the first playable frame was
//! presented, so any run's log shows whether the start got slower. "Playable" means the screen is
//! `Playing` with the level spawned (the player exists) and nothing in that frame left out because
//! its render pipeline was still compiling. With `--level` that is the time to the level; after
//! the title it includes the wait for the player's key.

use std::time::Instant;

use bevy::prelude::*;
use bevy::render::extract_resource::{ExtractResource, ExtractResourcePlugin};
use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp, RenderSystems};

use crate::gameplay::player::Player;
use crate::screens::state::Screen;

/// When the process started: `main` takes it first, before options, data or the window.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ProcessStart(pub Instant);

impl ProcessStart {
    /// Now.
    pub fn now() -> Self {
        Self(Instant::now())
    }
}

/// The main world shows the level (playing, player spawned). Extracted, so the render world knows
/// the first frame that draws it.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, ExtractResource)]
struct LevelShown(bool);

pub(super) fn plugin(app: &mut App) {
    // An app not started by `main` (tests) counts from when it was built.
    let start = *app.world_mut().get_resource_or_insert_with(ProcessStart::now);
    app.init_resource::<LevelShown>();
    app.add_systems(
        Last,
        mark_level_shown
            .run_if(in_state(Screen::Playing))
            .run_if(resource_equals(LevelShown(false))),
    );
    // Without a renderer there is no frame to time.
    if app.get_sub_app(RenderApp).is_none() {
        return;
    }
    app.add_plugins(ExtractResourcePlugin::<LevelShown>::default());
    let render_app = app.sub_app_mut(RenderApp);
    render_app.insert_resource(start);
    render_app.add_systems(Render, log_first_playable_frame.in_set(RenderSystems::Cleanup));
}

/// In `Last`, after `Update` spawned the level's pictures: this frame's extraction carries them.
fn mark_level_shown(players: Query<(), With<Player>>, mut shown: ResMut<LevelShown>) {
    if !players.is_empty() {
        shown.0 = true;
    }
}

/// Render world, `Cleanup`: after `render_system` submitted and presented the frame. Bevy skips the
/// draws whose pipeline is still compiling (slow with a software renderer), so such a frame does
/// not count yet.
fn log_first_playable_frame(
    start: Res<ProcessStart>,
    shown: Option<Res<LevelShown>>,
    pipelines: Res<PipelineCache>,
    mut frames: Local<u64>,
    mut logged: Local<bool>,
) {
    if *logged {
        return;
    }
    *frames += 1;
    if shown.is_some_and(|shown| shown.0) && pipelines.waiting_pipelines().next().is_none() {
        *logged = true;
        info!(
            "first playable frame {} ms after start (rendered frame {})",
            start.0.elapsed().as_millis(),
            *frames
        );
    }
}

#[cfg(test)]
mod tests {
    use bevy::state::app::StatesPlugin;

    use super::*;

    #[test]
    fn the_level_is_marked_shown_once_the_player_plays() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.init_state::<Screen>();
        app.add_plugins(plugin);
        assert!(app.world().contains_resource::<ProcessStart>());
        app.update();
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app.update();
        assert_eq!(*app.world().resource::<LevelShown>(), LevelShown(false));
        app.world_mut().spawn(Player::default());
        app.update();
        assert_eq!(*app.world().resource::<LevelShown>(), LevelShown(true));
    }
}
