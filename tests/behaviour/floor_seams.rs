//! Running across many separate floor boxes: no snag on any seam, no hop, in any mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const MAX_SPEED: f32 = 300.0;

#[test]
fn max_speed_over_50_adjacent_16_px_floor_boxes_never_slows_or_leaves_the_floor() {
    for mode in MODES {
        // Several speeds and start offsets, so the leading edge enters the next box by every
        // amount down to a hair (the discrete mode once took such a hair for a wall).
        for (speed, offset) in [(MAX_SPEED, 0.0), (317.0, 0.3), (233.3, 0.05), (160.0, 0.011)] {
            let label = format!("{mode:?} speed {speed} offset {offset}");
            let mut app = app();
            for i in 0..50 {
                spawn_box(&mut app, Vec2::new(i as f32 * 16.0, 0.0), Vec2::splat(16.0));
            }
            let body = spawn_body(&mut app, Vec2::new(10.0 + offset, 16.0), Vec2::new(12.0, 24.0), mode);
            set_movement(
                &mut app,
                body,
                MovementTuning {
                    acceleration: 1.0e6,
                    max_speed: Vec2::new(speed, 1000.0),
                    ..default()
                },
            );
            input(&mut app, body).horizontal = 1.0;
            let start = aabb(&app, body).min.x;
            let mut steps = 0;
            while aabb(&app, body).max.x < 50.0 * 16.0 - 20.0 {
                tick(&mut app, 1);
                steps += 1;
                let b = aabb(&app, body);
                assert_eq!(
                    velocity(&app, body).x,
                    speed,
                    "{label} step {steps} at x {}: lost speed",
                    b.min.x
                );
                assert!(
                    (b.min.y - 16.0).abs() < EPS,
                    "{label} step {steps}: feet at {} not on the floor",
                    b.min.y
                );
                assert!(
                    contacts(&app, body).on_floor(),
                    "{label} step {steps}: not on the floor"
                );
                assert!(
                    !contacts(&app, body).on_wall(),
                    "{label} step {steps}: a seam acted as a wall"
                );
                assert!(steps < 1000, "{label}: never arrived");
            }
            // Distance covered is exactly speed × time: not a pixel lost to a seam.
            let travelled = aabb(&app, body).min.x - start;
            assert!(
                (travelled - speed * DT * steps as f32).abs() < 0.01,
                "{label}: travelled {travelled}"
            );
        }
    }
}

#[test]
fn seams_in_a_ceiling_do_not_stop_a_body_sliding_under_it() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(1000.0, 16.0));
        for i in 0..20 {
            spawn_box(&mut app, Vec2::new(i as f32 * 16.0, 24.0), Vec2::splat(16.0));
        }
        let body = spawn_body(&mut app, Vec2::new(10.0, 0.0), Vec2::new(12.0, 24.0), mode);
        set_movement(
            &mut app,
            body,
            MovementTuning {
                acceleration: 1.0e6,
                max_speed: Vec2::new(MAX_SPEED, 1000.0),
                ..default()
            },
        );
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 80);
        let b = aabb(&app, body);
        assert!(
            (b.min.x - (4.0 + MAX_SPEED * 0.8)).abs() < 0.01,
            "{mode:?}: stopped under the ceiling at {b:?}"
        );
    }
}

#[test]
fn walking_from_the_floor_onto_a_waiting_lift_at_the_same_height_does_not_snag() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let mut path = PathFollower::new(
            vec![Vec2::new(124.0, -4.0), Vec2::new(124.0, 96.0)],
            40.0,
            PathMode::PingPong,
        );
        path.wait_left = 10.0;
        let lift = app
            .world_mut()
            .spawn((
                Collider::rectangle(48.0, 8.0),
                Transform::from_xyz(124.0, -4.0, 0.0),
                path,
            ))
            .id();
        // Falls while walking, lands near the join, walks on (the case that once snagged).
        let body = spawn_body(&mut app, Vec2::new(60.0, 28.0), Vec2::new(12.0, 24.0), mode);
        input(&mut app, body).horizontal = 1.0;
        let mut straddled = false;
        for step in 0..60 {
            tick(&mut app, 1);
            let c = contacts(&app, body);
            assert!(!c.on_wall(), "{mode:?} step {step}: the lift's side acted as a wall");
            let b = aabb(&app, body);
            if b.min.x < 100.0 - 0.1 && b.max.x > 100.0 + 0.1 {
                straddled = true;
                assert_eq!(
                    c.solid_in(ContactDirection::Down).count(),
                    2,
                    "{mode:?} step {step}: stands on both"
                );
            }
        }
        assert!(straddled);
        assert!(
            aabb(&app, body).min.x > 100.0,
            "{mode:?}: walked onto the lift: {:?}",
            aabb(&app, body)
        );
        assert!(contacts(&app, body).with(lift).is_some(), "{mode:?}");
    }
}
