//! Landing ends exactly flush; corners are hit; each mode on the same small scenes.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

#[test]
fn landing_ends_exactly_flush_and_stays() {
    for mode in MODES {
        let mut app = app();
        let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 37.3), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 100);
        for step in 0..100 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y.abs() < 1e-4,
                "{mode:?} step {step}: feet at {} instead of 0",
                b.min.y
            );
            assert_eq!(velocity(&app, body), Vec2::ZERO, "{mode:?} step {step}");
            let floor_contact = contacts(&app, body).with(floor).copied();
            assert!(
                floor_contact.is_some_and(|c| c.direction == ContactDirection::Down && !c.sensor),
                "{mode:?} step {step}: {floor_contact:?}"
            );
        }
    }
}

#[test]
fn landing_on_a_block_corner_lands_on_top() {
    // Discrete mode has no time of impact: it picks the axis of smaller penetration (see the next
    // test), so an exact corner-to-corner meeting is only defined for the other two.
    for mode in [CollisionMode::Continuous, CollisionMode::AxisSeparated] {
        let mut app = app();
        let block = spawn_box(&mut app, Vec2::new(20.0, 0.0), Vec2::splat(16.0));
        // Moving right and down so that the body's bottom-right corner meets the block's top-left
        // corner exactly.
        let body = spawn_body(&mut app, Vec2::new(0.0, 36.0), Vec2::new(20.0, 10.0), mode);
        set_movement(
            &mut app,
            body,
            MovementTuning {
                gravity_scale: 0.0,
                deceleration: 0.0,
                max_speed: Vec2::splat(5000.0),
                ..default()
            },
        );
        set_velocity(&mut app, body, Vec2::new(1000.0, -2000.0));
        let mut landed = false;
        for _ in 0..3 {
            tick(&mut app, 1);
            landed |= contacts(&app, body)
                .with(block)
                .is_some_and(|c| c.direction == ContactDirection::Down);
        }
        let b = aabb(&app, body);
        assert!(
            (b.min.y - 16.0).abs() < EPS,
            "{mode:?}: lands on top of the block, got {b:?}"
        );
        assert!(b.max.x > 20.0 + EPS, "{mode:?}: kept moving over the block: {b:?}");
        assert!(landed, "{mode:?}: a down contact with the block");
    }
}

#[test]
fn walking_into_a_wall_stops_flush_and_the_ceiling_stops_a_jump() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(300.0, 16.0));
        let wall = spawn_box(&mut app, Vec2::new(50.0, 0.0), Vec2::new(16.0, 100.0));
        let ceiling = spawn_box(&mut app, Vec2::new(-100.0, 40.0), Vec2::new(150.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 2);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 100);
        let b = aabb(&app, body);
        assert!((b.max.x - 50.0).abs() < EPS, "{mode:?}: flush with the wall, got {b:?}");
        assert!(
            contacts(&app, body)
                .with(wall)
                .is_some_and(|c| c.direction == ContactDirection::Right)
        );
        assert!(contacts(&app, body).on_wall(), "{mode:?}");
        input(&mut app, body).jump = Some(400.0);
        let mut bumped = false;
        for _ in 0..30 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(b.max.y <= 40.0 + EPS, "{mode:?}: head went into the ceiling: {b:?}");
            bumped |= contacts(&app, body)
                .with(ceiling)
                .is_some_and(|c| c.direction == ContactDirection::Up);
        }
        assert!(bumped, "{mode:?}: the ceiling stopped the jump");
    }
}

#[test]
fn discrete_corner_overlap_lands_on_top_when_the_vertical_penetration_is_smaller() {
    let mut app = app();
    let block = spawn_box(&mut app, Vec2::new(20.0, 0.0), Vec2::splat(16.0));
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 17.5),
        Vec2::new(20.0, 10.0),
        CollisionMode::Discrete,
    );
    set_movement(
        &mut app,
        body,
        MovementTuning {
            gravity_scale: 0.0,
            deceleration: 0.0,
            max_speed: Vec2::splat(5000.0),
            ..default()
        },
    );
    set_velocity(&mut app, body, Vec2::new(2000.0, -500.0));
    tick(&mut app, 1);
    let b = aabb(&app, body);
    assert_eq!(b.min.y, 16.0, "pushed up by the smaller (vertical) penetration: {b:?}");
    assert_eq!(b.min.x, 10.0, "kept its horizontal motion");
    assert_eq!(velocity(&app, body), Vec2::new(2000.0, 0.0));
    assert_eq!(
        contacts(&app, body).with(block).map(|c| c.direction),
        Some(ContactDirection::Down)
    );
}
