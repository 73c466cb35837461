//! Tile grids: a whole layer of cells as one collider, queried cell by cell (see *Tile grids* in
//! [the physics rules](crate::physics_rules)).
//!
//! A body's box is turned into the few cells it covers (`floor(x / cell)`), so a step costs the
//! same whatever the level's size. The broad phase expands the cells near a body into *pieces*:
//! - runs of adjacent solid cells in a row become one box (or one box per cell with
//!   [`TileGrid::merge`] off: the behaviour is the same, only the count of candidates differs);
//! - runs of one-way cells likewise, as one-way platforms;
//! - runs of slope cells that continue each other in a straight line become one slope segment, so
//!   a ramp of tiles behaves exactly as one long [`SlopeSegment`](crate::SlopeSegment).
//!
//! A piece is named by its grid entity and a `part` number (its first cell's index + 1), which
//! contacts and drop-through use. Editing a cell (a broken block) takes effect the next step.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::CollisionLayers;
use crate::geometry::SlopeShape;
use crate::geometry::{Aabb, floor_cell};

/// What one cell of a [`TileGrid`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, Default, PartialEq)]
pub enum TileCell {
    /// Nothing.
    #[default]
    Empty,
    /// A solid block.
    Solid,
    /// A platform solid only from above, as [`OneWayPlatform`](crate::OneWayPlatform).
    OneWay,
    /// A 45° slope from one bottom corner to the opposite top corner.
    Slope45 {
        /// The high end is on the right.
        rises_right: bool,
    },
    /// The lower cell of a two-cell slope of gradient 1/2 ("22.5°" in tile editors): the surface
    /// goes from the bottom to the middle of the cell.
    SlopeHalfLow {
        /// The high end is on the right.
        rises_right: bool,
    },
    /// The upper cell of a two-cell slope of gradient 1/2: from the middle to the top of the cell.
    SlopeHalfHigh {
        /// The high end is on the right.
        rises_right: bool,
    },
}

impl TileCell {
    /// The cell's slope segment in half-cell units relative to its bottom-left corner, as
    /// (left end, right end), or `None` for a cell that is not a slope.
    fn slope_halves(self) -> Option<(IVec2, IVec2)> {
        let (low, high) = match self {
            TileCell::Slope45 { rises_right } => ((0, 2), rises_right),
            TileCell::SlopeHalfLow { rises_right } => ((0, 1), rises_right),
            TileCell::SlopeHalfHigh { rises_right } => ((1, 2), rises_right),
            _ => return None,
        };
        let (a, b) = low;
        Some(if high {
            (IVec2::new(0, a), IVec2::new(2, b))
        } else {
            (IVec2::new(0, b), IVec2::new(2, a))
        })
    }

    /// The character used by [`TileGrid::from_rows`].
    pub fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '.' | ' ' => TileCell::Empty,
            '#' => TileCell::Solid,
            '=' => TileCell::OneWay,
            '/' => TileCell::Slope45 { rises_right: true },
            '\\' => TileCell::Slope45 { rises_right: false },
            'p' => TileCell::SlopeHalfLow { rises_right: true },
            'P' => TileCell::SlopeHalfHigh { rises_right: true },
            'q' => TileCell::SlopeHalfLow { rises_right: false },
            'Q' => TileCell::SlopeHalfHigh { rises_right: false },
            _ => return None,
        })
    }
}

/// A grid of cells as one static collider. The entity's translation is the bottom-left corner of
/// cell (0, 0); rows go up. Cells are private so that every change goes through
/// [`set`](Self::set), which Bevy's change detection sees.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// // A floor of tiles with a ramp and a one-way ledge (rows top first; `#` solid, `=` one-way,
/// // `/` and `\` ramps), its bottom-left corner at the origin.
/// let grid = TileGrid::from_rows(&["....==", "...###", "..####", "######"], 16.0).unwrap();
/// assert_eq!((grid.width(), grid.height()), (6, 4));
/// app.world_mut().spawn((grid, Transform::default()));
/// let body = app
///     .world_mut()
///     .spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(8.0, 80.0, 0.0)))
///     .id();
/// for _ in 0..100 {
///     app.update();
/// }
/// let feet = app.world().get::<Transform>(body).unwrap().translation.y - 12.0;
/// assert!((feet - 16.0).abs() < 0.01, "stands on the bottom row: {feet}");
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
#[require(Transform, CollisionLayers)]
pub struct TileGrid {
    /// Side of a square cell, in pixels.
    pub cell_size: f32,
    /// Merge adjacent solid (and one-way) cells of a row into one box. Same behaviour, fewer
    /// candidates.
    pub merge: bool,
    width: u32,
    height: u32,
    cells: Vec<TileCell>,
}

/// Why rows of text cannot make a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileGridParseError {
    /// Row (0 = first line, the top row) of the problem.
    pub row: usize,
    /// Column of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TileGridParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tile grid row {} column {}: {}", self.row, self.column, self.message)
    }
}

impl std::error::Error for TileGridParseError {}

impl TileGrid {
    /// An empty grid of `width` × `height` cells of `cell_size` pixels.
    pub fn new(width: u32, height: u32, cell_size: f32) -> Self {
        Self {
            cell_size,
            merge: true,
            width,
            height,
            cells: vec![TileCell::Empty; width as usize * height as usize],
        }
    }

    /// A grid from rows of text, the first line being the *top* row: `.` empty, `#` solid, `=`
    /// one-way, `/` and `\` 45° slopes, `p`/`P` the low/high cells of a gentle slope rising right,
    /// `q`/`Q` rising left. Shorter lines are padded with empty cells.
    pub fn from_rows(rows: &[&str], cell_size: f32) -> Result<Self, TileGridParseError> {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as u32;
        let height = rows.len() as u32;
        let mut grid = Self::new(width, height, cell_size);
        for (row, line) in rows.iter().enumerate() {
            let y = height - 1 - row as u32;
            for (column, c) in line.chars().enumerate() {
                let cell = TileCell::from_char(c).ok_or_else(|| TileGridParseError {
                    row,
                    column,
                    message: format!("unknown cell character {c:?}"),
                })?;
                grid.cells[(y * width) as usize + column] = cell;
            }
        }
        Ok(grid)
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The cell at column `x`, row `y` (row 0 at the bottom); `Empty` outside the grid.
    pub fn get(&self, x: i32, y: i32) -> TileCell {
        self.index(x, y)
            .and_then(|i| self.cells.get(i).copied())
            .unwrap_or(TileCell::Empty)
    }

    /// Changes a cell; returns false (and changes nothing) outside the grid.
    pub fn set(&mut self, x: i32, y: i32, cell: TileCell) -> bool {
        match self.index(x, y).and_then(|i| self.cells.get_mut(i)) {
            Some(slot) => {
                *slot = cell;
                true
            }
            None => false,
        }
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height)
            .then(|| (y as u32 * self.width + x as u32) as usize)
    }

    /// Why this grid cannot be simulated, or `None`.
    pub fn problem(&self) -> Option<String> {
        if !self.cell_size.is_finite() || self.cell_size <= 0.0 {
            Some(format!(
                "tile grid cell size {} must be finite and greater than zero",
                self.cell_size
            ))
        } else if self.cells.len() != self.width as usize * self.height as usize {
            Some("tile grid cell count does not match its size".to_string())
        } else {
            None
        }
    }
}

/// What a piece of a grid is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PieceKind {
    /// A solid box.
    Solid,
    /// A one-way platform box.
    OneWay,
    /// A slope segment.
    Slope(SlopeShape),
}

/// One piece of a grid near a query: a box or a slope, named by `part`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridPiece {
    /// Number of the piece in its grid (first cell's index + 1).
    pub part: u32,
    /// Its box in world space (a slope's bounding rect).
    pub aabb: Aabb,
    /// What it is.
    pub kind: PieceKind,
}

/// A grid as the broad phase keeps it: the cells plus the runs they form, rebuilt when the grid
/// changes, so that finding the piece of a cell is O(1).
#[derive(Clone, Debug)]
pub struct GridData {
    /// World position of the bottom-left corner of cell (0, 0).
    pub origin: Vec2,
    /// The grid.
    pub grid: TileGrid,
    /// Layers of the whole grid.
    pub layers: CollisionLayers,
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
    pub fn new(grid: TileGrid, origin: Vec2, layers: CollisionLayers) -> Self {
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
    pub fn bounds(&self) -> Aabb {
        Aabb::from_min_size(
            self.origin,
            Vec2::new(self.grid.width as f32, self.grid.height as f32) * self.grid.cell_size,
        )
    }

    /// The columns and rows of the cells that `area` overlaps or touches, clamped to the grid, or
    /// `None` when it misses the grid.
    pub fn cell_range(&self, area: &Aabb) -> Option<(IVec2, IVec2)> {
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
    pub fn piece_of(&self, index: usize) -> Option<GridPiece> {
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
    pub fn piece(&self, part: u32) -> Option<GridPiece> {
        let index = part.checked_sub(1)? as usize;
        (index < self.grid.cells.len())
            .then(|| self.piece_of(index))
            .flatten()
            .filter(|p| p.part == part)
    }

    /// Every piece with a cell in the cell range of `area`, each once, appended to `out`.
    pub fn pieces_in(&self, area: &Aabb, out: &mut Vec<GridPiece>) {
        self.for_each_piece_in(area, |piece| out.push(*piece));
    }

    /// Calls `f` once for every piece with a cell in the cell range of `area`. A row run is one
    /// piece per row, so only slope runs, which span rows, can be met twice: they are remembered.
    pub fn for_each_piece_in(&self, area: &Aabb, mut f: impl FnMut(&GridPiece)) {
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
    fn rows_of_text_are_read_top_row_first() {
        let grid = TileGrid::from_rows(&["#..", "=#/"], 16.0).unwrap();
        assert_eq!((grid.width(), grid.height()), (3, 2));
        assert_eq!(grid.get(0, 1), TileCell::Solid);
        assert_eq!(grid.get(0, 0), TileCell::OneWay);
        assert_eq!(grid.get(2, 0), TileCell::Slope45 { rises_right: true });
        assert_eq!(grid.get(5, 5), TileCell::Empty, "outside is empty");
        let error = TileGrid::from_rows(&["#x"], 16.0).unwrap_err();
        assert_eq!((error.row, error.column), (0, 1));
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

    #[test]
    fn a_bad_cell_size_is_a_problem() {
        assert!(TileGrid::new(2, 2, 0.0).problem().is_some());
        assert!(TileGrid::new(2, 2, f32::NAN).problem().is_some());
        assert!(TileGrid::new(2, 2, 16.0).problem().is_none());
    }
}
