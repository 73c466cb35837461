//! Jumping off and landing on slopes (sections 3 and 6 of [the physics rules](bevy_platformer_physics::physics_rules)), and slopes next
//! to lifts, in every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

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

#[test]
fn a_body_landing_across_a_slopes_top_and_the_block_continuing_it_stands_on_both() {
    // A slope up to (160, 80) and a block whose top continues it from there. A body falls onto
    // the join, its feet over both: it lands at the join's height and, every step its feet are
    // still over the block (the passive slide then takes it down the slope), touches the slope
    // and the block from above.
    for mode in MODES {
        let mut app = app();
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
        let block = spawn_box(&mut app, Vec2::new(160.0, 64.0), Vec2::new(240.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(162.0, 100.0), Vec2::new(12.0, 24.0), mode);
        let mut across = 0;
        for step in 0..120 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            if b.min.y > 80.0 + EPS || b.max.x < 160.01 {
                continue;
            }
            if across == 0 {
                assert!(
                    (b.min.y - 80.0).abs() < EPS,
                    "{mode:?} step {step}: landed at the join, {b:?}"
                );
            }
            across += 1;
            let c = contacts(&app, body);
            for (what, entity) in [("slope", slope), ("block", block)] {
                assert_eq!(
                    c.with(entity).map(|c| c.direction),
                    Some(ContactDirection::Down),
                    "{mode:?} step {step}: on the {what}: {c:?}"
                );
            }
        }
        assert!(across > 0, "{mode:?}: landed across the join");
    }
}
