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
