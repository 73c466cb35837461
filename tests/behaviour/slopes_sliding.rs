//! Passive sliding, valleys and the uphill release (sections 4, 6 and 11 of
//! [the physics rules](bevy_platformer_physics::physics_rules)), in every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const BLOCK: f32 = 16.0;

/// A body of `size` standing on `slope` (world points) with its uphill foot at `foot_x`.
fn body_on(app: &mut App, slope: Entity, foot_x: f32, size: Vec2, mode: CollisionMode) -> Entity {
    let body = spawn_body(app, Vec2::new(foot_x, 0.0), size, mode);
    // Shift so that the uphill corner is at foot_x, then set the feet on the surface there.
    let shape = {
        let world = app.world();
        world.get::<SlopeSegment>(slope).unwrap().shape(Vec2::ZERO)
    };
    let dx = if shape.rises_right() {
        -size.x * 0.5
    } else {
        size.x * 0.5
    };
    let mut transform = app.world_mut().get_mut::<Transform>(body).unwrap();
    transform.translation.x += dx;
    let feet = shape.surface_y(&Collider::rectangle(size.x, size.y).aabb(transform.translation.truncate()));
    transform.translation.y = feet + size.y * 0.5;
    body
}

#[test]
fn passive_slide_speed_is_5_min_s_2_blocks_per_second_along_the_surface() {
    for mode in MODES {
        for gradient in [0.25, 0.5, 1.0, 2.0, 3.0] {
            let label = format!("{mode:?} s {gradient}");
            let mut app = app();
            let width = 40.0 * BLOCK;
            let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(width, width * gradient));
            let body = body_on(&mut app, slope, width * 0.75, Vec2::new(12.0, 24.0), mode);
            tick(&mut app, 1);
            let expected_along = 5.0 * f32::min(gradient, 2.0) * BLOCK;
            let expected_dx = -expected_along / (1.0 + gradient * gradient).sqrt() * DT;
            for step in 0..30 {
                let before = aabb(&app, body);
                tick(&mut app, 1);
                let after = aabb(&app, body);
                let dx = after.min.x - before.min.x;
                assert!(
                    (dx - expected_dx).abs() < 1e-4,
                    "{label} step {step}: dx {dx} expected {expected_dx}"
                );
                assert!(
                    ((after.min.y - before.min.y) - dx * gradient).abs() < 1e-3,
                    "{label}: follows the surface"
                );
                assert_eq!(
                    velocity(&app, body),
                    Vec2::ZERO,
                    "{label}: slide velocity removed after the step"
                );
                assert!(app.world().get::<MovementState>(body).unwrap().passive_slide, "{label}");
                assert!(
                    contacts(&app, body).with(slope).is_some(),
                    "{label} step {step}: supported"
                );
            }
        }
    }
}

#[test]
fn sliding_stops_in_a_v_valley_without_oscillating() {
    for mode in MODES {
        for (width, label) in [(12.0, "narrow"), (64.0, "wide")] {
            let mut app = app();
            let left = spawn_slope(&mut app, Vec2::new(-160.0, 80.0), Vec2::ZERO);
            let right = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
            let body = body_on(&mut app, right, 120.0, Vec2::new(width, 24.0), mode);
            tick(&mut app, 400);
            let rest = aabb(&app, body);
            for step in 0..100 {
                tick(&mut app, 1);
                let b = aabb(&app, body);
                assert!(
                    (b.min - rest.min).length() < 1e-3,
                    "{mode:?} {label} step {step}: still moving {b:?} vs {rest:?}"
                );
            }
            let feet = rest.min.y;
            let expected = surface_under(&app, body, left).max(surface_under(&app, body, right));
            assert!(
                (feet - expected).abs() < 1e-3,
                "{mode:?} {label}: feet {feet} on the higher side {expected}"
            );
            assert!(
                rest.min.x < 0.0 + 1.0 && rest.max.x > -1.0,
                "{mode:?} {label}: rests at the bottom: {rest:?}"
            );
            assert!(contacts(&app, body).on_floor(), "{mode:?} {label}");
        }
    }
}

#[test]
fn sliding_stops_in_a_valley_with_a_flat_bottom() {
    for mode in MODES {
        let mut app = app();
        spawn_slope(&mut app, Vec2::new(-160.0, 80.0), Vec2::new(-32.0, 0.0));
        let floor = spawn_box(&mut app, Vec2::new(-32.0, -BLOCK), Vec2::new(64.0, BLOCK));
        let right = spawn_slope(&mut app, Vec2::new(32.0, 0.0), Vec2::new(160.0, 80.0));
        let body = body_on(&mut app, right, 140.0, Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 400);
        let b = aabb(&app, body);
        assert!(b.min.y.abs() < 1e-3, "{mode:?}: on the flat bottom {b:?}");
        assert!(contacts(&app, body).with(floor).is_some(), "{mode:?}");
        let x = b.min.x;
        tick(&mut app, 50);
        assert!((aabb(&app, body).min.x - x).abs() < 1e-3, "{mode:?}: at rest");
    }
}

#[test]
fn walking_through_a_valley_climbs_the_other_side() {
    for mode in MODES {
        let mut app = app();
        let left = spawn_slope(&mut app, Vec2::new(-160.0, 80.0), Vec2::ZERO);
        let right = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
        let body = body_on(&mut app, left, -140.0, Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 150.0);
        tick(&mut app, 1);
        input(&mut app, body).horizontal = 1.0;
        for step in 0..140 {
            tick(&mut app, 1);
            assert!(
                contacts(&app, body).on_floor(),
                "{mode:?} step {step}: airborne {:?}",
                aabb(&app, body)
            );
        }
        assert!(
            aabb(&app, body).min.x > 60.0,
            "{mode:?}: climbed the other side {:?}",
            aabb(&app, body)
        );
        assert!(contacts(&app, body).with(right).is_some());
    }
}

#[test]
fn uphill_release_decelerates_by_60_times_1_plus_s_and_never_reverses_by_itself() {
    for mode in MODES {
        let mut app = app();
        let gradient = 0.5;
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(640.0, 320.0));
        let body = body_on(&mut app, slope, 100.0, Vec2::new(12.0, 24.0), mode);
        set_movement(
            &mut app,
            body,
            MovementTuning {
                acceleration: 1.0e6,
                deceleration: 0.0,
                max_speed: Vec2::new(160.0, 2000.0),
                ..default()
            },
        );
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 20);
        assert_eq!(velocity(&app, body).x, 160.0);
        input(&mut app, body).horizontal = 0.0;
        let braking = 60.0 * BLOCK * (1.0 + gradient) * DT;
        let mut expected = 160.0;
        while expected > 0.0 {
            tick(&mut app, 1);
            expected = f32::max(expected - braking, 0.0);
            let vx = velocity(&app, body).x;
            assert!((vx - expected).abs() < 1e-3, "{mode:?}: vx {vx}, expected {expected}");
        }
        assert_eq!(velocity(&app, body).x, 0.0, "{mode:?}: stopped, not reversed");
        // At rest it starts sliding back down, passively (the stored velocity stays 0).
        let x = aabb(&app, body).min.x;
        tick(&mut app, 10);
        assert!(aabb(&app, body).min.x < x, "{mode:?}: slides back");
        assert_eq!(velocity(&app, body).x, 0.0);
    }
}

#[test]
fn input_wins_over_the_slide_and_starts_uphill_from_rest() {
    for mode in MODES {
        let mut app = app();
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(640.0, 640.0));
        let body = body_on(&mut app, slope, 100.0, Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        input(&mut app, body).horizontal = 1.0;
        let x = aabb(&app, body).min.x;
        tick(&mut app, 40);
        // 100 px/s with the uphill factor 1/(1 + 1): 50 px/s, 20 px in 0.4 s.
        let walked = aabb(&app, body).min.x - x;
        assert!(
            (walked - 20.0).abs() < 0.5,
            "{mode:?}: walked uphill from rest: {walked}"
        );
        assert!(!app.world().get::<MovementState>(body).unwrap().passive_slide);
    }
}
