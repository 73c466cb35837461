//! Ladders (`Ladder`, `Climber`, `MovementInput::climb`): a climber moves up and down a ladder by
//! input without gravity, stands on its top like a one-way platform, climbs down through it, hangs,
//! jumps or drops off, and stops climbing when it leaves the ladder. In every mode; frame by frame
//! where the rule is about one step.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const CLIMB_SPEED: f32 = 90.0;
/// The ladder: 16 px wide, from the floor (y = 0) to y = 96.
const LADDER_TOP: f32 = 96.0;

/// A floor, a ladder on it at x 40..56, and a climber (12 × 24, walking at 120 px/s) standing on
/// the floor with its centre at `x`.
fn ladder_scene(mode: CollisionMode, x: f32) -> (App, Entity, Entity) {
    ladder_scene_at(mode, x, CLIMB_SPEED)
}

/// The same, climbing at `speed`.
fn ladder_scene_at(mode: CollisionMode, x: f32, speed: f32) -> (App, Entity, Entity) {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(600.0, 16.0));
    let ladder = app
        .world_mut()
        .spawn((
            Ladder,
            Collider::rectangle(16.0, LADDER_TOP),
            Transform::from_xyz(48.0, LADDER_TOP * 0.5, 0.0),
        ))
        .id();
    let body = spawn_body(&mut app, Vec2::new(x, 0.0), Vec2::new(12.0, 24.0), mode);
    walker(&mut app, body, 120.0);
    app.world_mut().entity_mut(body).insert(Climber { speed });
    tick(&mut app, 2);
    (app, body, ladder)
}

fn climbing(app: &App, body: Entity) -> Option<Entity> {
    app.world().get::<ClimbState>(body).unwrap().ladder
}

fn feet(app: &App, body: Entity) -> f32 {
    aabb(app, body).min.y
}

/// Holds climb input `climb` for `steps` steps.
fn hold_climb(app: &mut App, body: Entity, climb: f32, steps: usize) {
    for _ in 0..steps {
        input(app, body).climb = climb;
        tick(app, 1);
    }
}

#[test]
fn a_climber_climbs_to_the_top_at_its_speed_and_stands_there() {
    // At 100 px/s a step ends with the feet exactly on the top; at 90 px/s one passes it.
    for (mode, speed) in MODES.into_iter().flat_map(|m| [(m, CLIMB_SPEED), (m, 100.0)]) {
        let (mut app, body, ladder) = ladder_scene_at(mode, 48.0, speed);
        assert_eq!(climbing(&app, body), None, "{mode:?}: no input, no climb");
        let mut last = feet(&app, body);
        let mut steps = 0;
        while feet(&app, body) < LADDER_TOP - 2.0 && steps < 300 {
            hold_climb(&mut app, body, 1.0, 1);
            steps += 1;
            let now = feet(&app, body);
            assert_eq!(climbing(&app, body), Some(ladder), "{mode:?}: climbing at {now}");
            assert!(
                (now - last - speed * DT).abs() < EPS,
                "{mode:?}: step {steps} rose {} (no gravity, the climb speed)",
                now - last
            );
            last = now;
        }
        // Still holding up: the climb ends at the top and the body stands on it, never sinking
        // back into the ladder once its feet reached the top.
        let mut reached = false;
        for step in 0..30 {
            hold_climb(&mut app, body, 1.0, 1);
            let now = feet(&app, body);
            reached |= now >= LADDER_TOP - EPS;
            assert!(
                !reached || now >= LADDER_TOP - EPS,
                "{mode:?} at {speed} px/s: step {step} sank back to {now}"
            );
            assert!(
                now <= LADDER_TOP + speed * DT + EPS,
                "{mode:?} at {speed} px/s: step {step} hopped past the top to {now}"
            );
        }
        assert_eq!(climbing(&app, body), None, "{mode:?}: the climb ended at the top");
        assert!(
            (feet(&app, body) - LADDER_TOP).abs() < 0.1,
            "{mode:?}: stands on the top, feet at {}",
            feet(&app, body)
        );
        let on = contacts(&app, body);
        assert!(
            on.on_floor() && on.solid_in(ContactDirection::Down).any(|c| c.entity == ladder),
            "{mode:?}: on the ladder's top: {on:?}"
        );
        hold_climb(&mut app, body, 0.0, 50);
        assert!((feet(&app, body) - LADDER_TOP).abs() < 0.1, "{mode:?}: and stays");
    }
}

#[test]
fn a_climber_climbs_down_through_the_top_and_a_walker_does_not() {
    for mode in MODES {
        for climber in [true, false] {
            let (mut app, body, ladder) = ladder_scene(mode, 48.0);
            if !climber {
                app.world_mut().entity_mut(body).remove::<Climber>();
            }
            // Placed on the top.
            app.world_mut().get_mut::<Transform>(body).unwrap().translation.y = LADDER_TOP + 12.0;
            tick(&mut app, 3);
            assert!((feet(&app, body) - LADDER_TOP).abs() < 0.1, "{mode:?}: on the top");
            hold_climb(&mut app, body, -1.0, 200);
            if climber {
                assert!(
                    feet(&app, body).abs() < 0.1,
                    "{mode:?}: down to the floor, at {}",
                    feet(&app, body)
                );
                assert_eq!(climbing(&app, body), Some(ladder), "{mode:?}: still on the ladder");
            } else {
                assert!(
                    (feet(&app, body) - LADDER_TOP).abs() < 0.1,
                    "{mode:?}: without Climber the top holds it, feet at {}",
                    feet(&app, body)
                );
            }
        }
    }
}

#[test]
fn a_climber_hangs_without_input_and_jumps_or_drops_off() {
    for mode in MODES {
        for leave in ["jump", "drop"] {
            let (mut app, body, ladder) = ladder_scene(mode, 48.0);
            hold_climb(&mut app, body, 1.0, 40);
            let hanging = feet(&app, body);
            assert!(hanging > 30.0, "{mode:?}: climbed to {hanging}");
            hold_climb(&mut app, body, 0.0, 50);
            assert_eq!(feet(&app, body), hanging, "{mode:?}: hangs where it stopped");
            assert_eq!(climbing(&app, body), Some(ladder), "{mode:?}");
            match leave {
                "jump" => input(&mut app, body).jump = Some(500.0),
                _ => input(&mut app, body).drop_through = true,
            }
            tick(&mut app, 1);
            assert_eq!(climbing(&app, body), None, "{mode:?} {leave}: off the ladder");
            match leave {
                "jump" => assert_eq!(velocity(&app, body).y, 500.0, "{mode:?}: jumped"),
                _ => assert!(velocity(&app, body).y < 0.0, "{mode:?}: falls"),
            }
            tick(&mut app, 200);
            let at = feet(&app, body);
            match leave {
                // 500 px/s rises 130 px against 960 px/s²: the feet clear the top and land on it.
                "jump" => assert!((at - LADDER_TOP).abs() < 0.1, "{mode:?}: landed on the top: {at}"),
                _ => assert!(at.abs() < 0.1, "{mode:?}: dropped to the floor: {at}"),
            }
        }
    }
}

#[test]
fn walking_off_a_ladder_ends_the_climb_and_the_body_falls() {
    for mode in MODES {
        let (mut app, body, ladder) = ladder_scene(mode, 48.0);
        hold_climb(&mut app, body, 1.0, 40);
        assert_eq!(climbing(&app, body), Some(ladder));
        let mut left_at = None;
        for step in 0..30 {
            input(&mut app, body).horizontal = 1.0;
            input(&mut app, body).climb = 0.0;
            tick(&mut app, 1);
            let centre = aabb(&app, body).center().x;
            if centre <= 56.0 {
                assert_eq!(
                    climbing(&app, body),
                    Some(ladder),
                    "{mode:?}: centre {centre} still over it"
                );
            } else if left_at.is_none() {
                left_at = Some(step);
            }
        }
        assert!(left_at.is_some(), "{mode:?}: walked off");
        assert_eq!(climbing(&app, body), None, "{mode:?}: off the ladder");
        tick(&mut app, 100);
        assert!(feet(&app, body).abs() < 0.1, "{mode:?}: fell to the floor");
    }
}

#[test]
fn a_body_walks_through_a_ladder_and_one_jumping_through_lands_on_its_top() {
    for mode in MODES {
        let (mut app, body, ladder) = ladder_scene(mode, 0.0);
        for _ in 0..60 {
            input(&mut app, body).horizontal = 1.0;
            tick(&mut app, 1);
            assert!(
                feet(&app, body).abs() < 0.1,
                "{mode:?}: walks on the floor through the ladder"
            );
        }
        assert!(aabb(&app, body).min.x > 56.0, "{mode:?}: passed it");
        assert_eq!(climbing(&app, body), None, "{mode:?}: no climb without climb input");
        // From under the ladder, a jump high enough to clear its top comes down on it.
        app.world_mut().get_mut::<Transform>(body).unwrap().translation.x = 48.0;
        input(&mut app, body).horizontal = 0.0;
        tick(&mut app, 1);
        input(&mut app, body).jump = Some(700.0);
        tick(&mut app, 200);
        assert!(
            (feet(&app, body) - LADDER_TOP).abs() < 0.1,
            "{mode:?}: landed on the top: {}",
            feet(&app, body)
        );
        assert!(
            contacts(&app, body)
                .solid_in(ContactDirection::Down)
                .any(|c| c.entity == ladder)
        );
    }
}

#[test]
fn a_ladder_stacked_on_another_is_climbed_past_the_seam() {
    // Where a ladder goes on into the level above, LDtk's levels give two ladders, one on the
    // other's top (`ldtk::the_sample_s_ladder_cells_…` climbs the sample's).
    for mode in MODES {
        // At 100 px/s a step ends with the feet exactly on the seam.
        let (mut app, body, _) = ladder_scene_at(mode, 48.0, 100.0);
        let upper = app
            .world_mut()
            .spawn((
                Ladder,
                Collider::rectangle(16.0, 64.0),
                Transform::from_xyz(48.0, LADDER_TOP + 32.0, 0.0),
            ))
            .id();
        hold_climb(&mut app, body, 1.0, 250);
        assert!(
            (feet(&app, body) - (LADDER_TOP + 64.0)).abs() < 0.1,
            "{mode:?}: on the upper ladder's top, feet at {}",
            feet(&app, body)
        );
        assert!(
            contacts(&app, body)
                .solid_in(ContactDirection::Down)
                .any(|c| c.entity == upper)
        );
        // And back down past the seam (the lower ladder's top) to the floor.
        hold_climb(&mut app, body, -1.0, 250);
        assert!(
            feet(&app, body).abs() < 0.1,
            "{mode:?}: down to the floor, feet at {}",
            feet(&app, body)
        );
    }
}

#[test]
fn a_climber_without_sideways_input_is_drawn_to_the_ladder_s_centre_line() {
    // A ladder in a shaft as wide as it (walls at x < 40 and x > 56 from y = 30 up): a body that
    // starts climbing off-centre must fit it.
    for mode in MODES {
        let (mut app, body, _) = ladder_scene(mode, 53.0);
        spawn_box(&mut app, Vec2::new(0.0, 30.0), Vec2::new(40.0, 200.0));
        spawn_box(&mut app, Vec2::new(56.0, 30.0), Vec2::new(40.0, 200.0));
        tick(&mut app, 1);
        hold_climb(&mut app, body, 1.0, 1);
        let drawn = aabb(&app, body).center().x;
        assert!((48.0..53.0).contains(&drawn), "{mode:?}: drawn toward 48, at {drawn}");
        hold_climb(&mut app, body, 1.0, 200);
        assert_eq!(aabb(&app, body).center().x, 48.0, "{mode:?}: on the centre line");
        assert!(
            (feet(&app, body) - LADDER_TOP).abs() < 0.1,
            "{mode:?}: up the shaft to the top, feet at {}",
            feet(&app, body)
        );
    }
}
