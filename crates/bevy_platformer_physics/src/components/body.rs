//! What kind of body an entity is, and how it resolves collisions.

use bevy::prelude::*;

use super::{Contacts, MovementInput, MovementState, MovementTuning, Velocity};
use crate::components::Collider;

/// How a collider takes part in the simulation: a collider with neither [`Dynamic`] nor
/// [`Kinematic`] is static.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum BodyKind {
    /// Never moves by itself; found by others.
    Static,
    /// Moves by its own rule and carries riders.
    Kinematic,
    /// Moved by the simulation.
    Dynamic,
}

/// A body moved by the simulation: gravity, input, collisions, and the slope rules of
/// [the physics rules](crate::physics_rules). It looks for its own contacts every step.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// // A floor, and a box dropped onto it.
/// app.world_mut().spawn((Collider::rectangle(200.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)));
/// let body = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(16.0, 16.0), Transform::from_xyz(0.0, 40.0, 0.0)))
///     .id();
/// for _ in 0..100 {
///     app.update();
/// }
/// let y = app.world().get::<Transform>(body).unwrap().translation.y;
/// assert!((y - 8.0).abs() < 0.01, "it rests on the floor: {y}");
/// assert!(app.world().get::<Contacts>(body).unwrap().on_floor());
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(
    Collider,
    Velocity,
    MovementTuning,
    MovementInput,
    Contacts,
    CollisionMode,
    MovementState
)]
pub struct Dynamic;

/// A body that moves by its own rule — a [`PathFollower`](crate::PathFollower), or its
/// [`Velocity`] set by game code — and carries the dynamic bodies standing on it (lifts). It is not
/// moved by collisions. It moves in the Kinematics stage, before any dynamic body.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// // A lift moving right at 50 px/s by its velocity, with a rider.
/// let lift = app
///     .world_mut()
///     .spawn((Kinematic, Collider::rectangle(48.0, 8.0), Transform::default(), Velocity(Vec2::new(50.0, 0.0))))
///     .id();
/// let rider = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(0.0, 16.0, 0.0)))
///     .id();
/// for _ in 0..101 {
///     app.update();
/// }
/// let x = |e| app.world().get::<Transform>(e).unwrap().translation.x;
/// assert!((x(lift) - 50.0).abs() < 0.6, "one second later: {}", x(lift));
/// assert!((x(rider) - x(lift)).abs() < 1.0, "the rider went with it");
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Collider, Velocity)]
pub struct Kinematic;

/// Freezes a body: it is skipped by every stage (no integration, no movement, no new contacts) but
/// stays a collider that others hit. Remove it to resume.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// let body = app
///     .world_mut()
///     .spawn((Dynamic, Frozen, Collider::rectangle(16.0, 16.0), Transform::from_xyz(0.0, 100.0, 0.0)))
///     .id();
/// for _ in 0..10 {
///     app.update();
/// }
/// assert_eq!(app.world().get::<Transform>(body).unwrap().translation.y, 100.0, "held in the air");
/// app.world_mut().entity_mut(body).remove::<Frozen>();
/// app.update();
/// assert!(app.world().get::<Transform>(body).unwrap().translation.y < 100.0, "falls once thawed");
/// ```
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
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// fn spawn_tile_hero(mut commands: Commands) {
///     // A character moved the tile way: x, then y, snapping flush to the grid's cells.
///     commands.spawn((
///         Dynamic,
///         CollisionMode::AxisSeparated,
///         Collider::rectangle(12.0, 24.0),
///         Transform::from_xyz(0.0, 40.0, 0.0),
///     ));
/// }
/// # App::new().add_systems(Startup, spawn_tile_hero);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionMode {
    /// Swept AABB continuous collision detection: time of impact against every candidate, contacts
    /// resolved in time order. No tunnelling at any speed. See *Continuous mode* in
    /// [the physics rules](crate::physics_rules).
    #[default]
    Continuous,
    /// Move, then push out of overlaps with the accumulated correction vector: fully against static
    /// and kinematic colliders, half against other dynamic bodies. See *Discrete mode* in
    /// [the physics rules](crate::physics_rules).
    Discrete,
    /// The tile method: move along x, snap flush, then along y; substeps when the step is longer
    /// than the smallest box in the way. See *Axis-separated mode* in [the physics rules](crate::physics_rules).
    AxisSeparated,
}
