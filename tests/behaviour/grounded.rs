//! `Grounded`: the marker of a body standing on something after the step, inserted and removed by
//! the plugin, in every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn grounded(app: &App, body: Entity) -> bool {
    app.world().get::<Grounded>(body).is_some()
}

#[test]
fn grounded_follows_the_floor_contact_through_a_jump_and_a_landing_on_a_slope() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(400.0, 16.0));
        spawn_slope(&mut app, Vec2::new(100.0, 0.0), Vec2::new(300.0, 100.0));
        let body = spawn_body(&mut app, Vec2::new(0.0, 30.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 1);
        assert!(!grounded(&app, body), "{mode:?}: falling");
        tick(&mut app, 40);
        assert!(grounded(&app, body), "{mode:?}: landed");
        input(&mut app, body).jump = Some(300.0);
        tick(&mut app, 1);
        assert!(!grounded(&app, body), "{mode:?}: jumped");
        // Every step, the marker says what the contacts say.
        walker(&mut app, body, 150.0);
        input(&mut app, body).horizontal = 1.0;
        for step in 0..150 {
            tick(&mut app, 1);
            assert_eq!(
                grounded(&app, body),
                contacts(&app, body).on_floor(),
                "{mode:?} step {step}"
            );
        }
        assert!(grounded(&app, body), "{mode:?}: walking up the slope");
        assert!(aabb(&app, body).min.y > 10.0, "{mode:?}: on the slope");
    }
}

#[test]
fn grounded_bodies_can_be_filtered_in_a_query() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let standing = spawn_body(&mut app, Vec2::ZERO, Vec2::splat(10.0), CollisionMode::Continuous);
    spawn_body(
        &mut app,
        Vec2::new(50.0, 500.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 3);
    let found: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<Grounded>>()
        .iter(app.world())
        .collect();
    assert_eq!(found, vec![standing]);
}

#[test]
fn a_body_walking_without_gravity_onto_a_block_a_hair_lower_steps_down_onto_it() {
    // The second block's top is 0.1 px lower (within the contact tolerance, 0.16 px). A body
    // walking across with no gravity moves level: each step its feet end on what is under them,
    // on the lower top once past the edge, standing on it (whatever sensor it is also in).
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(100.0, 16.0));
        let lower = spawn_box(&mut app, Vec2::new(0.0, -16.1), Vec2::new(200.0, 16.0));
        let sensor = app
            .world_mut()
            .spawn((
                Sensor,
                Collider::rectangle(200.0, 50.0),
                Transform::from_xyz(0.0, 25.0, 0.0),
            ))
            .id();
        let body = spawn_body(&mut app, Vec2::new(-20.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 10);
        assert!(grounded(&app, body), "{mode:?}: landed");
        walker(&mut app, body, 60.0);
        let walking = *app.world().get::<MovementTuning>(body).unwrap();
        set_movement(
            &mut app,
            body,
            MovementTuning {
                gravity_scale: 0.0,
                ..walking
            },
        );
        input(&mut app, body).horizontal = 1.0;
        let mut past = 0;
        for step in 0..80 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            if b.min.x < 0.01 {
                continue;
            }
            past += 1;
            assert!(
                (b.min.y + 0.1).abs() < 1e-4,
                "{mode:?} step {step}: on the lower top, {b:?}"
            );
            assert!(grounded(&app, body), "{mode:?} step {step}");
            let contacts = contacts(&app, body);
            assert_eq!(
                contacts.with(lower).map(|c| c.direction),
                Some(ContactDirection::Down),
                "{mode:?} step {step}: {contacts:?}"
            );
            assert!(
                contacts.with(sensor).is_some_and(|c| c.sensor),
                "{mode:?} step {step}: still in the sensor"
            );
        }
        assert!(past > 20, "{mode:?}: walked past the edge ({past} steps)");
    }
}
