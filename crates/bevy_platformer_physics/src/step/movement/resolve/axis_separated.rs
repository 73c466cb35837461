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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::ColliderProxy;
    use crate::geometry::Aabb;

    fn block(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
    }

    #[test]
    fn a_one_way_platform_never_stops_a_sideways_move() {
        // Top at y = 108. The body is flush with its right end, feet 0.1 px under its top (within
        // the contact tolerance, so the platform is among the solids): walking left, it is not
        // stopped by the platform's end.
        let platform = ColliderProxy {
            one_way: true,
            ..block(1, Vec2::new(0.0, 100.0), Vec2::new(64.0, 8.0))
        };
        let start = Aabb::from_min_size(Vec2::new(64.0, 107.9), Vec2::new(12.0, 24.0));
        let solids = [platform];
        let mut contacts = Contacts::default();
        let outcome = move_axis_separated(
            &MoveRequest::among(start, Vec2::new(-600.0, 0.0), &solids),
            &mut contacts,
        );
        assert!((outcome.delta.x + 10.0).abs() < 1e-4, "{:?}", outcome.delta);
        assert_eq!(outcome.velocity, Vec2::new(-600.0, 0.0));
        assert_eq!(contacts.iter().count(), 0);
    }

    #[test]
    fn of_two_floors_met_at_the_same_height_the_first_listed_stops_the_body() {
        // Two floor cells side by side; a body over the seam falls 10 px, 4 px onto both.
        let left = block(1, Vec2::ZERO, Vec2::splat(16.0));
        let right = block(2, Vec2::new(16.0, 0.0), Vec2::splat(16.0));
        let start = Aabb::from_min_size(Vec2::new(10.0, 20.0), Vec2::new(12.0, 24.0));
        for solids in [[left, right], [right, left]] {
            let mut contacts = Contacts::default();
            let outcome = move_axis_separated(
                &MoveRequest::among(start, Vec2::new(0.0, -600.0), &solids),
                &mut contacts,
            );
            assert!((outcome.delta.y + 4.0).abs() < 1e-4, "{:?}", outcome.delta);
            let stopped_by: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction)).collect();
            assert_eq!(stopped_by, vec![(solids[0].entity, ContactDirection::Down)]);
        }
    }
}
