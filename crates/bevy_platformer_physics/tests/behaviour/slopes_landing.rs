//! Jumping off and landing on slopes (sections 3 and 6 of [the physics rules](bevy_platformer_physics::physics_rules)), and slopes next
//! to lifts, in every mode.

use crate::common::*;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

#[test]
fn jump_from_a_slope_and_land_on_a_slope() {
    for mode in MODES {
        let mut app = app();
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(320.0, 160.0));
        let body = spawn_body(&mut app, Vec2::new(54.0, 30.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        tick(&mut app, 30);
        assert!(
            contacts(&app, body).with(slope).is_some(),
            "{mode:?}: landed on the slope first"
        );
        input(&mut app, body).horizontal = 1.0;
        input(&mut app, body).jump = Some(300.0);
        let mut airborne = 0;
        let mut landed = false;
        for step in 0..200 {
            tick(&mut app, 1);
            let v = velocity(&app, body);
            let on_slope = contacts(&app, body).with(slope).is_some();
            if v.y > 0.0 {
                assert!(!on_slope, "{mode:?} step {step}: re-attached while rising");
            }
            if !on_slope {
                airborne += 1;
            } else if airborne > 0 {
                landed = true;
                let gap = aabb(&app, body).min.y - surface_under(&app, body, slope);
                assert!(gap.abs() < 1e-3, "{mode:?}: landed {gap} px off the surface");
                assert_eq!(v.y, 0.0, "{mode:?}: landing zeroes the vertical velocity");
                break;
            }
        }
        assert!(
            landed && airborne > 10,
            "{mode:?}: a real jump ({airborne} airborne steps) and a landing"
        );
    }
}

#[test]
fn a_fast_fall_lands_on_a_steep_slope_without_passing_through() {
    for mode in MODES {
        for gradient in [0.5, 2.0, 3.0] {
            let mut app = app();
            let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(100.0, 100.0 * gradient));
            let body = spawn_body(&mut app, Vec2::new(50.0, 600.0), Vec2::new(12.0, 24.0), mode);
            set_velocity(&mut app, body, Vec2::new(0.0, -1000.0));
            let mut landed = false;
            for _ in 0..200 {
                tick(&mut app, 1);
                let b = aabb(&app, body);
                if b.max.x <= 0.0 {
                    break; // slid off the low end
                }
                assert!(
                    b.min.y >= surface_under(&app, body, slope) - 1e-3,
                    "{mode:?} s {gradient}: fell into the slope {b:?}"
                );
                landed |= contacts(&app, body).with(slope).is_some();
            }
            assert!(landed, "{mode:?} s {gradient}: landed on the slope");
        }
    }
}

#[test]
fn a_body_walks_off_a_slope_onto_a_lift_and_rides_it() {
    for mode in MODES {
        let mut app = app();
        spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
        let mut path = PathFollower::new(
            vec![Vec2::new(184.0, 76.0), Vec2::new(184.0, 200.0)],
            40.0,
            PathMode::Once,
        );
        path.wait_left = 3.0;
        let lift = app
            .world_mut()
            .spawn((
                Collider::rectangle(48.0, 8.0),
                Transform::from_xyz(184.0, 76.0, 0.0),
                path,
            ))
            .id();
        let body = spawn_body(&mut app, Vec2::new(40.0, 24.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        tick(&mut app, 20);
        input(&mut app, body).horizontal = 1.0;
        for step in 0..700 {
            tick(&mut app, 1);
            assert!(
                contacts(&app, body).on_floor(),
                "{mode:?} step {step}: airborne {:?}",
                aabb(&app, body)
            );
            if aabb(&app, body).min.x > 175.0 {
                input(&mut app, body).horizontal = 0.0;
            }
        }
        let (b, l) = (aabb(&app, body), aabb(&app, lift));
        assert!(
            (l.max.y - 204.0).abs() < 1e-3,
            "{mode:?}: the lift went up: {l:?} {b:?}"
        );
        assert!((b.min.y - l.max.y).abs() < 1e-3, "{mode:?}: carried up: {b:?} {l:?}");
    }
}
