//! Axis-aligned boxes in world space (y up, pixels).

use bevy::prelude::*;

/// An axis-aligned box given by its two corners, in world pixels, y up.
#[derive(Clone, Copy, Debug, PartialEq, Default, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Bottom-left corner (smallest x and y).
    pub min: Vec2,
    /// Top-right corner (largest x and y).
    pub max: Vec2,
}

impl Aabb {
    /// A box from its centre and half size.
    pub fn from_center_half_size(center: Vec2, half_size: Vec2) -> Self {
        Self {
            min: center - half_size,
            max: center + half_size,
        }
    }

    /// A box from its bottom-left corner and size.
    pub fn from_min_size(min: Vec2, size: Vec2) -> Self {
        Self { min, max: min + size }
    }

    /// The centre point.
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Half of the size on each axis.
    pub fn half_size(&self) -> Vec2 {
        (self.max - self.min) * 0.5
    }

    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// The box moved by `delta`.
    pub fn translated(&self, delta: Vec2) -> Self {
        Self {
            min: self.min + delta,
            max: self.max + delta,
        }
    }

    /// The smallest box containing both.
    pub fn union(&self, other: &Aabb) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box grown by `margin` on every side.
    pub fn grown(&self, margin: f32) -> Self {
        Self {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }

    /// Overlap of the two boxes' projections on each axis: positive where they overlap, zero where
    /// they touch, negative (the gap) where they are apart.
    pub fn overlap(&self, other: &Aabb) -> Vec2 {
        self.max.min(other.max) - self.min.max(other.min)
    }

    /// Whether the boxes overlap by more than `skin` on both axes. Boxes that merely touch (or
    /// overlap by less than `skin`, a rounding margin) do not intersect.
    pub fn intersects(&self, other: &Aabb, skin: f32) -> bool {
        let o = self.overlap(other);
        o.x > skin && o.y > skin
    }

    /// Whether the boxes overlap or touch within `skin` on both axes.
    pub fn touches(&self, other: &Aabb, skin: f32) -> bool {
        let o = self.overlap(other);
        o.x >= -skin && o.y >= -skin
    }

    /// The box swept by `self` moving by `delta`: the union of `self` and `self` translated by
    /// `delta`, bit for bit (`x + 0 = x`), without the union's comparisons.
    #[inline]
    pub fn swept(&self, delta: Vec2) -> Self {
        Self {
            min: self.min + delta.min(Vec2::ZERO),
            max: self.max + delta.max(Vec2::ZERO),
        }
    }

    /// Whether the boxes overlap or touch: [`touches`](Self::touches) without a margin, in four
    /// comparisons (the broad phase's filters run it on every candidate).
    #[inline]
    pub fn meets(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// Whether `point` lies inside the box or on its border.
    pub fn contains(&self, point: Vec2) -> bool {
        self.min.cmple(point).all() && self.max.cmpge(point).all()
    }

    /// Whether `other` lies inside the box (borders included).
    pub fn contains_box(&self, other: &Aabb) -> bool {
        self.contains(other.min) && self.contains(other.max)
    }

    /// Whether every coordinate is finite.
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }

    /// The smallest push that separates `self` from `other`, as (unit normal, depth): the axis of the
    /// smaller penetration, pointing from `other` toward `self`. `None` when they do not overlap.
    /// A tie prefers the vertical axis, so that a box sunk equally into a floor corner is lifted.
    pub fn penetration(&self, other: &Aabb) -> Option<(Vec2, f32)> {
        let o = self.overlap(other);
        if o.x <= 0.0 || o.y <= 0.0 {
            return None;
        }
        let d = self.center() - other.center();
        if o.y <= o.x {
            let n = if d.y >= 0.0 { Vec2::Y } else { Vec2::NEG_Y };
            Some((n, o.y))
        } else {
            let n = if d.x >= 0.0 { Vec2::X } else { Vec2::NEG_X };
            Some((n, o.x))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x: f32, y: f32, w: f32, h: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h))
    }

    #[test]
    fn centre_half_size_and_size_are_measured_on_each_axis() {
        let a = boxed(2.0, -4.0, 10.0, 6.0);
        assert_eq!(a.center(), Vec2::new(7.0, -1.0));
        assert_eq!(a.half_size(), Vec2::new(5.0, 3.0));
        assert_eq!(a.size(), Vec2::new(10.0, 6.0));
    }

    #[test]
    fn overlap_is_positive_inside_zero_touching_negative_apart() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        assert_eq!(a.overlap(&boxed(5.0, 5.0, 10.0, 10.0)), Vec2::new(5.0, 5.0));
        assert_eq!(a.overlap(&boxed(10.0, 0.0, 10.0, 10.0)), Vec2::new(0.0, 10.0));
        assert_eq!(a.overlap(&boxed(12.0, 0.0, 10.0, 10.0)), Vec2::new(-2.0, 10.0));
    }

    #[test]
    fn touching_boxes_do_not_intersect_but_touch() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        let b = boxed(10.0, 0.0, 10.0, 10.0);
        assert!(!a.intersects(&b, 0.0));
        assert!(a.touches(&b, 0.0));
        assert!(a.meets(&b));
        assert!(!a.touches(&boxed(10.5, 0.0, 1.0, 1.0), 0.1));
    }

    #[test]
    fn an_overlap_of_exactly_the_skin_does_not_intersect_on_either_axis() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        assert!(!a.intersects(&boxed(9.5, 0.0, 10.0, 10.0), 0.5), "side by side");
        assert!(!a.intersects(&boxed(0.0, 9.5, 10.0, 10.0), 0.5), "stacked");
        assert!(!a.intersects(&boxed(0.0, 10.0, 10.0, 10.0), 0.0), "stacked, touching");
        assert!(a.intersects(&boxed(9.4, 9.4, 10.0, 10.0), 0.5));
    }

    #[test]
    fn boxes_apart_by_less_than_the_skin_touch_on_either_axis() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        assert!(a.touches(&boxed(10.05, 0.0, 10.0, 10.0), 0.1), "a gap beside");
        assert!(a.touches(&boxed(0.0, 10.05, 10.0, 10.0), 0.1), "a gap above");
        assert!(!a.touches(&boxed(0.0, 10.5, 10.0, 10.0), 0.1));
    }

    #[test]
    fn grown_moves_every_side_out_by_the_margin_and_in_when_negative() {
        let a = boxed(0.0, 2.0, 10.0, 6.0);
        assert_eq!(a.grown(2.0), boxed(-2.0, 0.0, 14.0, 10.0));
        assert_eq!(a.grown(-1.0), boxed(1.0, 3.0, 8.0, 4.0));
    }

    #[test]
    fn contains_box_takes_borders_and_needs_both_corners_inside() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        assert!(a.contains_box(&boxed(2.0, 2.0, 3.0, 3.0)));
        assert!(a.contains_box(&a), "borders included");
        assert!(!a.contains_box(&boxed(8.0, 2.0, 3.0, 3.0)), "the far corner is out");
        assert!(!a.contains_box(&boxed(-1.0, 2.0, 3.0, 3.0)), "the near corner is out");
    }

    #[test]
    fn a_box_with_any_nan_or_infinite_coordinate_is_not_finite() {
        assert!(boxed(0.0, 0.0, 1.0, 1.0).is_finite());
        let mut a = boxed(0.0, 0.0, 1.0, 1.0);
        a.max.y = f32::INFINITY;
        assert!(!a.is_finite());
        let mut b = boxed(0.0, 0.0, 1.0, 1.0);
        b.min.x = f32::NAN;
        assert!(!b.is_finite());
    }

    #[test]
    fn penetration_needs_overlap_on_both_axes_and_points_away_from_the_other_centre() {
        let a = boxed(0.0, 8.0, 10.0, 10.0);
        assert_eq!(a.penetration(&boxed(5.0, 30.0, 10.0, 10.0)), None, "overlap in x alone");
        assert_eq!(a.penetration(&boxed(30.0, 8.0, 10.0, 10.0)), None, "overlap in y alone");
        // A floor whose centre is below the origin, the box's above: pushed up.
        let floor = boxed(-20.0, -11.0, 50.0, 20.0);
        assert_eq!(a.penetration(&floor), Some((Vec2::Y, 1.0)));
        // And the floor, pushed down out of the box.
        assert_eq!(floor.penetration(&a), Some((Vec2::NEG_Y, 1.0)));
        // A wall to the left, its centre at negative x: pushed right.
        let wall = boxed(-19.0, 0.0, 20.0, 30.0);
        assert_eq!(a.penetration(&wall), Some((Vec2::X, 1.0)));
    }

    #[test]
    fn swept_is_the_union_with_the_moved_box() {
        let a = boxed(0.3, -7.1, 12.0, 24.0);
        for delta in [
            Vec2::new(1.2, -0.096),
            Vec2::new(-1.2, 0.7),
            Vec2::ZERO,
            Vec2::new(-0.0, 1e-7),
            Vec2::new(1e6, -1e-6),
        ] {
            assert_eq!(a.swept(delta), a.union(&a.translated(delta)), "{delta}");
        }
    }

    #[test]
    fn meets_is_touches_without_a_margin() {
        // Every arrangement on a small lattice, edges meeting exactly or by a hair.
        let coords = [-1.0, -0.1, 0.0, 1e-7, 0.5, 1.0, 1.0 + 1e-6, 2.0, 3.0];
        let boxes: Vec<Aabb> = coords
            .iter()
            .flat_map(|&x| coords.iter().map(move |&y| boxed(x, y, 1.0, 0.5)))
            .collect();
        for a in &boxes {
            for b in &boxes {
                assert_eq!(a.meets(b), a.touches(b, 0.0), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn contains_includes_the_border() {
        let a = boxed(0.0, 0.0, 10.0, 10.0);
        assert!(a.contains(Vec2::new(10.0, 0.0)));
        assert!(!a.contains(Vec2::new(10.01, 5.0)));
    }

    #[test]
    fn penetration_picks_the_smaller_axis_and_points_away_from_other() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(20.0, 8.0, 10.0, 10.0);
        assert_eq!(body.penetration(&floor), Some((Vec2::Y, 2.0)));
        let wall = boxed(0.0, 0.0, 10.0, 100.0);
        let body = boxed(7.0, 40.0, 10.0, 10.0);
        assert_eq!(body.penetration(&wall), Some((Vec2::X, 3.0)));
        let body = boxed(-7.0, 40.0, 10.0, 10.0);
        assert_eq!(body.penetration(&wall), Some((Vec2::NEG_X, 3.0)));
        assert_eq!(body.penetration(&boxed(50.0, 50.0, 1.0, 1.0)), None);
    }
}
