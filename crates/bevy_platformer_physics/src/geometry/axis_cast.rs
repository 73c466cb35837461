//! Moving a box along one axis until it meets a face: the building block of the axis-separated
//! method (see *Axis-separated mode* in [the physics rules](crate::physics_rules)) and of lifts pushing and carrying
//! bodies.

use bevy::prelude::*;

use super::Aabb;

/// One of the two axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Horizontal.
    X,
    /// Vertical.
    Y,
}

impl Axis {
    /// Index into a `Vec2`.
    pub fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
        }
    }

    /// The other axis.
    pub fn other(self) -> Axis {
        match self {
            Axis::X => Axis::Y,
            Axis::Y => Axis::X,
        }
    }

    /// Unit vector along the axis.
    pub fn unit(self) -> Vec2 {
        match self {
            Axis::X => Vec2::X,
            Axis::Y => Vec2::Y,
        }
    }
}

/// How far `mover` can travel by `amount` along `axis` before its leading face meets the facing
/// face of `target`. Returns `None` when `target` is not in the way: it does not overlap the mover
/// across the axis by more than `skin`, lies behind the leading face, or already overlaps the mover.
/// The returned distance is in `[0, |amount|]`, without sign.
pub fn axis_cast(mover: &Aabb, axis: Axis, amount: f32, target: &Aabb, skin: f32) -> Option<f32> {
    let across = axis.other().index();
    let along = axis.index();
    let overlap_across = mover.max[across].min(target.max[across]) - mover.min[across].max(target.min[across]);
    if overlap_across <= skin || amount == 0.0 {
        return None;
    }
    let gap = if amount > 0.0 {
        target.min[along] - mover.max[along]
    } else {
        mover.min[along] - target.max[along]
    };
    if gap < -skin || gap >= amount.abs() {
        return None;
    }
    Some(gap.max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKIN: f32 = 1e-3;

    fn boxed(x: f32, y: f32, w: f32, h: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h))
    }

    #[test]
    fn stops_at_the_facing_face() {
        let wall = boxed(20.0, 0.0, 5.0, 50.0);
        let body = boxed(0.0, 10.0, 10.0, 10.0);
        assert_eq!(axis_cast(&body, Axis::X, 30.0, &wall, SKIN), Some(10.0));
        assert_eq!(axis_cast(&body, Axis::X, 5.0, &wall, SKIN), None, "not reached");
        assert_eq!(axis_cast(&body, Axis::X, -30.0, &wall, SKIN), None, "behind");
    }

    #[test]
    fn touching_across_the_axis_is_not_in_the_way() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(0.0, 10.0, 10.0, 10.0);
        assert_eq!(axis_cast(&body, Axis::X, 50.0, &floor, SKIN), None);
        assert_eq!(axis_cast(&body, Axis::Y, -5.0, &floor, SKIN), Some(0.0));
    }

    #[test]
    fn the_axes_name_their_index_unit_and_other() {
        assert_eq!((Axis::X.index(), Axis::Y.index()), (0, 1));
        assert_eq!((Axis::X.unit(), Axis::Y.unit()), (Vec2::X, Vec2::Y));
        assert_eq!((Axis::X.other(), Axis::Y.other()), (Axis::Y, Axis::X));
    }

    #[test]
    fn a_target_apart_across_the_axis_or_a_zero_move_is_not_in_the_way() {
        let body = boxed(0.0, 10.0, 10.0, 10.0);
        let above_the_path = boxed(20.0, 40.0, 5.0, 10.0);
        assert_eq!(axis_cast(&body, Axis::X, 30.0, &above_the_path, SKIN), None);
        // Sunk into the body's back by less than the skin, where a move would stop at once.
        let behind = boxed(-5.0, 0.0, 5.25, 50.0);
        assert_eq!(axis_cast(&body, Axis::X, -1.0, &behind, 0.5), Some(0.0));
        assert_eq!(axis_cast(&body, Axis::X, 0.0, &behind, 0.5), None, "no move");
    }

    #[test]
    fn a_target_sunk_by_exactly_the_skin_stops_the_move_at_once() {
        let skin = 0.5;
        let body = boxed(0.0, 10.0, 10.0, 10.0);
        let wall = boxed(9.5, 0.0, 5.0, 50.0);
        assert_eq!(axis_cast(&body, Axis::X, 30.0, &wall, skin), Some(0.0));
        let deeper = boxed(9.0, 0.0, 5.0, 50.0);
        assert_eq!(
            axis_cast(&body, Axis::X, 30.0, &deeper, skin),
            None,
            "already overlapping"
        );
    }

    #[test]
    fn overlapping_target_is_ignored() {
        let block = boxed(0.0, 0.0, 10.0, 10.0);
        let body = boxed(5.0, 5.0, 10.0, 10.0);
        assert_eq!(axis_cast(&body, Axis::Y, -5.0, &block, SKIN), None);
    }
}
