//! The reference crowd scene of the benchmark issue, on the plugin's real systems in a headless
//! `App`: terrain 512 tiles wide (16 px), ground top at 0; every 32 tiles from x = 8 a 45° ramp up
//! over 4 tiles, a 4-tile plateau at height 4, a ramp down at gradient 1/2 over 8 tiles; walls at
//! both ends. N characters of 0.75 × 1.5 tiles walk at 7.5 tiles/s under 60 tiles/s² of gravity,
//! turn at walls and do not collide with each other; dt = 0.01 s.
//!
//! `cargo bench -p bevy_platformer_physics --bench crowd` reports the time of one physics step for
//! N = 100, 1000 and 10 000 (divide by N for the time per character-step), with the terrain as one
//! tile grid, and prints the grounded fraction and the stalls of each run.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const TILE: f32 = 16.0;
const WIDTH: i32 = 512;

/// The terrain as rows of cells, bottom row first.
fn terrain() -> TileGrid {
    let height = 8;
    let mut grid = TileGrid::new(WIDTH as u32, height, TILE);
    // Ground: row 0 solid everywhere (its top is y = 16; the scene's "0" is that top).
    for x in 0..WIDTH {
        grid.set(x, 0, TileCell::Solid);
    }
    let mut x0 = 8;
    while x0 + 16 < WIDTH - 1 {
        // 45° up over 4 tiles.
        for i in 0..4 {
            grid.set(x0 + i, 1 + i, TileCell::Slope45 { rises_right: true });
            for y in 1..1 + i {
                grid.set(x0 + i, y, TileCell::Solid);
            }
        }
        // A 4-tile plateau at height 4.
        for x in x0 + 4..x0 + 8 {
            for y in 1..5 {
                grid.set(x, y, TileCell::Solid);
            }
        }
        // Down at gradient 1/2 over 8 tiles.
        for i in 0..4 {
            let top = 4 - i;
            let (a, b) = (x0 + 8 + 2 * i, x0 + 9 + 2 * i);
            grid.set(a, top, TileCell::SlopeHalfHigh { rises_right: false });
            grid.set(b, top, TileCell::SlopeHalfLow { rises_right: false });
            for y in 1..top {
                grid.set(a, y, TileCell::Solid);
                grid.set(b, y, TileCell::Solid);
            }
        }
        x0 += 32;
    }
    for y in 0..height as i32 {
        grid.set(0, y, TileCell::Solid);
        grid.set(WIDTH - 1, y, TileCell::Solid);
    }
    grid
}

#[derive(Component)]
struct Walker;

/// Characters turn round at walls.
fn turn_at_walls(mut walkers: Query<(&Contacts, &mut MovementInput), With<Walker>>) {
    for (contacts, mut input) in &mut walkers {
        if contacts.solid_in(ContactDirection::Right).next().is_some() {
            input.horizontal = -1.0;
        } else if contacts.solid_in(ContactDirection::Left).next().is_some() {
            input.horizontal = 1.0;
        }
    }
}

fn crowd(n: usize) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(FixedUpdate, turn_at_walls.before(PlatformerSystems::Integrate));
    app.update();
    app.world_mut().spawn((terrain(), Transform::default()));
    let span = (WIDTH - 4) as f32 * TILE;
    for i in 0..n {
        let x = 2.0 * TILE + span * (i as f32 + 0.5) / n as f32;
        app.world_mut().spawn((
            Walker,
            Dynamic,
            Collider::rectangle(0.75 * TILE, 1.5 * TILE),
            // Bodies ignore each other: member of layer 2, colliding with layer 1 (the terrain).
            CollisionLayers::new(2, 1),
            Transform::from_xyz(x, 7.5 * TILE, 0.0),
            Movement {
                acceleration: 1.0e4,
                max_speed: Vec2::new(7.5 * TILE, 60.0 * TILE),
                ..default()
            },
            MovementInput {
                horizontal: if i % 2 == 0 { 1.0 } else { -1.0 },
                ..default()
            },
        ));
    }
    // Settle: everyone lands and walks.
    for _ in 0..100 {
        app.update();
    }
    app
}

/// Grounded fraction over `steps` steps, and stalls: grounded steps that moved less than 10 % of the
/// walking distance with no wall contact.
fn quality(app: &mut App, steps: usize) -> (f64, usize) {
    let mut grounded = 0usize;
    let mut total = 0usize;
    let mut stalls = 0usize;
    let mut query = app
        .world_mut()
        .query_filtered::<(&Transform, &Contacts), With<Walker>>();
    let mut before: Vec<f32> = query.iter(app.world()).map(|(t, _)| t.translation.x).collect();
    for _ in 0..steps {
        app.update();
        for ((transform, contacts), x) in query.iter(app.world()).zip(before.iter_mut()) {
            total += 1;
            if contacts.on_floor() {
                grounded += 1;
                if (transform.translation.x - *x).abs() < 0.1 * 7.5 * TILE * 0.01 && !contacts.on_wall() {
                    stalls += 1;
                }
            }
            *x = transform.translation.x;
        }
    }
    (grounded as f64 / total as f64, stalls)
}

fn bench_crowd(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd step (tile grid)");
    group
        .sample_size(10)
        .measurement_time(std::time::Duration::from_secs(4));
    for n in [100, 1_000, 10_000] {
        let mut app = crowd(n);
        let (grounded, stalls) = quality(&mut app, 200);
        println!("N = {n}: grounded fraction {grounded:.4}, stalls {stalls}");
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| b.iter(|| app.update()));
    }
    group.finish();
}

criterion_group!(benches, bench_crowd);
criterion_main!(benches);
