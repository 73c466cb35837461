//! The slope component: a straight static segment that bodies walk, slide and land on.
//!
//! Only the segment supports bodies: the slope's bounding rect is never solid in any collision mode
//! (it is not in the solvers' solids at all).

use bevy::prelude::*;

use super::CollisionLayers;
use crate::geometry::SlopeShape;

/// A static, straight slope between two points, relative to the entity's translation (pixels, y
/// up), in any order. Bodies walk, slide and land on it by the slope rules (sections 1–17 of
/// [the physics rules](crate::physics_rules)). Do not add a [`Collider`](crate::Collider) to the same entity: that
/// would be a solid box.
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
/// // A ramp rising 128 px over 256, and a body walking up it.
/// app.world_mut().spawn((Collider::rectangle(200.0, 16.0), Transform::from_xyz(-100.0, -8.0, 0.0)));
/// app.world_mut().spawn((SlopeSegment::new(Vec2::ZERO, Vec2::new(256.0, 128.0)), Transform::default()));
/// let body = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(-20.0, 12.0, 0.0)))
///     .id();
/// app.world_mut().get_mut::<MovementInput>(body).unwrap().horizontal = 1.0;
/// for _ in 0..100 {
///     app.update();
/// }
/// let feet = app.world().get::<Transform>(body).unwrap().translation.y - 12.0;
/// assert!(feet > 5.0, "it walked up the ramp: feet at {feet}");
/// assert!(app.world().get::<MovementState>(body).unwrap().supporting_slope.is_some());
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
#[require(Transform, CollisionLayers)]
pub struct SlopeSegment {
    /// One end, relative to the translation.
    pub start: Vec2,
    /// The other end, relative to the translation.
    pub end: Vec2,
}

impl SlopeSegment {
    /// A slope between `start` and `end` (any order).
    pub fn new(start: Vec2, end: Vec2) -> Self {
        Self { start, end }
    }

    /// The world-space segment for an entity at `position`.
    pub fn shape(&self, position: Vec2) -> SlopeShape {
        SlopeShape::new(self.start + position, self.end + position)
    }

    /// Why this slope cannot be simulated, or `None`: the slope rules assume a width and a height
    /// greater than zero (a vertical segment is a wall, a flat one a floor: use a `Collider`).
    pub fn problem(&self) -> Option<String> {
        let size = (self.end - self.start).abs();
        if !self.start.is_finite() || !self.end.is_finite() {
            Some(format!("slope points {} and {} are not finite", self.start, self.end))
        } else if size.x <= 0.0 || size.y <= 0.0 {
            Some(format!(
                "slope from {} to {} has width {} and height {}; both must be greater than zero",
                self.start, self.end, size.x, size.y
            ))
        } else {
            None
        }
    }
}

/// The steepest slope a dynamic body may walk up, as a gradient (height over width: 1 is 45°).
/// A steeper slope is a wall to its walk: walking into it the body stops at its foot, with a
/// contact on that side; standing on one (it landed or slid there) it cannot walk up and slides
/// down, with input or without (it may still walk down, and jump). A body without it walks up
/// every slope. See section 4 of [the physics rules](crate::physics_rules).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// # let mut world = World::new();
/// // Walks up gentle ramps and 45° slopes, not gradient-2 ones (63°).
/// world.spawn((Dynamic, Collider::rectangle(12.0, 24.0), MaxClimbableGradient(1.0)));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, PartialEq)]
pub struct MaxClimbableGradient(pub f32);

/// A slope found near a body: which collider (entity and part, see
/// [`ColliderHit::part`](crate::ColliderHit::part)) and its segment.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, PartialEq)]
pub struct SlopeRef {
    /// The slope's entity (a [`SlopeSegment`] or a [`TileGrid`](crate::TileGrid)).
    pub entity: Entity,
    /// The piece of a tile grid, 0 for a `SlopeSegment`.
    pub part: u32,
    /// The segment in world space.
    pub shape: SlopeShape,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_slopes_are_rejected() {
        assert!(SlopeSegment::new(Vec2::ZERO, Vec2::new(10.0, 0.0)).problem().is_some());
        assert!(SlopeSegment::new(Vec2::ZERO, Vec2::new(0.0, 10.0)).problem().is_some());
        assert!(
            SlopeSegment::new(Vec2::ZERO, Vec2::new(f32::NAN, 10.0))
                .problem()
                .is_some()
        );
        assert!(SlopeSegment::new(Vec2::new(10.0, 5.0), Vec2::ZERO).problem().is_none());
        // Away from the origin too: the size is the difference of the ends.
        assert!(
            SlopeSegment::new(Vec2::splat(5.0), Vec2::new(15.0, 5.0))
                .problem()
                .is_some()
        );
        assert!(
            SlopeSegment::new(Vec2::splat(5.0), Vec2::new(5.0, 15.0))
                .problem()
                .is_some()
        );
    }

    #[test]
    fn a_segment_is_placed_at_its_entity() {
        let segment = SlopeSegment::new(Vec2::ZERO, Vec2::new(10.0, 5.0));
        assert_eq!(
            segment.shape(Vec2::new(100.0, 50.0)),
            SlopeShape::new(Vec2::new(100.0, 50.0), Vec2::new(110.0, 55.0))
        );
    }
}
