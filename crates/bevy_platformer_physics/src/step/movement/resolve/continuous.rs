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
