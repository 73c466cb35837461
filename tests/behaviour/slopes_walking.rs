//! Walking on slopes (sections 4–8 and 11–13 of [the physics rules](bevy_platformer_physics::physics_rules)): the worked example, both
//! directions, every gradient, downhill at full speed and over a crest without an airborne step, in
//! every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const BLOCK: f32 = 16.0;

/// The example of *The temporary vertical velocity* in [the physics rules](bevy_platformer_physics::physics_rules): dt 0.01, s 0.5,
/// stored speed 3 blocks/s uphill: the step moves 0.02 right and 0.01 up, the vertical velocity
/// during the step is 1 block/s (up), after it 0, and the horizontal velocity is 3 again.
fn worked_example(mode: CollisionMode, rises_right: bool) {
    let mut app = app();
    let slope = if rises_right {
        spawn_slope(&mut app, Vec2::ZERO, Vec2::new(20.0 * BLOCK, 10.0 * BLOCK))
    } else {
        spawn_slope(&mut app, Vec2::new(-20.0 * BLOCK, 10.0 * BLOCK), Vec2::ZERO)
    };
    let sign = if rises_right { 1.0 } else { -1.0 };
    // Uphill foot at 6 blocks from the low end: feet at 3 blocks.
    let foot_x = sign * 6.0 * BLOCK;
    let body = spawn_body(
        &mut app,
        Vec2::new(foot_x - sign * 0.5 * BLOCK, 3.0 * BLOCK),
        Vec2::splat(BLOCK),
        mode,
    );
    set_movement(
        &mut app,
        body,
        MovementTuning {
            acceleration: 0.0,
            max_speed: Vec2::splat(100.0 * BLOCK),
            ..default()
        },
    );
    input(&mut app, body).horizontal = sign;
    set_velocity(&mut app, body, Vec2::new(sign * 3.0 * BLOCK, 0.0));
    let before = aabb(&app, body);
    tick(&mut app, 1);
    let after = aabb(&app, body);
    let moved = (after.min - before.min) / BLOCK;
    assert!(
        (moved.x - sign * 0.02).abs() < 1e-5,
        "{mode:?} rises_right {rises_right}: dx {} blocks",
        moved.x
    );
    assert!(
        (moved.y - 0.01).abs() < 1e-5,
        "{mode:?} rises_right {rises_right}: dy {} blocks",
        moved.y
    );
    // (The move shows the rules: 3 blocks/s slowed by the factor 2/3 over 0.01 s is 0.02 blocks
    // along x, and following the gradient 1/2 is 1 block/s up during the step.)
    let state = app.world().get::<MovementState>(body).unwrap();
    assert_eq!(state.supporting_slope.map(|s| s.entity), Some(slope));
    let v = velocity(&app, body) / BLOCK;
    assert_eq!(v.y, 0.0, "{mode:?}: vertical velocity after the step");
    assert!(
        (v.x - sign * 3.0).abs() < 1e-5,
        "{mode:?}: horizontal velocity after the step {}",
        v.x
    );
    assert!(
        contacts(&app, body)
            .with(slope)
            .is_some_and(|c| c.direction == ContactDirection::Down && c.depth == 0.0)
    );
}

#[test]
fn worked_example_of_section_8_rising_right() {
    for mode in MODES {
        worked_example(mode, true);
    }
}

#[test]
fn worked_example_of_section_8_rising_left() {
    for mode in MODES {
        worked_example(mode, false);
    }
}

/// Walks `body` with `intent` for at most `steps` steps or until `until` holds; asserts that every
/// step ends supported with the feet on the slope's surface (or on flat ground), no wall, no
/// upward launch.
fn walk_supported(app: &mut App, body: Entity, intent: f32, steps: usize, label: &str, until: impl Fn(&App) -> bool) {
    input(app, body).horizontal = intent;
    for step in 0..steps {
        tick(app, 1);
        let c = contacts(app, body);
        assert!(c.on_floor(), "{label} step {step}: airborne at {:?}", aabb(app, body));
        assert!(
            !c.on_wall(),
            "{label} step {step}: snagged on a wall at {:?}",
            aabb(app, body)
        );
        assert!(
            velocity(app, body).y <= 0.0,
            "{label} step {step}: launched: v {}",
            velocity(app, body)
        );
        if until(app) {
            return;
        }
    }
    panic!("{label}: did not arrive in {steps} steps: {:?}", aabb(app, body));
}

#[test]
fn every_gradient_up_and_down_without_an_airborne_step() {
    for gradient in [0.25, 0.5, 1.0, 2.0, 3.0] {
        for mode in MODES {
            for rises_right in [true, false] {
                let label = format!("{mode:?} s {gradient} rises_right {rises_right}");
                let mut app = app();
                let width = 10.0 * BLOCK;
                let height = width * gradient;
                let sign = if rises_right { 1.0 } else { -1.0 };
                let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(sign * width, height));
                // Ground before the low end, a block after the high end (top join).
                spawn_box(
                    &mut app,
                    Vec2::new(if rises_right { -400.0 } else { 0.0 }, -BLOCK),
                    Vec2::new(400.0, BLOCK),
                );
                let top_min_x = if rises_right { width } else { -width - 400.0 };
                spawn_box(&mut app, Vec2::new(top_min_x, height - BLOCK), Vec2::new(400.0, BLOCK));
                let body = spawn_body(&mut app, Vec2::new(-sign * 40.0, 0.0), Vec2::new(12.0, 24.0), mode);
                walker(&mut app, body, 160.0);
                tick(&mut app, 2);
                let past_top = move |app: &App| sign * aabb(app, body).center().x > width + 40.0;
                walk_supported(&mut app, body, sign, 2000, &format!("{label} up"), past_top);
                assert!(
                    (aabb(&app, body).min.y - height).abs() < 1e-3,
                    "{label}: on the top block"
                );
                let back_home = move |app: &App| sign * aabb(app, body).center().x < -40.0;
                walk_supported(&mut app, body, -sign, 2000, &format!("{label} down"), back_home);
                assert!(aabb(&app, body).min.y.abs() < 1e-3, "{label}: back on the ground");
                let _ = slope;
            }
        }
    }
}

#[test]
fn feet_follow_the_surface_every_step_on_the_way_up_and_down() {
    for mode in MODES {
        let mut app = app();
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(320.0, 160.0));
        let body = spawn_body(&mut app, Vec2::new(40.0, 16.0), Vec2::new(12.0, 24.0), mode);
        // Start exactly on the surface under the right foot (x 46 → 23).
        app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = 23.0 + 12.0;
        walker(&mut app, body, 160.0);
        for (intent, steps) in [(1.0, 120), (-1.0, 100)] {
            input(&mut app, body).horizontal = intent;
            for step in 0..steps {
                tick(&mut app, 1);
                if aabb(&app, body).max.x <= 0.0 {
                    break; // off the low end
                }
                let gap = aabb(&app, body).min.y - surface_under(&app, body, slope);
                assert!(
                    gap.abs() < 1e-3,
                    "{mode:?} intent {intent} step {step}: feet {gap} px off the surface"
                );
            }
        }
    }
}

#[test]
fn walking_down_at_max_speed_never_leaves_the_slope() {
    for mode in MODES {
        for gradient in [0.5, 1.0, 2.0] {
            let mut app = app();
            let width = 40.0 * BLOCK;
            spawn_slope(&mut app, Vec2::new(0.0, width * gradient), Vec2::new(width, 0.0));
            spawn_box(&mut app, Vec2::new(width, -BLOCK), Vec2::new(400.0, BLOCK));
            let body = spawn_body(
                &mut app,
                Vec2::new(10.0, width * gradient - 10.0 * gradient - 0.0),
                Vec2::new(12.0, 24.0),
                mode,
            );
            // Put the feet on the surface under the left (uphill) foot.
            let left = aabb(&app, body).min.x;
            let surface = width * gradient - left * gradient;
            app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = surface + 12.0;
            walker(&mut app, body, 300.0);
            let label = format!("{mode:?} s {gradient}");
            walk_supported(&mut app, body, 1.0, 2000, &label, |app| {
                aabb(app, body).min.x > width + 50.0
            });
        }
    }
}

#[test]
fn walking_over_a_crest_never_leaves_the_ground() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-400.0, -BLOCK), Vec2::new(400.0, BLOCK));
        spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
        spawn_slope(&mut app, Vec2::new(160.0, 80.0), Vec2::new(320.0, 0.0));
        spawn_box(&mut app, Vec2::new(320.0, -BLOCK), Vec2::new(400.0, BLOCK));
        let body = spawn_body(&mut app, Vec2::new(-40.0, 0.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 120.0);
        tick(&mut app, 2);
        let mut highest: f32 = 0.0;
        input(&mut app, body).horizontal = 1.0;
        for step in 0..600 {
            tick(&mut app, 1);
            let c = contacts(&app, body);
            assert!(c.on_floor(), "{mode:?} step {step}: airborne at {:?}", aabb(&app, body));
            highest = highest.max(aabb(&app, body).min.y);
            if aabb(&app, body).min.x > 360.0 {
                break;
            }
        }
        assert!(aabb(&app, body).min.x > 360.0, "{mode:?}: crossed");
        assert!(highest <= 80.0 + 1e-3, "{mode:?}: never above the apex: {highest}");
    }
}
