//! What the player sees and hears: sprites and their animation, the camera, parallax, the HUD,
//! sound, the debug overlay, screenshots. It reads the game's state and never changes the rules,
//! so the headless game is the same game.

mod assets;
mod audio;
mod background;
mod camera;
mod debug;
mod hud;
mod screenshot;
mod sprites;
mod startup_time;
mod tiles;

use bevy::prelude::*;
use bevy::window::WindowResolution;

pub use assets::GameAssets;
pub use startup_time::ProcessStart;

use crate::cli::Options;
use crate::input::InputSource;
use crate::level::LevelSource;
use crate::paths::DataRoot;
use crate::replay::{Replay, ReplayCursor};
use crate::screens::{self, StartLevel};
use crate::{GameCorePlugin, input};

/// Work of the frame (`Update`), in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Build visuals for what the step spawned.
    Spawn,
    /// Animate and place sprites.
    Animate,
    /// Move the camera and the parallax layers after the sprites.
    Camera,
    /// HUD text.
    Hud,
}

/// Height of the view in world pixels (15 tiles).
pub const VIEW_HEIGHT: f32 = 240.0;

/// Opens the window and plays. `level` skips the title screen. `start` is when the process
/// started: the log says how long after it the first playable frame was shown.
pub fn run_windowed(
    root: DataRoot,
    level: Option<LevelSource>,
    replay: Option<Replay>,
    options: Options,
    start: ProcessStart,
) -> Result<(), String> {
    let mut app = App::new();
    app.insert_resource(start);
    let assets_folder = root.assets();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Slope Bros".to_string(),
                    resolution: WindowResolution::new(1280, 720),
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin {
                file_path: assets_folder.display().to_string(),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    );
    let skip_title = level.is_some();
    let first = level.clone().unwrap_or(LevelSource::Builtin(0));
    if let Some(path) = &options.record {
        app.insert_resource(crate::headless::recorder(path.clone(), &first));
    }
    app.add_plugins(GameCorePlugin {
        root,
        level: first,
        watch_tuning: true,
    });
    app.add_plugins(input::live_plugin);
    app.insert_resource(match &replay {
        Some(replay) => InputSource::Replay(ReplayCursor::new(replay)),
        None => InputSource::Live,
    });
    app.insert_resource(StartLevel { skip_title });
    app.add_plugins(screens::plugin);
    app.add_plugins(plugin);
    if let Some(path) = &options.screenshot {
        app.insert_resource(screenshot::ScreenshotRequest {
            path: path.clone(),
            after_frames: options.frames.unwrap_or(120),
        });
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}

/// The presentation plugins.
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::Spawn,
            AppSystems::Animate,
            AppSystems::Camera,
            AppSystems::Hud,
        )
            .chain(),
    );
    app.add_plugins((
        assets::plugin,
        tiles::plugin,
        sprites::plugin,
        camera::plugin,
        background::plugin,
        hud::plugin,
        audio::plugin,
        debug::plugin,
        screenshot::plugin,
        startup_time::plugin,
    ));
}
