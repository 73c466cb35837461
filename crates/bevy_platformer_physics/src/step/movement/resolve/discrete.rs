//! Discrete resolution: move, find the overlaps, push out (see *Discrete mode* in
//! [the physics rules](crate::physics_rules)). There is no time of impact within the step, unlike the continuous mode.
//!
//! The axis of each push is the one of smaller penetration; several overlaps are resolved with the
//! accumulated correction vector so the push-out is never the sum of overlapping penetrations. The
//! move is split into substeps no longer than the smallest box in the way, so a fast body cannot
//! step over a thin wall between two overlap tests. A substep that leaves the body inside a solid
//! whatever the push (a gap narrower than the body) is undone. A body that ends flush against a surface while
//! still moving into it keeps that contact (depth 0).

use bevy::prelude::*;

use super::super::candidates::overlaps_level_solid;
use super::request::substep_count;
use super::{MoveOutcome, MoveRequest};
use crate::components::Contacts;

/// The discrete (overlap and push-out) move of one body.
pub fn move_discrete(request: &MoveRequest, contacts: &mut Contacts) -> MoveOutcome {
    let mut velocity = request.velocity;
    let mut aabb = request.start;
    let substeps = substep_count(velocity * request.dt, &aabb, request.solids, request.max_substeps);
    let sub_dt = request.dt / substeps as f32;
    for _ in 0..substeps {
        let before = aabb;
        aabb = aabb.translated(velocity * sub_dt);
        request.push_out(Some(&before), &mut aabb, &mut velocity, contacts);
        // Squeezed into a gap narrower than the body (a corner between a floor and a block): no
        // push-out can free it, so the move did not happen. The same when the push-out threw the
        // body out of the area whose solids it knows (pushed sideways out of a block above its
        // head, past walls it was never checked against).
        let thrown_out = !(request.bounds.contains(aabb.min) && request.bounds.contains(aabb.max));
        if thrown_out
            || (overlaps_level_solid(&aabb, request.solids, request.skin)
                && !overlaps_level_solid(&before, request.solids, request.skin))
        {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::ColliderProxy;
    use crate::geometry::Aabb;

    #[test]
    fn a_move_into_a_ledge_thinner_than_the_body_at_its_waist_is_undone() {
        // A ledge 2 px thick flush against the body's right face at its waist, away from the
        // origin. Moved 2 px into it, the body overlaps it by 2 px on both axes; a push up or down
        // by 2 px leaves it around the ledge, still inside, so the move does not happen.
        let origin = Vec2::new(300.0, -200.0);
        let ledge = ColliderProxy::static_box(
            1,
            Aabb::from_min_size(origin + Vec2::new(12.0, 10.0), Vec2::new(48.0, 2.0)),
        );
        let start = Aabb::from_min_size(origin, Vec2::new(12.0, 24.0));
        let solids = [ledge];
        for velocity in [Vec2::new(120.0, 0.0), Vec2::new(120.0, 30.0)] {
            let request = MoveRequest::among(start, velocity, &solids);
            let outcome = move_discrete(&request, &mut Contacts::default());
            assert_eq!(outcome.delta, Vec2::ZERO, "{velocity}");
            assert_eq!(outcome.velocity, Vec2::ZERO, "{velocity}");
        }
    }

    #[test]
    fn a_push_out_that_throws_the_body_out_of_the_area_it_knows_undoes_the_move() {
        // The request's solids are those of its swept box alone. The body starts 1 px into a
        // block on its right and moves 2 px further in; pushed out by the smaller overlap, 3 px
        // left, its left side leaves that area (its right side is still in it): the move is undone.
        let block = ColliderProxy::static_box(
            1,
            Aabb {
                min: Vec2::new(11.0, -100.0),
                max: Vec2::new(40.0, 100.0),
            },
        );
        let start = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        let velocity = Vec2::new(120.0, 0.0);
        let solids = [block];
        let request = MoveRequest {
            bounds: start.swept(velocity / 60.0),
            ..MoveRequest::among(start, velocity, &solids)
        };
        let outcome = move_discrete(&request, &mut Contacts::default());
        assert_eq!(outcome.delta, Vec2::ZERO);
        assert_eq!(outcome.velocity, Vec2::ZERO);
        // Knowing a wider area, the push stands.
        let outcome = move_discrete(&MoveRequest::among(start, velocity, &solids), &mut Contacts::default());
        assert_eq!(outcome.delta, Vec2::new(-1.0, 0.0));
    }
}
