//! Recovery, the first stage of a body's move: a body that starts its step inside the level's
//! solids (placed across a wall, respawned inside a block, teleported into the floor) is moved to
//! the nearest free position before its slope plan and its move are made from there. See
//! *Starting inside a solid* in [the physics rules](crate::physics_rules).
//!
//! The ordinary push-out of each mode (along the axis the body entered by, never through an
//! internal face) is made for a body that went a little way into a solid during a step; it can
//! leave a body that starts deep inside, or across several cells, where it is. The recovery looks
//! at every position that puts a face of the body against a face of a solid it overlaps, and takes
//! the closest one that overlaps nothing and does not put the feet under a slope the body was
//! above: the body leaves by the near face, never through to the far side, and never through a
//! slope's surface.

use bevy::prelude::*;
use smallvec::{SmallVec, smallvec};

use super::body::{BodyView, MoveScratch};
use super::settings::MoveSettings;
use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::{ContactDirection, Contacts};
use crate::geometry::SlopeShape;
use crate::geometry::{Aabb, remove_velocity_into};

/// Clears `body`'s contacts for this step and, if it starts deep inside the level's static solids,
/// moves it out (with contacts against the solids it now rests on) or marks it embedded.
#[inline]
pub(crate) fn recover_body(
    body: &mut BodyView,
    broad_phase: &mut BroadPhase,
    settings: &MoveSettings,
    scratch: &mut MoveScratch,
) {
    let Some(me) = body.me else {
        return;
    };
    body.contacts.list.clear();
    let skin = settings.skin;
    let start = body.collider.aabb(body.transform.translation.truncate());
    // Interaction-only bodies pass through everything. A body where the latest pass left it,
    // with the level unchanged, is out of the solids (no move ends inside one). For the others,
    // the kept statics (most steps: no query) tell whether the body is deep in one.
    let inside = !body.sensor
        && !body.candidates.unmoved_since_pass(&start, broad_phase)
        && body
            .candidates
            .boxes_around(broad_phase, &start, &me, &mut scratch.nearby)
            .iter()
            .any(|s| s.is_level_solid() && deep_in(&start, s, skin));
    let mut embedded = false;
    if inside {
        // The way out may take it as far as its own size.
        let reach = start.size().max_element();
        let tolerance = settings.candidate_rules.contact_tolerance;
        let area = start.grown(reach + tolerance);
        let mut slopes_above: SmallVec<[SlopeShape; 4]> = SmallVec::new();
        body.candidates
            .for_each_slope_touching(broad_phase, &area, &me, &mut scratch.nearby, |_, shape| {
                if shape.overlaps_x(&start) && start.min.y >= shape.surface_y(&start) - tolerance {
                    slopes_above.push(shape);
                }
            });
        let solids = body
            .candidates
            .boxes_around(broad_phase, &area, &me, &mut scratch.statics);
        match recover(&start, solids, &slopes_above, reach, skin, tolerance) {
            Recovery::Free => {}
            Recovery::Moved(offset) => {
                record_recovery_contacts(&start, offset, solids, skin, body.contacts);
                remove_velocity_into_faces(&mut body.velocity.0, offset);
                body.transform.translation += offset.extend(0.0);
                broad_phase.set_aabb(body.entity, start.translated(offset));
            }
            // No free position within reach: it stays, still, until the game moves it.
            Recovery::Embedded => {
                body.velocity.0 = Vec2::ZERO;
                embedded = true;
            }
        }
    }
    if body.embedded != embedded {
        body.embedded = embedded;
        scratch.embedded.push((body.entity, embedded));
    }
}

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
/// slope) without putting its feet more than `tolerance` under one of `slopes_above` (the slopes
/// the body is over and on or above). Lifts are left to the ordinary push-out, which carries and
/// squishes. Candidates put a face of the body flush against a face of a solid it overlaps, on one
/// axis or both; among those that fit, the shortest wins (then the one that moves up, then the
/// first found: the result does not depend on the solids' order beyond that).
pub(crate) fn recover(
    aabb: &Aabb,
    solids: &[ColliderProxy],
    slopes_above: &[SlopeShape],
    reach: f32,
    skin: f32,
    tolerance: f32,
) -> Recovery {
    let obstacles = || solids.iter().filter(|s| s.is_level_solid());
    if !obstacles().any(|s| deep_in(aabb, s, skin)) {
        return Recovery::Free;
    }
    // A body overlaps a few solids at most: the candidates stay on the stack.
    let mut xs: SmallVec<[f32; 9]> = smallvec![0.0];
    let mut ys: SmallVec<[f32; 9]> = smallvec![0.0];
    for s in obstacles().filter(|s| aabb.overlap(&s.aabb).min_element() > 0.0) {
        xs.extend([s.aabb.min.x - aabb.max.x, s.aabb.max.x - aabb.min.x]);
        ys.extend([s.aabb.min.y - aabb.max.y, s.aabb.max.y - aabb.min.y]);
    }
    let fits = |offset: Vec2| {
        let moved = aabb.translated(offset);
        !obstacles().any(|s| moved.intersects(&s.aabb, skin))
            && !slopes_above
                .iter()
                .any(|s| s.overlaps_x(&moved) && moved.min.y < s.surface_y(&moved) - tolerance)
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
        contacts.record(s.contact(direction, depth));
    }
}

/// Removes from `velocity` what moves into the faces a recovery by `offset` left the body against.
pub(crate) fn remove_velocity_into_faces(velocity: &mut Vec2, offset: Vec2) {
    for normal in [Vec2::new(offset.x, 0.0), Vec2::new(0.0, offset.y)] {
        if normal != Vec2::ZERO {
            remove_velocity_into(velocity, normal.normalize());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
    }

    const SKIN: f32 = 1e-3;
    /// The contact tolerance of 16 px blocks.
    const TOLERANCE: f32 = 0.16;

    #[test]
    fn a_body_across_a_face_leaves_by_that_face() {
        let wall = [solid(1, Vec2::ZERO, Vec2::new(32.0, 64.0))];
        let body = Aabb::from_min_size(Vec2::new(-8.0, 10.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &wall, &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(-4.0, 0.0))
        );
        let body = Aabb::from_min_size(Vec2::new(26.0, 10.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &wall, &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(6.0, 0.0))
        );
    }

    #[test]
    fn a_body_exactly_the_recovery_depth_into_a_solid_is_left_to_the_push_out() {
        // A skin of 0.5 px makes the depth (ten skins) exactly 5 px. The body's top-right corner
        // is 5 px into the block on both axes: not deeper than that.
        let skin = 0.5;
        let block = [solid(1, Vec2::new(7.0, 19.0), Vec2::splat(16.0))];
        let at_depth = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        assert_eq!(recover(&at_depth, &block, &[], 24.0, skin, TOLERANCE), Recovery::Free);
        // A quarter of a pixel deeper on both axes, it is the recovery's.
        let deeper = at_depth.translated(Vec2::splat(0.25));
        assert!(matches!(
            recover(&deeper, &block, &[], 24.0, skin, TOLERANCE),
            Recovery::Moved(_)
        ));
    }

    #[test]
    fn a_free_or_flush_body_is_left_alone() {
        let wall = [solid(1, Vec2::ZERO, Vec2::new(32.0, 64.0))];
        let flush = Aabb::from_min_size(Vec2::new(-12.0, 0.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&flush, &wall, &[], 24.0, SKIN, TOLERANCE), Recovery::Free);
        let rounding = flush.translated(Vec2::new(SKIN * 5.0, 0.0));
        assert_eq!(recover(&rounding, &wall, &[], 24.0, SKIN, TOLERANCE), Recovery::Free);
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
            recover(&body, &solids, &[], 24.0, SKIN, TOLERANCE),
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
            recover(&body, &solids, &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(3.0, 3.0))
        );
    }

    #[test]
    fn deep_inside_a_block_is_embedded() {
        let block = [solid(1, Vec2::ZERO, Vec2::new(96.0, 96.0))];
        let body = Aabb::from_min_size(Vec2::new(42.0, 36.0), Vec2::new(12.0, 24.0));
        assert_eq!(recover(&body, &block, &[], 24.0, SKIN, TOLERANCE), Recovery::Embedded);
        // With a longer reach the nearest faces are found: the sides, 54 px away (the top is 60).
        let Recovery::Moved(offset) = recover(&body, &block, &[], 60.0, SKIN, TOLERANCE) else {
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
        let mut slope = solid(3, Vec2::ZERO, Vec2::new(64.0, 32.0));
        slope.slope = Some(crate::geometry::SlopeRise::Right);
        let body = Aabb::from_min_size(Vec2::new(10.0, 4.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &[platform, sensor, slope], &[], 24.0, SKIN, TOLERANCE),
            Recovery::Free
        );
    }

    #[test]
    fn the_way_out_never_goes_under_a_slope_the_body_was_above() {
        // Feet 2 px over a slope rising left, head 5 px into a block above: down would be the
        // shortest way out, but it puts the feet under the slope's surface.
        let slope = SlopeShape::new(Vec2::new(0.0, 40.0), Vec2::new(40.0, 0.0));
        let block = [solid(1, Vec2::new(-20.0, 45.0), Vec2::new(80.0, 40.0))];
        let body = Aabb::from_min_size(Vec2::new(12.0, 30.0), Vec2::new(12.0, 20.0));
        assert!(body.min.y > slope.surface_y(&body));
        assert_eq!(
            recover(&body, &block, &[], 20.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(0.0, -5.0)),
            "without the slope: down"
        );
        assert_eq!(
            recover(&body, &block, &[slope], 20.0, SKIN, TOLERANCE),
            Recovery::Embedded,
            "with it, no way out within the body's size"
        );
        // Farther, the way out is past the block's left face, clear of the slope.
        assert_eq!(
            recover(&body, &block, &[slope], 50.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(-44.0, 0.0))
        );
    }

    #[test]
    fn the_way_out_may_put_the_feet_within_the_tolerance_under_a_slope() {
        // The slope's surface is at y 28 under the body's uphill (left) foot; the way down out of
        // the block puts the feet 0.1 px under it, which standing on a slope allows.
        let slope = SlopeShape::new(Vec2::new(0.0, 40.0), Vec2::new(40.0, 0.0));
        let block = [solid(1, Vec2::new(-20.0, 47.9), Vec2::new(80.0, 40.0))];
        let body = Aabb::from_min_size(Vec2::new(12.0, 30.0), Vec2::new(12.0, 20.0));
        let Recovery::Moved(offset) = recover(&body, &block, &[slope], 20.0, SKIN, TOLERANCE) else {
            panic!("down is within reach and within the tolerance");
        };
        assert!((offset - Vec2::new(0.0, -2.1)).length() < 1e-4, "{offset}");
    }

    #[test]
    fn the_way_out_may_put_the_feet_exactly_the_tolerance_under_a_slope() {
        // A tolerance of 0.5 px makes the boundary exact: the surface is at 30 under the uphill
        // (left) foot, x = 10, and the way down out of the block puts the feet at 29.5.
        let tolerance = 0.5;
        let slope = SlopeShape::new(Vec2::new(0.0, 40.0), Vec2::new(40.0, 0.0));
        let block = [solid(1, Vec2::new(-20.0, 49.5), Vec2::new(80.0, 40.0))];
        let body = Aabb::from_min_size(Vec2::new(10.0, 32.0), Vec2::new(12.0, 20.0));
        assert_eq!(slope.surface_y(&body), 30.0);
        assert_eq!(
            recover(&body, &block, &[slope], 20.0, SKIN, tolerance),
            Recovery::Moved(Vec2::new(0.0, -2.5))
        );
    }

    #[test]
    fn a_shorter_way_out_wins_over_a_longer_one_that_goes_up() {
        // The body's left side 3 px into a block's right face, its feet 10 px under the block's
        // top: 3 px to the right, not 10 px up (found first) nor diagonally.
        let block = [solid(1, Vec2::ZERO, Vec2::splat(32.0))];
        let body = Aabb::from_min_size(Vec2::new(29.0, 22.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &block, &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(3.0, 0.0))
        );
    }

    #[test]
    fn a_way_out_exactly_as_long_as_the_reach_is_taken() {
        // The body's left side 3 px into a block's right face: the way out, 3 px to the right, is
        // within a reach of exactly 3 px, and beyond one a hair shorter.
        let block = [solid(1, Vec2::ZERO, Vec2::splat(32.0))];
        let body = Aabb::from_min_size(Vec2::new(29.0, 22.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &block, &[], 3.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(3.0, 0.0))
        );
        assert_eq!(recover(&body, &block, &[], 2.99, SKIN, TOLERANCE), Recovery::Embedded);
    }

    #[test]
    fn of_two_ways_out_as_short_and_as_high_as_each_other_the_first_found_wins() {
        // A body in the middle of a block 20 px wide and 64 px tall: 16 px left or 16 px right.
        // The left one comes first (each solid gives its low face first).
        let block = [solid(1, Vec2::ZERO, Vec2::new(20.0, 64.0))];
        let body = Aabb::from_min_size(Vec2::new(4.0, 10.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &block, &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(-16.0, 0.0))
        );
    }

    #[test]
    fn a_recovered_body_loses_only_the_velocity_into_the_faces_it_was_moved_off() {
        // Moved left out of a wall: the velocity to the right (into it) goes, the rest stays.
        let mut velocity = Vec2::new(50.0, -30.0);
        remove_velocity_into_faces(&mut velocity, Vec2::new(-4.0, 0.0));
        assert_eq!(velocity, Vec2::new(0.0, -30.0));
        // Moved up out of a floor: the fall goes.
        let mut velocity = Vec2::new(50.0, -30.0);
        remove_velocity_into_faces(&mut velocity, Vec2::new(0.0, 10.0));
        assert_eq!(velocity, Vec2::new(50.0, 0.0));
        // Moving away from the face already: kept.
        let mut velocity = Vec2::new(-50.0, 30.0);
        remove_velocity_into_faces(&mut velocity, Vec2::new(-4.0, 10.0));
        assert_eq!(velocity, Vec2::new(-50.0, 30.0));
    }

    #[test]
    fn of_two_ways_out_as_short_as_each_other_the_body_leaves_upward() {
        // A plank 10 px thick across the middle of the body: 17 px up or 17 px down, whichever
        // the solids list first.
        let plank = solid(1, Vec2::new(-50.0, 10.0), Vec2::new(100.0, 10.0));
        let body = Aabb::from_min_size(Vec2::new(0.0, 3.0), Vec2::new(12.0, 24.0));
        let far = solid(2, Vec2::new(300.0, 300.0), Vec2::new(16.0, 16.0));
        for solids in [[plank, far], [far, plank]] {
            assert_eq!(
                recover(&body, &solids, &[], 24.0, SKIN, TOLERANCE),
                Recovery::Moved(Vec2::new(0.0, 17.0))
            );
        }
    }

    #[test]
    fn a_solid_the_body_only_touches_gives_no_way_out_past_its_far_side() {
        // Deep in a wall on its left (8 px), a thin wall flush against its right face: out to the
        // right is into the thin wall, and past it would go through it. Nothing else is within
        // the body's size.
        let wall = solid(1, Vec2::new(-20.0, -20.0), Vec2::new(28.0, 60.0));
        let thin = solid(2, Vec2::new(12.0, -20.0), Vec2::new(2.0, 60.0));
        let body = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        assert_eq!(
            recover(&body, &[wall, thin], &[], 24.0, SKIN, TOLERANCE),
            Recovery::Embedded
        );
        assert_eq!(
            recover(&body, &[wall], &[], 24.0, SKIN, TOLERANCE),
            Recovery::Moved(Vec2::new(8.0, 0.0)),
            "without the thin wall, out by the near face"
        );
    }

    #[test]
    fn a_recovered_body_rests_against_the_solids_it_left() {
        // Sunk 4 px into a floor and 3 px into a wall on its right, away from the origin.
        let floor = solid(1, Vec2::new(100.0, 84.0), Vec2::new(64.0, 16.0));
        let wall = solid(2, Vec2::new(121.0, 100.0), Vec2::new(16.0, 64.0));
        let far = solid(3, Vec2::new(300.0, 84.0), Vec2::new(16.0, 16.0));
        let solids = [floor, wall, far];
        let body = Aabb::from_min_size(Vec2::new(112.0, 96.0), Vec2::new(12.0, 24.0));
        let Recovery::Moved(offset) = recover(&body, &solids, &[], 24.0, SKIN, TOLERANCE) else {
            panic!("a way out");
        };
        assert_eq!(offset, Vec2::new(-3.0, 4.0));
        let mut contacts = Contacts::default();
        record_recovery_contacts(&body, offset, &solids, SKIN, &mut contacts);
        let floor_contact = contacts.with(floor.entity).expect("on the floor");
        assert_eq!(floor_contact.direction, ContactDirection::Down);
        assert_eq!(floor_contact.depth, 4.0);
        let wall_contact = contacts.with(wall.entity).expect("against the wall");
        assert_eq!(wall_contact.direction, ContactDirection::Right);
        assert_eq!(wall_contact.depth, 3.0);
        assert!(contacts.with(far.entity).is_none());
        assert_eq!(contacts.iter().count(), 2);
    }
}
