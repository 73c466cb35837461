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
/// `docs/physics-rules.md`.
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
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
#[require(Collider)]
pub struct Sensor;

/// Inserted by the plugin on an entity whose collider, position or velocity is unusable (zero,
/// negative or non-finite size, NaN or infinite position or velocity). The entity is left out of the
/// simulation, and of every other body's collisions, until the data is fixed; the plugin then
/// removes this marker. One `warn!` names the entity when it is inserted.
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
pub struct InvalidBody {
    /// What is wrong, for logs and inspectors.
    pub reason: String,
}
