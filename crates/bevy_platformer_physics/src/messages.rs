//! Messages (and entity events) the plugin sends.

use bevy::prelude::*;

use crate::components::ContactDirection;

/// A contact began: sent once per pair when it starts, to both sides (two messages with opposite
/// directions), and triggered as an entity event on `entity` for observers.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Coin;
///
/// // After the step: every new contact, as a message (an observer on the entity sees it too).
/// fn collect_coins(mut commands: Commands, mut started: MessageReader<ContactStarted>, coins: Query<(), With<Coin>>) {
///     for contact in started.read() {
///         if coins.contains(contact.other) {
///             commands.entity(contact.other).despawn();
///         }
///     }
/// }
/// # App::new().add_systems(FixedUpdate, collect_coins.after(PlatformerSystems::ContactEvents));
/// ```
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
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::info; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
///
/// let mut world = World::new();
/// // A pressure plate that springs back when the last body leaves it.
/// world
///     .spawn((Sensor, Collider::rectangle(32.0, 4.0)))
///     .observe(|ended: On<ContactEnded>| info!("{} left the plate", ended.other));
/// ```
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
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::info; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
///
/// // A lift that crushes a body against a ceiling kills it.
/// fn crush(mut commands: Commands, mut squished: MessageReader<Squished>) {
///     for event in squished.read() {
///         info!("{} crushed by {} against {}", event.entity, event.by, event.against);
///         commands.entity(event.entity).despawn();
///     }
/// }
/// # App::new().add_systems(FixedUpdate, crush.after(PlatformerSystems::ContactEvents));
/// ```
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

/// A body entered a [`FluidZone`](crate::FluidZone): sent after the step's Integrate stage, and
/// triggered on `entity` for observers.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct EnteredFluid {
    /// The body.
    pub entity: Entity,
    /// The zone.
    pub zone: Entity,
}

/// A body left the [`FluidZone`](crate::FluidZone) it was in (or the zone went).
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct LeftFluid {
    /// The body.
    pub entity: Entity,
    /// The zone.
    pub zone: Entity,
}
