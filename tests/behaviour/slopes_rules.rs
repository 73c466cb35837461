//! Slope rules that are easy to break quietly: filters on slopes, the unclipped downhill speed, the
//! factor removed by division (a wall's reduction kept), and contact events sent once.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

#[test]
fn a_slope_the_body_does_not_collide_with_does_not_support_it() {
    for mode in MODES {
        let mut app = app();
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(160.0, 80.0));
        app.world_mut()
            .entity_mut(slope)
            .insert(CollisionLayers::new(0b10, 0b10));
        let body = spawn_body(&mut app, Vec2::new(80.0, 60.0), Vec2::new(12.0, 24.0), mode);
        app.world_mut()
            .entity_mut(body)
            .insert(CollisionLayers::new(0b01, 0b01));
        tick(&mut app, 100);
        assert!(
            aabb(&app, body).min.y < 0.0,
            "{mode:?}: fell through the filtered slope"
        );
        assert!(contacts(&app, body).with(slope).is_none());
    }
}

#[test]
fn downhill_speed_is_not_clipped_during_the_step() {
    for mode in MODES {
        let mut app = app();
        let gradient = 0.5;
        spawn_slope(&mut app, Vec2::new(0.0, 320.0), Vec2::new(640.0, 0.0));
        let body = spawn_body(&mut app, Vec2::new(100.0, 400.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        tick(&mut app, 100);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 5);
        for step in 0..50 {
            let before = aabb(&app, body).min.x;
            tick(&mut app, 1);
            let dx = aabb(&app, body).min.x - before;
            assert!(
                (dx - 100.0 * (1.0 + gradient) * DT).abs() < 1e-3,
                "{mode:?} step {step}: dx {dx}"
            );
            assert_eq!(
                velocity(&app, body).x,
                100.0,
                "{mode:?}: the stored speed is the max speed"
            );
        }
    }
}

#[test]
fn a_wall_reduction_survives_the_factor_removal() {
    for mode in MODES {
        let mut app = app();
        spawn_slope(&mut app, Vec2::ZERO, Vec2::new(320.0, 160.0));
        spawn_box(&mut app, Vec2::new(100.0, 40.0), Vec2::new(8.0, 100.0));
        let body = spawn_body(&mut app, Vec2::new(70.0, 40.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        tick(&mut app, 30);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 100);
        assert!((aabb(&app, body).max.x - 100.0).abs() < 1e-3, "{mode:?}: at the wall");
        assert_eq!(
            velocity(&app, body),
            Vec2::ZERO,
            "{mode:?}: the wall's stop is kept, not restored"
        );
    }
}

#[test]
fn walking_along_a_slope_starts_its_contact_once_and_ends_it_once() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactStarted>(&mut app);
        collect::<ContactEnded>(&mut app);
        let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(320.0, 160.0));
        let body = spawn_body(&mut app, Vec2::new(60.0, 40.0), Vec2::new(12.0, 24.0), mode);
        walker(&mut app, body, 100.0);
        input(&mut app, body).horizontal = 1.0;
        tick(&mut app, 150);
        let started: Vec<_> = collected::<ContactStarted>(&app)
            .into_iter()
            .filter(|e| e.other == slope || e.entity == slope)
            .collect();
        assert_eq!(started.len(), 2, "{mode:?}: once per side: {started:?}");
        assert!(
            started
                .iter()
                .any(|e| e.entity == body && e.direction == ContactDirection::Down)
        );
        assert!(
            started
                .iter()
                .any(|e| e.entity == slope && e.direction == ContactDirection::Up)
        );
        assert!(
            collected::<ContactEnded>(&app).is_empty(),
            "{mode:?}: nothing ended while walking on it"
        );
        input(&mut app, body).jump = Some(300.0);
        tick(&mut app, 3);
        let ended = collected::<ContactEnded>(&app);
        assert_eq!(ended.len(), 2, "{mode:?}: the jump ended it once per side: {ended:?}");
    }
}
