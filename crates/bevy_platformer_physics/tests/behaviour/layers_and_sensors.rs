//! Collision layers (checked from both sides) and sensors (contacts and events, no response).

use crate::common::*;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

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
        Movement {
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
