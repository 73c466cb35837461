//! Bad input: zero, negative or NaN sizes, NaN positions and velocities. One warning names the
//! entity, the body is skipped, nothing panics, and no NaN reaches any other body.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn assert_invalid(app: &App, entity: Entity, what: &str) {
    let invalid = app.world().get::<InvalidBody>(entity);
    assert!(invalid.is_some(), "{what}: entity {entity} should be marked invalid");
}

/// A healthy scene next to the bad body: a body that must land normally.
fn healthy_scene(app: &mut App) -> Entity {
    spawn_box(app, Vec2::new(-1000.0, -16.0), Vec2::new(2000.0, 16.0));
    spawn_body(
        app,
        Vec2::new(0.0, 20.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    )
}

fn assert_healthy(app: &App, body: Entity) {
    let b = aabb(app, body);
    assert!(
        b.is_finite() && velocity(app, body).is_finite(),
        "healthy body got a NaN: {b:?}"
    );
    assert!(b.min.y.abs() < EPS, "healthy body landed normally: {b:?}");
}

#[test]
fn zero_negative_and_nan_collider_sizes_are_skipped() {
    for size in [
        Vec2::ZERO,
        Vec2::new(-4.0, 10.0),
        Vec2::new(f32::NAN, 10.0),
        Vec2::new(10.0, f32::INFINITY),
    ] {
        let mut app = app();
        let healthy = healthy_scene(&mut app);
        let bad = app
            .world_mut()
            .spawn((
                Dynamic,
                Collider::rectangle(size.x, size.y),
                Transform::from_xyz(0.0, 30.0, 0.0),
            ))
            .id();
        let bad_static = app
            .world_mut()
            .spawn((Collider::rectangle(size.x, size.y), Transform::from_xyz(5.0, 10.0, 0.0)))
            .id();
        tick(&mut app, 100);
        assert_invalid(&app, bad, &format!("size {size}"));
        assert_invalid(&app, bad_static, &format!("static size {size}"));
        assert_eq!(
            app.world().get::<Transform>(bad).unwrap().translation,
            Vec3::new(0.0, 30.0, 0.0),
            "skipped"
        );
        assert_healthy(&app, healthy);
    }
}

#[test]
fn nan_position_or_velocity_is_skipped_and_does_not_spread() {
    let mut app = app();
    let healthy = healthy_scene(&mut app);
    let nan_position = spawn_body(
        &mut app,
        Vec2::new(0.0, 40.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    app.world_mut()
        .get_mut::<Transform>(nan_position)
        .unwrap()
        .translation
        .x = f32::NAN;
    let nan_velocity = spawn_body(
        &mut app,
        Vec2::new(5.0, 40.0),
        Vec2::splat(10.0),
        CollisionMode::Discrete,
    );
    set_velocity(&mut app, nan_velocity, Vec2::new(f32::NAN, 0.0));
    let nan_lift = app
        .world_mut()
        .spawn((
            Kinematic,
            Collider::rectangle(20.0, 4.0),
            Transform::from_xyz(0.0, 60.0, 0.0),
            Velocity(Vec2::new(0.0, f32::INFINITY)),
        ))
        .id();
    tick(&mut app, 100);
    assert_invalid(&app, nan_position, "NaN position");
    assert_invalid(&app, nan_velocity, "NaN velocity");
    assert_invalid(&app, nan_lift, "infinite kinematic velocity");
    assert_healthy(&app, healthy);
    assert!(
        aabb(&app, nan_velocity).min.x == 0.0,
        "the NaN-velocity body did not move"
    );
}

#[test]
fn a_fixed_body_rejoins_the_simulation() {
    let mut app = app();
    let healthy = healthy_scene(&mut app);
    let body = spawn_body(
        &mut app,
        Vec2::new(50.0, 40.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    set_velocity(&mut app, body, Vec2::new(f32::NAN, f32::NAN));
    tick(&mut app, 5);
    assert_invalid(&app, body, "NaN velocity");
    set_velocity(&mut app, body, Vec2::ZERO);
    tick(&mut app, 100);
    assert!(
        app.world().get::<InvalidBody>(body).is_none(),
        "marker removed once fixed"
    );
    assert!(
        aabb(&app, body).min.y.abs() < EPS,
        "then it fell and landed: {:?}",
        aabb(&app, body)
    );
    assert_healthy(&app, healthy);
}

#[test]
fn an_invalid_path_is_skipped() {
    let mut app = app();
    let lift = app
        .world_mut()
        .spawn((
            Collider::rectangle(20.0, 4.0),
            Transform::from_xyz(0.0, 60.0, 0.0),
            PathFollower::new(vec![Vec2::ZERO], 50.0, PathMode::Loop),
        ))
        .id();
    tick(&mut app, 10);
    assert_invalid(&app, lift, "one-point path");
    assert_eq!(
        app.world().get::<Transform>(lift).unwrap().translation,
        Vec3::new(0.0, 60.0, 0.0)
    );
}

#[test]
fn a_kinematic_body_whose_move_would_overflow_stays_where_it_is() {
    // Finite, valid values whose sum is not: near the largest `f32`, one step of a huge velocity
    // would take the platform to infinity. It does not move, stays valid, and nothing else is hurt.
    let mut app = app();
    let body = healthy_scene(&mut app);
    let far = Vec3::new(3.4e38, 0.0, 0.0);
    let platform = app
        .world_mut()
        .spawn((
            Kinematic,
            Collider::rectangle(48.0, 8.0),
            Transform::from_translation(far),
            Velocity(Vec2::new(3.0e38, 0.0)),
        ))
        .id();
    tick(&mut app, 60);
    assert_eq!(app.world().get::<Transform>(platform).unwrap().translation, far);
    assert!(app.world().get::<InvalidBody>(platform).is_none(), "still valid");
    assert_healthy(&app, body);
}

#[test]
fn a_path_broken_after_it_ran_is_skipped() {
    let mut app = app();
    let start = Vec3::new(0.0, 60.0, 0.0);
    let lift = app
        .world_mut()
        .spawn((
            Collider::rectangle(20.0, 4.0),
            Transform::from_translation(start),
            PathFollower::new(vec![Vec2::new(0.0, 60.0), Vec2::new(100.0, 60.0)], 50.0, PathMode::Loop),
        ))
        .id();
    tick(&mut app, 10);
    let moved_to = app.world().get::<Transform>(lift).unwrap().translation;
    assert!(moved_to.x > start.x, "the lift runs first: {moved_to}");
    app.world_mut().get_mut::<PathFollower>(lift).unwrap().speed = f32::NAN;
    tick(&mut app, 10);
    assert_invalid(&app, lift, "NaN path speed");
    let stopped_at = app.world().get::<Transform>(lift).unwrap().translation;
    assert!(stopped_at.is_finite(), "no NaN spread to the lift: {stopped_at}");
}

#[test]
fn nan_movement_input_is_ignored() {
    let mut app = app();
    let body = healthy_scene(&mut app);
    input(&mut app, body).horizontal = f32::NAN;
    input(&mut app, body).jump = Some(f32::NAN);
    tick(&mut app, 50);
    assert_healthy(&app, body);
    assert_eq!(aabb(&app, body).min.x, -6.0);
}

#[test]
fn bad_values_given_to_bodies_the_plugin_moves_are_still_caught() {
    // The plugin's own moves are not validated again each step; a game's change after them is.
    let mut app = app();
    let healthy = healthy_scene(&mut app);
    let bodies: Vec<Entity> = (0..4)
        .map(|i| {
            spawn_body(
                &mut app,
                Vec2::new(100.0 + 30.0 * i as f32, 40.0),
                Vec2::splat(10.0),
                CollisionMode::Continuous,
            )
        })
        .collect();
    tick(&mut app, 50);
    // A game system between the stages: the movement pass itself then moves the body by NaN.
    let mid_step = bodies[3];
    app.add_systems(
        FixedUpdate,
        (move |mut velocities: Query<&mut Velocity>| {
            if let Ok(mut v) = velocities.get_mut(mid_step) {
                v.0.x = f32::NAN;
            }
        })
        .in_set(PlatformerSystems::BeforeMovement),
    );
    app.world_mut().get_mut::<Transform>(bodies[0]).unwrap().translation.y = f32::NAN;
    set_velocity(&mut app, bodies[1], Vec2::new(0.0, f32::INFINITY));
    // A teleport of a valid body is mirrored: it lands where it was put.
    app.world_mut().get_mut::<Transform>(bodies[2]).unwrap().translation.x = -300.0;
    tick(&mut app, 50);
    assert_invalid(&app, bodies[0], "NaN position after walking");
    assert_invalid(&app, bodies[1], "infinite velocity after walking");
    assert_invalid(&app, mid_step, "NaN velocity given in the middle of a step");
    let teleported = aabb(&app, bodies[2]);
    assert!(
        (teleported.center().x + 300.0).abs() < EPS && teleported.min.y.abs() < EPS,
        "the teleported body stands at its new place: {teleported:?}"
    );
    assert_healthy(&app, healthy);
}

#[test]
fn a_body_whose_problem_changes_is_marked_with_the_new_one() {
    let mut app = app();
    let healthy = healthy_scene(&mut app);
    let bad = app
        .world_mut()
        .spawn((
            Dynamic,
            Collider::rectangle(0.0, 10.0),
            Transform::from_xyz(0.0, 30.0, 0.0),
        ))
        .id();
    tick(&mut app, 2);
    let reason = |app: &App| app.world().get::<InvalidBody>(bad).expect("marked").reason.clone();
    assert!(reason(&app).contains("greater than zero"), "{}", reason(&app));
    // The size is fixed but the translation goes bad: still invalid, for the new reason.
    app.world_mut().get_mut::<Collider>(bad).unwrap().size = Vec2::new(12.0, 24.0);
    app.world_mut().get_mut::<Transform>(bad).unwrap().translation.x = f32::NAN;
    tick(&mut app, 2);
    assert!(reason(&app).contains("not finite"), "{}", reason(&app));
    tick(&mut app, 50);
    assert_healthy(&app, healthy);
}
