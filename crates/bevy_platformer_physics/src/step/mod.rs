//! One physics step, stage by stage. Each stage is a [`PlatformerSystems`] set, chained in
//! [`PhysicsCorePlugin`](crate::PhysicsCorePlugin) in this order, and lives in its own file:
//!
//! | set | file | what it does |
//! | --- | --- | --- |
//! | `SyncColliders` | `sync.rs` | clamps `dt`; validates changed colliders and mirrors them into the broad phase |
//! | `Kinematics` | `kinematics.rs` | lifts move, carrying riders and pushing bodies in their way |
//! | `Integrate` | `integrate.rs` | semi-implicit Euler velocity: gravity, input, friction, skid, jump, clip |
//! | `PrepareMovement` | `prepare_movement.rs` | where the step starts, the static candidates around the move (kept across steps), the slope plan |
//! | `Resolve` | `resolve/` | the move itself, in the body's [`CollisionMode`](crate::CollisionMode) |
//! | `FinishMovement` | `finish_movement.rs` | confirms the step's support, the ground under a walking body's feet, drop-through bookkeeping |
//!
//! The three movement stages run body by body in one pass (`movement.rs`), in the `Resolve` set:
//! each body is prepared, moved and finished before the next one starts. `PrepareMovement` and
//! `FinishMovement` stay in the chain as the points just before and just after that pass.
//! | `ContactEvents` | `contact_events.rs` | started / ended messages and entity events, each body compared with what was last reported for it |
//!
//! Integrate only changes velocities: the seeds' "free move then undo it" is the same as never
//! making it, so the Resolve stage starts from the position Integrate found and moves once.

pub mod contact_events;
pub(crate) mod finish_movement;
pub(crate) mod integrate;
pub(crate) mod kinematics;
pub(crate) mod movement;
pub(crate) mod prepare_movement;
pub(crate) mod resolve;
pub(crate) mod sync;

use bevy::ecs::schedule::SystemSet;
use bevy::prelude::*;

use crate::config::PhysicsStep;

/// The stages of one physics step, chained in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlatformerSystems {
    /// Clamp `dt`, validate and mirror changed colliders into the broad phase.
    SyncColliders,
    /// Kinematic bodies move and carry their riders.
    Kinematics,
    /// Velocities from gravity, input and friction.
    Integrate,
    /// Just before the movement pass (start position and slope planning run in it, per body).
    PrepareMovement,
    /// The movement pass: for each body, its slope plan, its move with collision detection and
    /// response, and the confirmation of its support.
    Resolve,
    /// Just after the movement pass.
    FinishMovement,
    /// Contact started / ended messages.
    ContactEvents,
}

/// Query filter of the dynamic bodies a stage works on: not frozen, not invalid.
pub type AwakeDynamic = (
    With<crate::components::Dynamic>,
    Without<crate::components::Frozen>,
    Without<crate::components::InvalidBody>,
);

/// Run condition: the step has a positive length.
pub fn step_is_running(step: Res<PhysicsStep>) -> bool {
    step.dt > 0.0
}
