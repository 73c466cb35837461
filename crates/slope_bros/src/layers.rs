//! Collision layers of the game's bodies: characters and items collide with the level, never
//! with each other (stomps, kicks and pick-ups are game rules, checked after the physics step).

use bevy_platformer_physics::CollisionLayers;

/// The level's geometry (grids, slopes, platforms, lifts: their default layers include it).
pub const LEVEL: u32 = 1;
/// The player.
pub const PLAYER: u32 = 1 << 1;
/// Enemies and shells.
pub const ENEMY: u32 = 1 << 2;
/// Power-ups.
pub const ITEM: u32 = 1 << 3;

/// The player's layers.
pub const PLAYER_LAYERS: CollisionLayers = CollisionLayers::new(PLAYER, LEVEL);
/// An enemy's layers.
pub const ENEMY_LAYERS: CollisionLayers = CollisionLayers::new(ENEMY, LEVEL);
/// An item's layers.
pub const ITEM_LAYERS: CollisionLayers = CollisionLayers::new(ITEM, LEVEL);
