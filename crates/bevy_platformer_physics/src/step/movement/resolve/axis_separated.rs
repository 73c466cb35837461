//! Axis-separated resolution, the tile method: move along x and stop flush at the first face,
//! zeroing the x velocity; then the same along y. The direction of each response is never
//! ambiguous, so corners cannot snag (see *Axis-separated mode* in [the physics rules](crate::physics_rules)). One-way platforms only stop the downward (y) move. A
//! step longer than the smallest box in the way is split into substeps.

use bevy::prelude::*;

use super::request::substep_count;
use super::{MoveOutcome, MoveRequest};
use crate::components::{ContactDirection, Contacts};
use crate::geometry::{Axis, axis_cast};

/// The axis-separated (x, then y) move of one body.
pub fn move_axis_separated(request: &MoveRequest, contacts: &mut Contacts) -> MoveOutcome {
    let mut velocity = request.velocity;
    let mut aabb = request.start;
    request.push_out(None, &mut aabb, &mut velocity, contacts);
    let substeps = substep_count(velocity * request.dt, &aabb, request.solids, request.max_substeps);
    let sub_dt = request.dt / substeps as f32;
    for _ in 0..substeps {
        for axis in [Axis::X, Axis::Y] {
            let amount = velocity[axis.index()] * sub_dt;
            if amount == 0.0 {
                continue;
            }
            let mut allowed = amount.abs();
            let mut blocker = None;
            for solid in request.solids {
                if solid.one_way && (axis == Axis::X || amount > 0.0) {
                    continue;
                }
                if let Some(distance) = axis_cast(&aabb, axis, amount, &solid.aabb, request.skin)
                    && distance < allowed
                {
                    allowed = distance;
                    blocker = Some(solid);
                }
            }
            let mut shift = Vec2::ZERO;
            shift[axis.index()] = allowed.copysign(amount);
            aabb = aabb.translated(shift);
            if let Some(solid) = blocker {
                velocity[axis.index()] = 0.0;
                let direction = match (axis, amount > 0.0) {
                    (Axis::X, true) => ContactDirection::Right,
                    (Axis::X, false) => ContactDirection::Left,
                    (Axis::Y, true) => ContactDirection::Up,
                    (Axis::Y, false) => ContactDirection::Down,
                };
                contacts.record(solid.contact(direction, 0.0));
            }
        }
    }
    MoveOutcome {
        delta: aabb.min - request.start.min,
        velocity,
    }
}
