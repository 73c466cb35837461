//! Discrete resolution (`seeds/001` "AABB" mode, `seeds/004`): move, find the overlaps, push out.
//!
//! The axis of each push is the one of smaller penetration; several overlaps are resolved with the
//! accumulated correction vector so the push-out is never the sum of overlapping penetrations. The
//! move is split into substeps no longer than the smallest box in the way, so a fast body cannot
//! step over a thin wall between two overlap tests. A substep that leaves the body inside a solid
//! whatever the push (a gap narrower than the body) is undone. A body that ends flush against a surface while
//! still moving into it keeps that contact (depth 0).

use bevy::prelude::*;

use super::{MoveOutcome, MoveRequest, push_out, substep_count};
use crate::broad_phase::{BodyKind, ColliderProxy};
use crate::components::Contacts;
use crate::geometry::Aabb;

/// The discrete (overlap and push-out) move of one body.
pub fn move_discrete(request: &MoveRequest, contacts: &mut Contacts) -> MoveOutcome {
    let mut velocity = request.velocity;
    let mut aabb = request.start;
    let substeps = substep_count(velocity * request.dt, &aabb, request.solids, request.max_substeps);
    let sub_dt = request.dt / substeps as f32;
    for _ in 0..substeps {
        let before = aabb;
        aabb = aabb.translated(velocity * sub_dt);
        push_out(
            &mut aabb,
            &mut velocity,
            request.solids,
            request.supports,
            request.skin,
            contacts,
        );
        // Squeezed into a gap narrower than the body (a corner between a floor and a block): no
        // push-out can free it, so the move did not happen.
        if inside_static(&aabb, request.solids, request.skin) && !inside_static(&before, request.solids, request.skin) {
            aabb = before;
            velocity = Vec2::ZERO;
            break;
        }
    }
    MoveOutcome {
        delta: aabb.min - request.start.min,
        velocity,
    }
}

/// Whether `aabb` overlaps a static solid (not a one-way platform) by more than the skin.
fn inside_static(aabb: &Aabb, solids: &[ColliderProxy], skin: f32) -> bool {
    solids
        .iter()
        .any(|s| s.kind == BodyKind::Static && !s.one_way && aabb.intersects(&s.aabb, skin * 10.0))
}
