//! No tunnelling: a body at 5000 px/s never passes through a 1 px wall or floor, in any mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn fast(app: &mut App, body: Entity, gravity_scale: f32) {
    set_movement(
        app,
        body,
        MovementTuning {
            max_speed: Vec2::splat(10_000.0),
            gravity_scale,
            deceleration: 0.0,
            ..default()
        },
    );
}

#[test]
fn horizontal_5000_px_per_s_stops_at_a_1_px_wall() {
    for mode in MODES {
        let mut app = app();
        let wall = spawn_box(&mut app, Vec2::new(203.0, -100.0), Vec2::new(1.0, 300.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::splat(10.0), mode);
        fast(&mut app, body, 0.0);
        set_velocity(&mut app, body, Vec2::new(5000.0, 0.0));
        let mut hit_wall = false;
        for step in 0..20 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.max.x <= 203.0 + EPS,
                "{mode:?} step {step}: body {b:?} went into or through the wall"
            );
            hit_wall |= contacts(&app, body)
                .with(wall)
                .is_some_and(|c| c.direction == ContactDirection::Right);
        }
        assert!(
            (aabb(&app, body).max.x - 203.0).abs() < EPS,
            "{mode:?}: ends flush with the wall"
        );
        assert_eq!(velocity(&app, body).x, 0.0, "{mode:?}: the wall stopped it");
        assert!(hit_wall, "{mode:?}: contact on the right recorded");
    }
}

#[test]
fn falling_5000_px_per_s_lands_on_a_1_px_floor() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-50.0, -1.0), Vec2::new(100.0, 1.0));
        let body = spawn_body(&mut app, Vec2::new(3.0, 377.0), Vec2::new(8.0, 16.0), mode);
        fast(&mut app, body, 1.0);
        set_velocity(&mut app, body, Vec2::new(0.0, -5000.0));
        for step in 0..20 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(b.min.y >= -EPS, "{mode:?} step {step}: {b:?} is below the floor top");
        }
        assert!(aabb(&app, body).min.y.abs() < EPS, "{mode:?}: rests on the floor");
        assert!(contacts(&app, body).on_floor(), "{mode:?}: on the floor");
    }
}

#[test]
fn diagonal_5000_px_per_s_does_not_slip_between_two_thin_walls() {
    let mut app = app();
    // An L of 1 px bars: the body aims at their corner.
    spawn_box(&mut app, Vec2::new(300.0, 0.0), Vec2::new(1.0, 301.0));
    spawn_box(&mut app, Vec2::new(0.0, 300.0), Vec2::new(301.0, 1.0));
    let body = spawn_body(
        &mut app,
        Vec2::new(100.0, 100.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    fast(&mut app, body, 0.0);
    set_velocity(&mut app, body, Vec2::new(5000.0, 5000.0));
    tick(&mut app, 10);
    let b = aabb(&app, body);
    assert!(
        b.max.x <= 300.0 + EPS && b.max.y <= 300.0 + EPS,
        "stayed inside the corner: {b:?}"
    );
}

#[test]
fn a_body_walking_into_a_ledge_thinner_than_itself_at_mid_height_stops_before_it() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        // A ledge 2 px thick at the body's waist, out of a wall: no push up or down frees a
        // body 24 px tall that walked into it.
        let ledge = spawn_box(&mut app, Vec2::new(40.0, 10.0), Vec2::new(60.0, 2.0));
        spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(16.0, 100.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 240.0);
        input(&mut app, body).horizontal = 1.0;
        let face = aabb(&app, ledge).min.x;
        for step in 0..120 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(b.max.x <= face + 0.01, "{mode:?} step {step}: into the ledge: {b:?}");
            assert!(b.min.y.abs() < 0.01, "{mode:?} step {step}: still on the floor: {b:?}");
        }
        let b = aabb(&app, body);
        assert!(b.max.x > face - 4.0, "{mode:?}: walked up to it: {b:?}");
    }
}
