//! Collision layers of the game's bodies: characters and items collide with the level, never
//! with each other (stomps, kicks and pick-ups are game rules, checked after the physics step).

use bevy_platformer_physics::{CollisionLayers, physics_layers};

physics_layers! {
    /// The game's collision layers.
    pub enum GameLayer {
        /// The level's geometry (grids, slopes, platforms, lifts: their default layers, every
        /// layer, include it).
        Level,
        /// The player.
        Player,
        /// Enemies and shells.
        Enemy,
        /// Power-ups.
        Item,
    }
}

/// The player's layers.
pub const PLAYER_LAYERS: CollisionLayers = CollisionLayers::new(GameLayer::Player.bit(), GameLayer::Level.bit());
/// An enemy's layers.
pub const ENEMY_LAYERS: CollisionLayers = CollisionLayers::new(GameLayer::Enemy.bit(), GameLayer::Level.bit());
/// An item's layers.
pub const ITEM_LAYERS: CollisionLayers = CollisionLayers::new(GameLayer::Item.bit(), GameLayer::Level.bit());
