//! Tile grids (section 22 of [the physics rules](bevy_platformer_physics::physics_rules)): seam-free floors and walls, no tunnelling,
//! one-way cells with drop-through, slope cells that behave exactly as one long slope segment,
//! run-time edits, and the same behaviour whether solid cells are merged or not. In every mode.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

const CELL: f32 = 16.0;

fn spawn_grid(app: &mut App, rows: &[&str], origin: Vec2, merge: bool) -> Entity {
    let mut grid = TileGrid::from_rows(rows, CELL).expect("valid rows");
    grid.merge = merge;
    app.world_mut()
        .spawn((grid, Transform::from_translation(origin.extend(0.0))))
        .id()
}

const MERGE: [bool; 2] = [true, false];

/// The solid cells of `rows` as one box collider each: the same level without a tile grid.
fn spawn_solid_cells_as_boxes(app: &mut App, rows: &[&str]) {
    let grid = TileGrid::from_rows(rows, CELL).unwrap();
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            if grid.get(x, y) == TileCell::Solid {
                spawn_box(app, Vec2::new(x as f32, y as f32) * CELL, Vec2::splat(CELL));
            }
        }
    }
}

#[test]
fn a_run_of_200_single_cells_at_max_speed_never_snags() {
    let floor = "#".repeat(200);
    for mode in MODES {
        for merge in MERGE {
            // Several speeds and start offsets: the leading edge enters each next cell by every
            // amount, down to a hair, some time during the run.
            for (speed, offset) in [(300.0, 0.0), (317.0, 0.3), (233.3, 0.05), (160.0, 0.011)] {
                let label = format!("{mode:?} merge {merge} speed {speed} offset {offset}");
                let mut app = app();
                spawn_grid(&mut app, &[&floor], Vec2::new(0.0, -CELL), merge);
                let body = spawn_body(&mut app, Vec2::new(10.0 + offset, 0.0), Vec2::new(12.0, 24.0), mode);
                walker(&mut app, body, speed);
                input(&mut app, body).horizontal = 1.0;
                tick(&mut app, 1);
                let mut steps = 0;
                while aabb(&app, body).max.x < 200.0 * CELL - 40.0 {
                    let before = aabb(&app, body).min.x;
                    tick(&mut app, 1);
                    steps += 1;
                    let b = aabb(&app, body);
                    assert!(
                        (b.min.x - before - speed * DT).abs() < 1e-3,
                        "{label} step {steps}: moved {} at x {}",
                        b.min.x - before,
                        b.min.x
                    );
                    assert!(b.min.y.abs() < 1e-3, "{label} step {steps}: feet at {}", b.min.y);
                    assert!(
                        contacts(&app, body).on_floor() && !contacts(&app, body).on_wall(),
                        "{label} step {steps}"
                    );
                    assert!(steps < 5000, "{label}: never arrived");
                }
            }
        }
    }
}

#[test]
fn a_high_speed_fall_onto_a_single_cell_floor_does_not_tunnel() {
    for mode in MODES {
        for merge in MERGE {
            let mut app = app();
            spawn_grid(&mut app, &["#"], Vec2::new(-8.0, -CELL), merge);
            let body = spawn_body(&mut app, Vec2::new(0.0, 500.0), Vec2::new(8.0, 12.0), mode);
            set_movement(
                &mut app,
                body,
                MovementTuning {
                    max_speed: Vec2::splat(5000.0),
                    ..default()
                },
            );
            set_velocity(&mut app, body, Vec2::new(0.0, -5000.0));
            tick(&mut app, 30);
            let b = aabb(&app, body);
            assert!(b.min.y.abs() < 1e-3, "{mode:?} merge {merge}: rests on the cell: {b:?}");
        }
    }
}

#[test]
fn sliding_down_a_wall_of_stacked_cells_is_smooth() {
    for mode in MODES {
        for merge in MERGE {
            let mut rows = vec!["#.........."; 30];
            rows.push("###########");
            let mut app = app();
            spawn_grid(&mut app, &rows, Vec2::ZERO, merge);
            // Pressed against the wall's right face while falling.
            let body = spawn_body(&mut app, Vec2::new(CELL + 6.0, 400.0), Vec2::new(12.0, 24.0), mode);
            input(&mut app, body).horizontal = -1.0;
            let mut previous_y = aabb(&app, body).min.y;
            for step in 0..200 {
                tick(&mut app, 1);
                let b = aabb(&app, body);
                assert!(
                    b.min.x >= CELL - 1e-3,
                    "{mode:?} merge {merge} step {step}: into the wall {b:?}"
                );
                assert!(
                    b.min.y <= previous_y + 1e-3,
                    "{mode:?} merge {merge} step {step}: bumped up at a seam"
                );
                previous_y = b.min.y;
            }
            assert!(
                (aabb(&app, body).min.y - CELL).abs() < 1e-3,
                "{mode:?} merge {merge}: reached the floor: {:?}",
                aabb(&app, body)
            );
        }
    }
}

#[test]
fn one_way_cells_jump_through_land_and_drop_through() {
    for mode in MODES {
        for merge in MERGE {
            let label = format!("{mode:?} merge {merge}");
            let mut app = app();
            spawn_grid(
                &mut app,
                &["..====..", "........", "........", "........", "########"],
                Vec2::new(-64.0, -CELL),
                merge,
            );
            let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
            tick(&mut app, 2);
            input(&mut app, body).jump = Some(480.0);
            tick(&mut app, 120);
            // The one-way row is the fifth from the bottom: its top is 4 cells above the origin.
            let top = 5.0 * CELL - CELL;
            assert!(
                (aabb(&app, body).min.y - top).abs() < 1e-3,
                "{label}: landed on the one-way cells: {:?}",
                aabb(&app, body)
            );
            input(&mut app, body).drop_through = true;
            tick(&mut app, 60);
            assert!(
                aabb(&app, body).min.y.abs() < 1e-3,
                "{label}: dropped to the floor: {:?}",
                aabb(&app, body)
            );
            input(&mut app, body).jump = Some(480.0);
            tick(&mut app, 120);
            assert!(
                (aabb(&app, body).min.y - top).abs() < 1e-3,
                "{label}: solid again from above"
            );
        }
    }
}

/// Walks a body up a ramp and back down, returning its path; asserts no airborne step.
fn walk_ramp(app: &mut App, body: Entity, direction: f32, label: &str) -> Vec<Vec2> {
    let mut path = Vec::new();
    for (intent, steps) in [(direction, 160), (-direction, 100)] {
        input(app, body).horizontal = intent;
        for step in 0..steps {
            tick(app, 1);
            assert!(
                contacts(app, body).on_floor(),
                "{label} intent {intent} step {step}: airborne {:?}",
                aabb(app, body)
            );
            assert!(
                !contacts(app, body).on_wall(),
                "{label} intent {intent} step {step}: snag {:?} {:?}",
                aabb(app, body),
                contacts(app, body).list
            );
            path.push(aabb(app, body).min);
        }
    }
    path
}

#[test]
fn slope_cell_runs_behave_exactly_as_one_slope_segment() {
    // 45° and gentle ramps, both directions: floor, ramp, top, same as a segment plus boxes.
    let ramps: [(&[&str], Vec2, Vec2, f32); 4] = [
        (
            &["......../####", "......./#####", "....../######", "#############"],
            Vec2::new(96.0, 16.0),
            Vec2::new(144.0, 64.0),
            1.0,
        ),
        (
            &["####\\........", "#####\\.......", "######\\......", "#############"],
            Vec2::new(64.0, 64.0),
            Vec2::new(112.0, 16.0),
            -1.0,
        ),
        (
            &["........pP####", "......pP######", "##############"],
            Vec2::new(96.0, 16.0),
            Vec2::new(160.0, 48.0),
            1.0,
        ),
        (
            &["####Qq........", "######Qq......", "##############"],
            Vec2::new(64.0, 48.0),
            Vec2::new(128.0, 16.0),
            -1.0,
        ),
    ];
    for mode in MODES {
        for (rows, a, b, direction) in ramps {
            let start_x = if direction > 0.0 { 40.0 } else { 180.0 };
            // The grid.
            let mut grid_app = app();
            spawn_grid(&mut grid_app, rows, Vec2::ZERO, true);
            let body = spawn_body(&mut grid_app, Vec2::new(start_x, CELL), Vec2::new(12.0, 24.0), mode);
            walker(&mut grid_app, body, 120.0);
            tick(&mut grid_app, 2);
            let label = format!("{mode:?} grid {rows:?}");
            let grid_path = walk_ramp(&mut grid_app, body, direction, &label);
            // The same level as a slope segment and the solid cells as boxes.
            let mut segment_app = app();
            spawn_slope(&mut segment_app, a, b);
            spawn_solid_cells_as_boxes(&mut segment_app, rows);
            let body = spawn_body(&mut segment_app, Vec2::new(start_x, CELL), Vec2::new(12.0, 24.0), mode);
            walker(&mut segment_app, body, 120.0);
            tick(&mut segment_app, 2);
            let segment_path = walk_ramp(&mut segment_app, body, direction, &format!("{mode:?} segment {a} {b}"));
            for (step, (g, s)) in grid_path.iter().zip(&segment_path).enumerate() {
                assert!(
                    (*g - *s).length() < 1e-3,
                    "{label} step {step}: grid {g} vs segment {s}"
                );
            }
            let highest = grid_path.iter().map(|p| p.y).fold(f32::MIN, f32::max);
            assert!(
                (highest - a.y.max(b.y)).abs() < 1e-3,
                "{label}: reached the top ({highest})"
            );
        }
    }
}

#[test]
fn merged_and_single_cells_give_the_same_trajectory() {
    let rows = [
        "..............................",
        "...........====.......#.......",
        "..............................",
        "......###.........../####.....",
        "....................######....",
        "##############################",
    ];
    for mode in MODES {
        let run = |merge: bool| {
            let mut app = app();
            spawn_grid(&mut app, &rows, Vec2::ZERO, merge);
            let body = spawn_body(&mut app, Vec2::new(20.0, CELL), Vec2::new(12.0, 24.0), mode);
            walker(&mut app, body, 150.0);
            let mut path = Vec::new();
            for step in 0..600 {
                let phase = step / 60;
                let intent = if phase % 3 == 2 { -1.0 } else { 1.0 };
                input(&mut app, body).horizontal = intent;
                if step % 45 == 0 {
                    input(&mut app, body).jump = Some(420.0);
                }
                tick(&mut app, 1);
                path.push(aabb(&app, body).min);
            }
            path
        };
        let merged = run(true);
        let single = run(false);
        for (step, (m, s)) in merged.iter().zip(&single).enumerate() {
            assert!(
                (*m - *s).length() < 1e-3,
                "{mode:?} step {step}: merged {m} vs single {s}"
            );
        }
    }
}

#[test]
fn a_broken_cell_takes_effect_the_next_step() {
    for mode in MODES {
        let mut app = app();
        let grid = spawn_grid(&mut app, &["########"], Vec2::new(-64.0, -CELL), true);
        let body = spawn_body(&mut app, Vec2::new(-8.0, 0.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 5);
        assert!(contacts(&app, body).with(grid).is_some());
        {
            let mut grid = app.world_mut().get_mut::<TileGrid>(grid).unwrap();
            assert!(grid.set(3, 0, TileCell::Empty));
            assert!(grid.set(4, 0, TileCell::Empty));
            assert!(!grid.set(40, 0, TileCell::Empty), "outside the grid");
        }
        tick(&mut app, 1);
        assert!(aabb(&app, body).min.y < 0.0, "{mode:?}: falls through the hole at once");
        tick(&mut app, 30);
        assert!(aabb(&app, body).max.y < -CELL, "{mode:?}: gone through");
    }
}

#[test]
fn a_grid_with_a_bad_cell_size_is_skipped_with_a_clear_marker() {
    let mut app = app();
    let grid = app
        .world_mut()
        .spawn((TileGrid::new(4, 4, 0.0), Transform::default()))
        .id();
    tick(&mut app, 2);
    let invalid = app.world().get::<InvalidBody>(grid).expect("marked invalid");
    assert!(invalid.reason.contains("cell size"), "{}", invalid.reason);
}

#[test]
fn despawning_a_grid_ends_contacts_and_leaves_the_broad_phase() {
    let mut app = app();
    collect::<ContactEnded>(&mut app);
    let grid = spawn_grid(&mut app, &["####"], Vec2::new(-32.0, -CELL), true);
    let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), CollisionMode::Continuous);
    tick(&mut app, 5);
    app.world_mut().despawn(grid);
    assert!(contacts(&app, body).with(grid).is_none());
    tick(&mut app, 1);
    assert!(
        collected::<ContactEnded>(&app)
            .iter()
            .any(|e| e.entity == body && e.other == grid)
    );
    let around = bevy_platformer_physics::geometry::Aabb::from_min_size(Vec2::new(-100.0, -100.0), Vec2::splat(200.0));
    assert!(
        spatial_query(&app)
            .overlap_area(around, &QueryFilter::default().with_sensors())
            .iter()
            .all(|hit| hit.entity != grid),
        "no piece of the grid is found any more"
    );
}

/// One scene of a level two ways: the grid, and the same geometry as slope segments plus one box
/// per solid cell.
struct RampScene {
    name: &'static str,
    rows: &'static [&'static str],
    segments: Vec<(Vec2, Vec2)>,
    start_x: f32,
}

/// What the body is asked to do, step by step: horizontal intent and whether to jump.
fn ramp_script() -> Vec<(f32, bool)> {
    let mut script = Vec::new();
    script.extend(std::iter::repeat_n((1.0, false), 150));
    script.push((1.0, true));
    script.extend(std::iter::repeat_n((1.0, false), 60));
    script.extend(std::iter::repeat_n((-1.0, false), 150));
    script.push((-1.0, true));
    script.extend(std::iter::repeat_n((-1.0, false), 120));
    script.extend(std::iter::repeat_n((0.0, false), 30));
    script
}

/// The body's box and its floor contact after each step of the script.
fn run_ramp_script(app: &mut App, scene: &RampScene, mode: CollisionMode) -> Vec<(Vec2, bool)> {
    let body = spawn_body(app, Vec2::new(scene.start_x, 200.0), Vec2::new(12.0, 24.0), mode);
    walker(app, body, 120.0);
    // Fall from above onto the scene first: landing is part of the comparison.
    let mut path = Vec::new();
    for _ in 0..60 {
        tick(app, 1);
        path.push((aabb(app, body).min, contacts(app, body).on_floor()));
    }
    for (intent, jump) in ramp_script() {
        input(app, body).horizontal = intent;
        if jump {
            input(app, body).jump = Some(300.0);
        }
        tick(app, 1);
        path.push((aabb(app, body).min, contacts(app, body).on_floor()));
    }
    path
}

#[test]
fn grid_ramps_match_slope_segments_in_valleys_crests_walls_ceilings_and_landings() {
    let scenes = [
        RampScene {
            name: "45° valley",
            rows: &[
                "####\\....../####",
                "#####\\..../#####",
                "######\\../######",
                "#######\\/#######",
                "################",
            ],
            // Left ramp from the plateau at x = 64 down to the valley floor at x = 128, and up.
            segments: vec![
                (Vec2::new(64.0, 80.0), Vec2::new(128.0, 16.0)),
                (Vec2::new(128.0, 16.0), Vec2::new(192.0, 80.0)),
            ],
            start_x: 24.0,
        },
        RampScene {
            name: "gentle valley",
            rows: &["###Qq....pP###", "#####QqpP#####", "##############"],
            segments: vec![
                (Vec2::new(48.0, 48.0), Vec2::new(112.0, 16.0)),
                (Vec2::new(112.0, 16.0), Vec2::new(176.0, 48.0)),
            ],
            start_x: 20.0,
        },
        RampScene {
            name: "crest",
            rows: &[
                "....../##\\......",
                "...../####\\.....",
                "..../######\\....",
                "################",
            ],
            segments: vec![
                (Vec2::new(64.0, 16.0), Vec2::new(112.0, 64.0)),
                (Vec2::new(144.0, 64.0), Vec2::new(192.0, 16.0)),
            ],
            start_x: 24.0,
        },
        RampScene {
            name: "ramp into a wall",
            rows: &[
                "......##......",
                "......##......",
                "...../##......",
                "..../###......",
                "##############",
            ],
            segments: vec![(Vec2::new(64.0, 16.0), Vec2::new(96.0, 48.0))],
            start_x: 24.0,
        },
        RampScene {
            name: "ramp under a low ceiling",
            rows: &[
                "...##########.....",
                "..................",
                "..................",
                "....../###########",
                "...../############",
                "..../#############",
                "##################",
            ],
            segments: vec![(Vec2::new(64.0, 16.0), Vec2::new(112.0, 64.0))],
            start_x: 24.0,
        },
    ];
    for mode in MODES {
        for scene in &scenes {
            let label = format!("{mode:?} {}", scene.name);
            let mut grid_app = app();
            spawn_grid(&mut grid_app, scene.rows, Vec2::ZERO, true);
            let grid_path = run_ramp_script(&mut grid_app, scene, mode);

            let mut segment_app = app();
            for (a, b) in &scene.segments {
                spawn_slope(&mut segment_app, *a, *b);
            }
            spawn_solid_cells_as_boxes(&mut segment_app, scene.rows);
            let segment_path = run_ramp_script(&mut segment_app, scene, mode);
            for (step, ((g, g_floor), (s, s_floor))) in grid_path.iter().zip(&segment_path).enumerate() {
                assert!(
                    (*g - *s).length() < 1e-3 && g_floor == s_floor,
                    "{label} step {step}: grid {g} (on floor {g_floor}) vs segments {s} (on floor {s_floor})"
                );
            }
            // The script really went over the slopes: the body's height changed while grounded.
            let grounded_heights: Vec<f32> = grid_path.iter().filter(|(_, f)| *f).map(|(p, _)| p.y).collect();
            let (lo, hi) = grounded_heights
                .iter()
                .fold((f32::MAX, f32::MIN), |(lo, hi), y| (lo.min(*y), hi.max(*y)));
            assert!(hi - lo >= 16.0, "{label}: walked over {lo}..{hi} only");
        }
    }
}
