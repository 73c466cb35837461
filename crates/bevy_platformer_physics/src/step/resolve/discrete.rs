//! Discrete resolution (`seeds/001` "AABB" mode, `seeds/004`): move, find the overlaps, push out.
//!
//! The axis of each push is the one of smaller penetration; several overlaps are resolved with the
//! accumulated correction vector so the push-out is never the sum of overlapping penetrations. The
//! move is split into substeps no longer than the smallest box in the way, so a fast body cannot
//! step over a thin wall between two overlap tests. A body that ends flush against a surface while
//! still moving into it keeps that contact (depth 0).

use bevy::prelude::*;

use super::{MoveOutcome, MoveRequest, push_out, remove_velocity_into, substep_count};
use crate::components::{Contact, ContactDirection, Contacts};

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
    // Flush contacts: touching a face (within the skin) while the velocity pushes into it.
    for solid in request.solids {
        let overlap = aabb.overlap(&solid.aabb);
        let normal = if overlap.y.abs() <= request.skin && overlap.x > request.skin {
            Vec2::new(0.0, (aabb.center().y - solid.aabb.center().y).signum())
        } else if overlap.x.abs() <= request.skin && overlap.y > request.skin && !solid.one_way {
            Vec2::new((aabb.center().x - solid.aabb.center().x).signum(), 0.0)
        } else {
            continue;
        };
        if solid.one_way && normal != Vec2::Y {
            continue;
        }
        if request.velocity.dot(normal) < 0.0 {
            remove_velocity_into(&mut velocity, normal);
            contacts.record(Contact {
                entity: solid.entity,
                direction: ContactDirection::from_normal(normal),
                depth: 0.0,
                sensor: false,
            });
        }
    }
    MoveOutcome {
        delta: aabb.min - request.start.min,
        velocity,
    }
}
