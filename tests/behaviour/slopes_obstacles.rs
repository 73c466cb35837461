//! Slopes meeting other geometry (sections 9, 10, 12 and 15 of [the physics rules](bevy_platformer_physics::physics_rules)): the top
//! join, walls met while climbing and descending, a ceiling over a climb, a one-way platform above
//! a slope, a trigger on a slope, and the slope's bounding rect that is never solid. In every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const BLOCK: f32 = 16.0;

/// Ground, a slope rising right from (0, 0) to (160, 80), and whatever `extra` adds.
fn ramp(mode: CollisionMode) -> (App, Entity, Entity) {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-400.0, -BLOCK), Vec2::new(400.0, BLOCK));
    let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
    let body = spawn_body(&mut app, Vec2::new(-40.0, 0.0), Vec2::new(12.0, 24.0), mode);
    walker(&mut app, body, 160.0);
    tick(&mut app, 2);
    (app, slope, body)
}

#[test]
fn a_block_higher_than_the_top_is_a_wall() {
    for mode in MODES {
        let (mut app, slope, body) = ramp(mode);
        // Its top is a block above the slope's top: no join, a step up.
        let wall = spawn_box(&mut app, Vec2::new(160.0, 0.0), Vec2::new(64.0, 88.0));
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 200);
        let b = aabb(&app, body);
        assert!((b.max.x - 160.0).abs() < 1e-3, "{mode:?}: stopped by the wall: {b:?}");
        assert!(
            (b.min.y - surface_under(&app, body, slope)).abs() < 1e-3,
            "{mode:?}: feet on the slope"
        );
        assert!(
            contacts(&app, body)
                .with(wall)
                .is_some_and(|c| c.direction == ContactDirection::Right),
            "{mode:?}"
        );
    }
}

#[test]
fn walls_met_while_climbing_and_descending_keep_the_feet_on_the_surface() {
    for mode in MODES {
        let (mut app, slope, body) = ramp(mode);
        // A wall standing on the slope at x 100 (surface 50 there).
        let wall = spawn_box(&mut app, Vec2::new(100.0, 40.0), Vec2::new(8.0, 100.0));
        input(&mut app, body).horizontal = 1.0;
        for step in 0..150 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(b.max.x <= 100.0 + 1e-3, "{mode:?} step {step}: into the wall {b:?}");
            if b.max.x > 1.0 {
                let gap = b.min.y - surface_under(&app, body, slope);
                assert!(
                    gap.abs() < 1e-3,
                    "{mode:?} step {step}: feet {gap} px off the surface (float or sink)"
                );
            }
        }
        assert!(
            (aabb(&app, body).max.x - 100.0).abs() < 1e-3,
            "{mode:?}: flush with the wall"
        );
        assert!(contacts(&app, body).with(wall).is_some(), "{mode:?}");
        assert!(
            contacts(&app, body).with(slope).is_some(),
            "{mode:?}: still standing on the slope"
        );

        // Now from the top side: descend into a wall standing lower on the slope.
        let mut app2 = platformer_tests::physics::app();
        let slope2 = spawn_slope(&mut app2, Vec2::ZERO, Vec2::new(160.0, 80.0));
        spawn_box(&mut app2, Vec2::new(160.0, 64.0), Vec2::new(200.0, BLOCK));
        spawn_box(&mut app2, Vec2::new(52.0, 20.0), Vec2::new(8.0, 100.0));
        let body2 = spawn_body(&mut app2, Vec2::new(200.0, 80.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app2, body2, 160.0);
        tick(&mut app2, 2);
        input(&mut app2, body2).horizontal = -1.0;
        for step in 0..200 {
            tick(&mut app2, 1);
            let b = aabb(&app2, body2);
            assert!(
                b.min.x >= 60.0 - 1e-3,
                "{mode:?} step {step}: into the lower wall {b:?}"
            );
            if b.min.x < 160.0 {
                let gap = b.min.y - surface_under(&app2, body2, slope2);
                assert!(
                    gap.abs() < 1e-3,
                    "{mode:?} step {step}: descending feet {gap} off the surface"
                );
            }
        }
        assert!(
            (aabb(&app2, body2).min.x - 60.0).abs() < 1e-3,
            "{mode:?}: flush with the lower wall"
        );
    }
}

#[test]
fn a_ceiling_over_a_climb_blocks_it_without_entering_the_ceiling_or_the_slope() {
    for mode in MODES {
        let (mut app, slope, body) = ramp(mode);
        // A ceiling whose underside is at 60: a 24 px body fits until its feet reach 36 (x 72).
        let ceiling = spawn_box(&mut app, Vec2::new(40.0, 60.0), Vec2::new(200.0, BLOCK));
        input(&mut app, body).horizontal = 1.0;
        for step in 0..200 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.max.y <= 60.0 + 1e-3,
                "{mode:?} step {step}: head in the ceiling {b:?}"
            );
            if b.max.x > 0.0 {
                assert!(
                    b.min.y >= surface_under(&app, body, slope) - 1e-3,
                    "{mode:?} step {step}: feet in the slope {b:?}"
                );
            }
        }
        let b = aabb(&app, body);
        assert!(
            b.max.y > 60.0 - 2.0,
            "{mode:?}: climbed until the head met the ceiling: {b:?}"
        );
        // Blocked: it stands still on the slope, under the ceiling, still pushing uphill.
        assert_eq!(velocity(&app, body), Vec2::ZERO, "{mode:?}: the blocked climb stops it");
        assert!(
            contacts(&app, body)
                .with(slope)
                .is_some_and(|c| c.direction == ContactDirection::Down),
            "{mode:?}: on the slope"
        );
        assert!(
            aabb(&app, body).max.y <= ceiling_bottom(&app, ceiling) + 1e-3,
            "{mode:?}: under the ceiling"
        );
    }
}

/// The height of the bottom face of the box `ceiling`.
fn ceiling_bottom(app: &App, ceiling: Entity) -> f32 {
    aabb(app, ceiling).min.y
}

#[test]
fn the_top_join_block_never_catches_the_diagonal_move() {
    for mode in MODES {
        for gradient in [0.25, 0.5, 1.0, 2.0] {
            // Several start offsets, so the uphill foot reaches the high end at every phase of a step.
            for offset in 0..8 {
                let label = format!("{mode:?} s {gradient} offset {offset}");
                let mut app = app();
                let height = 160.0 * gradient;
                spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, height));
                let top = spawn_box(&mut app, Vec2::new(160.0, height - BLOCK), Vec2::new(200.0, BLOCK));
                spawn_box(&mut app, Vec2::new(-200.0, -BLOCK), Vec2::new(200.0, BLOCK));
                let body = spawn_body(
                    &mut app,
                    Vec2::new(-20.0 - offset as f32 * 0.2, 0.0),
                    Vec2::new(12.0, 24.0),
                    mode,
                );
                walker(&mut app, body, 160.0);
                tick(&mut app, 2);
                input(&mut app, body).horizontal = 1.0;
                let mut previous_x = aabb(&app, body).min.x;
                for step in 0..400 {
                    tick(&mut app, 1);
                    let b = aabb(&app, body);
                    assert!(b.min.x > previous_x, "{label} step {step}: stopped at {b:?}");
                    assert!(
                        !contacts(&app, body).on_wall(),
                        "{label} step {step}: caught the corner"
                    );
                    previous_x = b.min.x;
                    if b.min.x > 200.0 {
                        break;
                    }
                }
                assert!(
                    contacts(&app, body).with(top).is_some(),
                    "{label}: standing on the top block"
                );
                assert!((aabb(&app, body).min.y - height).abs() < 1e-3, "{label}");
            }
        }
    }
}

#[test]
fn a_one_way_platform_above_a_slope_wins_and_drop_through_lands_on_the_slope() {
    for mode in MODES {
        let mut app = app();
        // A slope descending to the right under a one-way platform at height 60.
        let slope = spawn_slope(&mut app, Vec2::new(0.0, 80.0), Vec2::new(160.0, 0.0));
        let platform = spawn_box(&mut app, Vec2::new(20.0, 52.0), Vec2::new(140.0, 8.0));
        app.world_mut().entity_mut(platform).insert(OneWayPlatform);
        spawn_box(&mut app, Vec2::new(-200.0, 64.0), Vec2::new(200.0, BLOCK));
        let body = spawn_body(&mut app, Vec2::new(-30.0, 80.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 120.0);
        tick(&mut app, 2);
        input(&mut app, body).horizontal = 1.0;
        // Down the slope until the feet reach the platform's height, then along the platform.
        let mut on_platform = 0;
        for step in 0..120 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= 60.0 - 1e-3,
                "{mode:?} step {step}: went below the platform {b:?}"
            );
            if contacts(&app, body).with(platform).is_some() {
                on_platform += 1;
                assert!(
                    contacts(&app, body).with(slope).is_none(),
                    "{mode:?}: the platform wins over the slope"
                );
            }
        }
        assert!(
            on_platform > 20,
            "{mode:?}: walked along the platform ({on_platform} steps)"
        );
        input(&mut app, body).horizontal = 0.0;
        input(&mut app, body).drop_through = true;
        tick(&mut app, 60);
        let b = aabb(&app, body);
        assert!(b.min.y < 52.0, "{mode:?}: dropped through: {b:?}");
        assert!(
            contacts(&app, body).with(slope).is_some(),
            "{mode:?}: landed on the slope: {b:?}"
        );
    }
}

#[test]
fn a_trigger_on_a_slope_is_reported_and_changes_nothing() {
    for mode in MODES {
        let trajectory = |with_trigger: bool| {
            let (mut app, _, body) = ramp(mode);
            let trigger = spawn_box(&mut app, Vec2::new(60.0, 30.0), Vec2::new(20.0, 20.0));
            app.world_mut().entity_mut(trigger).insert(Sensor);
            if !with_trigger {
                app.world_mut().entity_mut(trigger).despawn();
            }
            input(&mut app, body).horizontal = 1.0;
            let mut touched = false;
            let mut path = Vec::new();
            for _ in 0..100 {
                tick(&mut app, 1);
                path.push(aabb(&app, body).min);
                touched |= with_trigger && contacts(&app, body).with(trigger).is_some_and(|c| c.sensor);
            }
            (path, touched)
        };
        let (with, touched) = trajectory(true);
        let (without, _) = trajectory(false);
        assert!(touched, "{mode:?}: the trigger saw the body");
        assert_eq!(with, without, "{mode:?}: the trigger changed the walk");
    }
}

#[test]
fn the_slope_bounding_rect_is_not_solid() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-400.0, -BLOCK), Vec2::new(800.0, BLOCK));
        // A slope hanging in the air: rises right from (0, 40) to (160, 120).
        spawn_slope(&mut app, Vec2::new(0.0, 40.0), Vec2::new(160.0, 120.0));
        // Walk on the ground under it, through its vertical side at x 160.
        let body = spawn_body(&mut app, Vec2::new(250.0, 0.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 160.0);
        input(&mut app, body).horizontal = -1.0;
        tick(&mut app, 200);
        assert!(
            aabb(&app, body).max.x < -10.0,
            "{mode:?}: walked under the slope: {:?}",
            aabb(&app, body)
        );
        // Jump up through it from below: not caught on the way up, lands on it on the way down.
        let mut app = platformer_tests::physics::app();
        spawn_box(&mut app, Vec2::new(-400.0, -BLOCK), Vec2::new(800.0, BLOCK));
        let slope = spawn_slope(&mut app, Vec2::new(0.0, 40.0), Vec2::new(160.0, 120.0));
        let body = spawn_body(&mut app, Vec2::new(60.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 2);
        input(&mut app, body).jump = Some(500.0);
        tick(&mut app, 150);
        assert!(
            contacts(&app, body).with(slope).is_some(),
            "{mode:?}: jumped through and landed on it: {:?}",
            aabb(&app, body)
        );
        assert!((aabb(&app, body).min.y - surface_under(&app, body, slope)).abs() < 1e-3);
    }
}

#[test]
fn a_body_pressed_into_a_wall_where_two_slopes_cross_stays_on_the_higher_one() {
    for mode in MODES {
        let mut app = app();
        // Two steep slopes crossing like an X, and a wall whose face is 8 px right of where they
        // cross. The body stands on the one falling right, against the wall; walking into the
        // wall, the plan aims for the rising one, which is higher where it meant to go and lower
        // where the wall stops it.
        let falling = spawn_slope(&mut app, Vec2::new(0.0, 97.0), Vec2::new(22.0, 32.0));
        spawn_slope(&mut app, Vec2::new(1.0, 0.0), Vec2::new(56.0, 152.0));
        spawn_box(&mut app, Vec2::new(21.0, -100.0), Vec2::new(40.0, 400.0));
        let body = spawn_body(&mut app, Vec2::new(17.0, 59.0), Vec2::new(8.0, 22.0), mode);
        walker(&mut app, body, 300.0);
        tick(&mut app, 20);
        assert!(
            contacts(&app, body).with(falling).is_some(),
            "{mode:?}: stands on the falling slope"
        );
        input(&mut app, body).horizontal = 1.0;
        for step in 0..60 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= surface_under(&app, body, falling) - 0.16,
                "{mode:?} step {step}: sank under the slope it stood on, {b:?}"
            );
        }
    }
}
