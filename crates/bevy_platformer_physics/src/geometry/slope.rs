//! Straight slopes as shapes: the segment an upright box walks on, and every measure the slope
//! rules take of it (the rules are stated in [the physics rules](crate::physics_rules), sections 1,
//! 4 and 9).
//!
//! Whether a slope rises to the right is derived from its two points, never stored, so the points
//! may come in any order.

use bevy::prelude::*;

use super::Aabb;

/// Which way a slope rises. A slope is the diagonal of its bounding rect that this picks, so a
/// rect and a rise are all a collider proxy keeps of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, PartialEq)]
pub enum SlopeRise {
    /// Up toward +x: from the rect's bottom-left corner to its top-right one.
    Right,
    /// Up toward −x: from the rect's top-left corner to its bottom-right one.
    Left,
}

/// A slope in world space: its low-x and high-x ends.
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, PartialEq)]
pub struct SlopeShape {
    /// The end with the smaller x.
    pub left: Vec2,
    /// The end with the larger x.
    pub right: Vec2,
}

impl SlopeShape {
    /// The segment between two points, in any order.
    pub fn new(a: Vec2, b: Vec2) -> Self {
        if a.x <= b.x {
            Self { left: a, right: b }
        } else {
            Self { left: b, right: a }
        }
    }

    /// The diagonal of `rect` that rises toward `rise`: exactly the segment whose
    /// [`rect`](Self::rect) and [`rise`](Self::rise) they are.
    pub fn from_rect(rect: Aabb, rise: SlopeRise) -> Self {
        match rise {
            SlopeRise::Right => Self {
                left: rect.min,
                right: rect.max,
            },
            SlopeRise::Left => Self {
                left: Vec2::new(rect.min.x, rect.max.y),
                right: Vec2::new(rect.max.x, rect.min.y),
            },
        }
    }

    /// Whether the slope goes up toward +x.
    pub fn rises_right(&self) -> bool {
        self.right.y > self.left.y
    }

    /// Which way the slope rises (a flat one counts as rising left, as in
    /// [`rises_right`](Self::rises_right)).
    pub fn rise(&self) -> SlopeRise {
        if self.rises_right() {
            SlopeRise::Right
        } else {
            SlopeRise::Left
        }
    }

    /// The bounding rect of the segment.
    pub fn rect(&self) -> Aabb {
        Aabb {
            min: self.left.min(self.right),
            max: self.left.max(self.right),
        }
    }

    /// Height over width: the gradient `s` of the slope rules.
    pub fn gradient(&self) -> f32 {
        let size = self.rect().size();
        size.y / size.x
    }

    /// Strict horizontal overlap: touching an end is not overlap.
    pub fn overlaps_x(&self, body: &Aabb) -> bool {
        body.max.x > self.left.x && body.min.x < self.right.x
    }

    /// The surface height under the body's uphill foot corner: the right bottom corner
    /// when the slope rises right, the left one otherwise, clamped to the segment's ends. Sampling
    /// there keeps the whole box above the segment; the clamp continues the end heights (it does
    /// not make an infinite floor: [`overlaps_x`](Self::overlaps_x) decides support).
    pub fn surface_y(&self, body: &Aabb) -> f32 {
        // Written out from the ends rather than from `rect()`: this runs several times per body
        // per step. (`left.y + t·(right.y − left.y)` is bit for bit `max.y − t·height` when the
        // slope falls.)
        let (left, right) = (self.left, self.right);
        let foot_x = if right.y > left.y { body.max.x } else { body.min.x };
        let t = (foot_x.clamp(left.x, right.x) - left.x) / (right.x - left.x);
        left.y + t * (right.y - left.y)
    }

    /// Whether a horizontal velocity `vx` climbs this slope.
    pub fn is_uphill(&self, vx: f32) -> bool {
        (vx > 0.0 && self.rises_right()) || (vx < 0.0 && !self.rises_right())
    }

    /// The horizontal speed factor of a step on this slope: `1/(1+s)` uphill, `1+s` downhill, 1 at
    /// rest (see *Walking on a slope* in [the physics rules](crate::physics_rules)).
    #[inline]
    pub fn speed_factor(&self, vx: f32) -> f32 {
        if vx == 0.0 {
            1.0
        } else if self.is_uphill(vx) {
            1.0 / (1.0 + self.gradient())
        } else {
            1.0 + self.gradient()
        }
    }

    /// Horizontal part of the passive slide: `speed · min(s, cap)` along the
    /// surface, toward the valley; `speed` in px/s per unit of gradient.
    pub fn slide_velocity_x(&self, speed: f32, gradient_cap: f32) -> f32 {
        let s = self.gradient();
        let along = speed * s.min(gradient_cap);
        let horizontal = along / (1.0 + s * s).sqrt();
        if self.rises_right() { -horizontal } else { horizontal }
    }

    /// Whether `block` lies under the segment: its top is at or below the surface over its whole
    /// width within the slope (within `tolerance`), and it starts inside the slope's span on the
    /// low side. Such a block can never be a wall for a body standing on the slope.
    pub fn is_under(&self, block: &Aabb, tolerance: f32) -> bool {
        let rect = self.rect();
        let size = rect.size();
        let height_at = |x: f32| {
            let t = ((x - rect.min.x) / size.x).clamp(0.0, 1.0);
            if self.rises_right() {
                rect.min.y + t * size.y
            } else {
                rect.max.y - t * size.y
            }
        };
        if self.rises_right() {
            block.min.x >= rect.min.x - tolerance
                && block.min.x < rect.max.x
                && block.max.y <= height_at(block.min.x) + tolerance
        } else {
            block.max.x <= rect.max.x + tolerance
                && block.max.x > rect.min.x
                && block.max.y <= height_at(block.max.x) + tolerance
        }
    }

    /// The top join: a block whose top equals the slope's top and that is adjacent to the slope's
    /// high end (edges coinciding within `tolerance`). Such a block continues the surface, and the
    /// diagonal move to the clamped height must not catch its corner (see *The top join of a slope
    /// with a block* in [the physics rules](crate::physics_rules)).
    pub fn is_top_join(&self, block: &Aabb, tolerance: f32) -> bool {
        let rect = self.rect();
        let same_top = (block.max.y - rect.max.y).abs() <= tolerance;
        let adjacent_at_high_end = if self.rises_right() {
            (block.min.x - rect.max.x).abs() <= tolerance
        } else {
            (block.max.x - rect.min.x).abs() <= tolerance
        };
        same_top && adjacent_at_high_end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(x: f32, y: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::new(10.0, 20.0))
    }

    #[test]
    fn direction_is_derived_from_the_points_in_any_order() {
        let a = SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 50.0));
        let b = SlopeShape::new(Vec2::new(100.0, 50.0), Vec2::new(0.0, 0.0));
        assert_eq!(a, b);
        assert!(a.rises_right());
        assert!(!SlopeShape::new(Vec2::new(0.0, 50.0), Vec2::new(100.0, 0.0)).rises_right());
        assert_eq!(a.gradient(), 0.5);
    }

    #[test]
    fn a_rect_and_a_rise_give_back_the_exact_segment() {
        let ends = [
            (Vec2::new(0.1, 0.3), Vec2::new(100.7, 50.9)),
            (Vec2::new(-3.3, 50.0), Vec2::new(100.0, -0.2)),
            (Vec2::new(16.0, 32.0), Vec2::new(0.0, 48.0)),
        ];
        for (a, b) in ends {
            let shape = SlopeShape::new(a, b);
            assert_eq!(
                SlopeShape::from_rect(shape.rect(), shape.rise()),
                shape,
                "slope from {a} to {b}, rising {:?}",
                shape.rise()
            );
        }
        assert_eq!(SlopeShape::new(Vec2::ZERO, Vec2::ONE).rise(), SlopeRise::Right);
        assert_eq!(SlopeShape::new(Vec2::Y, Vec2::X).rise(), SlopeRise::Left);
    }

    #[test]
    fn overlap_is_strict() {
        let s = SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 50.0));
        assert!(!s.overlaps_x(&body(-10.0, 0.0)), "touching the left end");
        assert!(s.overlaps_x(&body(-9.0, 0.0)));
        assert!(!s.overlaps_x(&body(100.0, 0.0)), "touching the right end");
    }

    #[test]
    fn surface_is_sampled_under_the_uphill_foot_and_clamped() {
        let up_right = SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 50.0));
        assert!(
            (up_right.surface_y(&body(20.0, 0.0)) - 15.0).abs() < 1e-5,
            "right foot at x 30"
        );
        assert_eq!(up_right.surface_y(&body(95.0, 0.0)), 50.0, "clamped at the top");
        assert_eq!(up_right.surface_y(&body(-50.0, 0.0)), 0.0, "clamped at the bottom");
        let up_left = SlopeShape::new(Vec2::new(0.0, 50.0), Vec2::new(100.0, 0.0));
        assert!(
            (up_left.surface_y(&body(20.0, 0.0)) - 40.0).abs() < 1e-5,
            "left foot at x 20"
        );
    }

    #[test]
    fn speed_factor_and_slide() {
        let s = SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 50.0));
        assert_eq!(s.speed_factor(3.0), 1.0 / 1.5);
        assert_eq!(s.speed_factor(-3.0), 1.5);
        assert_eq!(s.speed_factor(0.0), 1.0);
        let slide = s.slide_velocity_x(80.0, 2.0);
        assert!(
            (slide + 80.0 * 0.5 / 1.25f32.sqrt()).abs() < 1e-4,
            "toward the valley (left): {slide}"
        );
        let steep = SlopeShape::new(Vec2::new(0.0, 300.0), Vec2::new(100.0, 0.0));
        assert!(
            (steep.slide_velocity_x(80.0, 2.0) - 160.0 / 10f32.sqrt()).abs() < 1e-3,
            "capped at s = 2"
        );
    }

    #[test]
    fn top_join_needs_same_top_and_adjacency_at_the_high_end() {
        let s = SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 50.0));
        let block = Aabb::from_min_size(Vec2::new(100.0, 34.0), Vec2::new(16.0, 16.0));
        assert!(s.is_top_join(&block, 0.01));
        assert!(
            !s.is_top_join(&block.translated(Vec2::new(0.0, 1.0)), 0.01),
            "higher top: a wall"
        );
        assert!(!s.is_top_join(&block.translated(Vec2::new(2.0, 0.0)), 0.01), "a gap");
        let low_end = Aabb::from_min_size(Vec2::new(-16.0, 34.0), Vec2::new(16.0, 16.0));
        assert!(!s.is_top_join(&low_end, 0.01), "at the low end");
    }

    #[test]
    fn blocks_under_the_line_are_under_and_walls_are_not() {
        let s = SlopeShape::new(Vec2::ZERO, Vec2::new(64.0, 64.0));
        let cell_under = Aabb::from_min_size(Vec2::new(16.0, 0.0), Vec2::new(16.0, 16.0));
        assert!(s.is_under(&cell_under, 0.01), "its top-left corner is on the line");
        let wall = Aabb::from_min_size(Vec2::new(16.0, 10.0), Vec2::new(8.0, 40.0));
        assert!(!s.is_under(&wall, 0.01));
        let floor_before = Aabb::from_min_size(Vec2::new(-100.0, -16.0), Vec2::new(100.0, 16.0));
        assert!(
            !s.is_under(&floor_before, 0.01),
            "starts before the slope: the floor it leads to"
        );
        let mirrored = SlopeShape::new(Vec2::new(0.0, 64.0), Vec2::new(64.0, 0.0));
        let cell = Aabb::from_min_size(Vec2::new(32.0, 0.0), Vec2::new(16.0, 16.0));
        assert!(mirrored.is_under(&cell, 0.01));
    }

    #[test]
    fn a_block_is_under_only_from_the_low_end_within_tolerance_to_short_of_the_high_end() {
        let tolerance = 1.0;
        let rising = SlopeShape::new(Vec2::ZERO, Vec2::new(64.0, 64.0));
        let low_end_within = Aabb::from_min_size(Vec2::new(-0.5, -16.0), Vec2::new(16.0, 16.0));
        assert!(
            rising.is_under(&low_end_within, tolerance),
            "starts within tolerance of the low end"
        );
        let low_end_beyond = Aabb::from_min_size(Vec2::new(-1.5, -16.0), Vec2::new(16.0, 16.0));
        assert!(
            !rising.is_under(&low_end_beyond, tolerance),
            "starts beyond the tolerance"
        );
        let at_high_end = Aabb::from_min_size(Vec2::new(64.0, 0.0), Vec2::new(16.0, 16.0));
        assert!(!rising.is_under(&at_high_end, tolerance), "starts where the slope ends");

        let falling = SlopeShape::new(Vec2::new(0.0, 64.0), Vec2::new(64.0, 0.0));
        let low_end_within = Aabb::from_min_size(Vec2::new(48.5, -16.0), Vec2::new(16.0, 16.0));
        assert!(
            falling.is_under(&low_end_within, tolerance),
            "ends within tolerance of the low end"
        );
        let low_end_beyond = Aabb::from_min_size(Vec2::new(49.5, -16.0), Vec2::new(16.0, 16.0));
        assert!(
            !falling.is_under(&low_end_beyond, tolerance),
            "ends beyond the tolerance"
        );
        let at_high_end = Aabb::from_min_size(Vec2::new(-16.0, 0.0), Vec2::new(16.0, 16.0));
        assert!(
            !falling.is_under(&at_high_end, tolerance),
            "ends where the slope starts"
        );
    }

    /// The tests above put the slopes' low corner at the origin, where `x - left.x` and `x + left.x`
    /// agree; here every rule is checked on slopes elsewhere, both ways up.
    #[test]
    fn every_rule_holds_for_slopes_away_from_the_origin() {
        let rising = SlopeShape::new(Vec2::new(100.0, 40.0), Vec2::new(164.0, 72.0));
        let falling = SlopeShape::new(Vec2::new(100.0, 72.0), Vec2::new(164.0, 40.0));
        let block = |min_x: f32, top: f32| Aabb::from_min_size(Vec2::new(min_x, top - 16.0), Vec2::splat(16.0));

        // Under the uphill foot: the right one at x 130, the left one at x 120.
        assert!((rising.surface_y(&body(120.0, 60.0)) - 55.0).abs() < 1e-4);
        assert!((falling.surface_y(&body(120.0, 60.0)) - 62.0).abs() < 1e-4);

        // A block's top on the surface at its low-side edge is under; a pixel higher is a wall.
        assert!(
            rising.is_under(&block(116.0, 48.0), 0.01),
            "left edge at x 116, surface 48"
        );
        assert!(!rising.is_under(&block(116.0, 49.0), 0.01));
        assert!(
            falling.is_under(&block(132.0, 48.0), 0.01),
            "right edge at x 148, surface 48"
        );
        assert!(!falling.is_under(&block(132.0, 49.0), 0.01));

        // The top join is at the high end: right of the rising slope, left of the falling one.
        assert!(rising.is_top_join(&block(164.0, 72.0), 0.01));
        assert!(!rising.is_top_join(&block(166.0, 72.0), 0.01), "a gap");
        assert!(falling.is_top_join(&block(84.0, 72.0), 0.01));
        assert!(!falling.is_top_join(&block(82.0, 72.0), 0.01), "a gap");
        assert!(!falling.is_top_join(&block(164.0, 72.0), 0.01), "beside the low end");

        // Uphill is rightward on the rising slope, leftward on the falling one; at rest, neither.
        assert!(rising.is_uphill(3.0) && !rising.is_uphill(-3.0) && !rising.is_uphill(0.0));
        assert!(falling.is_uphill(-3.0) && !falling.is_uphill(3.0) && !falling.is_uphill(0.0));
        assert_eq!(falling.speed_factor(-3.0), 1.0 / 1.5);
        assert_eq!(falling.speed_factor(3.0), 1.5);
    }

    #[test]
    fn a_flat_shape_counts_as_rising_left() {
        let flat = SlopeShape::new(Vec2::ZERO, Vec2::new(10.0, 0.0));
        assert!(!flat.rises_right());
        assert_eq!(flat.rise(), SlopeRise::Left);
    }
}
