//! What kind of body an entity is, and how it resolves collisions.

use bevy::prelude::*;

use super::{Contacts, Movement, MovementInput, MovementState, Velocity};
use crate::components::Collider;

/// A body moved by the simulation: gravity, input, collisions (`seeds/001`'s `DynamicObject`).
/// It looks for its own contacts every step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
#[require(
    Collider,
    Velocity,
    Movement,
    MovementInput,
    Contacts,
    CollisionMode,
    MovementState,
    crate::broad_phase::StaticCandidates
)]
pub struct Dynamic;

/// A body that moves by its own rule — a [`PathFollower`](crate::PathFollower), or its
/// [`Velocity`] set by game code — and carries the dynamic bodies standing on it (lifts). It is not
/// moved by collisions. It moves in the Kinematics stage, before any dynamic body.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
#[require(Collider, Velocity)]
pub struct Kinematic;

/// Freezes a body: it is skipped by every stage (no integration, no movement, no new contacts) but
/// stays a collider that others hit. Remove it to resume.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
pub struct Frozen;

/// How a dynamic body resolves collisions.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionMode {
    /// Swept AABB continuous collision detection (`seeds/001` "CCD"): time of impact against every
    /// candidate, contacts resolved in time order. No tunnelling at any speed.
    #[default]
    Continuous,
    /// Move, then push out of overlaps with the accumulated correction vector (`seeds/004`): fully
    /// against static and kinematic colliders, half against other dynamic bodies.
    Discrete,
    /// The tile method of `seeds/003`: move along x, snap flush, then along y; substeps when the step
    /// is longer than the smallest box in the way.
    AxisSeparated,
}
