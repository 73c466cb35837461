//! `Grounded`: the marker of a body standing on something after the step, inserted and removed by
//! the plugin, in every mode.

use crate::common::*;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

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
