//! Collider shapes and the filters that decide who collides with whom.

use bevy::prelude::*;

use super::layers::CollisionLayers;
use crate::geometry::Aabb;

/// An axis-aligned box collider, relative to the entity's [`Transform`] translation.
///
/// The collider is deliberately separate from the sprite: a character's collider is usually
/// narrower than its picture. Rotation and scale of the `Transform` are ignored: colliders
/// never rotate. Physics entities are expected to be top-level (no parent transform).
///
/// An entity with a `Collider` and neither [`Dynamic`](crate::Dynamic) nor
/// [`Kinematic`](crate::Kinematic) is static.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// // A character 12 px wide and 24 px tall whose translation is at its feet.
/// let collider = Collider::rectangle(12.0, 24.0).with_offset(Vec2::new(0.0, 12.0));
/// let aabb = collider.aabb(Vec2::new(100.0, 0.0));
/// assert_eq!((aabb.min, aabb.max), (Vec2::new(94.0, 0.0), Vec2::new(106.0, 24.0)));
/// assert_eq!(collider.problem(), None);
/// assert!(Collider::rectangle(0.0, 24.0).problem().is_some(), "a flat box cannot be simulated");
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Transform, CollisionLayers)]
pub struct Collider {
    /// Width and height, in pixels. Must be finite and greater than zero.
    pub size: Vec2,
    /// Offset of the box's centre from the translation, in pixels (y up).
    pub offset: Vec2,
}

impl Default for Collider {
    fn default() -> Self {
        Self::rectangle(16.0, 16.0)
    }
}

impl Collider {
    /// A `width` × `height` box centred on the translation.
    pub fn rectangle(width: f32, height: f32) -> Self {
        Self {
            size: Vec2::new(width, height),
            offset: Vec2::ZERO,
        }
    }

    /// The same box with its centre moved by `offset` from the translation.
    pub fn with_offset(mut self, offset: Vec2) -> Self {
        self.offset = offset;
        self
    }

    /// The world-space box for a body whose translation is `position`.
    pub fn aabb(&self, position: Vec2) -> Aabb {
        Aabb::from_center_half_size(position + self.offset, self.size * 0.5)
    }

    /// Whether it is usable: [`problem`](Self::problem) without the message.
    pub(crate) fn problem_free(&self) -> bool {
        self.size.is_finite() && self.offset.is_finite() && self.size.cmpgt(Vec2::ZERO).all()
    }

    /// Why this collider cannot be simulated, or `None` when it is usable.
    pub fn problem(&self) -> Option<String> {
        if !self.size.is_finite() || !self.offset.is_finite() {
            Some(format!(
                "collider size {:?} / offset {:?} is not finite",
                self.size, self.offset
            ))
        } else if self.size.x <= 0.0 || self.size.y <= 0.0 {
            Some(format!(
                "collider size {:?} must be greater than zero on both axes",
                self.size
            ))
        } else {
            None
        }
    }
}

/// A platform that is solid only from above: a body collides with it only if the body's bottom at
/// the *start* of the step was at or above the platform's top (within the contact tolerance), and
/// only with an upward response. Bodies pass through it from below and from the sides. Works on
/// static and kinematic colliders (one-way lifts). See *One-way platforms and drop-through* in
/// [the physics rules](crate::physics_rules).
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
/// // A platform at y = 0..8, a body falling onto it from above, and one under it jumping up.
/// app.world_mut().spawn((OneWayPlatform, Collider::rectangle(64.0, 8.0), Transform::from_xyz(0.0, 4.0, 0.0)));
/// let above = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(0.0, 60.0, 0.0)))
///     .id();
/// let below = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(20.0, -30.0, 0.0), Velocity(Vec2::new(0.0, 400.0))))
///     .id();
/// for _ in 0..20 {
///     app.update();
/// }
/// let y = |app: &App, e| app.world().get::<Transform>(e).unwrap().translation.y;
/// assert!(y(&app, below) > 10.0, "came up through it from below");
/// for _ in 0..100 {
///     app.update();
/// }
/// assert!((y(&app, above) - 20.0).abs() < 0.01, "landed on its top");
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Collider)]
pub struct OneWayPlatform;

/// Takes a collider, slope or tile grid out of the physics world without despawning it: it leaves
/// the broad phase (nothing collides with it, no query finds it), its contacts end (with
/// [`ContactEnded`](crate::ContactEnded) to both sides), and a body with it is not moved at all.
/// Remove it to put the entity back as it is then. (A [`Frozen`](crate::Frozen) body, by
/// contrast, stops moving but is still a collider that others hit.)
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Collected;
///
/// // A coin that was picked up waits, out of the world, to come back when the level restarts.
/// fn hide_collected(mut commands: Commands, coins: Query<Entity, Added<Collected>>) {
///     for coin in &coins {
///         commands.entity(coin).insert(ColliderDisabled);
///     }
/// }
/// # App::new().add_systems(Update, hide_collected);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct ColliderDisabled;

/// Interaction only (triggers, pickups, bodies that may overlap): contacts with this collider
/// are recorded and reported as events, but nothing is pushed or stopped by it.
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
/// /// Counts the bodies that entered the trigger.
/// #[derive(Resource, Default)]
/// struct Entered(u32);
///
/// app.init_resource::<Entered>();
/// let trigger = app
///     .world_mut()
///     .spawn((Sensor, Collider::rectangle(32.0, 32.0), Transform::default()))
///     .observe(|_: On<ContactStarted>, mut entered: ResMut<Entered>| entered.0 += 1)
///     .id();
/// // A body falls through it, untouched by it.
/// let body = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(8.0, 8.0), Transform::from_xyz(0.0, 40.0, 0.0)))
///     .id();
/// for _ in 0..60 {
///     app.update();
/// }
/// assert!(app.world().get::<Transform>(body).unwrap().translation.y < -40.0, "fell through it");
/// assert!(app.world().resource::<Entered>().0 >= 1, "the trigger saw it");
/// # let _ = trigger;
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Collider)]
pub struct Sensor;

/// Inserted by the plugin on an entity whose collider, position or velocity is unusable (zero,
/// negative or non-finite size, NaN or infinite position or velocity). The entity is left out of the
/// simulation, and of every other body's collisions, until the data is fixed; the plugin then
/// removes this marker. One `warn!` names the entity when it is inserted.
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
/// // A collider with no width is left out, with one warning, until it is fixed.
/// let bad = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(0.0, 24.0), Transform::default()))
///     .id();
/// app.update();
/// let reason = &app.world().get::<InvalidBody>(bad).expect("marked").reason;
/// assert!(reason.contains("greater than zero"), "{reason}");
/// *app.world_mut().get_mut::<Collider>(bad).unwrap() = Collider::rectangle(12.0, 24.0);
/// app.update();
/// assert!(app.world().get::<InvalidBody>(bad).is_none(), "back in the simulation");
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
pub struct InvalidBody {
    /// What is wrong, for logs and inspectors.
    pub reason: String,
}
