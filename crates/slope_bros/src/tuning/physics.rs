//! The physics world's section of the tuning file.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use bevy_platformer_physics::prelude::CollisionMode;

/// The physics world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct PhysicsTuning {
    /// Gravity, px/s² (negative is down).
    pub gravity: f32,
    /// How characters resolve collisions.
    pub collision_mode: CollisionMode,
}

impl Default for PhysicsTuning {
    fn default() -> Self {
        Self {
            gravity: -960.0,
            collision_mode: CollisionMode::Continuous,
        }
    }
}
