//! Continuous resolution: swept AABB against every candidate, contacts resolved earliest first.
//!
//! After any overlap present at the start is pushed out, the loop finds the earliest hit along the
//! current velocity, corrects the velocity along its normal (`v += n·|v|·(1−t)`, so the body stops
//! exactly at the contact), and looks again with the corrected velocity, until nothing is hit. The
//! velocity passed on is the step's velocity without its part into each face hit, never clipped to
//! the maximum speed (the downhill motion on a slope is temporarily faster than the stored velocity
//! and must not be cut). Each stopping face is then snapped exactly flush, so a landed body rests
//! at the floor's height, not a rounding error above or below it. See *Continuous mode* in
//! [the physics rules](crate::physics_rules).

use bevy::prelude::*;

use super::push_out::internal_face;
use super::{MoveOutcome, MoveRequest};
use crate::components::{ContactDirection, Contacts};
use crate::geometry::{SweepHit, correct_velocity, remove_velocity_into, sweep_aabb};

/// Largest rounding error that the flush snap corrects, in pixels.
const SNAP_LIMIT: f32 = 0.01;

/// Most velocity corrections in one move.
const MAX_CORRECTIONS: usize = 16;

/// The continuous (CCD) move of one body.
#[inline]
pub fn move_continuous(request: &MoveRequest, contacts: &mut Contacts) -> MoveOutcome {
    // Nothing in the way (a body in the air, or walking on a slope, whose blocks are left out).
    if request.solids.is_empty() {
        let end = request.start.translated(request.velocity * request.dt);
        return MoveOutcome {
            delta: end.min - request.start.min,
            velocity: request.velocity,
        };
    }
    let mut velocity = request.velocity;
    let mut aabb = request.start;
    request.push_out(None, &mut aabb, &mut velocity, contacts);

    // At most one correction per candidate; the bound only matters for pathological input. The
    // hits (which solid, which face) live on the stack, small: this runs for every body every step.
    let mut step_velocity = velocity;
    let mut hits = [(0usize, Vec2::ZERO); MAX_CORRECTIONS];
    let mut count = 0;
    for _ in 0..request.solids.len().min(MAX_CORRECTIONS) {
        let resolved = &hits[..count];
        let delta = step_velocity * request.dt;
        let mut earliest: Option<(usize, SweepHit)> = None;
        for (i, solid) in request.solids.iter().enumerate() {
            if resolved.iter().any(|(j, _)| *j == i) {
                continue;
            }
            let Some(mut hit) = sweep_aabb(&aabb, delta, &solid.aabb, request.skin) else {
                continue;
            };
            // A face covered by a neighbouring solid (the top of a wall cell under the next one)
            // is never the one hit: at a corner the other face is, otherwise the neighbour is.
            let at_contact = aabb.translated(delta * hit.time);
            if internal_face(solid, hit.normal, &at_contact, request.solids, request.skin) {
                match hit.alternative {
                    Some(other) if !internal_face(solid, other, &at_contact, request.solids, request.skin) => {
                        hit.normal = other;
                    }
                    _ => continue,
                }
            }
            // A one-way platform only stops a body coming down onto it.
            if solid.one_way && hit.normal != Vec2::Y {
                continue;
            }
            if earliest.is_none_or(|(_, best)| hit.time < best.time) {
                earliest = Some((i, hit));
            }
        }
        let Some((i, hit)) = earliest else { break };
        step_velocity = correct_velocity(step_velocity, &hit);
        hits[count] = (i, hit.normal);
        count += 1;
    }

    let mut end = aabb.translated(step_velocity * request.dt);
    for &(i, normal) in &hits[..count] {
        let solid = &request.solids[i];
        // Snap the stopping face exactly onto the solid's face.
        let axis = if normal.x != 0.0 { 0 } else { 1 };
        let gap = if normal[axis] > 0.0 {
            solid.aabb.max[axis] - end.min[axis]
        } else {
            solid.aabb.min[axis] - end.max[axis]
        };
        if gap.abs() <= SNAP_LIMIT {
            let mut shift = Vec2::ZERO;
            shift[axis] = gap;
            end = end.translated(shift);
        }
        remove_velocity_into(&mut velocity, normal);
        contacts.record(solid.contact(ContactDirection::from_normal(normal), 0.0));
    }
    MoveOutcome {
        delta: end.min - request.start.min,
        velocity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::ColliderProxy;
    use crate::geometry::Aabb;

    fn block(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
    }

    #[test]
    fn a_stopping_face_ends_exactly_flush_with_the_face_it_hit() {
        // Moves whose sweep ends a rounding error away from the face (found by a search over
        // random moves away from the origin): a floor, a ceiling, a wall on the left, one on the
        // right. (The solid, the box's start, the velocity.) The box's near face lands exactly on
        // the floor's top and the left wall's side.
        let size = Vec2::new(12.0, 24.0);
        let cases = [
            (
                Aabb {
                    min: Vec2::new(-1279.2799, 4.920044),
                    max: Vec2::new(-279.2799, 20.920044),
                },
                Vec2::new(-776.804, 24.441843),
                Vec2::new(20.880005, -1676.41),
            ),
            (
                Aabb {
                    min: Vec2::new(1206.2, -1012.56),
                    max: Vec2::new(2206.2, -996.56),
                },
                Vec2::new(1707.1051, -1044.6523),
                Vec2::new(196.70999, 870.94),
            ),
            (
                Aabb {
                    min: Vec2::new(-25.52002, -994.0),
                    max: Vec2::new(-9.52002, 6.0),
                },
                Vec2::new(-2.9729195, -490.7367),
                Vec2::new(-1474.0, 291.216),
            ),
            (
                Aabb {
                    min: Vec2::new(7.999878, 570.19995),
                    max: Vec2::new(23.999878, 1570.2),
                },
                Vec2::new(-8.271921, 1076.2024),
                Vec2::new(3004.0898, -207.396),
            ),
        ];
        for (which, (face, start, velocity)) in cases.into_iter().enumerate() {
            let solids = [ColliderProxy::static_box(1, face)];
            let start = Aabb::from_min_size(start, size);
            let mut contacts = Contacts::default();
            let outcome = move_continuous(&MoveRequest::among(start, velocity, &solids), &mut contacts);
            let end = start.translated(outcome.delta);
            let (axis, got, want) = match which {
                0 => (1, end.min.y, face.max.y),
                1 => (1, end.max.y, face.min.y),
                2 => (0, end.min.x, face.max.x),
                _ => (0, end.max.x, face.min.x),
            };
            if which % 2 == 0 {
                assert_eq!(got, want, "case {which}: from {start:?} at {velocity}");
            } else {
                // A far face is the near one plus the size, which rounds again.
                assert!(
                    (got - want).abs() <= want.abs() * 2.0 * f32::EPSILON,
                    "case {which}: {got} {want}"
                );
            }
            assert_eq!(outcome.velocity[axis], 0.0, "case {which}");
            assert_eq!(
                outcome.velocity[1 - axis],
                velocity[1 - axis],
                "case {which}: slides on"
            );
        }
    }

    #[test]
    fn a_body_meeting_a_wall_at_a_covered_corner_slides_down_the_wall() {
        // A wall cell with a narrow block on its top, flush with its left face. A body falling
        // right meets the cell's top-left corner exactly: the cell's top is covered there (by the
        // block), so the cell stops it by its side, and it slides down the wall. Where the body
        // meets the corner decides it; the far part of the cell's top is open.
        let cell = block(1, Vec2::new(32.0, 0.0), Vec2::splat(16.0));
        let narrow = block(2, Vec2::new(32.0, 16.0), Vec2::new(4.0, 16.0));
        let start = Aabb::from_min_size(Vec2::new(10.0, 26.0), Vec2::new(12.0, 24.0));
        let velocity = Vec2::new(1200.0, -1200.0);
        for solids in [[cell, narrow], [narrow, cell]] {
            let mut contacts = Contacts::default();
            let outcome = move_continuous(&MoveRequest::among(start, velocity, &solids), &mut contacts);
            let end = start.translated(outcome.delta);
            assert!(
                (end.min - Vec2::new(20.0, 6.0)).length() < 1e-4,
                "no ledge at the corner: {end:?}"
            );
            assert_eq!(outcome.velocity, Vec2::new(0.0, -1200.0));
            // One side stopped it, whichever listed first: the cell by its side, or the block.
            let stopped_by: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction)).collect();
            assert_eq!(stopped_by, vec![(solids[0].entity, ContactDirection::Right)]);
        }
    }

    #[test]
    fn a_body_moving_into_a_notch_is_stopped_by_its_two_faces_not_by_the_cell_in_its_corner() {
        // Three cells around an empty one: one under it, one on its right, and the cell between
        // those two, whose top-left corner is the notch's inner corner. Both faces of that corner
        // cell are covered by the other two, so it stops nothing: the floor and the wall do.
        let corner = block(1, Vec2::new(32.0, 0.0), Vec2::splat(16.0));
        let wall = block(2, Vec2::new(32.0, 16.0), Vec2::splat(16.0));
        let floor = block(3, Vec2::new(16.0, 0.0), Vec2::splat(16.0));
        let start = Aabb::from_min_size(Vec2::new(10.0, 26.0), Vec2::new(12.0, 24.0));
        let velocity = Vec2::new(1200.0, -1200.0);
        for solids in [[corner, wall, floor], [corner, floor, wall]] {
            let mut contacts = Contacts::default();
            let outcome = move_continuous(&MoveRequest::among(start, velocity, &solids), &mut contacts);
            let end = start.translated(outcome.delta);
            assert!(
                (end.min - Vec2::new(20.0, 16.0)).length() < 1e-4,
                "in the notch: {end:?}"
            );
            assert_eq!(outcome.velocity, Vec2::ZERO);
            let mut stopped_by: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction)).collect();
            stopped_by.sort_by_key(|(entity, _)| entity.index());
            assert_eq!(
                stopped_by,
                vec![
                    (wall.entity, ContactDirection::Right),
                    (floor.entity, ContactDirection::Down)
                ]
            );
        }
    }
}
