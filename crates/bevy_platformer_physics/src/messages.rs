//! Messages (and entity events) the plugin sends.

use bevy::prelude::*;

use crate::components::ContactDirection;

/// A contact began: sent once per pair when it starts, to both sides (two messages with opposite
/// directions), and triggered as an entity event on `entity` for observers.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactStarted {
    /// The body this message is about.
    pub entity: Entity,
    /// The collider it touches.
    pub other: Entity,
    /// Side of `entity` on which `other` lies.
    pub direction: ContactDirection,
}

/// A contact ended: sent once per pair when it ends (computed after the step's contacts are
/// recorded), to both sides, and triggered as an entity event on `entity`. When a collider is
/// despawned or loses its `Collider`, only the remaining side gets this, with `other` the removed
/// entity.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactEnded {
    /// The body this message is about.
    pub entity: Entity,
    /// The collider it no longer touches.
    pub other: Entity,
    /// Side of `entity` on which `other` was.
    pub direction: ContactDirection,
}

/// A kinematic body (`by`) tried to push or carry `entity` into a solid (`against`) and could not:
/// the body was left flush against the solid, never inside it. Sent on every step it happens; the
/// game decides what a squish means (usually a death).
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Squished {
    /// The squeezed dynamic body.
    pub entity: Entity,
    /// The kinematic body that pushed.
    pub by: Entity,
    /// The solid it was pushed against.
    pub against: Entity,
}
