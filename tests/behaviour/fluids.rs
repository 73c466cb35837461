//! Fluid zones (`FluidZone`): a body in one falls with less gravity, is slowed by drag and sinks no
//! faster than the zone allows; it is marked `InFluid` and told when it enters and leaves. In every
//! mode, beside the same pool as a plain sensor, which changes nothing.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const WATER: FluidZone = FluidZone {
    gravity_scale: 0.3,
    drag: 2.0,
    max_fall_speed: 60.0,
};

/// A pool 400 px wide from y = -100 to y = 0 over a floor, a fluid zone or (`water` false) a plain
/// sensor, and a body dropped from 100 px above it.
fn pool(mode: CollisionMode, water: bool) -> (App, Entity, Entity) {
    let mut app = app();
    collect::<EnteredFluid>(&mut app);
    collect::<LeftFluid>(&mut app);
    spawn_box(&mut app, Vec2::new(-200.0, -116.0), Vec2::new(400.0, 16.0));
    let mut zone = app.world_mut().spawn((
        Sensor,
        Collider::rectangle(400.0, 100.0),
        Transform::from_xyz(0.0, -50.0, 0.0),
    ));
    if water {
        zone.insert(WATER);
    }
    let zone = zone.id();
    let body = spawn_body(&mut app, Vec2::new(0.0, 100.0), Vec2::new(12.0, 24.0), mode);
    (app, body, zone)
}

#[test]
fn a_body_falling_into_water_sinks_slowly_and_is_told_when_it_enters_and_leaves() {
    for mode in MODES {
        for water in [true, false] {
            let (mut app, body, zone) = pool(mode, water);
            let mut deepest_speed = 0.0_f32;
            let mut steps_to_floor = None;
            for step in 0..400 {
                tick(&mut app, 1);
                let inside = aabb(&app, body).min.y < -20.0;
                if inside && steps_to_floor.is_none() {
                    deepest_speed = deepest_speed.min(velocity(&app, body).y);
                }
                if steps_to_floor.is_none() && contacts(&app, body).on_floor() {
                    steps_to_floor = Some(step);
                }
            }
            assert!(steps_to_floor.is_some(), "{mode:?} water {water}: reached the floor");
            let entered = collected::<EnteredFluid>(&app);
            if water {
                assert!(
                    deepest_speed >= -WATER.max_fall_speed - EPS,
                    "{mode:?}: sank at {deepest_speed}"
                );
                assert_eq!(
                    entered,
                    vec![EnteredFluid { entity: body, zone }],
                    "{mode:?}: told once"
                );
                assert_eq!(
                    app.world().get::<InFluid>(body),
                    Some(&InFluid(zone)),
                    "{mode:?}: marked"
                );
            } else {
                assert!(
                    deepest_speed < -300.0,
                    "{mode:?}: a plain sensor: fell at {deepest_speed}"
                );
                assert!(
                    entered.is_empty() && app.world().get::<InFluid>(body).is_none(),
                    "{mode:?}"
                );
            }
            // A jump from the pool's floor out of it.
            input(&mut app, body).jump = Some(700.0);
            tick(&mut app, 60);
            let left = collected::<LeftFluid>(&app);
            match water {
                true => assert_eq!(left, vec![LeftFluid { entity: body, zone }], "{mode:?}: told it left"),
                false => assert!(left.is_empty(), "{mode:?}"),
            }
            assert!(
                app.world().get::<InFluid>(body).is_none(),
                "{mode:?} water {water}: unmarked"
            );
        }
    }
}

#[test]
fn a_body_in_water_falls_with_the_zone_s_gravity_and_drag() {
    for mode in MODES {
        let (mut app, body, _) = pool(mode, true);
        // Placed in the middle of the pool at rest; the first step finds the zone in its contacts.
        app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = -50.0;
        tick(&mut app, 2);
        let before = velocity(&app, body).y;
        tick(&mut app, 1);
        let gravity = app.world().resource::<PhysicsConfig>().gravity.y;
        let expected = (before + gravity * WATER.gravity_scale * DT) / (1.0 + WATER.drag * DT);
        assert!(
            (velocity(&app, body).y - expected).abs() < EPS,
            "{mode:?}: {} not {expected}",
            velocity(&app, body).y
        );
    }
}
