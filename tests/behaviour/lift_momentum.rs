//! `LiftMomentum`: what a body keeps of a lift's velocity when it jumps off, in every mode, and
//! that landing back on the lift gives it no sideways shove.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

/// A lift 200 px wide at the origin moving by `velocity` (px/s) along a long straight path, and a
/// body standing on its middle that keeps `momentum`; the body coasts (no friction) so that what
/// it keeps can be measured.
fn riding(mode: CollisionMode, velocity: Vec2, momentum: LiftMomentum) -> (App, Entity, Entity) {
    let mut app = app();
    let lift = app
        .world_mut()
        .spawn((
            Collider::rectangle(200.0, 8.0),
            Transform::default(),
            PathFollower::new(vec![Vec2::ZERO, velocity * 100.0], velocity.length(), PathMode::Once),
        ))
        .id();
    let body = spawn_body(&mut app, Vec2::new(0.0, 4.0), Vec2::new(12.0, 24.0), mode);
    set_movement(
        &mut app,
        body,
        MovementTuning {
            deceleration: 0.0,
            ..default()
        },
    );
    app.world_mut().entity_mut(body).insert(momentum);
    tick(&mut app, 10);
    assert!(contacts(&app, body).on_floor(), "{mode:?}: riding");
    (app, body, lift)
}

/// Jumps off, runs `steps` steps, and returns the body's velocity then.
fn jump_off(app: &mut App, body: Entity, steps: usize) -> Vec2 {
    input(app, body).jump = Some(300.0);
    tick(app, steps);
    velocity(app, body)
}

#[test]
fn a_body_jumping_off_a_lift_keeps_what_its_lift_momentum_says() {
    for mode in MODES {
        let sideways = Vec2::new(60.0, 0.0);
        for (momentum, kept_x) in [
            (LiftMomentum::None, 0.0),
            (LiftMomentum::Horizontal, 60.0),
            (LiftMomentum::Full, 60.0),
        ] {
            let (mut app, body, _) = riding(mode, sideways, momentum);
            let v = jump_off(&mut app, body, 5);
            assert!((v.x - kept_x).abs() < EPS, "{mode:?} {momentum:?}: {v}");
        }
        // Off a rising lift, only `Full` throws higher.
        let rising = Vec2::new(0.0, 40.0);
        let mut speeds = Vec::new();
        for momentum in [LiftMomentum::None, LiftMomentum::Horizontal, LiftMomentum::Full] {
            let (mut app, body, _) = riding(mode, rising, momentum);
            speeds.push(jump_off(&mut app, body, 5).y);
        }
        assert_eq!(speeds[0], speeds[1], "{mode:?}: {speeds:?}");
        assert!((speeds[2] - speeds[0] - 40.0).abs() < EPS, "{mode:?}: {speeds:?}");
    }
}

#[test]
fn a_body_jumping_straight_up_from_a_moving_lift_lands_back_where_it_left_without_a_shove() {
    for mode in MODES {
        let (mut app, body, lift) = riding(mode, Vec2::new(60.0, 0.0), LiftMomentum::Horizontal);
        let offset = |app: &App| {
            let at = |e| app.world().get::<Transform>(e).unwrap().translation.x;
            at(body) - at(lift)
        };
        let before = offset(&app);
        input(&mut app, body).jump = Some(200.0);
        tick(&mut app, 2);
        assert!(!contacts(&app, body).on_floor(), "{mode:?}: in the air");
        let mut landed = false;
        for _ in 0..200 {
            tick(&mut app, 1);
            if contacts(&app, body).on_floor() {
                landed = true;
                break;
            }
        }
        assert!(landed, "{mode:?}: landed again");
        // In the air it moved on with the lift (a step late, the step it left).
        let at_landing = offset(&app);
        assert!((at_landing - before).abs() < 1.5, "{mode:?}: {before} → {at_landing}");
        tick(&mut app, 30);
        let later = offset(&app);
        assert!(
            (later - at_landing).abs() < EPS,
            "{mode:?}: no drift on the lift: {at_landing} → {later}"
        );
        assert_eq!(
            velocity(&app, body).x,
            0.0,
            "{mode:?}: the lift carries it; its own speed is gone"
        );
    }
}
