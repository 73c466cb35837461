//! The step itself: one fixed step per update, `dt <= 0` does nothing, large `dt` is clamped,
//! frozen bodies are skipped, the stage order is the documented one.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;
use std::time::Duration;

#[derive(Resource, Default)]
struct StepCount(u32);

#[test]
fn one_update_runs_exactly_one_fixed_step() {
    let mut app = app();
    app.init_resource::<StepCount>();
    app.add_systems(FixedUpdate, |mut n: ResMut<StepCount>| n.0 += 1);
    tick(&mut app, 10);
    assert_eq!(app.world().resource::<StepCount>().0, 10);
    assert_eq!(app.world().resource::<PhysicsStepLength>().dt, DT);
}

#[test]
fn the_apps_own_fixed_rate_is_kept() {
    for before_the_plugin in [true, false] {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        if before_the_plugin {
            app.insert_resource(Time::<Fixed>::from_hz(60.0));
        }
        app.add_plugins(PlatformerPhysicsPlugins::default());
        if !before_the_plugin {
            app.insert_resource(Time::<Fixed>::from_hz(60.0));
        }
        app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
        app.update();
        tick(&mut app, 3);
        assert_eq!(
            app.world().resource::<Time<Fixed>>().timestep(),
            Duration::from_secs_f64(1.0 / 60.0)
        );
        let dt = app.world().resource::<PhysicsStepLength>().dt;
        assert!(
            (dt - 1.0 / 60.0).abs() < 1e-6,
            "the step follows the app's clock: dt {dt}"
        );
    }
}

#[test]
fn the_plugin_sets_the_fixed_rate_only_when_asked() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
    assert_eq!(
        app.world().resource::<Time<Fixed>>().timestep(),
        Time::<Fixed>::default().timestep(),
        "Bevy's default rate"
    );
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(120.0)));
    assert_eq!(
        app.world().resource::<Time<Fixed>>().timestep(),
        Duration::from_secs_f64(1.0 / 120.0)
    );
}

#[test]
fn free_fall_follows_semi_implicit_euler() {
    let mut app = app();
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 1000.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 3);
    // v1 = -9.6, v2 = -19.2, v3 = -28.8 px/s; y = sum(v) * dt.
    let fallen = 1000.0 - aabb(&app, body).min.y;
    assert!((fallen - 0.576).abs() < 1e-3, "fell {fallen}, expected 0.576");
    assert!((velocity(&app, body).y + 28.8).abs() < 1e-3);
}

#[test]
fn zero_dt_does_nothing() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::new(Update)));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 100.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    set_velocity(&mut app, body, Vec2::new(50.0, 0.0));
    tick(&mut app, 5);
    assert_eq!(aabb(&app, body).min, Vec2::new(-5.0, 100.0), "nothing moved");
    assert_eq!(velocity(&app, body), Vec2::new(50.0, 0.0), "no gravity either");
}

#[test]
fn a_long_pause_is_clamped_to_max_dt() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::new(Update)));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(100)));
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 1000.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 1);
    let (y0, v0) = (aabb(&app, body).min.y, velocity(&app, body).y);
    // Three 100 ms frames.
    tick(&mut app, 3);
    let max_dt = app.world().resource::<PhysicsConfig>().max_dt;
    let dt = app.world().resource::<PhysicsStepLength>().dt;
    assert_eq!(dt, max_dt, "a 100 ms frame is simulated as max_dt");
    // Three steps of 1/30 s of free fall (g = 960 px/s², 32 px/s per step): the velocity after
    // each is v0 − 32, v0 − 64, v0 − 96, and the body falls their sum times 1/30 s.
    let fallen = y0 - aabb(&app, body).min.y;
    let expected = -(3.0 * v0 - 192.0) / 30.0;
    assert!(
        (fallen - expected).abs() < 1e-3,
        "fell {fallen} px, not {expected} as three steps of max_dt"
    );
    assert!((velocity(&app, body).y - (v0 - 96.0)).abs() < 1e-3);
}

#[test]
fn frozen_bodies_are_skipped_but_still_collide() {
    let mut app = app();
    let frozen = spawn_body(
        &mut app,
        Vec2::new(0.0, 50.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    app.world_mut().entity_mut(frozen).insert(Frozen);
    let faller = spawn_body(
        &mut app,
        Vec2::new(0.0, 100.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 100);
    assert_eq!(aabb(&app, frozen).min.y, 50.0, "frozen body did not fall");
    assert_eq!(velocity(&app, frozen), Vec2::ZERO);
    assert!(
        (aabb(&app, faller).min.y - 60.0).abs() < EPS,
        "landed on the frozen body: {:?}",
        aabb(&app, faller)
    );
    app.world_mut().entity_mut(frozen).remove::<Frozen>();
    tick(&mut app, 5);
    assert!(aabb(&app, frozen).min.y < 50.0, "falls once unfrozen");
}

/// What a system sees in each hook set: `(velocity.y, bottom y)` of the body.
#[derive(Resource, Default)]
struct Seen {
    before_movement: Vec<(f32, f32)>,
    after_movement: Vec<(f32, f32)>,
}

#[test]
fn the_hook_sets_see_velocities_integrated_before_the_move_and_bodies_moved_after_it() {
    let mut app = app();
    app.init_resource::<Seen>();
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 100.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    let look = |body: Entity| {
        move |bodies: Query<(&Velocity, &Transform)>| {
            let (velocity, transform) = bodies.get(body).unwrap();
            (velocity.0.y, transform.translation.y - 5.0)
        }
    };
    app.add_systems(
        FixedUpdate,
        (
            look(body)
                .pipe(|seen: In<(f32, f32)>, mut log: ResMut<Seen>| log.before_movement.push(*seen))
                .in_set(PlatformerSystems::BeforeMovement),
            look(body)
                .pipe(|seen: In<(f32, f32)>, mut log: ResMut<Seen>| log.after_movement.push(*seen))
                .in_set(PlatformerSystems::AfterMovement),
        ),
    );
    tick(&mut app, 2);
    let seen = app.world().resource::<Seen>();
    let gravity = app.world().resource::<PhysicsConfig>().gravity.y;
    // Step 1: the velocity is integrated (one step of gravity) while the body is still at rest.
    assert_eq!(seen.before_movement[0], (gravity * DT, 100.0));
    // Then it has moved by that velocity.
    assert!(
        (seen.after_movement[0].1 - (100.0 + gravity * DT * DT)).abs() < EPS,
        "{:?}",
        seen.after_movement
    );
    // Step 2 starts where step 1 ended.
    assert_eq!(seen.before_movement[1].1, seen.after_movement[0].1);
    assert_eq!(seen.before_movement[1].0, 2.0 * gravity * DT);
}

#[derive(Resource, Default)]
struct Ran {
    sync: u32,
    step: u32,
}

#[test]
fn a_step_of_no_length_syncs_colliders_but_runs_nothing_inside_the_step_set() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::new(Update)));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app.init_resource::<Ran>();
    app.add_systems(
        Update,
        (
            (|mut ran: ResMut<Ran>| ran.sync += 1).in_set(PlatformerSystems::SyncColliders),
            (|mut ran: ResMut<Ran>| ran.step += 1).in_set(PlatformerSystems::Step),
            (|mut ran: ResMut<Ran>| ran.step += 1).in_set(PlatformerSystems::AfterMovement),
        ),
    );
    tick(&mut app, 3);
    assert_eq!(
        (app.world().resource::<Ran>().sync, app.world().resource::<Ran>().step),
        (3, 0)
    );
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(10)));
    tick(&mut app, 2);
    assert_eq!(
        (app.world().resource::<Ran>().sync, app.world().resource::<Ran>().step),
        (5, 4)
    );
}
