//! The contacts a move records besides its collisions: solids the body ends resting against,
//! sensors it touched, and the supports it stands on.

use bevy::prelude::*;

use super::request::MoveRequest;
use crate::broad_phase::ColliderProxy;
use crate::components::*;
use crate::geometry::SlopeShape;
use crate::geometry::{Aabb, box_sweep_touches_slope, remove_velocity_into, sweep_aabb};

/// Records the solids that the final box `end` rests flush against (touching on one axis within
/// `skin`, overlapping on the other) while the step's `intended` velocity pushed into them, and
/// removes that part of `velocity`. A body straddling two floor boxes, or a floor and a lift,
/// stands on both, whichever of them the solver happened to stop on.
pub(crate) fn record_resting_contacts(
    end: &Aabb,
    intended: Vec2,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    for solid in solids {
        let overlap = end.overlap(&solid.aabb);
        let normal = if overlap.y.abs() <= skin && overlap.x > skin {
            Vec2::new(0.0, (end.center().y - solid.aabb.center().y).signum())
        } else if overlap.x.abs() <= skin && overlap.y > skin {
            Vec2::new((end.center().x - solid.aabb.center().x).signum(), 0.0)
        } else {
            continue;
        };
        if (solid.one_way && normal != Vec2::Y) || intended.dot(normal) >= 0.0 {
            continue;
        }
        remove_velocity_into(velocity, normal);
        contacts.record(solid.contact(ContactDirection::from_normal(normal), 0.0));
    }
}

/// Records a sensor contact for every sensor the body touched during the step: swept through it,
/// or touching it at the end.
pub(crate) fn record_sensor_contacts(request: &MoveRequest, end: &Aabb, contacts: &mut Contacts) {
    let delta = end.min - request.start.min;
    for sensor in request.sensors {
        if let Some(shape) = sensor.slope_shape() {
            record_sensor_slope_contact(sensor, &shape, request, delta, end, contacts);
            continue;
        }
        let direction = if end.touches(&sensor.aabb, request.skin) {
            touch_direction(end, &sensor.aabb)
        } else if let Some(hit) = sweep_aabb(&request.start, delta, &sensor.aabb, request.skin) {
            ContactDirection::from_normal(hit.normal)
        } else {
            continue;
        };
        let overlap = end.overlap(&sensor.aabb);
        contacts.record(Contact {
            sensor: true,
            ..sensor.contact(direction, overlap.min_element().max(0.0))
        });
    }
}

/// The sensor contact of a sensor slope that the box touched during the step (its triangle, the
/// part of its rect under the surface, not the rect): `Down` for feet on or over the surface at
/// the end, else the side of the rect the body is on; the depth is how far the feet are under the
/// surface, within the rect's overlap.
fn record_sensor_slope_contact(
    sensor: &ColliderProxy,
    shape: &SlopeShape,
    request: &MoveRequest,
    delta: Vec2,
    end: &Aabb,
    contacts: &mut Contacts,
) {
    if !box_sweep_touches_slope(&request.start, delta, shape, request.skin) {
        return;
    }
    let under = shape.surface_y(end) - end.min.y;
    let direction = if shape.overlaps_x(end) && under <= request.skin {
        ContactDirection::Down
    } else {
        touch_direction(end, &sensor.aabb)
    };
    let depth = under.min(end.overlap(&sensor.aabb).min_element()).max(0.0);
    contacts.record(Contact {
        sensor: true,
        ..sensor.contact(direction, depth)
    });
}

/// Records a `Down` contact with each of `supports` that the final box `end` stands on: feet on
/// its top within `skin`, overlapping it horizontally.
pub(crate) fn record_supports(supports: &[ColliderProxy], end: &Aabb, skin: f32, contacts: &mut Contacts) {
    for support in supports {
        let overlap = end.overlap(&support.aabb);
        if overlap.x > skin && (end.min.y - support.aabb.max.y).abs() <= skin {
            contacts.record(support.contact(ContactDirection::Down, 0.0));
        }
    }
}

/// Side of `body` on which `other` lies, for two touching or overlapping boxes: the axis of the
/// smaller overlap.
pub(crate) fn touch_direction(body: &Aabb, other: &Aabb) -> ContactDirection {
    let overlap = body.overlap(other);
    let d = other.center() - body.center();
    if overlap.y <= overlap.x {
        if d.y < 0.0 {
            ContactDirection::Down
        } else {
            ContactDirection::Up
        }
    } else if d.x < 0.0 {
        ContactDirection::Left
    } else {
        ContactDirection::Right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_touching_box_is_on_the_side_of_the_smaller_overlap_wherever_the_boxes_are() {
        for origin in [
            Vec2::new(-40.0, -40.0),
            Vec2::ZERO,
            Vec2::new(40.0, 40.0),
            Vec2::new(-40.0, 40.0),
        ] {
            let body = Aabb::from_min_size(origin, Vec2::new(10.0, 20.0));
            let at = |x: f32, y: f32, w: f32, h: f32| Aabb::from_min_size(origin + Vec2::new(x, y), Vec2::new(w, h));
            assert_eq!(
                touch_direction(&body, &at(-2.0, -4.0, 14.0, 5.0)),
                ContactDirection::Down,
                "{origin}"
            );
            assert_eq!(
                touch_direction(&body, &at(-2.0, 19.0, 14.0, 5.0)),
                ContactDirection::Up,
                "{origin}"
            );
            assert_eq!(
                touch_direction(&body, &at(-4.0, 2.0, 5.0, 16.0)),
                ContactDirection::Left,
                "{origin}"
            );
            assert_eq!(
                touch_direction(&body, &at(9.0, 2.0, 5.0, 16.0)),
                ContactDirection::Right,
                "{origin}"
            );
        }
    }

    #[test]
    fn a_box_centred_on_the_body_is_on_its_right_or_above_it() {
        // A thin post through the middle of the body (the smaller overlap across), and a thin
        // plank through its middle (the smaller overlap up and down): centred, they count as on
        // the positive side.
        let body = Aabb::from_min_size(Vec2::new(100.0, 100.0), Vec2::new(12.0, 24.0));
        let post = Aabb::from_min_size(Vec2::new(105.0, 90.0), Vec2::new(2.0, 44.0));
        assert_eq!(touch_direction(&body, &post), ContactDirection::Right);
        let plank = Aabb::from_min_size(Vec2::new(90.0, 111.0), Vec2::new(32.0, 2.0));
        assert_eq!(touch_direction(&body, &plank), ContactDirection::Up);
    }

    #[test]
    fn a_body_pressing_into_a_face_it_rests_flush_against_touches_it_on_that_side() {
        for origin in [Vec2::new(-300.0, -200.0), Vec2::new(300.0, 200.0)] {
            let solid = |index: u32, x: f32, y: f32, w: f32, h: f32| {
                ColliderProxy::static_box(index, Aabb::from_min_size(origin + Vec2::new(x, y), Vec2::new(w, h)))
            };
            let body = Aabb::from_min_size(origin, Vec2::new(12.0, 24.0));
            let floor = solid(1, -20.0, -16.0, 60.0, 16.0);
            let ceiling = solid(2, -20.0, 24.0, 60.0, 16.0);
            let left = solid(3, -16.0, 2.0, 16.0, 20.0);
            let right = solid(4, 12.0, 2.0, 16.0, 20.0);
            for (solid, pressing, direction) in [
                (floor, Vec2::new(0.0, -60.0), ContactDirection::Down),
                (ceiling, Vec2::new(0.0, 60.0), ContactDirection::Up),
                (left, Vec2::new(-60.0, 0.0), ContactDirection::Left),
                (right, Vec2::new(60.0, 0.0), ContactDirection::Right),
            ] {
                let mut contacts = Contacts::default();
                let mut velocity = pressing + pressing.perp();
                record_resting_contacts(&body, pressing, &mut velocity, &[solid], 1e-3, &mut contacts);
                let got: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction)).collect();
                assert_eq!(got, vec![(solid.entity, direction)], "{origin} {direction:?}");
                assert_eq!(
                    velocity,
                    pressing.perp(),
                    "{origin} {direction:?}: the press is removed"
                );
                // Moving away from it, or along it: no contact.
                for away in [-pressing, pressing.perp()] {
                    let mut contacts = Contacts::default();
                    let mut velocity = away;
                    record_resting_contacts(&body, away, &mut velocity, &[solid], 1e-3, &mut contacts);
                    assert_eq!(contacts.iter().count(), 0, "{origin} {direction:?} {away}");
                    assert_eq!(velocity, away);
                }
            }
        }
    }

    #[test]
    fn a_face_the_body_overlaps_by_only_a_skin_along_it_is_no_resting_contact() {
        // With a skin of 0.5 px the boundary is exact. Flush against a step's left face, the
        // body's feet half a pixel under the step's top (a rounding margin): walking right into
        // it, it does not rest against a wall.
        let skin = 0.5;
        let body = Aabb::from_min_size(Vec2::new(0.0, 9.5), Vec2::new(12.0, 24.0));
        let step = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(12.0, 0.0), Vec2::new(16.0, 10.0)));
        let pressing = Vec2::new(60.0, 0.0);
        let mut contacts = Contacts::default();
        let mut velocity = pressing;
        record_resting_contacts(&body, pressing, &mut velocity, &[step], skin, &mut contacts);
        assert_eq!(contacts.iter().count(), 0);
        assert_eq!(velocity, pressing);
        // A quarter of a pixel lower, it does.
        let lower = body.translated(Vec2::new(0.0, -0.25));
        record_resting_contacts(&lower, pressing, &mut velocity, &[step], skin, &mut contacts);
        assert_eq!(
            contacts.iter().map(|c| c.direction).collect::<Vec<_>>(),
            vec![ContactDirection::Right]
        );

        // The same on a floor: feet on a block's top, overlapping its right end by only the skin.
        let block = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(-20.0, -10.0), Vec2::new(20.5, 10.0)));
        let standing = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        let falling = Vec2::new(0.0, -60.0);
        let mut contacts = Contacts::default();
        let mut velocity = falling;
        record_resting_contacts(&standing, falling, &mut velocity, &[block], skin, &mut contacts);
        assert_eq!(contacts.iter().count(), 0);
        assert_eq!(velocity, falling);
    }

    #[test]
    fn a_sensor_a_fast_body_passes_through_within_a_step_is_touched() {
        // Far from the origin, 100 px in one step through a sensor 2 px thick, ending beyond it.
        let start = Aabb::from_min_size(Vec2::new(1000.0, 2000.0), Vec2::new(12.0, 24.0));
        let sensor = ColliderProxy {
            sensor: true,
            ..ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(1050.0, 2000.0), Vec2::new(2.0, 40.0)))
        };
        let sensors = [sensor];
        let velocity = Vec2::new(6000.0, 0.0);
        let request = MoveRequest {
            sensors: &sensors,
            ..MoveRequest::among(start, velocity, &[])
        };
        let end = start.translated(Vec2::new(100.0, 0.0));
        let mut contacts = Contacts::default();
        record_sensor_contacts(&request, &end, &mut contacts);
        let got: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction, c.sensor)).collect();
        assert_eq!(got, vec![(sensor.entity, ContactDirection::Right, true)]);
    }

    #[test]
    fn a_support_is_stood_on_only_where_the_feet_overlap_it_by_more_than_a_skin() {
        // A skin of 0.5 px; the feet exactly on the support's top, over its left edge by 0.5 px
        // (exactly a skin), then by 0.6 px.
        let skin = 0.5;
        let support = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(200.0, 80.0), Vec2::new(16.0, 16.0)));
        let feet_over = |x: f32| Aabb::from_min_size(Vec2::new(200.0 + x - 12.0, 96.0), Vec2::new(12.0, 24.0));
        let mut contacts = Contacts::default();
        record_supports(&[support], &feet_over(0.5), skin, &mut contacts);
        assert_eq!(contacts.iter().count(), 0);
        record_supports(&[support], &feet_over(0.6), skin, &mut contacts);
        let got: Vec<_> = contacts.iter().map(|c| (c.entity, c.direction)).collect();
        assert_eq!(got, vec![(support.entity, ContactDirection::Down)]);
    }

    #[test]
    fn a_sensor_slope_is_touched_by_its_triangle_from_above_or_from_the_side_of_its_rect() {
        use crate::geometry::SlopeRise;
        // A sensor slope rising right over (100, 50)–(132, 66).
        let ramp = ColliderProxy {
            sensor: true,
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(100.0, 50.0), Vec2::new(32.0, 16.0)))
        };
        let touched = |min: Vec2| {
            let at = Aabb::from_min_size(min, Vec2::splat(4.0));
            let sensors = [ramp];
            let request = MoveRequest {
                sensors: &sensors,
                ..MoveRequest::among(at, Vec2::ZERO, &[])
            };
            let mut contacts = Contacts::default();
            record_sensor_contacts(&request, &at, &mut contacts);
            contacts.with(ramp.entity).map(|c| (c.direction, c.depth, c.sensor))
        };
        // Feet on the surface under the uphill foot (x = 114: y = 57): from above, no depth.
        assert_eq!(
            touched(Vec2::new(110.0, 57.0)),
            Some((ContactDirection::Down, 0.0, true))
        );
        // A pixel above the surface, though inside the rect: untouched.
        assert_eq!(touched(Vec2::new(110.0, 58.0)), None);
        // Low in the triangle: 4 px deep (the box's size), on the side of the rect it is in.
        assert_eq!(touched(Vec2::new(120.0, 51.0)), Some((ContactDirection::Up, 4.0, true)));
    }
}
