//! The broad phase follows colliders that game code moves, resizes, re-flags or removes.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

#[test]
fn a_teleported_static_floor_is_found_at_its_new_place() {
    let mut app = app();
    let floor = spawn_box(&mut app, Vec2::new(-50.0, -16.0), Vec2::new(100.0, 16.0));
    let body = spawn_body(
        &mut app,
        Vec2::new(500.0, 100.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 1);
    app.world_mut().get_mut::<Transform>(floor).unwrap().translation = Vec3::new(500.0, -8.0, 0.0);
    tick(&mut app, 200);
    assert!(
        aabb(&app, body).min.y.abs() < EPS,
        "landed on the moved floor: {:?}",
        aabb(&app, body)
    );
}

#[test]
fn a_resized_collider_and_a_removed_one_way_marker_take_effect() {
    let mut app = app();
    let floor = spawn_box(&mut app, Vec2::new(-50.0, -16.0), Vec2::new(100.0, 16.0));
    app.world_mut().entity_mut(floor).insert(OneWayPlatform);
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, -40.0),
        Vec2::new(12.0, 12.0),
        CollisionMode::Continuous,
    );
    set_velocity(&mut app, body, Vec2::new(0.0, 400.0));
    tick(&mut app, 1);
    // Rising into a one-way platform from below: passes. Make it solid and taller first.
    app.world_mut().entity_mut(floor).remove::<OneWayPlatform>();
    app.world_mut().get_mut::<Collider>(floor).unwrap().size.y = 40.0;
    tick(&mut app, 1);
    let floor_now = spatial_query(&app).collider(floor, 0).unwrap();
    assert!(!floor_now.one_way);
    assert_eq!(floor_now.aabb.size(), Vec2::new(100.0, 40.0));
    tick(&mut app, 10);
    assert!(
        aabb(&app, body).max.y <= -28.0 + EPS,
        "the now solid, taller block stopped it: {:?}",
        aabb(&app, body)
    );
}

#[test]
fn despawned_colliders_leave_the_broad_phase() {
    let mut app = app();
    let boxes: Vec<Entity> = (0..10)
        .map(|i| spawn_box(&mut app, Vec2::new(i as f32 * 20.0, 0.0), Vec2::splat(16.0)))
        .collect();
    tick(&mut app, 1);
    let everywhere = Aabb::from_min_size(Vec2::splat(-1000.0), Vec2::splat(2000.0));
    let found = |app: &App| {
        spatial_query(app)
            .overlap_area(everywhere, &QueryFilter::default().with_sensors())
            .len()
    };
    assert_eq!(found(&app), 10);
    for e in boxes {
        app.world_mut().despawn(e);
    }
    assert_eq!(found(&app), 0, "gone at once, before the next step");
}

#[test]
fn a_marker_or_layers_given_to_a_floor_in_use_take_effect() {
    let mut app = app();
    let sensor_floor = spawn_box(&mut app, Vec2::new(-50.0, -16.0), Vec2::new(100.0, 16.0));
    let layered_floor = spawn_box(&mut app, Vec2::new(450.0, -16.0), Vec2::new(100.0, 16.0));
    let on_sensor = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 12.0), CollisionMode::Continuous);
    let on_layered = spawn_body(
        &mut app,
        Vec2::new(500.0, 0.0),
        Vec2::new(12.0, 12.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 10);
    for body in [on_sensor, on_layered] {
        assert!(
            aabb(&app, body).min.y.abs() < EPS && contacts(&app, body).on_floor(),
            "stands on its floor first: {:?}",
            aabb(&app, body)
        );
    }
    // Long after both were mirrored into the broad phase, one floor becomes a sensor, the other
    // interacts with nothing any more.
    app.world_mut().entity_mut(sensor_floor).insert(Sensor);
    *app.world_mut().get_mut::<CollisionLayers>(layered_floor).unwrap() = CollisionLayers::new(0, 0);
    tick(&mut app, 1);
    let query = spatial_query(&app);
    assert!(
        query.collider(sensor_floor, 0).unwrap().sensor,
        "the sensor marker reached the broad phase"
    );
    assert_eq!(
        query.collider(layered_floor, 0).unwrap().layers,
        CollisionLayers::new(0, 0)
    );
    tick(&mut app, 40);
    for body in [on_sensor, on_layered] {
        assert!(
            aabb(&app, body).max.y < -16.0,
            "fell through the floor that no longer stops it: {:?}",
            aabb(&app, body)
        );
    }
}
