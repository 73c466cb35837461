//! LDtk bridge (feature `ldtk`, on top of `bevy_ecs_ldtk` 0.15): the IntGrid layers and entities
//! of an LDtk 1.5 project become physics.
//!
//! - An IntGrid layer named in [`LdtkPhysicsMapping::layers`] becomes one [`TileGrid`](crate::TileGrid): each value
//!   maps to a [`CellKind`]. The default mapping makes value 1 of a layer named `Collisions`,
//!   `Collision`, `Walls` or `IntGrid` solid. A mapping can be loaded from RON.
//! - Entities, by identifier (configurable):
//!   - `Slope`: its rectangle's diagonal, any gradient; Bool field `rises_right` (default true)
//!     picks bottom-left → top-right or top-left → bottom-right;
//!   - `OneWayPlatform`: its rectangle, solid from above;
//!   - `Lift`: its rectangle is the lift; `Array<Point>` field `path` lists the cells its centre
//!     visits after its start; optional `speed` (px/s, default 48), `wait` (s, default 0.5),
//!     `mode` (`PingPong`, `Loop`, `Once`; default `PingPong`), `one_way` (Bool, default false).
//!
//! Levels are placed at their world position (LDtk's y-down pixels turned y-up, as
//! `bevy_ecs_ldtk` places them with `LevelSpawnBehavior::UseWorldTranslation`), so the levels of a
//! world sit side by side. Every physics entity of a level carries [`LdtkLevelPhysics`] with the
//! level's iid; [`LdtkPhysicsPlugin`] spawns them when `bevy_ecs_ldtk` spawns a level and despawns
//! them with it.
//!
//! Bad input never panics and loses nothing that can be kept: a file that fails to parse is one
//! [`LdtkPhysicsError`] naming the file, line and column; a missing collision layer, an IntGrid
//! value without a mapping or an entity with missing fields is one error naming the file, level,
//! layer or entity and the problem, and the rest of the level still loads.

mod level;
mod plugin;

pub use level::*;
pub use plugin::*;

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
/// The LDtk types a game reads beside the physics (entity and level fields).
pub use bevy_ecs_ldtk::ldtk::{FieldValue, LdtkJson, Level};
use serde::{Deserialize, Serialize};

use crate::tile_grid::TileCell;

/// What an IntGrid value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Reflect)]
pub enum CellKind {
    /// Not a collider.
    Empty,
    /// A solid block.
    Solid,
    /// Solid from above only.
    OneWay,
    /// 45° slope, high end on the right.
    Slope45RisingRight,
    /// 45° slope, high end on the left.
    Slope45RisingLeft,
    /// Lower cell of a gradient-1/2 slope rising right.
    SlopeHalfLowRisingRight,
    /// Upper cell of a gradient-1/2 slope rising right.
    SlopeHalfHighRisingRight,
    /// Lower cell of a gradient-1/2 slope rising left.
    SlopeHalfLowRisingLeft,
    /// Upper cell of a gradient-1/2 slope rising left.
    SlopeHalfHighRisingLeft,
}

impl From<CellKind> for TileCell {
    fn from(kind: CellKind) -> Self {
        match kind {
            CellKind::Empty => TileCell::Empty,
            CellKind::Solid => TileCell::Solid,
            CellKind::OneWay => TileCell::OneWay,
            CellKind::Slope45RisingRight => TileCell::Slope45 { rises_right: true },
            CellKind::Slope45RisingLeft => TileCell::Slope45 { rises_right: false },
            CellKind::SlopeHalfLowRisingRight => TileCell::SlopeHalfLow { rises_right: true },
            CellKind::SlopeHalfHighRisingRight => TileCell::SlopeHalfHigh { rises_right: true },
            CellKind::SlopeHalfLowRisingLeft => TileCell::SlopeHalfLow { rises_right: false },
            CellKind::SlopeHalfHighRisingLeft => TileCell::SlopeHalfHigh { rises_right: false },
        }
    }
}

/// How an LDtk project becomes physics.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LdtkPhysicsMapping {
    /// IntGrid layer identifier → (value → kind). Value 0 is always empty.
    pub layers: BTreeMap<String, BTreeMap<i32, CellKind>>,
    /// Identifier of slope entities.
    pub slope_entity: String,
    /// Identifier of one-way platform entities.
    pub one_way_entity: String,
    /// Identifier of lift entities.
    pub lift_entity: String,
    /// Merge adjacent solid cells into row runs ([`TileGrid::merge`](crate::TileGrid::merge)).
    pub merge_cells: bool,
}

impl Default for LdtkPhysicsMapping {
    fn default() -> Self {
        let solid_one = BTreeMap::from([(1, CellKind::Solid)]);
        Self {
            layers: ["Collisions", "Collision", "Walls", "IntGrid"]
                .into_iter()
                .map(|name| (name.to_string(), solid_one.clone()))
                .collect(),
            slope_entity: "Slope".to_string(),
            one_way_entity: "OneWayPlatform".to_string(),
            lift_entity: "Lift".to_string(),
            merge_cells: true,
        }
    }
}

impl LdtkPhysicsMapping {
    /// Reads a mapping from RON text; `file` names it in the error.
    pub fn from_ron(text: &str, file: &str) -> Result<Self, LdtkPhysicsError> {
        ron::from_str(text).map_err(|e| {
            LdtkPhysicsError::file(
                file,
                format!("line {}, column {}: {}", e.span.start.line, e.span.start.col, e.code),
            )
        })
    }

    /// Reads a mapping from a RON file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LdtkPhysicsError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| LdtkPhysicsError::file(&path.display().to_string(), format!("cannot read: {e}")))?;
        Self::from_ron(&text, &path.display().to_string())
    }
}

/// A problem in an LDtk project or mapping, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LdtkPhysicsError {
    /// The file.
    pub file: String,
    /// The level's identifier, if the problem is in a level.
    pub level: Option<String>,
    /// The layer's identifier, if the problem is in a layer.
    pub layer: Option<String>,
    /// The entity (identifier and iid), if the problem is in an entity.
    pub entity: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl LdtkPhysicsError {
    fn file(file: &str, message: String) -> Self {
        Self {
            file: file.to_string(),
            level: None,
            layer: None,
            entity: None,
            message,
        }
    }
}

impl std::fmt::Display for LdtkPhysicsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(level) = &self.level {
            write!(f, ": level {level}")?;
        }
        if let Some(layer) = &self.layer {
            write!(f, ": layer {layer}")?;
        }
        if let Some(entity) = &self.entity {
            write!(f, ": entity {entity}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LdtkPhysicsError {}

/// Reads and parses an `.ldtk` file.
pub fn load_ldtk_file(path: impl AsRef<Path>) -> Result<LdtkJson, LdtkPhysicsError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| LdtkPhysicsError::file(&name, format!("cannot read: {e}")))?;
    parse_ldtk(&text, &name)
}

/// Parses the text of an `.ldtk` file; `file` names it in the error.
pub fn parse_ldtk(text: &str, file: &str) -> Result<LdtkJson, LdtkPhysicsError> {
    serde_json::from_str(text).map_err(|e| {
        LdtkPhysicsError::file(
            file,
            format!(
                "not a valid LDtk project at line {}, column {}: {e}",
                e.line(),
                e.column()
            ),
        )
    })
}
