//! A tile grid as the broad phase keeps it: its cells plus the runs they form (see
//! [`crate::tile_grid`] for what a grid's pieces are and how they are named).

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::CollisionLayers;
use crate::geometry::SlopeShape;
use crate::geometry::{Aabb, floor_cell};
use crate::tile_grid::{TileCell, TileGrid};

/// What a piece of a grid is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PieceKind {
    /// A solid box.
    Solid,
    /// A one-way platform box.
    OneWay,
    /// A slope segment.
    Slope(SlopeShape),
}

/// One piece of a grid near a query: a box or a slope, named by `part`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GridPiece {
    /// Number of the piece in its grid (first cell's index + 1).
    pub(crate) part: u32,
    /// Its box in world space (a slope's bounding rect).
    pub(crate) aabb: Aabb,
    /// What it is.
    pub(crate) kind: PieceKind,
}

/// A grid as the broad phase keeps it: the cells plus the runs they form, rebuilt when the grid
/// changes, so that finding the piece of a cell is O(1).
#[derive(Clone, Debug)]
pub(crate) struct GridData {
    /// World position of the bottom-left corner of cell (0, 0).
    pub(crate) origin: Vec2,
    /// The grid.
    pub(crate) grid: TileGrid,
    /// Layers of the whole grid.
    pub(crate) layers: CollisionLayers,
    /// For each cell: first and last column of its row run (solid and one-way cells).
    row_runs: Vec<(u32, u32)>,
    /// For each slope cell: index of its slope run in `slope_runs`.
    cell_slope_run: Vec<u32>,
    /// Slope runs: first cell index and the segment in world space.
    slope_runs: Vec<(u32, SlopeShape)>,
}

const NO_RUN: u32 = u32::MAX;

impl GridData {
    /// Builds the runs of `grid` placed at `origin`.
    pub(crate) fn new(grid: TileGrid, origin: Vec2, layers: CollisionLayers) -> Self {
        let (w, h) = (grid.width as usize, grid.height as usize);
        let mut row_runs = vec![(0, 0); w * h];
        for y in 0..h {
            let mut x = 0;
            while x < w {
                let cell = grid.cells[y * w + x];
                let mut end = x;
                if grid.merge && matches!(cell, TileCell::Solid | TileCell::OneWay) {
                    while end + 1 < w && grid.cells[y * w + end + 1] == cell {
                        end += 1;
                    }
                }
                for i in x..=end {
                    row_runs[y * w + i] = (x as u32, end as u32);
                }
                x = end + 1;
            }
        }
        // Slope runs: follow each segment's right end to the cell whose left end continues it
        // with the same gradient.
        let mut starts: HashMap<(IVec2, i32), usize> = HashMap::default();
        for y in 0..h {
            for x in 0..w {
                if let Some((a, b)) = grid.cells[y * w + x].slope_halves() {
                    let origin = IVec2::new(2 * x as i32, 2 * y as i32);
                    starts.insert((origin + a, b.y - a.y), y * w + x);
                }
            }
        }
        let mut cell_slope_run = vec![NO_RUN; w * h];
        let mut slope_runs = Vec::new();
        let half = grid.cell_size * 0.5;
        for y in 0..h {
            for x in 0..w {
                let first = y * w + x;
                let Some((a, b)) = grid.cells[first].slope_halves() else {
                    continue;
                };
                let rise = b.y - a.y;
                let start = IVec2::new(2 * x as i32, 2 * y as i32) + a;
                // Only a cell that nothing continues into starts a run.
                if start.x >= 2 {
                    let before = IVec2::new(start.x - 2, start.y - rise);
                    if starts.get(&(before, rise)).is_some() {
                        continue;
                    }
                }
                let run = slope_runs.len() as u32;
                let mut end = start;
                let mut cell = first;
                loop {
                    cell_slope_run[cell] = run;
                    end = IVec2::new(end.x + 2, end.y + rise);
                    match starts.get(&(end, rise)) {
                        Some(&next) => cell = next,
                        None => break,
                    }
                }
                let to_world = |p: IVec2| origin + p.as_vec2() * half;
                slope_runs.push((first as u32, SlopeShape::new(to_world(start), to_world(end))));
            }
        }
        Self {
            origin,
            grid,
            layers,
            row_runs,
            cell_slope_run,
            slope_runs,
        }
    }

    /// The grid's bounds in world space.
    pub(crate) fn bounds(&self) -> Aabb {
        Aabb::from_min_size(
            self.origin,
            Vec2::new(self.grid.width as f32, self.grid.height as f32) * self.grid.cell_size,
        )
    }

    /// The columns and rows of the cells that `area` overlaps or touches, clamped to the grid, or
    /// `None` when it misses the grid.
    pub(crate) fn cell_range(&self, area: &Aabb) -> Option<(IVec2, IVec2)> {
        let local_min = (area.min - self.origin) / self.grid.cell_size;
        let local_max = (area.max - self.origin) / self.grid.cell_size;
        let (w, h) = (self.grid.width as i32, self.grid.height as i32);
        if !local_min.is_finite() || !local_max.is_finite() {
            return None;
        }
        let lo = IVec2::new(floor_cell(local_min.x), floor_cell(local_min.y));
        let hi = IVec2::new(floor_cell(local_max.x), floor_cell(local_max.y));
        if hi.x < 0 || hi.y < 0 || lo.x >= w || lo.y >= h {
            return None;
        }
        Some((lo.max(IVec2::ZERO), hi.min(IVec2::new(w - 1, h - 1))))
    }

    /// The piece that contains cell `index`, if the cell is not empty.
    pub(crate) fn piece_of(&self, index: usize) -> Option<GridPiece> {
        let w = self.grid.width as usize;
        let cell = self.grid.cells[index];
        let size = self.grid.cell_size;
        let y = index / w;
        match cell {
            TileCell::Empty => None,
            TileCell::Solid | TileCell::OneWay => {
                let (first, last) = self.row_runs[index];
                let min = self.origin + Vec2::new(first as f32, y as f32) * size;
                Some(GridPiece {
                    part: (y * w + first as usize) as u32 + 1,
                    aabb: Aabb::from_min_size(min, Vec2::new((last - first + 1) as f32, 1.0) * size),
                    kind: if cell == TileCell::Solid {
                        PieceKind::Solid
                    } else {
                        PieceKind::OneWay
                    },
                })
            }
            _ => {
                let run = self.cell_slope_run[index];
                let (first, shape) = *self.slope_runs.get(run as usize)?;
                Some(GridPiece {
                    part: first + 1,
                    aabb: shape.rect(),
                    kind: PieceKind::Slope(shape),
                })
            }
        }
    }

    /// The piece numbered `part`, if it still exists.
    pub(crate) fn piece(&self, part: u32) -> Option<GridPiece> {
        let index = part.checked_sub(1)? as usize;
        (index < self.grid.cells.len())
            .then(|| self.piece_of(index))
            .flatten()
            .filter(|p| p.part == part)
    }

    /// Every piece with a cell in the cell range of `area`, each once, appended to `out`.
    #[cfg(any(test, feature = "debug-overlay"))]
    pub(crate) fn pieces_in(&self, area: &Aabb, out: &mut Vec<GridPiece>) {
        self.for_each_piece_in(area, |piece| out.push(*piece));
    }

    /// Calls `f` once for every piece with a cell in the cell range of `area`. A row run is one
    /// piece per row, so only slope runs, which span rows, can be met twice: they are remembered.
    pub(crate) fn for_each_piece_in(&self, area: &Aabb, mut f: impl FnMut(&GridPiece)) {
        let Some((lo, hi)) = self.cell_range(area) else { return };
        let w = self.grid.width as usize;
        let mut slopes_seen = SeenParts::default();
        for y in lo.y..=hi.y {
            let mut x = lo.x;
            while x <= hi.x {
                let index = y as usize * w + x as usize;
                match self.grid.cells[index] {
                    TileCell::Empty => x += 1,
                    TileCell::Solid | TileCell::OneWay => {
                        if let Some(piece) = self.piece_of(index) {
                            f(&piece);
                        }
                        // Skip the rest of a row run at once.
                        x = self.row_runs[index].1 as i32 + 1;
                    }
                    _ => {
                        if let Some(piece) = self.piece_of(index)
                            && slopes_seen.insert(piece.part)
                        {
                            f(&piece);
                        }
                        x += 1;
                    }
                }
            }
        }
    }
}

/// A small set of piece numbers, on the stack while it has few.
#[derive(Default)]
struct SeenParts {
    inline: [u32; 8],
    len: usize,
    spilled: Vec<u32>,
}

impl SeenParts {
    /// Adds `part`; returns whether it is new.
    fn insert(&mut self, part: u32) -> bool {
        if self.inline[..self.len].contains(&part) || self.spilled.contains(&part) {
            return false;
        }
        if self.len < self.inline.len() {
            self.inline[self.len] = part;
            self.len += 1;
        } else {
            self.spilled.push(part);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(rows: &[&str]) -> GridData {
        GridData::new(
            TileGrid::from_rows(rows, 16.0).unwrap(),
            Vec2::ZERO,
            CollisionLayers::ALL,
        )
    }

    fn area(x: f32, y: f32, w: f32, h: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h))
    }

    /// The slope segments among the pieces of `d` in `region`.
    fn slopes_in(d: &GridData, region: Aabb) -> Vec<SlopeShape> {
        let mut out = Vec::new();
        d.pieces_in(&region, &mut out);
        out.iter()
            .filter_map(|p| match p.kind {
                PieceKind::Slope(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_box_covers_only_the_cells_under_it() {
        let d = data(&["....", "....", "...."]);
        assert_eq!(
            d.cell_range(&area(17.0, 1.0, 14.0, 20.0)),
            Some((IVec2::new(1, 0), IVec2::new(1, 1)))
        );
        assert_eq!(d.cell_range(&area(-50.0, -50.0, 10.0, 10.0)), None);
        assert_eq!(
            d.cell_range(&area(-5.0, 40.0, 200.0, 100.0)),
            Some((IVec2::new(0, 2), IVec2::new(3, 2)))
        );
    }

    #[test]
    fn solid_rows_merge_into_runs_unless_merge_is_off() {
        let d = data(&["##.###"]);
        let mut out = Vec::new();
        d.pieces_in(&area(0.0, 0.0, 96.0, 16.0), &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].aabb, area(0.0, 0.0, 32.0, 16.0));
        assert_eq!(out[1].aabb, area(48.0, 0.0, 48.0, 16.0));
        let mut grid = TileGrid::from_rows(&["##.###"], 16.0).unwrap();
        grid.merge = false;
        let d = GridData::new(grid, Vec2::ZERO, CollisionLayers::ALL);
        out.clear();
        d.pieces_in(&area(0.0, 0.0, 96.0, 16.0), &mut out);
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn a_query_near_one_end_of_a_long_run_gets_the_whole_run() {
        let d = data(&[&"#".repeat(500)]);
        let mut out = Vec::new();
        d.pieces_in(&area(4000.0, 10.0, 10.0, 10.0), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].aabb, area(0.0, 0.0, 8000.0, 16.0));
        assert_eq!(d.piece(out[0].part), Some(out[0]));
    }

    #[test]
    fn a_ramp_of_45_degree_cells_is_one_segment() {
        let d = data(&["..../#", ".../##", "../###"]);
        let slope = slopes_in(&d, area(40.0, 10.0, 4.0, 4.0)).first().copied();
        assert_eq!(
            slope,
            Some(SlopeShape::new(Vec2::new(32.0, 0.0), Vec2::new(80.0, 48.0)))
        );
    }

    #[test]
    fn gentle_ramps_join_their_low_and_high_halves_both_ways() {
        let d = data(&["...pP", "pP###"]);
        let slopes = slopes_in(&d, area(0.0, 0.0, 80.0, 32.0));
        assert_eq!(
            slopes,
            vec![
                SlopeShape::new(Vec2::new(0.0, 0.0), Vec2::new(32.0, 16.0)),
                SlopeShape::new(Vec2::new(48.0, 16.0), Vec2::new(80.0, 32.0))
            ]
        );
        let d = data(&["Qq...", "##Qq."]);
        let slopes = slopes_in(&d, area(0.0, 0.0, 80.0, 32.0));
        assert_eq!(
            slopes,
            vec![SlopeShape::new(Vec2::new(0.0, 32.0), Vec2::new(64.0, 0.0))],
            "a run across rows"
        );
    }

    #[test]
    fn different_gradients_are_different_runs() {
        let d = data(&["../", "p P"]);
        let runs: Vec<_> = d.slope_runs.iter().map(|(_, s)| s.gradient()).collect();
        assert_eq!(runs.len(), 3, "{runs:?}");
    }

    #[test]
    fn one_way_cells_are_one_way_pieces() {
        let d = data(&["===."]);
        let mut out = Vec::new();
        d.pieces_in(&area(0.0, 0.0, 64.0, 16.0), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].kind, PieceKind::OneWay);
    }
}
