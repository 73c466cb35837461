//! The steepest slope a body may walk up (`MaxClimbableGradient`): a steeper slope, segment or
//! tile-grid ramp, is a wall to its walk (it stops at the foot, with a wall contact); a body left
//! on one slides down even while asking to walk up; gentler slopes are walked as without the
//! limit. In every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

/// A floor left of x = 0 and a slope of `gradient` rising right from (0, 0) over 64 px of height,
/// a solid block under it; a walker 12 × 24 at 120 px/s standing at x = -40, with the limit
/// `limit` if any.
fn ramp(mode: CollisionMode, gradient: f32, limit: Option<f32>) -> (App, Entity, Entity) {
    let mut app = app();
    let width = 64.0 / gradient;
    spawn_box(
        &mut app,
        Vec2::new(-200.0, -16.0),
        Vec2::new(200.0 + width + 200.0, 16.0),
    );
    spawn_box(&mut app, Vec2::new(width, 0.0), Vec2::new(200.0, 64.0));
    let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(width, 64.0));
    let body = spawn_body(&mut app, Vec2::new(-40.0, 0.0), Vec2::new(12.0, 24.0), mode);
    walker(&mut app, body, 120.0);
    if let Some(limit) = limit {
        app.world_mut().entity_mut(body).insert(MaxClimbableGradient(limit));
    }
    tick(&mut app, 2);
    (app, body, slope)
}

/// Walks right for `steps` steps; the highest the feet got.
fn walk_right(app: &mut App, body: Entity, steps: usize) -> f32 {
    let mut highest = f32::NEG_INFINITY;
    for _ in 0..steps {
        input(app, body).horizontal = 1.0;
        tick(app, 1);
        highest = highest.max(aabb(app, body).min.y);
    }
    highest
}

#[test]
fn a_slope_steeper_than_the_limit_stops_the_walk_at_its_foot_like_a_wall() {
    for mode in MODES {
        let (mut app, body, slope) = ramp(mode, 2.0, Some(1.0));
        let highest = walk_right(&mut app, body, 120);
        let end = aabb(&app, body);
        assert!(highest < 0.5, "{mode:?}: never climbed it (feet up to {highest})");
        assert!(
            end.center().x > -7.0 && end.center().x < 6.0,
            "{mode:?}: stopped at the foot, centre at {}",
            end.center().x
        );
        let touching = contacts(&app, body);
        assert!(
            touching.solid_in(ContactDirection::Right).any(|c| c.entity == slope),
            "{mode:?}: a wall contact with the slope: {touching:?}"
        );
        assert!(touching.on_floor(), "{mode:?}: on the floor");
        // The same slope without the limit is walked up.
        let (mut app, body, _) = ramp(mode, 2.0, None);
        assert!(
            walk_right(&mut app, body, 120) > 60.0,
            "{mode:?}: climbed without the limit"
        );
    }
}

#[test]
fn slopes_no_steeper_than_the_limit_are_walked_exactly_as_without_it() {
    for mode in MODES {
        for gradient in [0.5, 1.0] {
            let (mut limited, body, _) = ramp(mode, gradient, Some(1.0));
            let (mut free, other, _) = ramp(mode, gradient, None);
            for step in 0..300 {
                input(&mut limited, body).horizontal = 1.0;
                input(&mut free, other).horizontal = 1.0;
                tick(&mut limited, 1);
                tick(&mut free, 1);
                assert_eq!(
                    aabb(&limited, body),
                    aabb(&free, other),
                    "{mode:?} gradient {gradient}: step {step}"
                );
            }
            assert!(
                aabb(&limited, body).min.y > 60.0,
                "{mode:?} gradient {gradient}: climbed"
            );
        }
    }
}

#[test]
fn a_body_left_on_a_too_steep_slope_slides_down_while_asking_to_walk_up() {
    for mode in MODES {
        let (mut app, body, slope) = ramp(mode, 2.0, Some(1.0));
        // Dropped onto the middle of the slope (its surface under the box's uphill edge, x = 22, is
        // 44 px high; the feet start at 52).
        app.world_mut().get_mut::<Transform>(body).unwrap().translation = Vec3::new(16.0, 64.0, 0.0);
        tick(&mut app, 20);
        let landed = aabb(&app, body);
        assert!(
            contacts(&app, body).with(slope).is_some() || landed.min.y < 1.0,
            "{mode:?}: landed on the slope: {landed:?}"
        );
        let mut last = landed.min.y;
        let mut fell = 0.0;
        for _ in 0..80 {
            input(&mut app, body).horizontal = 1.0;
            tick(&mut app, 1);
            let feet = aabb(&app, body).min.y;
            assert!(feet <= last + EPS, "{mode:?}: never climbs ({last} to {feet})");
            fell += last - feet;
            last = feet;
        }
        assert!(
            last < 1.0 && fell > 10.0,
            "{mode:?}: slid to the bottom, feet at {last}"
        );
        // Without the limit, asking to walk up from the same place climbs.
        let (mut app, body, _) = ramp(mode, 2.0, None);
        app.world_mut().get_mut::<Transform>(body).unwrap().translation = Vec3::new(16.0, 64.0, 0.0);
        tick(&mut app, 20);
        assert!(
            walk_right(&mut app, body, 80) > 60.0,
            "{mode:?}: climbs without the limit"
        );
    }
}

#[test]
fn a_tile_grid_ramp_steeper_than_the_limit_is_a_wall_too() {
    let rows = ["......../####", "......./#####", "....../######", "#############"];
    for mode in MODES {
        for (limit, climbs) in [(Some(0.75), false), (Some(1.0), true), (None, true)] {
            let mut app = app();
            let grid = TileGrid::from_rows(&rows, 16.0).expect("valid rows");
            let grid = app.world_mut().spawn((grid, Transform::default())).id();
            let body = spawn_body(&mut app, Vec2::new(40.0, 16.0), Vec2::new(12.0, 24.0), mode);
            walker(&mut app, body, 120.0);
            if let Some(limit) = limit {
                app.world_mut().entity_mut(body).insert(MaxClimbableGradient(limit));
            }
            tick(&mut app, 2);
            let highest = walk_right(&mut app, body, 150);
            if climbs {
                assert!(highest > 60.0, "{mode:?} limit {limit:?}: climbed to {highest}");
            } else {
                assert!(
                    highest < 16.5,
                    "{mode:?} limit {limit:?}: stopped, feet up to {highest}"
                );
                assert!(
                    contacts(&app, body)
                        .solid_in(ContactDirection::Right)
                        .any(|c| c.entity == grid),
                    "{mode:?}: a wall contact with the grid"
                );
            }
        }
    }
}
