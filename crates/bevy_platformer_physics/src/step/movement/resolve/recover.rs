//! Penetration recovery: a body that starts its move inside the level's solids (placed across a
//! wall, respawned inside a block, teleported into the floor) is first moved to the nearest free
//! position, and only then makes its move. See *Starting inside a solid* in
//! `docs/physics-rules.md`.
//!
//! The ordinary push-out of each mode (along the axis the body entered by, never through an
//! internal face) is made for a body that went a little way into a solid during a step; it can
//! leave a body that starts deep inside, or across several cells, where it is. The recovery looks
//! at every position that puts a face of the body against a face of a solid it overlaps, and takes
//! the closest one that overlaps nothing: the body leaves by the near face, never through to the
//! far side.

use bevy::prelude::*;

use crate::broad_phase::ColliderProxy;
use crate::components::{Contact, ContactDirection, Contacts};
use crate::geometry::Aabb;

/// How deep a body must be in a solid for the recovery to take over from the ordinary push-out,
/// in rounding margins (skins): a body resting flush is never moved by it.
const DEPTH_IN_SKINS: f32 = 10.0;

/// What the recovery found for a body at the start of its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Recovery {
    /// Not inside a solid (beyond rounding): nothing to do.
    Free,
    /// Inside; this move takes it out.
    Moved(Vec2),
    /// Inside, and no free position within reach.
    Embedded,
}

/// Whether `aabb` overlaps `solid` by more than the recovery's depth on both axes.
fn deep_in(aabb: &Aabb, solid: &ColliderProxy, skin: f32) -> bool {
    let overlap = aabb.overlap(&solid.aabb);
    overlap.min_element() > skin * DEPTH_IN_SKINS
}

/// The smallest move, no longer than `reach`, that takes `aabb` out of every solid of the level's
/// static geometry in `solids` (static, solid from every side: not one-way, not a sensor, not a
/// slope). Lifts are left to the ordinary push-out, which carries and squishes. Candidates put a face of the body flush against a face of a solid it
/// overlaps, on one axis or both; among those that overlap nothing, the shortest wins (then the
/// one that moves up, then the first found: the result does not depend on the solids' order
/// beyond that).
pub(crate) fn recover(aabb: &Aabb, solids: &[ColliderProxy], reach: f32, skin: f32) -> Recovery {
    let obstacles = || solids.iter().filter(|s| s.is_level_solid());
    if !obstacles().any(|s| deep_in(aabb, s, skin)) {
        return Recovery::Free;
    }
    let mut xs = vec![0.0];
    let mut ys = vec![0.0];
    for s in obstacles().filter(|s| aabb.overlap(&s.aabb).min_element() > 0.0) {
        xs.extend([s.aabb.min.x - aabb.max.x, s.aabb.max.x - aabb.min.x]);
        ys.extend([s.aabb.min.y - aabb.max.y, s.aabb.max.y - aabb.min.y]);
    }
    let fits = |offset: Vec2| {
        let moved = aabb.translated(offset);
        !obstacles().any(|s| moved.intersects(&s.aabb, skin))
    };
    let mut best: Option<Vec2> = None;
    for &dx in &xs {
        for &dy in &ys {
            let offset = Vec2::new(dx, dy);
            if offset == Vec2::ZERO || offset.length() > reach {
                continue;
            }
            let better = best.is_none_or(|b| {
                let (l, lb) = (offset.length_squared(), b.length_squared());
                l < lb || (l == lb && offset.y > b.y)
            });
            if better && fits(offset) {
                best = Some(offset);
            }
        }
    }
    best.map_or(Recovery::Embedded, Recovery::Moved)
}

/// Records a contact with each solid that `start` was inside and that the body, moved by the
/// recovery's `offset`, now rests flush against: its direction from the face the body left by, its
/// depth how far in the body was.
pub(crate) fn record_recovery_contacts(
    start: &Aabb,
    offset: Vec2,
    solids: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    let moved = start.translated(offset);
    for s in solids.iter().filter(|s| s.is_level_solid()) {
        let overlap = start.overlap(&s.aabb);
        if overlap.min_element() <= 0.0 {
            continue;
        }
        let flush = |a: f32, b: f32| (a - b).abs() <= skin;
        let (direction, depth) = if flush(moved.min.y, s.aabb.max.y) {
            (ContactDirection::Down, overlap.y)
        } else if flush(moved.max.y, s.aabb.min.y) {
            (ContactDirection::Up, overlap.y)
        } else if flush(moved.min.x, s.aabb.max.x) {
            (ContactDirection::Left, overlap.x)
        } else if flush(moved.max.x, s.aabb.min.x) {
            (ContactDirection::Right, overlap.x)
        } else {
            continue;
        };
        contacts.record(Contact {
            entity: s.entity,
            direction,
            depth,
            sensor: false,
            part: s.part,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
    }

    const SKIN: f32 = 1e-3;

    #[test]
    fn a_body_across_a_face_leaves_by_that_face() {
        let wall = [solid(1, Vec2::ZERO, Vec2::new(32.0, 64.0))];
        let body = Aabb::from_min_size(Vec2::new(-8.0, 10.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&body, &wall, 24.0, SKIN), Recovery::Moved(Vec2::new(-4.0, 0.0)));
        let body = Aabb::from_min_size(Vec2::new(26.0, 10.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&body, &wall, 24.0, SKIN), Recovery::Moved(Vec2::new(6.0, 0.0)));
    }

    #[test]
    fn a_free_or_flush_body_is_left_alone() {
        let wall = [solid(1, Vec2::ZERO, Vec2::new(32.0, 64.0))];
        let flush = Aabb::from_min_size(Vec2::new(-12.0, 0.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&flush, &wall, 24.0, SKIN), Recovery::Free);
        let rounding = flush.translated(Vec2::new(SKIN * 5.0, 0.0));
        assert_eq!(recover(&rounding, &wall, 24.0, SKIN), Recovery::Free);
    }

    #[test]
    fn the_way_out_avoids_the_solids_beside() {
        // Sunk into a floor cell, with a wall cell on its right: up, not right into the wall.
        let solids = [
            solid(1, Vec2::new(0.0, 0.0), Vec2::new(16.0, 16.0)),
            solid(2, Vec2::new(16.0, 0.0), Vec2::new(16.0, 48.0)),
        ];
        let body = Aabb::from_min_size(Vec2::new(2.0, 12.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &solids, 24.0, SKIN),
            Recovery::Moved(Vec2::new(0.0, 4.0))
        );
    }

    #[test]
    fn a_corner_overlap_leaves_diagonally_when_both_axes_are_blocked() {
        // Two walls meeting at a corner, the body inside both corners' reach.
        let solids = [
            solid(1, Vec2::new(0.0, 0.0), Vec2::new(64.0, 16.0)),
            solid(2, Vec2::new(0.0, 0.0), Vec2::new(16.0, 64.0)),
        ];
        let body = Aabb::from_min_size(Vec2::new(13.0, 13.0), Vec2::new(12.0, 24.0));
        // Up alone leaves it in the wall; right alone leaves it in the floor.
        assert_eq!(
            recover(&body, &solids, 24.0, SKIN),
            Recovery::Moved(Vec2::new(3.0, 3.0))
        );
    }

    #[test]
    fn deep_inside_a_block_is_embedded() {
        let block = [solid(1, Vec2::ZERO, Vec2::new(96.0, 96.0))];
        let body = Aabb::from_min_size(Vec2::new(42.0, 36.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&body, &block, 24.0, SKIN), Recovery::Embedded);
        // With a longer reach the nearest faces are found: the sides, 54 px away (the top is 60).
        let Recovery::Moved(offset) = recover(&body, &block, 60.0, SKIN) else {
            panic!("a face within reach");
        };
        assert_eq!(offset.abs(), Vec2::new(54.0, 0.0));
    }

    #[test]
    fn one_way_platforms_sensors_and_slopes_never_trap_a_body() {
        let mut platform = solid(1, Vec2::ZERO, Vec2::new(64.0, 16.0));
        platform.one_way = true;
        let mut sensor = solid(2, Vec2::ZERO, Vec2::new(64.0, 16.0));
        sensor.sensor = true;
        let body = Aabb::from_min_size(Vec2::new(10.0, 4.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&body, &[platform, sensor], 24.0, SKIN), Recovery::Free);
    }
}
