//! Fast bodies in steep V-valleys: the downhill speed factor (1 + gradient) makes the real move
//! several times longer than the velocity says, and the slope it reaches must still catch the
//! body, in every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use platformer_tests::physics::*;

/// Fails if `body` ends more than the contact tolerance below a slope it overlaps in x.
fn assert_not_below(app: &App, body: Entity, slopes: &[Entity], label: &str) {
    let tolerance = app.world().resource::<PhysicsConfig>().contact_tolerance();
    let feet = aabb(app, body);
    for &slope in slopes {
        let shape = app.world().get::<SlopeSegment>(slope).unwrap().shape(Vec2::ZERO);
        if shape.overlaps_x(&feet) {
            let surface = shape.surface_y(&feet);
            assert!(
                feet.min.y >= surface - tolerance,
                "{label}: feet at {} under the slope surface {surface} (body {feet:?})",
                feet.min.y
            );
        }
    }
}

/// The valley of the report: two slopes of gradient `gradient` meeting at the origin, a floor far
/// below, a 12 × 24 body on the left slope running right at 300 px/s from the first step.
fn valley(mode: CollisionMode, gradient: f32, start_x: f32) -> (App, Entity, [Entity; 2]) {
    let mut app = app();
    let left = spawn_slope(&mut app, Vec2::new(-160.0, 160.0 * gradient), Vec2::ZERO);
    let right = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 160.0 * gradient));
    spawn_box(&mut app, Vec2::new(-400.0, -2000.0), Vec2::new(800.0, 16.0));
    // Feet on the left slope's surface under the body's uphill (left) foot.
    let feet_y = -(start_x - 6.0) * gradient;
    let body = spawn_body(&mut app, Vec2::new(start_x, feet_y), Vec2::new(12.0, 24.0), mode);
    walker(&mut app, body, 300.0);
    set_velocity(&mut app, body, Vec2::new(300.0, 0.0));
    input(&mut app, body).horizontal = 1.0;
    (app, body, [left, right])
}

#[test]
fn a_fast_body_never_falls_through_a_steep_v_valley() {
    for mode in MODES {
        // The reported case: gradient 3, feet at (-11, 51).
        let (mut app, body, slopes) = valley(mode, 3.0, -11.0);
        for step in 0..200 {
            tick(&mut app, 1);
            assert_not_below(&app, body, &slopes, &format!("{mode:?} step {step}"));
        }
        assert!(
            aabb(&app, body).min.y > -16.0,
            "{mode:?}: the body is still in the valley"
        );
    }
}

#[test]
fn every_steep_valley_holds_a_body_arriving_at_full_speed() {
    for mode in MODES {
        for gradient in [1.0, 2.0, 3.0, 4.0] {
            for start_x in [-40.0, -23.5, -17.0, -11.0, -8.25] {
                let (mut app, body, slopes) = valley(mode, gradient, start_x);
                for step in 0..150 {
                    tick(&mut app, 1);
                    let label = format!("{mode:?} gradient {gradient} start {start_x} step {step}");
                    assert_not_below(&app, body, &slopes, &label);
                }
            }
        }
    }
}
