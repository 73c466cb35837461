//! When the game's work runs in each fixed step, around the physics step.

use bevy::prelude::*;

/// Fixed steps per second of the game and its physics.
pub const STEPS_PER_SECOND: f64 = 60.0;

/// The order of the game's work in each fixed step, around the physics step
/// ([`PlatformerSystems`](bevy_platformer_physics::PlatformerSystems)): input and intents before it, reactions and bookkeeping after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// Take this step's input frame.
    Input,
    /// Player control and enemy AI: velocities and movement intents.
    Intent,
    /// Interactions after the move: stomps, pick-ups, blocks, damage, goal.
    React,
    /// Deaths, timers, lives.
    Progress,
    /// Traces and recordings.
    Record,
}
