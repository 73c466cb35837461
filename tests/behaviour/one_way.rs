//! One-way platforms: solid only from above (the start-of-step rule), passable from below and the
//! sides, drop-through on request, one-way lifts.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn spawn_one_way(app: &mut App, min: Vec2, size: Vec2) -> Entity {
    let platform = spawn_box(app, min, size);
    app.world_mut().entity_mut(platform).insert(OneWayPlatform);
    platform
}

#[test]
fn jump_up_through_and_land_on_top() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let platform = spawn_one_way(&mut app, Vec2::new(-40.0, 40.0), Vec2::new(80.0, 8.0));
        let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 2);
        input(&mut app, body).jump = Some(450.0);
        let mut highest: f32 = 0.0;
        for _ in 0..100 {
            tick(&mut app, 1);
            highest = highest.max(aabb(&app, body).min.y);
        }
        assert!(
            highest > 48.0,
            "{mode:?}: jumped through the platform (peak feet {highest})"
        );
        let b = aabb(&app, body);
        assert!((b.min.y - 48.0).abs() < EPS, "{mode:?}: landed on top: {b:?}");
        assert!(contacts(&app, body).with(platform).is_some(), "{mode:?}");
    }
}

#[test]
fn passable_from_the_side() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        spawn_one_way(&mut app, Vec2::new(40.0, 0.0), Vec2::new(40.0, 16.0));
        let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 100);
        assert!(
            aabb(&app, body).min.x > 80.0,
            "{mode:?}: walked through it: {:?}",
            aabb(&app, body)
        );
    }
}

#[test]
fn drop_through_falls_to_the_floor_below_then_the_platform_is_solid_again() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        let platform = spawn_one_way(&mut app, Vec2::new(-40.0, 40.0), Vec2::new(80.0, 8.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 48.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 20);
        assert!(
            (aabb(&app, body).min.y - 48.0).abs() < EPS,
            "{mode:?}: stands on the platform"
        );
        input(&mut app, body).drop_through = true;
        tick(&mut app, 100);
        assert!(aabb(&app, body).min.y.abs() < EPS, "{mode:?}: dropped to the floor");
        let state = app.world().get::<MovementState>(body).unwrap();
        assert!(
            state.dropping_through.is_empty(),
            "{mode:?}: forgot the platform once left"
        );
        // Jump back up: the platform catches it again.
        input(&mut app, body).jump = Some(450.0);
        tick(&mut app, 100);
        assert!(
            (aabb(&app, body).min.y - 48.0).abs() < EPS,
            "{mode:?}: lands on it again"
        );
        assert!(contacts(&app, body).with(platform).is_some());
    }
}

#[test]
fn head_above_the_platform_is_not_a_landing() {
    // A jump whose top only gets the head past the platform falls back below it.
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    spawn_one_way(&mut app, Vec2::new(-40.0, 30.0), Vec2::new(80.0, 8.0));
    let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), CollisionMode::Continuous);
    tick(&mut app, 2);
    input(&mut app, body).jump = Some(250.0);
    tick(&mut app, 100);
    assert!(
        aabb(&app, body).min.y.abs() < EPS,
        "back on the floor: {:?}",
        aabb(&app, body)
    );
}

#[test]
fn rider_of_a_one_way_lift_moving_up_never_falls_through() {
    for mode in MODES {
        let mut app = app();
        let lift = app
            .world_mut()
            .spawn((
                Collider::rectangle(48.0, 8.0),
                OneWayPlatform,
                Transform::from_xyz(0.0, 0.0, 0.0),
                PathFollower::new(vec![Vec2::ZERO, Vec2::new(0.0, 300.0)], 120.0, PathMode::PingPong),
            ))
            .id();
        let rider = spawn_body(&mut app, Vec2::new(0.0, 4.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 1);
        for step in 0..600 {
            tick(&mut app, 1);
            let (r, l) = (aabb(&app, rider), aabb(&app, lift));
            assert!(
                (r.min.y - l.max.y).abs() < 0.01,
                "{mode:?} step {step}: feet {} lift top {}",
                r.min.y,
                l.max.y
            );
        }
    }
}

#[test]
fn one_way_lift_never_drags_a_body_whose_feet_are_below_its_top() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        // Sideways through a standing body at waist height: passes through.
        app.world_mut().spawn((
            Collider::rectangle(48.0, 8.0),
            OneWayPlatform,
            Transform::from_xyz(-100.0, 12.0, 0.0),
            PathFollower::new(
                vec![Vec2::new(-100.0, 12.0), Vec2::new(100.0, 12.0)],
                200.0,
                PathMode::Once,
            ),
        ));
        let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 150);
        let b = aabb(&app, body);
        assert!(
            (b.min.x + 6.0).abs() < EPS && b.min.y.abs() < EPS,
            "{mode:?}: not moved: {b:?}"
        );
    }
}

#[test]
fn one_way_lift_rising_through_a_body_from_inside_does_not_lift_it() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
    // The lift starts around the body's knees and rises: the body's feet are below its top.
    app.world_mut().spawn((
        Collider::rectangle(48.0, 8.0),
        OneWayPlatform,
        Transform::from_xyz(0.0, 4.0, 0.0),
        PathFollower::new(vec![Vec2::new(0.0, 4.0), Vec2::new(0.0, 200.0)], 100.0, PathMode::Once),
    ));
    let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), CollisionMode::Continuous);
    tick(&mut app, 60);
    assert!(
        aabb(&app, body).min.y.abs() < EPS,
        "stayed on the floor: {:?}",
        aabb(&app, body)
    );
}

#[test]
fn one_way_lift_rising_out_of_the_floor_picks_up_a_body_standing_there() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
    let lift = app
        .world_mut()
        .spawn((
            Collider::rectangle(48.0, 8.0),
            OneWayPlatform,
            Transform::from_xyz(0.0, -20.0, 0.0),
            PathFollower::new(
                vec![Vec2::new(0.0, -20.0), Vec2::new(0.0, 100.0)],
                100.0,
                PathMode::Once,
            ),
        ))
        .id();
    let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), CollisionMode::Continuous);
    tick(&mut app, 200);
    let (b, l) = (aabb(&app, body), aabb(&app, lift));
    assert!((l.max.y - 104.0).abs() < EPS, "lift arrived");
    assert!((b.min.y - l.max.y).abs() < EPS, "the body rode up: {b:?}");
}
