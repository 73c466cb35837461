//! What the player sees and hears: sprites and their animation, the camera, parallax, the HUD,
//! sound, the debug overlay, screenshots. A leaf: it reads the game's state and never changes the
//! rules, and nothing of the game depends on it, so the headless game is the same game.

mod assets;
mod audio;
mod background;
mod camera;
mod debug;
mod font;
mod hud;
mod lava;
mod level_tilemap;
mod popups;
mod screenshot;
mod set_pieces;
mod sprites;
mod startup_time;
mod tiles;

use bevy::prelude::*;

pub use assets::GameAssets;
pub use audio::{HURRIED_SPEED, Music, PlaySound, SOUNDS, Tune};
pub use screenshot::ScreenshotRequest;
pub use sprites::GoalFlag;
pub use startup_time::ProcessStart;

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
        level_tilemap::plugin,
        sprites::plugin,
        camera::plugin,
        background::plugin,
        hud::plugin,
        audio::plugin,
        debug::plugin,
        screenshot::plugin,
        startup_time::plugin,
    ));
    app.add_plugins((font::plugin, lava::plugin, popups::plugin, set_pieces::plugin));
}
