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

use bevy::prelude::*;

use crate::components::CollisionLayers;

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
    pub(crate) fn slope_halves(self) -> Option<(IVec2, IVec2)> {
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
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) cells: Vec<TileCell>,
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_bad_cell_size_is_a_problem() {
        assert!(TileGrid::new(2, 2, 0.0).problem().is_some());
        assert!(TileGrid::new(2, 2, f32::NAN).problem().is_some());
        assert!(TileGrid::new(2, 2, 16.0).problem().is_none());
    }
}
