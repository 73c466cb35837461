//! Bodies that start a step inside a solid (placed across a wall by a level designer, respawned
//! inside a block, teleported into the floor) are moved to the nearest free position within a few
//! steps, never through the solid to its far side, in every mode. Where no free position is near,
//! the body stays, is marked [`Embedded`], and one warning names it.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use platformer_tests::physics::*;

const BODY: Vec2 = Vec2::new(12.0, 24.0);
/// Steps a body may take to get out.
const STEPS_TO_GET_OUT: usize = 4;

/// A floor (top at y = 0) and a wall 32 px wide from x = 0, 64 px high, standing on it.
fn floor_and_wall(app: &mut App) -> Entity {
    spawn_box(app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
    spawn_box(app, Vec2::new(0.0, 0.0), Vec2::new(32.0, 64.0))
}

/// Runs `steps` steps, checking after each that the body never went past `far_side` (a function
/// of its box that is true once it is on the wrong side); returns the steps it needed to be out.
fn steps_to_get_out(
    app: &mut App,
    body: Entity,
    label: &str,
    far_side: impl Fn(&bevy_platformer_physics::geometry::Aabb) -> bool,
) -> usize {
    for step in 1..=30 {
        tick(app, 1);
        let b = aabb(app, body);
        assert!(
            !far_side(&b),
            "{label} step {step}: pushed through to the far side: {b:?}"
        );
        if solid_inside(app, &b, INSIDE_TOLERANCE).is_none() {
            return step;
        }
    }
    panic!("{label}: still inside after 30 steps: {:?}", aabb(app, body));
}

#[test]
fn a_body_placed_across_a_wall_face_leaves_by_the_near_face() {
    for mode in MODES {
        for overlap in [0.5, 3.0, 5.5, 9.0] {
            // Across the left face: out to the left.
            let label = format!("{mode:?} left face, overlap {overlap}");
            let mut app = app();
            floor_and_wall(&mut app);
            let body = spawn_body(&mut app, Vec2::new(overlap - BODY.x / 2.0, 0.0), BODY, mode);
            let steps = steps_to_get_out(&mut app, body, &label, |b| b.min.x > 16.0);
            assert!(steps <= STEPS_TO_GET_OUT, "{label}: {steps} steps");
            let b = aabb(&app, body);
            assert!((b.max.x - 0.0).abs() < 0.1, "{label}: flush against the wall, {b:?}");
            assert!(
                contacts(&app, body).on_floor() || b.min.y.abs() < 0.1,
                "{label}: on the floor"
            );

            // Across the right face: out to the right.
            let label = format!("{mode:?} right face, overlap {overlap}");
            let mut app = platformer_tests::physics::app();
            floor_and_wall(&mut app);
            let body = spawn_body(&mut app, Vec2::new(32.0 - overlap + BODY.x / 2.0, 0.0), BODY, mode);
            let steps = steps_to_get_out(&mut app, body, &label, |b| b.max.x < 16.0);
            assert!(steps <= STEPS_TO_GET_OUT, "{label}: {steps} steps");
            assert!(
                (aabb(&app, body).min.x - 32.0).abs() < 0.1,
                "{label}: flush against the wall"
            );
        }
    }
}

#[test]
fn a_body_sunk_into_the_floor_rises_onto_it() {
    for mode in MODES {
        for depth in [0.5, 4.0, 10.0] {
            let label = format!("{mode:?} depth {depth}");
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
            let body = spawn_body(&mut app, Vec2::new(-100.0, -depth), BODY, mode);
            let steps = steps_to_get_out(&mut app, body, &label, |b| b.max.y < -16.0);
            assert!(steps <= STEPS_TO_GET_OUT, "{label}: {steps} steps");
            tick(&mut app, 5);
            let b = aabb(&app, body);
            assert!(b.min.y.abs() < 0.1, "{label}: stands on the floor, {b:?}");
            assert!(contacts(&app, body).on_floor(), "{label}: on the floor");
        }
    }
}

#[test]
fn a_body_under_a_block_corner_on_a_tile_grid_gets_out() {
    for mode in MODES {
        let label = format!("{mode:?}");
        let mut app = app();
        // A grid floor with a one-cell-high step; the body overlaps the step's side by 5 px.
        let mut grid = TileGrid::new(20, 4, 16.0);
        for x in 0..20 {
            grid.set(x, 0, TileCell::Solid);
        }
        for x in 10..20 {
            grid.set(x, 1, TileCell::Solid);
        }
        app.world_mut().spawn((grid, Transform::default()));
        let body = spawn_body(&mut app, Vec2::new(160.0 + 5.0 - BODY.x / 2.0, 16.0), BODY, mode);
        let steps = steps_to_get_out(&mut app, body, &label, |b| b.min.x > 170.0);
        assert!(steps <= STEPS_TO_GET_OUT, "{label}: {steps} steps");
        assert!(
            (aabb(&app, body).max.x - 160.0).abs() < 0.1,
            "{label}: flush against the step"
        );
    }
}

#[test]
fn a_body_deep_inside_a_block_stays_and_is_marked_embedded_once() {
    for mode in MODES {
        let label = format!("{mode:?}");
        let mut app = app();
        spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
        // A 96 × 96 block: from its middle, every face is farther than the body's size.
        spawn_box(&mut app, Vec2::new(0.0, 0.0), Vec2::new(96.0, 96.0));
        let body = spawn_body(&mut app, Vec2::new(48.0, 36.0), BODY, mode);
        let start = aabb(&app, body);
        tick(&mut app, 10);
        assert_eq!(
            aabb(&app, body),
            start,
            "{label}: stays where it is (no free position near)"
        );
        let embedded = app.world().get::<Embedded>(body);
        assert!(embedded.is_some(), "{label}: marked embedded");
        assert!(velocity(&app, body).is_finite());
        // Freed by the game (moved out), it loses the marker and moves again.
        app.world_mut().get_mut::<Transform>(body).unwrap().translation = Vec3::new(-100.0, 40.0, 0.0);
        tick(&mut app, 30);
        assert!(
            app.world().get::<Embedded>(body).is_none(),
            "{label}: the marker goes once it is out"
        );
        assert!(contacts(&app, body).on_floor(), "{label}: it fell onto the floor");
    }
}

#[test]
fn a_body_sunk_into_a_floor_under_a_ceiling_too_low_for_it_stays_embedded() {
    // (How deep the body is in the floor, the room between the floor and the ceiling.) The way
    // up would put its head into the ceiling: by 4 px from 10 px deep under a 20 px room (the
    // ceiling 6 px above its head), by 0.1 px from wholly inside the floor under a 23.9 px room
    // (the ceiling 23.9 px above its head, near the edge of where the recovery looks: the
    // body's size and the contact tolerance).
    for (depth, room) in [(10.0, 20.0), (24.0, 23.9)] {
        for mode in MODES {
            let label = format!("{mode:?} {depth} px deep under {room} px");
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-200.0, -116.0), Vec2::new(400.0, 116.0));
            spawn_box(&mut app, Vec2::new(-200.0, room), Vec2::new(400.0, 16.0));
            let body = spawn_body(&mut app, Vec2::new(-100.0, -depth), BODY, mode);
            let start = aabb(&app, body);
            tick(&mut app, 5);
            assert_eq!(aabb(&app, body), start, "{label}: no room anywhere near");
            assert!(app.world().get::<Embedded>(body).is_some(), "{label}: marked embedded");
        }
    }
}

#[test]
fn a_sensor_body_inside_a_wall_is_left_where_it_is() {
    for mode in MODES {
        let label = format!("{mode:?}");
        let mut app = app();
        floor_and_wall(&mut app);
        // 5 px across the wall's left face: an ordinary body would leave to the left. A sensor
        // passes through everything (it falls through the floor too).
        let body = spawn_body(&mut app, Vec2::new(5.0 - BODY.x / 2.0, 10.0), BODY, mode);
        app.world_mut().entity_mut(body).insert(Sensor);
        tick(&mut app, 1);
        let start_x = 5.0 - BODY.x;
        assert_eq!(aabb(&app, body).min.x, start_x, "{label}: not moved out sideways");
        assert!(app.world().get::<Embedded>(body).is_none(), "{label}");
    }
}

#[test]
fn a_body_wedged_between_a_slope_and_a_block_never_leaves_under_the_slope() {
    // Its feet 2 px over the slope, or 0.1 px under it (within the contact tolerance, as a body
    // standing on a slope may be).
    for (mode, feet_over) in MODES.into_iter().flat_map(|m| [(m, 2.0), (m, -0.1)]) {
        let label = format!("{mode:?}, feet {feet_over} px over the slope");
        let mut app = app();
        // A slope falling right; the body's head a few px into a block above: down is the
        // nearest way out of the block, but it goes through the slope's surface, and sideways is
        // farther than the body's size. It stays, marked embedded.
        let slope = spawn_slope(&mut app, Vec2::new(-40.0, 80.0), Vec2::new(80.0, -40.0));
        spawn_box(&mut app, Vec2::new(-60.0, 45.0), Vec2::new(160.0, 40.0));
        let body = spawn_body(&mut app, Vec2::new(18.0, 28.0 + feet_over), Vec2::new(12.0, 20.0), mode);
        assert!(
            (aabb(&app, body).min.y - 28.0 - feet_over).abs() < EPS,
            "{label}: the scene as described"
        );
        let start = aabb(&app, body);
        for step in 0..10 {
            tick(&mut app, 1);
            let b = aabb(&app, body);
            assert!(
                b.min.y >= surface_under(&app, body, slope) - 0.16,
                "{label} step {step}: under the slope, {b:?}"
            );
        }
        assert_eq!(aabb(&app, body), start, "{label}: it stays");
        assert!(app.world().get::<Embedded>(body).is_some(), "{label}: marked embedded");
    }
}

#[test]
fn a_body_a_hair_taller_than_its_corridor_is_never_thrown_along_it() {
    // A corridor between a floor and a ceiling a few thousandths of a pixel lower than the body
    // (a rounding error of the level's placement: more than the skin, less than the recovery's
    // depth), and a wall across it. Neither push out of the ceiling frees the body: down is
    // into the floor, and sideways by its width leaves it under the ceiling. It stays, or walks,
    // but is never thrown sideways, nor through the wall.
    for mode in MODES {
        for squeeze in [0.002, 0.005, 0.009] {
            for (gap, walking) in [(4.0, false), (20.0, false), (20.0, true)] {
                let label = format!("{mode:?}, {squeeze} px too low, wall {gap} px away, walking {walking}");
                let mut app = app();
                spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
                spawn_box(&mut app, Vec2::new(-200.0, 24.0 - squeeze), Vec2::new(400.0, 16.0));
                let wall = spawn_box(&mut app, Vec2::new(6.0 + gap, 0.0), Vec2::new(16.0, 23.0));
                let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
                if walking {
                    walker(&mut app, body, 120.0);
                    input(&mut app, body).horizontal = 1.0;
                }
                let face = aabb(&app, wall).min.x;
                let start = aabb(&app, body);
                for step in 0..30 {
                    tick(&mut app, 1);
                    let b = aabb(&app, body);
                    assert!(
                        b.max.x <= face + 0.01,
                        "{label} step {step}: into or past the wall: {b:?}"
                    );
                    assert!(
                        (b.min.y - start.min.y).abs() < 0.01,
                        "{label} step {step}: moved up or down: {b:?}"
                    );
                    if !walking {
                        assert!(
                            (b.min.x - start.min.x).abs() < 0.01,
                            "{label} step {step}: thrown: {b:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_body_whose_head_is_a_hair_into_a_block_corner_is_not_thrown_onto_the_wall_beside_it() {
    // Standing on the floor, the head a few thousandths of a pixel into the bottom-left corner of
    // a block above (more than the skin, less than the recovery's depth), a wall close on the left:
    // down is into the floor, and left by the block's overlap is into the wall. It stays.
    for mode in MODES {
        for wall_gap in [0.5, 2.0, 4.0] {
            let label = format!("{mode:?}, wall {wall_gap} px away");
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
            spawn_box(&mut app, Vec2::new(1.0, 23.995), Vec2::new(32.0, 16.0));
            spawn_box(&mut app, Vec2::new(-6.0 - wall_gap - 16.0, 0.0), Vec2::new(16.0, 23.0));
            let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0), mode);
            let start = aabb(&app, body);
            for step in 0..10 {
                tick(&mut app, 1);
                let b = aabb(&app, body);
                assert!(
                    (b.min - start.min).length() < 0.01,
                    "{label} step {step}: thrown from {start:?} to {b:?}"
                );
            }
        }
    }
}

#[test]
fn a_block_placed_over_a_resting_body_is_noticed() {
    // The recovery skips a body that the last step left where it is, unless the level changed:
    // a block spawned around a body at rest, or a wall moved onto it, is still found.
    for mode in MODES {
        for moved_wall in [false, true] {
            let label = format!(
                "{mode:?}, {}",
                if moved_wall { "a wall moved" } else { "a block spawned" }
            );
            let mut app = app();
            spawn_box(&mut app, Vec2::new(-200.0, -16.0), Vec2::new(400.0, 16.0));
            let wall = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(96.0, 96.0));
            let body = spawn_body(&mut app, Vec2::new(0.0, 0.0), BODY, mode);
            tick(&mut app, 20);
            // Around the body, every face farther than its own size: no way out.
            if moved_wall {
                app.world_mut().get_mut::<Transform>(wall).unwrap().translation = Vec3::new(0.0, 12.0, 0.0);
            } else {
                spawn_box(&mut app, Vec2::new(-48.0, -36.0), Vec2::new(96.0, 96.0));
            }
            tick(&mut app, 1);
            assert!(app.world().get::<Embedded>(body).is_some(), "{label}: found inside");
        }
    }
}
