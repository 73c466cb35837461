//! What kind of body an entity is, and how it resolves collisions.

use bevy::prelude::*;

use super::{Contacts, Movement, MovementInput, MovementState, Velocity};
use crate::components::Collider;

/// A body moved by the simulation: gravity, input, collisions, and the slope rules of
/// `docs/physics-rules.md`. It looks for its own contacts every step.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
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
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Collider, Velocity)]
pub struct Kinematic;

/// Freezes a body: it is skipped by every stage (no integration, no movement, no new contacts) but
/// stays a collider that others hit. Remove it to resume.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct Frozen;

/// Inserted by the plugin on a dynamic body that starts a step inside the level's static solids
/// with no free position within its own size (a spawn point inside a wall): it stays where it is,
/// still, until the game moves it out; the plugin then removes the marker. One `warn!` names the
/// entity and where it is when the marker is inserted. A body less deep inside is moved to the
/// nearest free position instead, and never gets this marker.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// // Move stuck bodies back to a safe place.
/// fn rescue(mut stuck: Query<&mut Transform, With<Embedded>>) {
///     for mut transform in &mut stuck {
///         transform.translation = Vec3::new(0.0, 64.0, 0.0);
///     }
/// }
/// # App::new().add_systems(Update, rescue);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct Embedded;

/// Whether dynamic bodies block one another or pass through one another. A body's own
/// `BodyCollisions` wins over [`PhysicsConfig::body_collisions`](crate::PhysicsConfig::body_collisions),
/// the default for bodies without one; two dynamic bodies block each other only if both block.
///
/// Either way each records the other in its [`Contacts`], so [`ContactStarted`](crate::ContactStarted)
/// and [`ContactEnded`](crate::ContactEnded) are sent: overlapping bodies' contacts are interaction
/// contacts ([`Contact::sensor`](crate::Contact::sensor)), as with a sensor, and never hold a body
/// up. Static colliders, lifts and one-way platforms are not affected.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
/// // Enemies walk through one another, as in most platformers...
/// app.insert_resource(PhysicsConfig {
///     body_collisions: BodyCollisions::Overlap,
///     ..default()
/// });
/// // ...but the pushable crate blocks them all.
/// app.world_mut().spawn((Dynamic, Collider::rectangle(16.0, 16.0), BodyCollisions::Block));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyCollisions {
    /// Two bodies that both block push each other apart (the continuous mode stops each at the
    /// other, the discrete one pushes each half of the way out).
    #[default]
    Block,
    /// Passes through other dynamic bodies, and they through it.
    Overlap,
}

/// How a dynamic body resolves collisions.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionMode {
    /// Swept AABB continuous collision detection: time of impact against every candidate, contacts
    /// resolved in time order. No tunnelling at any speed. See *Continuous mode* in
    /// `docs/physics-rules.md`.
    #[default]
    Continuous,
    /// Move, then push out of overlaps with the accumulated correction vector: fully against static
    /// and kinematic colliders, half against other dynamic bodies. See *Discrete mode* in
    /// `docs/physics-rules.md`.
    Discrete,
    /// The tile method: move along x, snap flush, then along y; substeps when the step is longer
    /// than the smallest box in the way. See *Axis-separated mode* in `docs/physics-rules.md`.
    AxisSeparated,
}
