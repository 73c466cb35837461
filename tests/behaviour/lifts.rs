//! Lifts (kinematic path followers) carry riders by their exact displacement, up, down, sideways
//! and diagonally, in every collision mode; push bodies in their way; squish instead of pushing a
//! body into a solid.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const LIFT: Vec2 = Vec2::new(48.0, 8.0);

fn spawn_lift(app: &mut App, points: Vec<Vec2>, speed: f32) -> Entity {
    let start = points[0];
    app.world_mut()
        .spawn((
            Collider::rectangle(LIFT.x, LIFT.y),
            Transform::from_translation(start.extend(0.0)),
            PathFollower::new(points, speed, PathMode::PingPong).with_wait(0.25),
        ))
        .id()
}

/// A rider standing on the lift's centre.
fn spawn_rider(app: &mut App, lift_center: Vec2, mode: CollisionMode) -> Entity {
    spawn_body(
        app,
        lift_center + Vec2::new(0.0, LIFT.y * 0.5),
        Vec2::new(12.0, 24.0),
        mode,
    )
}

fn ride_for_10_s(points: Vec<Vec2>, mode: CollisionMode) {
    let mut app = app();
    let lift = spawn_lift(&mut app, points.clone(), 60.0);
    let rider = spawn_rider(&mut app, points[0], mode);
    tick(&mut app, 2);
    let offset = aabb(&app, rider).min.x - aabb(&app, lift).min.x;
    for step in 0..1000 {
        tick(&mut app, 1);
        let (r, l) = (aabb(&app, rider), aabb(&app, lift));
        assert!(
            (r.min.y - l.max.y).abs() < 0.01,
            "{mode:?} {points:?} step {step}: feet {} vs lift top {}",
            r.min.y,
            l.max.y
        );
        assert!(
            (r.min.x - l.min.x - offset).abs() < 0.01,
            "{mode:?} {points:?} step {step}: rider slid on the lift ({} vs {offset})",
            r.min.x - l.min.x
        );
        assert!(
            contacts(&app, rider)
                .with(lift)
                .is_some_and(|c| c.direction == ContactDirection::Down),
            "{mode:?} {points:?} step {step}: lost the lift contact"
        );
    }
}

#[test]
fn vertical_lift_carries_its_rider_for_10_s() {
    for mode in MODES {
        ride_for_10_s(vec![Vec2::new(0.0, 0.0), Vec2::new(0.0, 150.0)], mode);
    }
}

#[test]
fn horizontal_lift_carries_its_rider_for_10_s() {
    for mode in MODES {
        ride_for_10_s(vec![Vec2::new(0.0, 0.0), Vec2::new(200.0, 0.0)], mode);
    }
}

#[test]
fn diagonal_lift_carries_its_rider_for_10_s() {
    for mode in MODES {
        ride_for_10_s(
            vec![Vec2::new(0.0, 0.0), Vec2::new(120.0, 90.0), Vec2::new(240.0, 0.0)],
            mode,
        );
    }
}

#[test]
fn fast_falling_lift_keeps_its_rider() {
    // Faster than free fall for the first steps: without carrying, the rider would float off.
    let mut app = app();
    let lift = spawn_lift(&mut app, vec![Vec2::new(0.0, 300.0), Vec2::new(0.0, 0.0)], 400.0);
    // The lift waits a moment at the top, so the rider has landed on it when it starts.
    app.world_mut().get_mut::<PathFollower>(lift).unwrap().wait_left = 0.05;
    let rider = spawn_rider(&mut app, Vec2::new(0.0, 300.0), CollisionMode::Continuous);
    tick(&mut app, 2);
    for step in 0..60 {
        tick(&mut app, 1);
        let (r, l) = (aabb(&app, rider), aabb(&app, lift));
        assert!(
            (r.min.y - l.max.y).abs() < 0.01,
            "step {step}: feet {} lift {}",
            r.min.y,
            l.max.y
        );
    }
}

#[test]
fn rider_walks_on_a_moving_lift() {
    let mut app = app();
    let lift = spawn_lift(&mut app, vec![Vec2::new(0.0, 0.0), Vec2::new(0.0, 100.0)], 50.0);
    let rider = spawn_rider(&mut app, Vec2::new(-12.0, 0.0), CollisionMode::Continuous);
    tick(&mut app, 2);
    input(&mut app, rider).horizontal = 1.0;
    tick(&mut app, 20);
    let (r, l) = (aabb(&app, rider), aabb(&app, lift));
    assert!(r.min.x > -18.0 + 1.0, "walked right: {r:?}");
    assert!((r.min.y - l.max.y).abs() < 0.01, "still on the lift");
}

#[test]
fn rider_squeezed_against_a_ceiling_is_squished_not_pushed_inside() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        let ceiling = spawn_box(&mut app, Vec2::new(-100.0, 60.0), Vec2::new(200.0, 16.0));
        let lift = spawn_lift(&mut app, vec![Vec2::new(0.0, 0.0), Vec2::new(0.0, 200.0)], 60.0);
        let rider = spawn_rider(&mut app, Vec2::ZERO, mode);
        for step in 0..200 {
            tick(&mut app, 1);
            let r = aabb(&app, rider);
            assert!(
                r.max.y <= 60.0 + EPS,
                "{mode:?} step {step}: rider pushed into the ceiling: {r:?}"
            );
        }
        let squished = collected::<Squished>(&app);
        assert!(
            squished
                .iter()
                .any(|s| s.entity == rider && s.by == lift && s.against == ceiling),
            "{mode:?}: no Squished(rider, lift, ceiling) in {squished:?}"
        );
    }
}

#[test]
fn lift_moving_sideways_pushes_a_body_in_its_way() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
        let lift = app
            .world_mut()
            .spawn((
                Collider::rectangle(16.0, 16.0),
                Transform::from_xyz(0.0, 8.0, 0.0),
                PathFollower::new(vec![Vec2::new(0.0, 8.0), Vec2::new(200.0, 8.0)], 100.0, PathMode::Once),
            ))
            .id();
        let body = spawn_body(&mut app, Vec2::new(40.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 150);
        let (b, l) = (aabb(&app, body), aabb(&app, lift));
        assert!(
            (b.min.x - l.max.x).abs() < 0.01,
            "{mode:?}: pushed ahead of the block: {b:?} {l:?}"
        );
        assert!(b.min.y.abs() < 0.01, "{mode:?}: still on the floor");
    }
}

#[test]
fn a_lift_pushes_a_body_through_sensors_and_colliders_on_layers_it_ignores() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
        let sensor = spawn_box(&mut app, Vec2::new(90.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut().entity_mut(sensor).insert(Sensor);
        let other_layer = spawn_box(&mut app, Vec2::new(120.0, 0.0), Vec2::new(16.0, 100.0));
        app.world_mut()
            .entity_mut(other_layer)
            .insert(CollisionLayers::new(0b100, 0b100));
        let pusher = spawn_pusher(
            &mut app,
            Vec2::splat(16.0),
            vec![Vec2::new(0.0, 8.0), Vec2::new(200.0, 8.0)],
            100.0,
        );
        let body = spawn_body(&mut app, Vec2::new(40.0, 0.0), Vec2::new(12.0, 24.0), mode);
        // Layers 0 and 1: the floor and the pusher (on every layer) but not the box on layer 2.
        app.world_mut()
            .entity_mut(body)
            .insert(CollisionLayers::new(0b001, 0b011));
        tick(&mut app, 150);
        let (b, p) = (aabb(&app, body), aabb(&app, pusher));
        assert!(
            (b.min.x - p.max.x).abs() < 0.01 && b.min.x > 136.0,
            "{mode:?}: pushed past both: {b:?} {p:?}"
        );
        assert!(collected::<Squished>(&app).is_empty(), "{mode:?}: never squished");
    }
}

#[test]
fn a_lift_passes_through_bodies_on_layers_it_ignores_and_through_sensor_bodies() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
        let pusher = spawn_pusher(
            &mut app,
            Vec2::splat(16.0),
            vec![Vec2::new(0.0, 8.0), Vec2::new(200.0, 8.0)],
            100.0,
        );
        app.world_mut()
            .entity_mut(pusher)
            .insert(CollisionLayers::new(0b010, 0b010));
        // On layer 0 only: it stands on the floor (every layer) and never meets the lift.
        let other_layer = spawn_body(&mut app, Vec2::new(40.0, 0.0), Vec2::new(12.0, 24.0), mode);
        app.world_mut()
            .entity_mut(other_layer)
            .insert(CollisionLayers::new(0b001, 0b001));
        // An interaction-only body, held where it is (it would fall through the floor).
        let sensor = spawn_body(&mut app, Vec2::new(80.0, 0.0), Vec2::new(12.0, 24.0), mode);
        app.world_mut().entity_mut(sensor).insert(Sensor);
        let mut still = *app.world().get::<MovementTuning>(sensor).unwrap();
        still.gravity_scale = 0.0;
        set_movement(&mut app, sensor, still);
        // A body on every layer, which the lift does push.
        let pushed = spawn_body(&mut app, Vec2::new(120.0, 0.0), Vec2::new(12.0, 24.0), mode);
        let starts = [other_layer, sensor].map(|e| aabb(&app, e));
        tick(&mut app, 200);
        for (entity, start) in [other_layer, sensor].into_iter().zip(starts) {
            assert_eq!(aabb(&app, entity), start, "{mode:?}: passed through, not pushed");
        }
        let (b, p) = (aabb(&app, pushed), aabb(&app, pusher));
        assert!(
            (b.min.x - p.max.x).abs() < 0.01 && b.min.x > 200.0,
            "{mode:?}: pushed: {b:?} {p:?}"
        );
    }
}

#[test]
fn lift_pushing_a_body_into_a_wall_squishes_it() {
    let mut app = app();
    collect::<Squished>(&mut app);
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
    let wall = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(16.0, 100.0));
    let pusher = app
        .world_mut()
        .spawn((
            Collider::rectangle(16.0, 16.0),
            Transform::from_xyz(0.0, 8.0, 0.0),
            PathFollower::new(vec![Vec2::new(0.0, 8.0), Vec2::new(200.0, 8.0)], 100.0, PathMode::Once),
        ))
        .id();
    let body = spawn_body(
        &mut app,
        Vec2::new(40.0, 0.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    for _ in 0..150 {
        tick(&mut app, 1);
        assert!(aabb(&app, body).max.x <= 100.0 + EPS, "never inside the wall");
    }
    let squished = collected::<Squished>(&app);
    assert!(
        squished
            .iter()
            .any(|s| s.entity == body && s.by == pusher && s.against == wall)
    );
}

#[test]
fn a_slow_lift_pushing_a_body_left_into_a_wall_squishes_it_in_the_step_it_presses_it() {
    // Moving left at half a pixel a step, the lift pushes a body that is a quarter of a pixel
    // from a wall: the body is held back against the wall in that very step, and squished.
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        spawn_box(&mut app, Vec2::new(-300.0, -16.0), Vec2::new(600.0, 16.0));
        let wall = spawn_box(&mut app, Vec2::new(-116.0, 0.0), Vec2::new(16.0, 100.0));
        let body = spawn_body(&mut app, Vec2::new(-93.75, 0.0), Vec2::new(12.0, 24.0), mode);
        let start = Vec2::new(-79.75, 8.0);
        let pusher = spawn_pusher(
            &mut app,
            Vec2::splat(16.0),
            vec![start, start - Vec2::new(200.0, 0.0)],
            50.0,
        );
        tick(&mut app, 1);
        assert!(
            (aabb(&app, body).min.x + 100.0).abs() < EPS,
            "{mode:?}: against the wall, {:?}",
            aabb(&app, body)
        );
        let squished = collected::<Squished>(&app);
        assert!(
            squished
                .iter()
                .any(|s| s.entity == body && s.by == pusher && s.against == wall),
            "{mode:?}: squished in the first step: {squished:?}"
        );
    }
}

/// A lift box `size` at `center` following `points` at `speed` px/s, with no wait.
fn spawn_pusher(app: &mut App, size: Vec2, points: Vec<Vec2>, speed: f32) -> Entity {
    app.world_mut()
        .spawn((
            Collider::rectangle(size.x, size.y),
            Transform::from_translation(points[0].extend(0.0)),
            PathFollower::new(points, speed, PathMode::Once),
        ))
        .id()
}

#[test]
fn a_lift_coming_down_on_a_body_standing_on_a_slope_squishes_it_on_the_surface() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(200.0, 100.0));
        let body = spawn_body(&mut app, Vec2::new(100.0, 60.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 30);
        assert!(
            contacts(&app, body).with(slope).is_some(),
            "{mode:?}: stands on the slope"
        );
        // A wide lift comes down through where the body stands.
        let lift = spawn_pusher(
            &mut app,
            Vec2::new(48.0, 8.0),
            vec![Vec2::new(100.0, 120.0), Vec2::new(100.0, -60.0)],
            120.0,
        );
        for step in 0..120 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= surface_under(&app, body, slope) - 0.16,
                "{mode:?} step {step}: pushed under the slope, {b:?}"
            );
        }
        let squished = collected::<Squished>(&app);
        assert!(
            squished
                .iter()
                .any(|s| s.entity == body && s.by == lift && s.against == slope),
            "{mode:?}: no Squished(body, lift, slope) in {squished:?}"
        );
    }
}

#[test]
fn a_lift_never_pushes_a_body_through_a_wall_it_overlaps() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        // A thin wall; a body placed 3 px across its right face; a lift overlapping the body by
        // 10 px, moving left. Pushed out of the lift, the body would go through the wall.
        let wall = spawn_box(&mut app, Vec2::new(0.0, 0.0), Vec2::new(8.0, 64.0));
        let body = spawn_body(&mut app, Vec2::new(11.0, 0.0), Vec2::new(12.0, 24.0), mode);
        let lift = spawn_pusher(
            &mut app,
            Vec2::new(16.0, 40.0),
            vec![Vec2::new(15.0, 24.0), Vec2::new(-100.0, 24.0)],
            60.0,
        );
        for step in 0..40 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.x > 4.0,
                "{mode:?} step {step}: pushed into or through the wall, {b:?}"
            );
        }
        assert!(aabb(&app, body).min.x >= 8.0 - 0.01, "{mode:?}: out of the wall");
        let squished = collected::<Squished>(&app);
        assert!(
            squished
                .iter()
                .any(|s| s.entity == body && s.by == lift && s.against == wall),
            "{mode:?}: no Squished(body, lift, wall) in {squished:?}"
        );
    }
}

#[test]
fn a_lift_pushing_a_body_up_a_slope_under_a_low_ceiling_squishes_it_where_it_stands() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(200.0, 100.0));
        // On the slope (its right foot at x = 106, where the surface is at 53), a ceiling half a
        // pixel over its head: it has no room to climb, walking (it walks uphill into it) or
        // pushed.
        let body = spawn_body(&mut app, Vec2::new(100.0, 53.0), Vec2::new(12.0, 24.0), mode);
        input(&mut app, body).horizontal = 1.0;
        spawn_box(&mut app, Vec2::new(0.0, 77.5), Vec2::new(300.0, 20.0));
        tick(&mut app, 2);
        let feet = aabb(&app, body).min.y;
        assert!(
            (feet - 53.0).abs() < 0.5,
            "{mode:?}: stands on the slope near 53, {feet}"
        );
        let lift = spawn_pusher(
            &mut app,
            Vec2::new(8.0, 16.0),
            vec![Vec2::new(89.0, 66.0), Vec2::new(200.0, 66.0)],
            60.0,
        );
        for step in 0..40 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= surface_under(&app, body, slope) - 0.16,
                "{mode:?} step {step}: under the slope, {b:?}"
            );
            assert!(
                b.max.y <= 77.5 + 0.01,
                "{mode:?} step {step}: climbed into the ceiling, {b:?}"
            );
        }
        let squished = collected::<Squished>(&app);
        assert!(
            squished
                .iter()
                .any(|s| s.entity == body && s.by == lift && s.against == slope),
            "{mode:?}: no Squished(body, lift, slope) in {squished:?}"
        );
    }
}

#[test]
fn a_lift_pushing_a_body_sideways_up_a_slope_lifts_it_onto_the_surface() {
    for mode in MODES {
        let mut app = app();
        collect::<Squished>(&mut app);
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(400.0, 200.0));
        // Feet on the surface (56 under the right foot, x = 112); left alone, it slides down.
        let body = spawn_body(&mut app, Vec2::new(100.0, 56.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 1);
        let start = aabb(&app, body);
        // A tall box, just left of the body, pushes it up the slope faster than it slides down.
        let y = start.center().y;
        spawn_pusher(
            &mut app,
            Vec2::new(16.0, 48.0),
            vec![Vec2::new(start.min.x - 9.0, y), Vec2::new(start.min.x + 51.0, y)],
            80.0,
        );
        let mut highest = start;
        for step in 0..60 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= surface_under(&app, body, slope) - 0.16,
                "{mode:?} step {step}: under the slope, {b:?}"
            );
            if b.min.y > highest.min.y {
                highest = b;
            }
        }
        assert!(
            highest.min.x > start.min.x + 30.0 && highest.min.y > start.min.y + 15.0,
            "{mode:?}: pushed up the slope: {start:?} → {highest:?}"
        );
        // The lift itself lifted it: with room above, it was never held back.
        let squished = collected::<Squished>(&app);
        assert!(squished.is_empty(), "{mode:?}: {squished:?}");
    }
}

#[test]
fn a_lift_pushing_a_body_across_a_slope_on_a_layer_it_ignores_does_not_lift_it() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
        app.world_mut().spawn((
            SlopeSegment::new(Vec2::new(0.0, 0.0), Vec2::new(200.0, 100.0)),
            Transform::default(),
            // A layer that accepts nothing: the body passes through.
            CollisionLayers::new(1 << 5, 0),
        ));
        let body = spawn_body(&mut app, Vec2::new(-20.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 10);
        spawn_pusher(
            &mut app,
            Vec2::new(16.0, 8.0),
            vec![Vec2::new(-60.0, 12.0), Vec2::new(140.0, 12.0)],
            100.0,
        );
        for step in 0..200 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(b.min.y.abs() < 0.2, "{mode:?} step {step}: left the floor: {b:?}");
        }
        assert!(aabb(&app, body).min.x > 100.0, "{mode:?}: pushed along the floor");
    }
}

#[test]
fn a_kinematic_body_without_a_path_moves_by_its_velocity() {
    let mut app = app();
    let platform = app
        .world_mut()
        .spawn((
            Kinematic,
            Collider::rectangle(48.0, 8.0),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(Vec2::new(60.0, -30.0)),
        ))
        .id();
    // 100 steps of 0.01 s.
    tick(&mut app, 100);
    let at = app.world().get::<Transform>(platform).unwrap().translation;
    assert!((at.x - 60.0).abs() < 1e-3 && (at.y + 30.0).abs() < 1e-3, "{at:?}");
}
