//! The player's section of the tuning file, one per feel.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// How the player moves: the game's own feel, or Super Mario Bros.'s. Chosen on the title
/// screen (F) or with `--feel`; a replay names the feel it was recorded with.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Reflect)]
#[reflect(Resource)]
pub enum Feel {
    /// Quick to start and stop, high jumps, strong air control (`player` in the tuning file).
    #[default]
    Modern,
    /// Within 10 % of Super Mario Bros. on every measure of the player's motion (`classic`).
    Classic,
}

impl Feel {
    /// `modern` or `classic`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "modern" => Some(Self::Modern),
            "classic" => Some(Self::Classic),
            _ => None,
        }
    }

    /// The other feel.
    pub fn toggled(self) -> Self {
        match self {
            Self::Modern => Self::Classic,
            Self::Classic => Self::Modern,
        }
    }

    /// As the title screen shows it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Modern => "Modern",
            Self::Classic => "Classic",
        }
    }
}

/// The player character. Speeds in px/s, accelerations in px/s², times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerTuning {
    /// Collider of the small form, px.
    pub small_size: Vec2,
    /// Collider of the big form, px.
    pub big_size: Vec2,
    /// Top walking speed.
    pub walk_speed: f32,
    /// Top running speed (run held).
    pub run_speed: f32,
    /// Acceleration toward the input direction.
    pub acceleration: f32,
    /// Acceleration toward the input direction with run held.
    pub run_acceleration: f32,
    /// Deceleration with no input, at up to walking speed.
    pub deceleration: f32,
    /// Deceleration with no input, faster than walking.
    pub run_deceleration: f32,
    /// Deceleration while the input opposes the motion (skid), at up to walking speed.
    pub skid_deceleration: f32,
    /// Skid deceleration faster than walking.
    pub run_skid_deceleration: f32,
    /// Horizontal acceleration in the air, as a fraction of the ground values.
    pub air_control: f32,
    /// Upward speed of a jump.
    pub jump_speed: f32,
    /// Extra jump speed at full running speed.
    pub run_jump_bonus: f32,
    /// The bonus grows from this speed up to the running speed; a jump from at least this speed is
    /// a running jump (its gravity is the `run_` one).
    pub run_jump_from: f32,
    /// Gravity multiplier while rising with the jump button held.
    pub rise_gravity_scale: f32,
    /// Gravity multiplier while rising with the jump button released (variable jump height).
    pub release_gravity_scale: f32,
    /// Gravity multiplier while falling.
    pub fall_gravity_scale: f32,
    /// [`rise_gravity_scale`](Self::rise_gravity_scale) of a running jump.
    pub run_rise_gravity_scale: f32,
    /// [`release_gravity_scale`](Self::release_gravity_scale) of a running jump.
    pub run_release_gravity_scale: f32,
    /// [`fall_gravity_scale`](Self::fall_gravity_scale) after a running jump.
    pub run_fall_gravity_scale: f32,
    /// Largest falling speed.
    pub max_fall_speed: f32,
    /// A jump still works this long after walking off a ledge.
    pub coyote_time: f32,
    /// A jump pressed this long before landing happens on landing.
    pub jump_buffer: f32,
    /// Bounce speed after a stomp.
    pub stomp_bounce: f32,
    /// Bounce speed after a stomp with jump held.
    pub stomp_bounce_held: f32,
    /// Blinking invulnerability after being hurt.
    pub invulnerable_time: f32,
    /// Length of the death animation before the level restarts.
    pub death_time: f32,
    /// Collider of the big player crouching (Down on level ground).
    pub crouch_size: Vec2,
    /// Top speed of the slope slide on a slope of gradient 0, px/s; it grows with the gradient.
    pub slide_speed: f32,
    /// What each unit of gradient (rise over run, counted up to 2) adds to the slide's top speed.
    pub slide_speed_per_gradient: f32,
    /// Acceleration of the slope slide, px/s².
    pub slide_acceleration: f32,
}

impl Default for PlayerTuning {
    fn default() -> Self {
        Self {
            small_size: Vec2::new(12.0, 15.0),
            big_size: Vec2::new(14.0, 30.0),
            walk_speed: 90.0,
            run_speed: 150.0,
            acceleration: 420.0,
            run_acceleration: 420.0,
            deceleration: 480.0,
            run_deceleration: 480.0,
            skid_deceleration: 1100.0,
            run_skid_deceleration: 1100.0,
            air_control: 0.8,
            jump_speed: 370.0,
            run_jump_bonus: 30.0,
            run_jump_from: 0.0,
            rise_gravity_scale: 1.0,
            release_gravity_scale: 3.0,
            fall_gravity_scale: 1.5,
            run_rise_gravity_scale: 1.0,
            run_release_gravity_scale: 3.0,
            run_fall_gravity_scale: 1.5,
            max_fall_speed: 420.0,
            coyote_time: 0.1,
            jump_buffer: 0.12,
            stomp_bounce: 220.0,
            stomp_bounce_held: 380.0,
            invulnerable_time: 2.0,
            death_time: 1.5,
            crouch_size: Vec2::new(14.0, 15.0),
            slide_speed: 120.0,
            slide_speed_per_gradient: 60.0,
            slide_acceleration: 600.0,
        }
    }
}

impl PlayerTuning {
    /// Super Mario Bros.'s motion at 60 steps per second and 16 px tiles, with the physics'
    /// gravity of 960 px/s² (`physics.gravity`): the reference values of `docs/feel.md`,
    /// converted from the game's `MaxXSpdData`, `FrictionData`, `PlayerYSpdData`,
    /// `JumpMForceData` and `FallMForceData` tables (one 1/256 px per frame² is 14.0625 px/s²).
    pub fn classic() -> Self {
        // Gravity multipliers of the physics' 960 px/s².
        let gravity = |px_s2: f32| px_s2 / 960.0;
        Self {
            walk_speed: 90.0,
            run_speed: 150.0,
            acceleration: 134.0,
            run_acceleration: 200.0,
            deceleration: 134.0,
            run_deceleration: 183.0,
            skid_deceleration: 267.0,
            run_skid_deceleration: 366.0,
            air_control: 1.0,
            jump_speed: 240.0,
            run_jump_bonus: 60.0,
            run_jump_from: 120.0,
            // 0x20 and 0x70 (standing and walking jumps), 0x28 and 0x90 (running jumps).
            rise_gravity_scale: gravity(450.0),
            release_gravity_scale: gravity(1575.0),
            fall_gravity_scale: gravity(1575.0),
            run_rise_gravity_scale: gravity(562.5),
            run_release_gravity_scale: gravity(2025.0),
            run_fall_gravity_scale: gravity(2025.0),
            max_fall_speed: 240.0,
            // Super Mario Bros. has no coyote time and no jump buffer: a jump is taken only from the
            // ground, on the frame it is pressed (these last less than one 60 Hz step).
            coyote_time: 0.01,
            jump_buffer: 0.01,
            ..Self::default()
        }
    }
}
