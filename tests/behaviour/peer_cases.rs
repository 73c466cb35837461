//! The hard cases bug reports against other Bevy and Godot character controllers describe, each in
//! every collision mode, each asserting the rule it checks at every step: seams of small boxes and
//! one-way cells, lifts going up and down, one-way lifts, lifts pushing a body that does nothing,
//! walking off a lift that moves the other way, hitting a ceiling or a lift's underside, landing
//! from a great height, falling diagonally into a wall, staying grounded, jumping up through a
//! one-way platform against a wall, and a body as thin as the wall it runs into.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const BODY: Vec2 = Vec2::new(12.0, 24.0);

fn spawn_lift(app: &mut App, size: Vec2, points: Vec<Vec2>, speed: f32, one_way: bool) -> Entity {
    let mut lift = app.world_mut().spawn((
        Collider::rectangle(size.x, size.y),
        Transform::from_translation(points[0].extend(0.0)),
        PathFollower::new(points, speed, PathMode::Once),
    ));
    if one_way {
        lift.insert(OneWayPlatform);
    }
    lift.id()
}

fn feet(app: &App, body: Entity) -> f32 {
    aabb(app, body).min.y
}

#[test]
fn running_across_one_tile_boxes_and_one_way_cells_at_odd_speeds_meets_no_wall_and_never_falls() {
    for mode in MODES {
        for speed in [37.3, 113.7, 241.9, 499.1, 997.3] {
            let mut app = app();
            // 40 boxes of one tile, side by side, then a row of tiles alternating solid and one-way.
            for i in 0..40 {
                spawn_box(&mut app, Vec2::new(i as f32 * 16.0, -16.0), Vec2::splat(16.0));
            }
            let row = "#=".repeat(20);
            app.world_mut().spawn((
                TileGrid::from_rows(&[row.as_str()], 16.0).unwrap(),
                Transform::from_xyz(640.0, -16.0, 0.0),
            ));
            let body = spawn_body(&mut app, Vec2::new(8.0, 0.0), BODY, mode);
            walker(&mut app, body, speed);
            tick(&mut app, 2);
            input(&mut app, body).horizontal = 1.0;
            let mut steps = 0;
            while aabb(&app, body).max.x < 1270.0 {
                tick(&mut app, 1);
                steps += 1;
                let c = contacts(&app, body);
                assert!(
                    !c.on_wall(),
                    "{mode:?} at {speed}: a wall at x {}: {c:?}, feet at {}",
                    aabb(&app, body).min.x,
                    feet(&app, body)
                );
                assert!(
                    c.on_floor(),
                    "{mode:?} at {speed}: no floor at x {}",
                    aabb(&app, body).min.x
                );
                assert!(
                    feet(&app, body).abs() < EPS,
                    "{mode:?} at {speed}: feet at {}",
                    feet(&app, body)
                );
                assert!(steps < 5000, "{mode:?} at {speed}: stalled");
            }
        }
    }
}

#[test]
fn a_rider_stays_flush_on_a_lift_going_down_or_up_at_any_speed() {
    for mode in MODES {
        for speed in [30.0_f32, 240.0, 900.0, -30.0, -240.0, -900.0] {
            let mut app = app();
            let size = Vec2::new(64.0, 8.0);
            let end = Vec2::new(0.0, speed.signum() * 600.0);
            let lift = spawn_lift(&mut app, size, vec![Vec2::ZERO, end], f32::abs(speed), false);
            app.world_mut().get_mut::<PathFollower>(lift).unwrap().wait_left = 0.05;
            let body = spawn_body(&mut app, Vec2::new(0.0, 4.0), BODY, mode);
            // Standing on it before it starts.
            tick(&mut app, 3);
            assert!(contacts(&app, body).on_floor(), "{mode:?}: on the lift");
            for step in 0..60 {
                tick(&mut app, 1);
                let top = physics_box(&app, lift).max.y;
                assert!(
                    (feet(&app, body) - top).abs() < 0.01,
                    "{mode:?} at {speed} px/s, step {step}: feet {} on a top at {top}",
                    feet(&app, body)
                );
                assert!(contacts(&app, body).on_floor(), "{mode:?} at {speed}, step {step}");
            }
        }
    }
}

#[test]
fn a_one_way_lift_rises_through_a_body_under_its_top_and_lifts_the_ones_on_or_above_it() {
    for mode in MODES {
        let mut app = app();
        let size = Vec2::new(48.0, 8.0);
        // A body on a floor, the one-way lift's top already above its feet: the lift rises through it.
        spawn_box(&mut app, Vec2::new(-40.0, -16.0), Vec2::new(80.0, 16.0));
        let under = spawn_body(&mut app, Vec2::ZERO, BODY, mode);
        spawn_lift(
            &mut app,
            size,
            vec![Vec2::new(0.0, 6.0), Vec2::new(0.0, 200.0)],
            120.0,
            true,
        );
        // A body on a ledge the lift comes up through from below: its top reaches the feet and
        // lifts the body.
        spawn_box(&mut app, Vec2::new(160.0, -16.0), Vec2::new(80.0, 16.0));
        let met = spawn_body(&mut app, Vec2::new(200.0, 0.0), BODY, mode);
        let from_below = spawn_lift(
            &mut app,
            size,
            vec![Vec2::new(200.0, -40.0), Vec2::new(200.0, 200.0)],
            120.0,
            true,
        );
        // A body standing on a one-way lift.
        let carrier = spawn_lift(
            &mut app,
            size,
            vec![Vec2::new(400.0, 0.0), Vec2::new(400.0, 200.0)],
            120.0,
            true,
        );
        let rider = spawn_body(&mut app, Vec2::new(400.0, 4.0), BODY, mode);
        tick(&mut app, 1);
        for step in 0..150 {
            tick(&mut app, 1);
            assert!(
                feet(&app, under).abs() < EPS,
                "{mode:?} step {step}: lifted: {}",
                feet(&app, under)
            );
            for (body, lift) in [(rider, carrier), (met, from_below)] {
                let top = physics_box(&app, lift).max.y;
                if top > 0.0 {
                    assert!(
                        (feet(&app, body) - top).abs() < 0.01,
                        "{mode:?} step {step}: off its lift"
                    );
                }
            }
        }
        let (high, met_at) = (feet(&app, rider), feet(&app, met));
        assert!(
            high > 150.0 && met_at > 100.0,
            "{mode:?}: carried up to {high} and {met_at}"
        );
    }
}

#[test]
fn a_lift_driving_into_a_body_that_does_nothing_pushes_or_squishes_it_and_never_passes_through() {
    for mode in MODES {
        for speed in [60.0, 600.0, 1500.0] {
            let mut app = app();
            collect::<Squished>(&mut app);
            spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
            // A wall 100 px on: the body is pushed, then squished against it.
            spawn_box(&mut app, Vec2::new(120.0, 0.0), Vec2::new(16.0, 100.0));
            let size = Vec2::new(32.0, 40.0);
            let lift = spawn_lift(
                &mut app,
                size,
                vec![Vec2::new(-60.0, 21.0), Vec2::new(300.0, 21.0)],
                speed,
                false,
            );
            let body = spawn_body(&mut app, Vec2::ZERO, BODY, mode);
            // Until it is squished (a game then kills it; the lift moves on), it stays ahead of the
            // lift and out of the wall.
            let mut step = 0;
            while collected::<Squished>(&app).is_empty() {
                tick(&mut app, 1);
                step += 1;
                let (lift_box, body_box) = (physics_box(&app, lift), physics_box(&app, body));
                let squished = !collected::<Squished>(&app).is_empty();
                assert!(
                    squished || body_box.min.x >= lift_box.max.x - 0.05,
                    "{mode:?} at {speed}, step {step}: the lift went into the body"
                );
                assert!(
                    body_box.max.x <= 120.0 + 0.05,
                    "{mode:?} at {speed}, step {step}: into the wall"
                );
                assert!(step < 2000, "{mode:?} at {speed}: never squished");
            }
            let squished = collected::<Squished>(&app)[0];
            assert_eq!((squished.entity, squished.by), (body, lift), "{mode:?} at {speed}");
            assert!(
                physics_box(&app, body).max.x > 119.9,
                "{mode:?} at {speed}: flush on the wall"
            );
        }
    }
}

#[test]
fn walking_off_a_lift_that_moves_the_other_way_leaves_it_cleanly() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-400.0, -116.0), Vec2::new(800.0, 16.0));
        let lift = spawn_lift(
            &mut app,
            Vec2::new(64.0, 8.0),
            vec![Vec2::ZERO, Vec2::new(-300.0, 0.0)],
            60.0,
            false,
        );
        let body = spawn_body(&mut app, Vec2::new(0.0, 4.0), BODY, mode);
        walker(&mut app, body, 100.0);
        tick(&mut app, 2);
        input(&mut app, body).horizontal = 1.0;
        let mut on_lift = true;
        let mut x = aabb(&app, body).min.x;
        for step in 0..150 {
            tick(&mut app, 1);
            let now = aabb(&app, body).min.x;
            let dx = now - x;
            x = now;
            // Carried: 100 px/s of its own less the lift's 60; then its own 100, from the step its
            // box left the lift's (its last contact may reach a rounding margin further).
            let carried = (dx - 0.4).abs() < 0.05;
            assert!(
                carried || (dx - 1.0).abs() < 0.05,
                "{mode:?} step {step}: moved {dx} px"
            );
            assert!(on_lift || !carried, "{mode:?} step {step}: carried again after leaving");
            on_lift &= carried;
        }
        assert!(!on_lift, "{mode:?}: it walked off");
        assert!(
            aabb(&app, body).min.x > physics_box(&app, lift).max.x,
            "{mode:?}: past the lift's edge"
        );
        assert!(
            (feet(&app, body) + 100.0).abs() < EPS,
            "{mode:?}: landed on the floor below"
        );
    }
}

#[test]
fn a_jump_into_a_tile_ceiling_or_a_descending_lift_s_underside_falls_back_at_once() {
    for mode in MODES {
        for under_a_lift in [false, true] {
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
            let lift = under_a_lift.then(|| {
                let path = vec![Vec2::new(0.0, 84.0), Vec2::new(0.0, 44.0)];
                spawn_lift(&mut app, Vec2::new(64.0, 8.0), path, 40.0, false)
            });
            if !under_a_lift {
                app.world_mut().spawn((
                    TileGrid::from_rows(&["#####"], 16.0).unwrap(),
                    Transform::from_xyz(-40.0, 64.0, 0.0),
                ));
            }
            let underside = |app: &App| lift.map_or(64.0, |lift| physics_box(app, lift).min.y);
            let body = spawn_body(&mut app, Vec2::ZERO, BODY, mode);
            tick(&mut app, 2);
            input(&mut app, body).jump = Some(600.0);
            let mut hit = None;
            for step in 0..120 {
                tick(&mut app, 1);
                let top = aabb(&app, body).max.y;
                let under = underside(&app);
                assert!(
                    top <= under + 0.05,
                    "{mode:?} lift {under_a_lift} step {step}: into the ceiling"
                );
                if hit.is_none() && contacts(&app, body).on_ceiling() {
                    hit = Some(step);
                } else if hit.is_some() && !contacts(&app, body).on_floor() {
                    assert!(
                        velocity(&app, body).y < 0.0,
                        "{mode:?} lift {under_a_lift} step {step}: stuck up"
                    );
                }
            }
            assert!(hit.is_some(), "{mode:?} lift {under_a_lift}: hit the ceiling");
            assert!(
                feet(&app, body).abs() < EPS,
                "{mode:?} lift {under_a_lift}: back on the floor"
            );
        }
    }
}

#[test]
fn landing_from_a_great_height_never_sinks_into_the_floor_for_a_step() {
    for mode in MODES {
        for on_tiles in [false, true] {
            let mut app = app();
            if on_tiles {
                app.world_mut().spawn((
                    TileGrid::from_rows(&["########"], 16.0).unwrap(),
                    Transform::from_xyz(-64.0, -16.0, 0.0),
                ));
            } else {
                spawn_box(&mut app, Vec2::new(-64.0, -16.0), Vec2::new(128.0, 16.0));
            }
            let body = spawn_body(&mut app, Vec2::new(3.3, 3000.0), BODY, mode);
            let mut landed = false;
            for step in 0..600 {
                tick(&mut app, 1);
                let at = app.world().get::<Transform>(body).unwrap().translation.y - BODY.y * 0.5;
                assert!(at >= -EPS, "{mode:?} tiles {on_tiles} step {step}: sank to {at}");
                landed |= contacts(&app, body).on_floor();
            }
            assert!(
                landed && feet(&app, body).abs() < EPS,
                "{mode:?} tiles {on_tiles}: on the floor"
            );
        }
    }
}

#[test]
fn falling_diagonally_into_a_wall_never_sticks_to_it() {
    for mode in MODES {
        for on_tiles in [false, true] {
            let mut app = app();
            if on_tiles {
                let rows = vec!["#"; 40];
                app.world_mut().spawn((
                    TileGrid::from_rows(&rows, 16.0).unwrap(),
                    Transform::from_xyz(0.0, -320.0, 0.0),
                ));
            } else {
                spawn_box(&mut app, Vec2::new(0.0, -320.0), Vec2::new(16.0, 640.0));
            }
            let body = spawn_body(&mut app, Vec2::new(-40.0, 200.0), BODY, mode);
            walker(&mut app, body, 300.0);
            set_velocity(&mut app, body, Vec2::new(300.0, -100.0));
            input(&mut app, body).horizontal = 1.0;
            let mut y = feet(&app, body);
            // 0.6 s: it is still beside the wall (whose foot is 520 px down).
            for step in 0..60 {
                tick(&mut app, 1);
                let now = feet(&app, body);
                assert!(now < y, "{mode:?} tiles {on_tiles} step {step}: stuck at {now}");
                assert!(
                    aabb(&app, body).max.x <= 0.05,
                    "{mode:?} tiles {on_tiles} step {step}: into the wall"
                );
                y = now;
            }
        }
    }
}

#[test]
fn a_body_is_grounded_every_step_standing_still_and_walking_downhill() {
    for mode in MODES {
        for (rise, label) in [(0.0, "flat"), (0.5, "gradient 1/2"), (1.0, "45°"), (2.0, "gradient 2")] {
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-400.0, -16.0), Vec2::new(800.0, 16.0));
            if rise > 0.0 {
                // Downhill to the right, from (0, 100 · rise) to (100, 0).
                spawn_slope(&mut app, Vec2::new(0.0, 100.0 * rise), Vec2::new(100.0, 0.0));
                spawn_box(&mut app, Vec2::new(-200.0, 100.0 * rise - 16.0), Vec2::new(200.0, 16.0));
            }
            let start = Vec2::new(-20.0, if rise > 0.0 { 100.0 * rise } else { 0.0 });
            let body = spawn_body(&mut app, start, BODY, mode);
            walker(&mut app, body, 120.0);
            tick(&mut app, 3);
            for step in 0..60 {
                tick(&mut app, 1);
                assert!(
                    app.world().get::<Grounded>(body).is_some(),
                    "{mode:?} {label}: standing, step {step}"
                );
            }
            input(&mut app, body).horizontal = 1.0;
            for step in 0..150 {
                tick(&mut app, 1);
                assert!(
                    app.world().get::<Grounded>(body).is_some(),
                    "{mode:?} {label}: walking, step {step}"
                );
            }
            assert!(aabb(&app, body).min.x > 110.0, "{mode:?} {label}: walked down and on");
        }
    }
}

#[test]
fn a_jump_up_through_a_one_way_platform_against_a_wall_lands_on_it() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        spawn_box(&mut app, Vec2::new(0.0, -16.0), Vec2::new(16.0, 300.0));
        let platform = app
            .world_mut()
            .spawn((
                OneWayPlatform,
                Collider::rectangle(64.0, 8.0),
                Transform::from_xyz(-32.0, 44.0, 0.0),
            ))
            .id();
        let body = spawn_body(&mut app, Vec2::new(-7.0, 0.0), BODY, mode);
        walker(&mut app, body, 100.0);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 5);
        assert!(contacts(&app, body).on_wall(), "{mode:?}: pressed against the wall");
        input(&mut app, body).jump = Some(450.0);
        let mut highest = 0.0_f32;
        for _ in 0..150 {
            tick(&mut app, 1);
            highest = highest.max(feet(&app, body));
        }
        assert!(highest > 60.0, "{mode:?}: through the platform, up to {highest}");
        assert!(
            (feet(&app, body) - 48.0).abs() < EPS,
            "{mode:?}: standing on it: {}",
            feet(&app, body)
        );
        assert!(contacts(&app, body).with(platform).is_some(), "{mode:?}");
    }
}

#[test]
fn a_body_as_thin_as_the_wall_it_runs_into_at_high_speed_stops_at_it() {
    for mode in MODES {
        for speed in [500.0, 2000.0, 6000.0] {
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-400.0, -16.0), Vec2::new(1000.0, 16.0));
            spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(2.0, 100.0));
            let body = spawn_body(&mut app, Vec2::new(-300.0, 0.0), Vec2::new(2.0, 24.0), mode);
            walker(&mut app, body, speed);
            tick(&mut app, 2);
            input(&mut app, body).horizontal = 1.0;
            for step in 0..200 {
                tick(&mut app, 1);
                assert!(
                    aabb(&app, body).max.x <= 100.0 + 0.05,
                    "{mode:?} at {speed} px/s, step {step}: through the wall to x {}",
                    aabb(&app, body).min.x
                );
            }
            assert!(contacts(&app, body).on_wall(), "{mode:?} at {speed}: against the wall");
        }
    }
}
