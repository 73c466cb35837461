//! Discrete resolution (`seeds/001` "AABB" mode, `seeds/004`): move, find the overlaps, push out.
//!
//! The axis of each push is the one of smaller penetration; several overlaps are resolved with the
//! accumulated correction vector so the push-out is never the sum of overlapping penetrations. The
//! move is split into substeps no longer than the smallest box in the way, so a fast body cannot
//! step over a thin wall between two overlap tests. A body that ends flush against a surface while
//! still moving into it keeps that contact (depth 0).

use super::{MoveOutcome, MoveRequest, push_out, substep_count};
use crate::components::Contacts;

/// The discrete (overlap and push-out) move of one body.
pub fn move_discrete(request: &MoveRequest, contacts: &mut Contacts) -> MoveOutcome {
    let mut velocity = request.velocity;
    let mut aabb = request.start;
    let substeps = substep_count(velocity * request.dt, &aabb, request.solids, request.max_substeps);
    let sub_dt = request.dt / substeps as f32;
    for _ in 0..substeps {
        aabb = aabb.translated(velocity * sub_dt);
        push_out(&mut aabb, &mut velocity, request.solids, request.skin, contacts);
    }
    MoveOutcome {
        delta: aabb.min - request.start.min,
        velocity,
    }
}
