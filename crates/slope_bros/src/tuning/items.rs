//! The section of the tuning file for power-ups and level objects.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Power-ups and level objects. Speeds in px/s, accelerations in px/s², times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct ItemTuning {
    /// Horizontal speed of a fireball.
    pub fireball_speed: f32,
    /// Upward speed a fireball bounces off a floor or a slope with.
    pub fireball_bounce: f32,
    /// Gravity on a fireball, as a multiple of the physics' gravity.
    pub fireball_gravity_scale: f32,
    /// Fireballs in flight at once, at most.
    pub fireballs_at_once: u32,
    /// A fireball this far from the player horizontally, px, is gone (off screen).
    pub fireball_range: f32,
    /// Seconds of star power.
    pub star_time: f32,
    /// Horizontal speed of a star.
    pub star_speed: f32,
    /// Upward speed a star hops off the ground with.
    pub star_bounce: f32,
    /// Upward speed a spring launches the player with.
    pub spring_speed: f32,
    /// The same with jump held as the player lands on it.
    pub spring_speed_held: f32,
    /// Seconds a falling lift waits after someone stands on it before it falls.
    pub falling_lift_delay: f32,
    /// Downward acceleration of a falling lift.
    pub falling_lift_gravity: f32,
    /// Top speed of a falling lift.
    pub falling_lift_max_speed: f32,
    /// A multi-coin block gives coins for this long after its first hit, then one last one.
    pub multi_coin_time: f32,
    /// ... and at most this many coins.
    pub multi_coin_max: u32,
    /// How deep into lava a body sinks before it is lost, px.
    pub lava_depth: f32,
    /// Seconds a power-up takes to rise out of its block; it waits, untouchable, until it is out.
    pub power_up_rise_time: f32,
}

impl Default for ItemTuning {
    fn default() -> Self {
        Self {
            fireball_speed: 240.0,
            fireball_bounce: 210.0,
            fireball_gravity_scale: 1.6,
            fireballs_at_once: 2,
            fireball_range: 320.0,
            star_time: 10.0,
            star_speed: 80.0,
            star_bounce: 330.0,
            spring_speed: 480.0,
            spring_speed_held: 660.0,
            falling_lift_delay: 0.25,
            falling_lift_gravity: 700.0,
            falling_lift_max_speed: 300.0,
            multi_coin_time: 4.0,
            multi_coin_max: 10,
            lava_depth: 4.0,
            power_up_rise_time: 0.6,
        }
    }
}
