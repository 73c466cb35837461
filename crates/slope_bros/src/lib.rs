//! Slope Bros: a Mario-like sample game on `bevy_platformer_physics`.
//!
//! The game is split so that its rules run without a window or GPU:
//! - [`GameCorePlugin`]: levels, player, enemies, items, progress, input frames, replays — all in
//!   `FixedUpdate` at 60 Hz around the physics step, ordered by [`GameSystems`];
//! - [`presentation`]: sprites, animation, camera, parallax, HUD, sound, the debug overlay — reading
//!   the core's state, never changing it;
//! - [`screens`]: the [`Screen`](screens::Screen) state and the screen flow (loading, title,
//!   playing, pause, level complete, game over).
//!
//! [`harness::app`] assembles them: the windowed app, the same app offscreen (no window or GPU: tests of
//! the screens, pictures and sounds), and the headless one that runs the core alone, one fixed
//! step per frame, deterministically (see [`harness::headless`]).
//!
//! Both load levels as a Bevy game with LDtk levels does ([`level::pipeline`]): `bevy_ecs_ldtk`
//! spawns the level, the plugin's `LdtkPhysicsPlugin` gives it physics, the game spawns its objects
//! from the level's entities, and the window draws the tiles `bevy_ecs_ldtk` spawned.

// Bevy systems take their data as parameters: long parameter lists and query types are the norm.
#![allow(clippy::type_complexity, clippy::too_many_arguments)]

pub mod draw_order;
pub mod gameplay;
pub mod harness;
pub mod input;
pub mod layers;
pub mod level;
pub mod masks;
pub mod paths;
pub mod presentation;
pub mod schedule;
pub mod screens;
pub mod tuning;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
pub use schedule::{GameSystems, STEPS_PER_SECOND};

use crate::level::{CurrentLevel, LevelSource};
use crate::masks::SpriteMasks;
use crate::paths::DataRoot;
use crate::screens::state::Screen;

/// The game's rules (headless and windowed).
pub struct GameCorePlugin {
    /// Where `assets/` and `levels/` are.
    pub root: DataRoot,
    /// The first level.
    pub level: LevelSource,
    /// Read `assets/tuning.ron` and the level's files again when they change (windowed); a
    /// headless run keeps what it read at the start.
    pub watch_files: bool,
}

impl Plugin for GameCorePlugin {
    fn build(&self, app: &mut App) {
        tuning::load_tuning(app.world_mut(), self.root.assets().join("tuning.ron"), self.watch_files);
        let tuning = app.world().resource::<tuning::Tuning>().clone();
        app.insert_resource(PhysicsConfig {
            gravity: Vec2::new(0.0, tuning.physics.gravity),
            ..default()
        });
        app.add_plugins(PlatformerPhysicsPlugins::default().with_fixed_hz(STEPS_PER_SECOND));
        app.insert_resource(self.root.clone());
        app.insert_resource(CurrentLevel::new(self.level.clone()));
        app.insert_resource(SpriteMasks::load(&self.root.assets().join("images")));
        app.add_plugins(screens::state_plugin);
        app.configure_sets(
            FixedUpdate,
            (GameSystems::Input, GameSystems::Intent)
                .chain()
                .before(PlatformerSystems::SyncColliders),
        );
        app.configure_sets(
            FixedUpdate,
            (GameSystems::React, GameSystems::Progress, GameSystems::Record)
                .chain()
                .after(PlatformerSystems::ContactEvents),
        );
        for set in [
            GameSystems::Input,
            GameSystems::Intent,
            GameSystems::React,
            GameSystems::Progress,
            GameSystems::Record,
        ] {
            // While a level loads (its objects do not exist yet), the rules wait.
            app.configure_sets(
                FixedUpdate,
                set.run_if(in_state(Screen::Playing)).run_if(level::level_ready),
            );
        }
        app.add_plugins((tuning::plugin, input::plugin, level::plugin, gameplay::plugin));
        app.world_mut()
            .resource_mut::<bevy_platformer_physics::ldtk::LdtkLiveReload>()
            .enabled = self.watch_files;
    }
}
