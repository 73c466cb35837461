//! The enemies' section of the tuning file.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Enemies and items. Speeds in px/s, times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct EnemyTuning {
    /// Walking speed of walkers.
    pub walker_speed: f32,
    /// Walking speed of shell enemies.
    pub shell_enemy_speed: f32,
    /// Speed of a kicked shell.
    pub shell_speed: f32,
    /// After a kick, the shell cannot hurt the kicker for this long.
    pub shell_kick_grace: f32,
    /// Time between a hammer thrower's hops.
    pub hammer_hop_interval: f32,
    /// Upward speed of a hop.
    pub hammer_hop_speed: f32,
    /// Time between throws.
    pub hammer_throw_interval: f32,
    /// Launch velocity of a hammer (x toward the player, y up).
    pub hammer_velocity: Vec2,
    /// Gravity on hammers, px/s² (downward).
    pub hammer_gravity: f32,
    /// A thrower only throws when the player is within this horizontal distance.
    pub hammer_range: f32,
    /// Speed of a mushroom.
    pub mushroom_speed: f32,
    /// How long a squashed enemy stays visible.
    pub squash_time: f32,
    /// An enemy wakes up when the player comes this close to it horizontally, px: a little more
    /// than half the view's width (the view is 15 tiles tall, about 27 wide), so enemies start
    /// to move just before they come on screen.
    pub wake_distance: f32,
    /// A roller's speed on level ground (it rolls no slower).
    pub roller_speed: f32,
    /// How much faster it rolls down a slope per unit of gradient.
    pub roller_speed_per_gradient: f32,
    /// How fast it gathers speed.
    pub roller_acceleration: f32,
    /// How fast it loses speed on level ground.
    pub roller_friction: f32,
    /// The boss's walking speed.
    pub boss_speed: f32,
    /// How far either side of where it stood the boss paces, px.
    pub boss_pace: f32,
    /// Time between the boss's hops.
    pub boss_hop_interval: f32,
    /// Upward speed of the boss's hop.
    pub boss_hop_speed: f32,
    /// Time between the boss's throws (hammers as a thrower's, within `hammer_range`).
    pub boss_throw_interval: f32,
    /// Fireballs that knock the boss out.
    pub boss_fireball_hits: u32,
    /// Points for beating the boss.
    pub boss_score: u32,
    /// Time between two planks of a bridge falling, after the axe is touched.
    pub bridge_fall_interval: f32,
}

impl Default for EnemyTuning {
    fn default() -> Self {
        Self {
            walker_speed: 30.0,
            shell_enemy_speed: 24.0,
            shell_speed: 200.0,
            shell_kick_grace: 0.25,
            hammer_hop_interval: 2.4,
            hammer_hop_speed: 230.0,
            hammer_throw_interval: 1.7,
            hammer_velocity: Vec2::new(70.0, 280.0),
            hammer_gravity: 700.0,
            hammer_range: 220.0,
            mushroom_speed: 50.0,
            squash_time: 0.5,
            wake_distance: 256.0,
            roller_speed: 30.0,
            roller_speed_per_gradient: 110.0,
            roller_acceleration: 260.0,
            roller_friction: 40.0,
            boss_speed: 24.0,
            boss_pace: 32.0,
            boss_hop_interval: 2.6,
            boss_hop_speed: 260.0,
            boss_throw_interval: 1.1,
            boss_fireball_hits: 5,
            boss_score: 5000,
            bridge_fall_interval: 0.05,
        }
    }
}
