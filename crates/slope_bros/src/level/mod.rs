//! Levels: what the game knows of the LDtk level it plays, and how it is loaded ([`pipeline`]:
//! through `bevy_ecs_ldtk`, with the plugin's `LdtkPhysicsPlugin`).
//!
//! The level's IntGrid `Collisions` layer becomes one `TileGrid` through the plugin's LDtk bridge
//! (`levels/mapping.ron` says which value is which cell kind); the game keeps the raw values too,
//! because a brick and a question block are both solid to the physics but not to the player.
//! Entities (`Player`, `Walker`, `Coin`, ...) become the game's objects. Everything spawned for a
//! level carries [`LevelEntity`] and goes away on [`LoadLevel`] or when play stops.
//!
//! The rooms: `selection` (which level and which pipe), `info` (what the game reads of a level),
//! `blocks` (what each collision cell is to the player), `theme`, `objects` (the registry of LDtk
//! entities), `pipeline` and `sources` (loading). The plugin's LDtk bridge owns a level's life
//! (load, check, physics, live reload of a changed file); the game spawns its objects when the
//! bridge says a level's physics is ready.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::{PathFollower, TransformInterpolation};

mod blocks;
mod info;
mod objects;
pub mod pipeline;
mod selection;
pub mod sources;
mod theme;

pub use blocks::{Block, LevelCells};
pub use info::{LevelClock, LevelData, LevelInfo, PIPE, PLAYER, level_data};
pub use objects::{LevelObject, LevelObjects, ObjectFields, RegisterLevelObject, SpawnObject};
pub use pipeline::{LevelReady, level_ready};
pub use selection::{BUILTIN_LEVELS, CurrentLevel, LEVELS_PER_WORLD, LevelSource, PipeArrival, world_and_level};
pub use theme::Theme;

/// The `bevy_ecs_ldtk` world entity of the level being played.
#[derive(Component, Clone, Debug)]
pub struct LevelWorld {
    /// The project's asset path, for messages.
    pub file: String,
}

/// Marks everything spawned for the current level.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct LevelEntity;

/// Asks for the current level to be (re)loaded: everything of the old one is despawned first.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LoadLevel;

/// The level could not be loaded; the message says why.
#[derive(Resource, Clone, Debug, Default)]
pub struct LevelLoadError(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LoadLevel>()
        .init_resource::<LevelInfo>()
        .init_resource::<LevelLoadError>();
    app.add_message::<LevelSpawned>();
    app.add_plugins(pipeline::plugin);
    // Lifts are drawn between fixed steps, as the bodies are.
    app.add_observer(|added: On<Add, PathFollower>, mut commands: Commands| {
        commands.entity(added.entity).insert(TransformInterpolation);
    });
}

/// Sent after a level was spawned (visuals, clock and camera start from it).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LevelSpawned;
