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
//!   - `Ladder`: its rectangle is a [`Ladder`](crate::Ladder) (an IntGrid value mapped to
//!     [`CellKind::Ladder`] makes one of each vertical run of its cells);
//!   - `Lift`: its rectangle is the lift; `Array<Point>` field `path` lists the cells its centre
//!     visits after its start; optional `speed` (px/s, default 48), `wait` (s, default 0.5),
//!     `mode` (`PingPong`, `Loop`, `Once`; default `PingPong`), `one_way` (Bool, default false).
//!
//! Levels are placed at their world position (LDtk's y-down pixels turned y-up, as
//! `bevy_ecs_ldtk` places them with `LevelSpawnBehavior::UseWorldTranslation`), so the levels of a
//! world sit side by side. Every physics entity of a level carries [`LdtkLevelPhysics`] with the
//! level's iid; [`LdtkPhysicsPlugin`] spawns them when `bevy_ecs_ldtk` spawns a level and despawns
//! them with it.
//! It runs in [`LdtkPhysicsSystems`], right after `bevy_ecs_ldtk` spawns levels in `PreUpdate`: a
//! system after that set finds the physics of every level spawned in the frame.
//!
//! The bridge owns a level's life: it refuses a level `bevy_ecs_ldtk` would panic on
//! ([`LdtkLevelRefused`]), spawns its physics and says so ([`LdtkLevelReady`], the hook where a
//! game spawns its objects from [`LevelPhysics::entities`]), spawns it again when asked
//! ([`RespawnLdtkLevel`]), and plays a changed file at once, keeping what it read last when the
//! save is broken; [`LdtkLiveReloadPlugin`] notices the changes without a Bevy feature.
//!
//! # Example
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_ecs_ldtk::prelude::*;
//! use bevy_platformer_physics::ldtk::{CellKind, LdtkPhysicsAppExt, LdtkPhysicsPlugin};
//! use bevy_platformer_physics::prelude::*;
//!
//! fn main() {
//!     App::new()
//!         // A game adds `DefaultPlugins` (which hold the asset, image and transform plugins).
//!         .add_plugins((MinimalPlugins, AssetPlugin::default(), ImagePlugin::default(), TransformPlugin))
//!         .add_plugins((LdtkPlugin, PlatformerPhysicsPlugins::default(), LdtkPhysicsPlugin))
//!         // The project's "Collisions" layer: its "walls" solid, its "ledges" one-way.
//!         .register_ldtk_cell_physics("Collisions", "walls", CellKind::Solid)
//!         .register_ldtk_cell_physics("Collisions", "ledges", CellKind::OneWay)
//!         .insert_resource(LevelSelection::index(0))
//!         .add_systems(Startup, |mut commands: Commands, assets: Res<AssetServer>| {
//!             commands.spawn(LdtkWorldBundle {
//!                 ldtk_handle: assets.load("world.ldtk").into(),
//!                 ..default()
//!             });
//!         })
//!         .run();
//! }
//! ```
//!
//! A level whose data contradicts its project's definitions, which `bevy_ecs_ldtk` would panic
//! on, is not spawned: [`LdtkPhysicsPlugin`] reports it ([`level_spawn_problems`]) and the other
//! levels spawn. One [`PhysicsConfig::block_size`](crate::PhysicsConfig::block_size) scales the
//! tolerances for the whole world; a mapped layer of another cell size is a warning
//! ([`LdtkPhysicsReport::warnings`]).
//!
//! Bad input never panics and loses nothing that can be kept: a file that fails to parse is one
//! [`LdtkPhysicsError`] naming the file, line and column; a missing collision layer, an IntGrid
//! value without a mapping or an entity with missing fields is one error naming the file, level,
//! layer or entity and the problem, and the rest of the level still loads.

mod level;
mod mapping_file;
mod plugin;
mod project;
mod reload;
mod spawn_check;

pub use level::*;
pub use mapping_file::{LdtkPhysicsMappingAsset, LdtkPhysicsMappingFile, LdtkPhysicsMappingLoader};
pub use plugin::*;
pub use project::*;
pub use reload::{LdtkLiveReload, LdtkLiveReloadPlugin};
pub use spawn_check::level_spawn_problems;

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
/// The LDtk types a game reads beside the physics (entity and level fields).
pub use bevy_ecs_ldtk::ldtk::{Definitions, FieldValue, LdtkJson, Level};
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
    /// A ladder cell: each vertical run of them becomes one [`Ladder`](crate::Ladder) (climbed by
    /// a [`Climber`](crate::Climber), its top a one-way platform); it is empty in the tile grid.
    Ladder,
}

impl From<CellKind> for TileCell {
    fn from(kind: CellKind) -> Self {
        match kind {
            CellKind::Empty | CellKind::Ladder => TileCell::Empty,
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

/// An IntGrid value in a mapping: its number, or its identifier (the name given to it in the
/// project's layer definition, as LDtk's editor shows it). In RON, `1` or `"walls"`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntGridValue {
    /// The value's number.
    Number(i32),
    /// The value's identifier.
    Name(String),
}

impl From<i32> for IntGridValue {
    fn from(value: i32) -> Self {
        Self::Number(value)
    }
}

impl From<&str> for IntGridValue {
    fn from(name: &str) -> Self {
        Self::Name(name.to_string())
    }
}

/// The IntGrid layers used when a mapping names none: value 1 of each is solid.
pub const DEFAULT_COLLISION_LAYERS: [&str; 4] = ["Collisions", "Collision", "Walls", "IntGrid"];

/// How an LDtk project becomes physics.
///
/// # Example
///
/// ```
/// use bevy_platformer_physics::ldtk::{CellKind, LdtkPhysicsMapping};
///
/// // The same mapping in RON (a file the game loads) and in code.
/// let from_file = LdtkPhysicsMapping::from_ron(
///     r#"(layers: {"Collisions": {"walls": Solid, 2: OneWay}})"#,
///     "mapping.ron",
/// )
/// .unwrap();
/// let in_code = LdtkPhysicsMapping::default()
///     .with_cell("Collisions", "walls", CellKind::Solid)
///     .with_cell("Collisions", 2, CellKind::OneWay);
/// assert_eq!(from_file, in_code);
/// ```
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LdtkPhysicsMapping {
    /// IntGrid layer identifier → (value, by number or identifier → kind). Value 0 is always
    /// empty. When no layer is named, value 1 of every IntGrid layer named as in
    /// [`DEFAULT_COLLISION_LAYERS`] is solid.
    pub layers: BTreeMap<String, BTreeMap<IntGridValue, CellKind>>,
    /// Identifier of slope entities.
    pub slope_entity: String,
    /// Identifier of one-way platform entities.
    pub one_way_entity: String,
    /// Identifier of lift entities.
    pub lift_entity: String,
    /// Identifier of ladder entities (their rectangle is a [`Ladder`](crate::Ladder)).
    pub ladder_entity: String,
    /// Merge adjacent solid cells into row runs ([`TileGrid::merge`](crate::TileGrid::merge)).
    pub merge_cells: bool,
}

impl Default for LdtkPhysicsMapping {
    fn default() -> Self {
        Self {
            layers: BTreeMap::new(),
            slope_entity: "Slope".to_string(),
            one_way_entity: "OneWayPlatform".to_string(),
            lift_entity: "Lift".to_string(),
            ladder_entity: "Ladder".to_string(),
            merge_cells: true,
        }
    }
}

impl LdtkPhysicsMapping {
    /// The mapping with the IntGrid value `value` (number or identifier) of layer `layer` made
    /// `kind`.
    pub fn with_cell(mut self, layer: &str, value: impl Into<IntGridValue>, kind: CellKind) -> Self {
        self.set_cell(layer, value, kind);
        self
    }

    /// Makes the IntGrid value `value` (number or identifier) of layer `layer` `kind`.
    pub fn set_cell(&mut self, layer: &str, value: impl Into<IntGridValue>, kind: CellKind) {
        self.layers
            .entry(layer.to_string())
            .or_default()
            .insert(value.into(), kind);
    }

    /// The value → kind table of the IntGrid layer `layer`, if the mapping covers it: by number,
    /// the identifiers resolved with the layer's definition in `defs` (an identifier the layer
    /// does not define is left out; [`check`](Self::check) reports it).
    pub fn cells_of(&self, layer: &str, defs: &Definitions) -> Option<BTreeMap<i32, CellKind>> {
        if self.layers.is_empty() {
            return DEFAULT_COLLISION_LAYERS
                .contains(&layer)
                .then(|| BTreeMap::from([(1, CellKind::Solid)]));
        }
        let values = self.layers.get(layer)?;
        let definition = defs.layers.iter().find(|d| d.identifier == layer);
        let number = |value: &IntGridValue| match value {
            IntGridValue::Number(n) => Some(*n),
            IntGridValue::Name(name) => definition?
                .int_grid_values
                .iter()
                .find(|v| v.identifier.as_deref() == Some(name.as_str()))
                .map(|v| v.value),
        };
        Some(
            values
                .iter()
                .filter_map(|(value, kind)| Some((number(value)?, *kind)))
                .collect(),
        )
    }

    /// What in this mapping does not fit the project `file` whose definitions are `defs`: a
    /// layer the project does not define as an IntGrid layer, a value identifier the layer does
    /// not define. Each is one error naming the layer or the value.
    pub fn check(&self, file: &str, defs: &Definitions) -> Vec<LdtkPhysicsError> {
        let mut errors = Vec::new();
        for (layer, values) in &self.layers {
            let in_layer = |message: String| LdtkPhysicsError {
                layer: Some(layer.clone()),
                ..LdtkPhysicsError::file(file, message)
            };
            let Some(definition) = defs
                .layers
                .iter()
                .find(|d| &d.identifier == layer && d.purple_type == bevy_ecs_ldtk::ldtk::Type::IntGrid)
            else {
                let known: Vec<&str> = defs
                    .layers
                    .iter()
                    .filter(|d| d.purple_type == bevy_ecs_ldtk::ldtk::Type::IntGrid)
                    .map(|d| d.identifier.as_str())
                    .collect();
                errors.push(in_layer(format!(
                    "the mapping names IntGrid layer {layer}, which the project does not define (its IntGrid layers: {})",
                    known.join(", ")
                )));
                continue;
            };
            for value in values.keys() {
                if let IntGridValue::Name(name) = value
                    && !definition
                        .int_grid_values
                        .iter()
                        .any(|v| v.identifier.as_deref() == Some(name.as_str()))
                {
                    let known: Vec<String> = definition
                        .int_grid_values
                        .iter()
                        .map(|v| match &v.identifier {
                            Some(id) => format!("{id} ({})", v.value),
                            None => v.value.to_string(),
                        })
                        .collect();
                    errors.push(in_layer(format!(
                        "the mapping names value {name:?}, which the layer does not define (its values: {})",
                        known.join(", ")
                    )));
                }
            }
        }
        errors
    }

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
