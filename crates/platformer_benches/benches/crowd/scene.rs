//! The reference crowd scene of the benchmark issue, in tiles: terrain `width` tiles wide and 8
//! rows high, the ground row's top at y = 1 (the scene's "0"); every 32 tiles from x = 8 a 45° ramp
//! up over 4 tiles, a 4-tile plateau at height 4 above the ground, a ramp down at gradient 1/2 over
//! 8 tiles; walls (columns 0 and `width - 1`, full height) at both ends.
//!
//! Every variant builds its colliders from these functions, and every variant is judged by
//! [`surface`], so the correctness figures mean the same thing for all of them.

use bevy_platformer_physics::prelude::*;

/// Tile side in pixels (the plugin works in pixels, Rapier and this module in tiles).
pub const TILE: f32 = 16.0;
/// Rows of the terrain.
pub const HEIGHT: i32 = 8;
/// Width of the reference level, in tiles.
pub const REFERENCE_WIDTH: i32 = 512;
/// The level 100 times larger, same pattern.
pub const LARGE_WIDTH: i32 = 51_200;
/// Character size in tiles.
pub const CHAR_SIZE: [f32; 2] = [0.75, 1.5];
/// Walking speed, tiles/s.
pub const SPEED: f32 = 7.5;
/// Gravity, tiles/s² (downward).
pub const GRAVITY: f32 = 60.0;
/// Largest fall speed, tiles/s (the plugin's `MovementTuning::max_speed.y` in the bench).
pub const MAX_FALL: f32 = 60.0;
/// The step, seconds.
pub const DT: f32 = 0.01;
/// Height of the ground's top, tiles.
pub const GROUND: f32 = 1.0;
/// Height of a plateau's top, tiles.
pub const PLATEAU: f32 = 5.0;

/// Left ends of the ramp-plateau-ramp features.
pub fn feature_starts(width: i32) -> impl Iterator<Item = i32> {
    (8..).step_by(32).take_while(move |x0| x0 + 16 < width - 1)
}

/// The terrain as one tile grid (bottom row first), as a level editor would paint it: the cells
/// under the ramps are solid.
pub fn terrain_grid(width: i32) -> TileGrid {
    let mut grid = TileGrid::new(width as u32, HEIGHT as u32, TILE);
    for x in 0..width {
        grid.set(x, 0, TileCell::Solid);
    }
    for x0 in feature_starts(width) {
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
    }
    for y in 0..HEIGHT {
        grid.set(0, y, TileCell::Solid);
        grid.set(width - 1, y, TileCell::Solid);
    }
    grid
}

/// A box in tiles: `(min, max)`.
pub type Rect = ([f32; 2], [f32; 2]);
/// A slope segment in tiles: `(left end, right end)`.
pub type Segment = ([f32; 2], [f32; 2]);

/// The terrain as merged colliders, as a level editor's collision layer would give it: solid boxes
/// (one ground box, the two walls above it, one box per plateau) and slope segments. Nothing
/// under a ramp: only its segment supports bodies.
pub fn merged(width: i32) -> (Vec<Rect>, Vec<Segment>) {
    let w = width as f32;
    let mut boxes = vec![
        ([0.0, 0.0], [w, GROUND]),
        ([0.0, GROUND], [1.0, HEIGHT as f32]),
        ([w - 1.0, GROUND], [w, HEIGHT as f32]),
    ];
    let mut slopes = Vec::new();
    for x0 in feature_starts(width) {
        let x0 = x0 as f32;
        slopes.push(([x0, GROUND], [x0 + 4.0, PLATEAU]));
        boxes.push(([x0 + 4.0, GROUND], [x0 + 8.0, PLATEAU]));
        slopes.push(([x0 + 8.0, PLATEAU], [x0 + 16.0, GROUND]));
    }
    (boxes, slopes)
}

/// The walkable surface as one polyline, tiles, left to right: down the inside of the left wall,
/// along the ground and over every feature, up the inside of the right wall.
pub fn surface_polyline(width: i32) -> Vec<[f32; 2]> {
    let w = width as f32;
    let top = HEIGHT as f32;
    let mut points = vec![[1.0, top], [1.0, GROUND]];
    for x0 in feature_starts(width) {
        let x0 = x0 as f32;
        points.extend([
            [x0, GROUND],
            [x0 + 4.0, PLATEAU],
            [x0 + 8.0, PLATEAU],
            [x0 + 16.0, GROUND],
        ]);
    }
    points.extend([[w - 1.0, GROUND], [w - 1.0, top]]);
    points
}

/// Height of the terrain's surface at `x` (tiles); the walls' tops inside the wall columns.
pub fn surface(width: i32, x: f32) -> f32 {
    if x < 1.0 || x > width as f32 - 1.0 {
        return HEIGHT as f32;
    }
    let k = ((x - 8.0) / 32.0).floor();
    let x0 = 8.0 + 32.0 * k;
    if k < 0.0 || x0 as i32 + 16 >= width - 1 {
        return GROUND;
    }
    let local = x - x0;
    if local <= 4.0 {
        GROUND + local
    } else if local <= 8.0 {
        PLATEAU
    } else if local <= 16.0 {
        PLATEAU - (local - 8.0) * 0.5
    } else {
        GROUND
    }
}

/// Highest point of the surface under the span `[min_x, max_x]` (tiles). The surface is piecewise
/// linear with corners at whole tiles, so the ends and the whole tiles between them suffice.
pub fn highest_surface(width: i32, min_x: f32, max_x: f32) -> f32 {
    let mut highest = surface(width, min_x).max(surface(width, max_x));
    let mut x = min_x.ceil();
    while x < max_x {
        highest = highest.max(surface(width, x));
        x += 1.0;
    }
    highest
}

/// Where the `i`-th of `n` characters starts: spread evenly between the walls, in the air.
pub fn spawn_x(width: i32, i: usize, n: usize) -> f32 {
    2.0 + (width - 4) as f32 * (i as f32 + 0.5) / n as f32
}

/// Height of a character's centre at spawn, tiles.
pub const SPAWN_Y: f32 = 7.5;

/// Initial walking direction of the `i`-th character.
pub fn spawn_dir(i: usize) -> f32 {
    if i.is_multiple_of(2) { 1.0 } else { -1.0 }
}

/// One tile of the terrain as the peers' per-tile colliders see it, tiles.
#[derive(Clone, Debug)]
pub enum TileShape {
    /// A solid cell: the unit square whose centre is given.
    Square { centre: [f32; 2] },
    /// A slope cell: its convex polygon, counter-clockwise, in world space.
    Polygon(Vec<[f32; 2]>),
}

/// Every solid or slope tile of the terrain `width` tiles wide (one-way and empty cells are none):
/// what a naive tile-map import gives a physics engine, one collider each.
pub fn tile_shapes(width: i32) -> impl Iterator<Item = TileShape> {
    let grid = terrain_grid(width);
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    (0..h)
        .flat_map(move |y| (0..w).map(move |x| (x, y)))
        .filter_map(move |(x, y)| {
            let (fx, fy) = (x as f32, y as f32);
            match grid.get(x, y) {
                TileCell::Solid => Some(TileShape::Square {
                    centre: [fx + 0.5, fy + 0.5],
                }),
                TileCell::Empty | TileCell::OneWay => None,
                slope => Some(TileShape::Polygon(
                    slope_cell_polygon(slope, fx, fy).expect("every other cell is a slope"),
                )),
            }
        })
}

/// The polygon of the slope cell `cell` whose bottom-left corner is `(x, y)` (tiles,
/// counter-clockwise), or `None` for a cell that is no slope.
fn slope_cell_polygon(cell: TileCell, x: f32, y: f32) -> Option<Vec<[f32; 2]>> {
    // Heights of the cell's surface at its left and right edges, above its bottom.
    let (left, right) = match cell {
        TileCell::Slope45 { rises_right: true } => (0.0, 1.0),
        TileCell::Slope45 { rises_right: false } => (1.0, 0.0),
        TileCell::SlopeHalfLow { rises_right: true } => (0.0, 0.5),
        TileCell::SlopeHalfLow { rises_right: false } => (0.5, 0.0),
        TileCell::SlopeHalfHigh { rises_right: true } => (0.5, 1.0),
        TileCell::SlopeHalfHigh { rises_right: false } => (1.0, 0.5),
        _ => return None,
    };
    let mut points = vec![[x, y], [x + 1.0, y]];
    if right > 0.0 {
        points.push([x + 1.0, y + right]);
    }
    if left > 0.0 {
        points.push([x, y + left]);
    }
    Some(points)
}
