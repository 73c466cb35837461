//! Collision layers (checked from both sides) and sensors (contacts and events, no response).

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const PLAYER: u32 = 1 << 0;
const ENEMY: u32 = 1 << 1;
const WORLD: u32 = 1 << 2;

#[test]
fn layers_must_accept_each_other_from_both_sides() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        let player = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        app.world_mut()
            .entity_mut(player)
            .insert(CollisionLayers::new(PLAYER, WORLD | ENEMY));
        // The enemy accepts the player, but the player does not accept... it does (ENEMY in its
        // filters); the ghost is only accepted by one side and must not collide.
        let ghost = spawn_box(&mut app, Vec2::new(30.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut()
            .entity_mut(ghost)
            .insert(CollisionLayers::new(ENEMY, WORLD));
        let wall = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut()
            .entity_mut(wall)
            .insert(CollisionLayers::new(ENEMY, PLAYER));
        input(&mut app, player).horizontal = 1.0;
        tick(&mut app, 150);
        let p = aabb(&app, player);
        assert!(
            (p.max.x - 100.0).abs() < EPS,
            "{mode:?}: passed the one-sided ghost, stopped at the wall: {p:?}"
        );
        assert!(contacts(&app, player).with(ghost).is_none(), "{mode:?}");
    }
}

#[test]
fn sensors_record_contacts_and_send_events_without_stopping_anything() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        let trigger = spawn_box(&mut app, Vec2::new(40.0, 0.0), Vec2::new(20.0, 40.0));
        app.world_mut().entity_mut(trigger).insert(Sensor);
        let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        input(&mut app, body).horizontal = 1.0;
        let mut inside_steps = 0;
        for _ in 0..150 {
            tick(&mut app, 1);
            if let Some(c) = contacts(&app, body).with(trigger) {
                assert!(c.sensor, "{mode:?}");
                inside_steps += 1;
            }
        }
        assert!(aabb(&app, body).min.x > 100.0, "{mode:?}: walked through the sensor");
        assert!(
            inside_steps > 3,
            "{mode:?}: contact while inside ({inside_steps} steps)"
        );
        let started: Vec<_> = collected::<ContactStarted>(&app)
            .into_iter()
            .filter(|e| e.entity == body && e.other == trigger)
            .collect();
        let ended: Vec<_> = collected::<ContactEnded>(&app)
            .into_iter()
            .filter(|e| e.entity == body && e.other == trigger)
            .collect();
        assert_eq!((started.len(), ended.len()), (1, 1), "{mode:?}: one enter, one exit");
        assert_eq!(
            started[0].direction,
            ContactDirection::Right,
            "{mode:?}: entered from the left"
        );
    }
}

#[test]
fn a_fast_body_passing_through_a_small_sensor_in_one_step_still_touches_it() {
    let mut app = app();
    let coin = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(4.0, 4.0));
    app.world_mut().entity_mut(coin).insert(Sensor);
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, -4.0),
        Vec2::new(8.0, 10.0),
        CollisionMode::Continuous,
    );
    set_movement(
        &mut app,
        body,
        MovementTuning {
            gravity_scale: 0.0,
            deceleration: 0.0,
            max_speed: Vec2::splat(20_000.0),
            ..default()
        },
    );
    set_velocity(&mut app, body, Vec2::new(15_000.0, 0.0));
    tick(&mut app, 1);
    assert!(aabb(&app, body).min.x > 104.0, "passed the coin in one step");
    assert!(
        contacts(&app, body)
            .with(coin)
            .is_some_and(|c| c.sensor && c.direction == ContactDirection::Right)
    );
}

#[test]
fn a_sensor_body_falls_through_the_floor_but_reports_it() {
    let mut app = app();
    let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let ghost = spawn_body(
        &mut app,
        Vec2::new(0.0, 10.0),
        Vec2::new(12.0, 12.0),
        CollisionMode::Continuous,
    );
    app.world_mut().entity_mut(ghost).insert(Sensor);
    let mut touched = false;
    for _ in 0..60 {
        tick(&mut app, 1);
        touched |= contacts(&app, ghost).with(floor).is_some_and(|c| c.sensor);
    }
    assert!(aabb(&app, ghost).max.y < -16.0, "fell through");
    assert!(touched);
}

bevy_platformer_physics::physics_layers! {
    /// A game's layers, as an enum.
    enum Layer {
        World,
        Player,
        Enemy,
    }
}

#[test]
fn typed_layers_give_the_same_collisions_as_masks() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        let player = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
        app.world_mut().entity_mut(player).insert(CollisionLayers::from_layers(
            Layer::Player,
            [Layer::World, Layer::Enemy],
        ));
        // Accepted by one side only: passed.
        let ghost = spawn_box(&mut app, Vec2::new(30.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut()
            .entity_mut(ghost)
            .insert(CollisionLayers::from_layers(Layer::Enemy, Layer::World));
        let wall = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut()
            .entity_mut(wall)
            .insert(CollisionLayers::from_layers(Layer::Enemy, Layer::Player));
        input(&mut app, player).horizontal = 1.0;
        tick(&mut app, 150);
        assert!(
            (aabb(&app, player).max.x - 100.0).abs() < EPS,
            "{mode:?}: passed the ghost, stopped at the wall"
        );
        assert_eq!(
            CollisionLayers::from_layers(Layer::Enemy, Layer::Player),
            CollisionLayers::new(0b100, 0b010)
        );
        // A query finds colliders by typed layer too.
        let enemies = app
            .world_mut()
            .run_system_once(|q: SpatialQuery| {
                q.cast_ray_all(
                    Vec2::new(0.0, 50.0),
                    Dir2::X,
                    200.0,
                    &QueryFilter::default().with_mask(Layer::Enemy),
                )
                .len()
            })
            .unwrap();
        assert_eq!(enemies, 2, "{mode:?}: the ghost and the wall are enemies");
    }
}

#[test]
fn a_sensor_slope_is_walked_through_and_fallen_through_but_reported() {
    // A slope rising right from the floor at x = 40 to (104, 32), a sensor (a zone shaped like a
    // ramp: a current, a water slope): a body walking along the floor keeps its feet on the floor
    // through the slope's triangle, touching it while inside; then a body dropped onto it falls
    // through to the floor, and touches it while it lies in it.
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        let ramp = spawn_slope(&mut app, Vec2::new(40.0, 0.0), Vec2::new(104.0, 32.0));
        app.world_mut().entity_mut(ramp).insert(Sensor);
        let walking = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
        walker(&mut app, walking, 120.0);
        input(&mut app, walking).horizontal = 1.0;
        let mut inside = 0;
        for step in 0..150 {
            tick(&mut app, 1);
            let w = aabb(&app, walking);
            assert!(
                w.min.y.abs() < EPS,
                "{mode:?} step {step}: the walker stays on the floor, {w:?}"
            );
            if let Some(c) = contacts(&app, walking).with(ramp) {
                assert!(c.sensor, "{mode:?}");
                // (A step that left it touched it on the way.)
                let left_at_most = w.min.x - 120.0 * DT;
                assert!(
                    w.max.x > 40.0 && left_at_most < 104.0,
                    "{mode:?} step {step}: touched only over it, {w:?}"
                );
                inside += 1;
            }
        }
        assert!(aabb(&app, walking).min.x > 110.0, "{mode:?}: walked through the ramp");
        assert!(inside > 10, "{mode:?}: the walker touched the ramp ({inside} steps)");

        let falling = spawn_body(&mut app, Vec2::new(90.0, 80.0), Vec2::new(12.0, 24.0), mode);
        let mut lying_in = 0;
        for _ in 0..100 {
            tick(&mut app, 1);
            if let Some(c) = contacts(&app, falling).with(ramp) {
                assert!(c.sensor, "{mode:?}");
                lying_in += 1;
            }
        }
        assert!(
            aabb(&app, falling).min.y.abs() < EPS,
            "{mode:?}: fell through onto the floor"
        );
        assert!(
            lying_in > 10,
            "{mode:?}: the faller touches the ramp it lies in ({lying_in} steps)"
        );
        let events = |body: Entity| contact_event_counts(&app, body, ramp);
        assert_eq!(events(walking), (1, 1), "{mode:?}: the walker entered and left once");
        assert_eq!(events(falling), (1, 0), "{mode:?}: the faller entered once and stays");
    }
}

#[test]
fn a_slope_made_a_sensor_lets_the_body_standing_on_it_fall_and_made_solid_again_holds_it() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -116.0), Vec2::new(400.0, 16.0));
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 40.0));
        let body = spawn_body(&mut app, Vec2::new(80.0, 30.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 60);
        let on_slope = aabb(&app, body).min.y;
        assert!(on_slope > 10.0, "{mode:?}: stands on the slope at {on_slope}");
        app.world_mut().entity_mut(slope).insert(Sensor);
        tick(&mut app, 10);
        assert!(
            aabb(&app, body).min.y < on_slope - 5.0,
            "{mode:?}: falls through the sensor"
        );
        // Solid again while the body is under its surface: the body, below, falls on.
        app.world_mut().entity_mut(slope).remove::<Sensor>();
        tick(&mut app, 100);
        assert!(
            (aabb(&app, body).min.y + 100.0).abs() < EPS,
            "{mode:?}: on the floor below"
        );
        // A new body dropped onto it stands on it again.
        let again = spawn_body(&mut app, Vec2::new(40.0, 60.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 60);
        assert!(aabb(&app, again).min.y > 5.0, "{mode:?}: the slope is solid again");
    }
}
