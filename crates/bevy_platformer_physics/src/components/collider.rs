//! Collider shapes and the filters that decide who collides with whom.

use bevy::prelude::*;

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

/// Collision layers: whether two colliders may interact at all, as bit masks checked from both
/// sides, so either one can refuse the other.
///
/// Two colliders interact only if each one's `memberships` intersects the other's `filters`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct CollisionLayers {
    /// Layers this collider belongs to (bit mask).
    pub memberships: u32,
    /// Layers this collider interacts with (bit mask).
    pub filters: u32,
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

impl CollisionLayers {
    /// Member of every layer, interacting with every layer.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };

    /// A collider in `memberships` that interacts with `filters`.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }

    /// Whether the two interact: each accepts the other.
    pub fn interacts_with(&self, other: &CollisionLayers) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

/// A platform that is solid only from above: a body collides with it only if the body's bottom at
/// the *start* of the step was at or above the platform's top (within the contact tolerance), and
/// only with an upward response. Bodies pass through it from below and from the sides. Works on
/// static and kinematic colliders (one-way lifts). See *One-way platforms and drop-through* in
/// `docs/physics-rules.md`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
#[require(Collider)]
pub struct OneWayPlatform;

/// Interaction only (triggers, pickups, bodies that may overlap): contacts with this collider
/// are recorded and reported as events, but nothing is pushed or stopped by it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, Default)]
#[require(Collider)]
pub struct Sensor;

/// Inserted by the plugin on an entity whose collider, position or velocity is unusable (zero,
/// negative or non-finite size, NaN or infinite position or velocity). The entity is left out of the
/// simulation, and of every other body's collisions, until the data is fixed; the plugin then
/// removes this marker. One `warn!` names the entity when it is inserted.
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component, Debug)]
pub struct InvalidBody {
    /// What is wrong, for logs and inspectors.
    pub reason: String,
}
