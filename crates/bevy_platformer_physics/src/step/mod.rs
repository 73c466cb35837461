//! One physics step, stage by stage, each in its own file with the plugin that adds it to its
//! [`PlatformerSystems`](crate::PlatformerSystems) set (the table is in [`crate::schedule`]).
//!
//! The three movement stages run body by body in one pass, in the `Movement` set: each body is
//! prepared, moved and finished before the next one starts. `BeforeMovement` and `AfterMovement`
//! hold no system of the plugin: they are where a game's own systems run just before or just after
//! that pass (`BeforeMovement` sees every velocity Integrate set; `AfterMovement` every body moved).
//!
//! Integrate only changes velocities: moving the body freely and then undoing that move would be
//! the same as never making it, so the movement pass starts from the position Integrate found and
//! moves once (see *The order of a step* in [the physics rules](crate::physics_rules)).

pub(crate) mod climb;
pub mod contact_events;
pub(crate) mod integrate;
pub(crate) mod kinematics;
pub(crate) mod lift_momentum;
pub(crate) mod movement;
pub(crate) mod sync;

use bevy::prelude::*;

/// Query filter of the dynamic bodies a stage works on: not frozen, not invalid.
pub type AwakeDynamic = (
    With<crate::components::Dynamic>,
    Without<crate::components::Frozen>,
    Without<crate::components::ColliderDisabled>,
    Without<crate::components::InvalidBody>,
);
