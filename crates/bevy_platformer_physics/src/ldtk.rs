//! LDtk bridge (feature `ldtk`, on top of `bevy_ecs_ldtk` 0.15): the IntGrid layers and entities
//! of an LDtk 1.5 project become physics.
//!
//! - An IntGrid layer named in [`LdtkPhysicsMapping::layers`] becomes one [`TileGrid`]: each value
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

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
use bevy_ecs_ldtk::assets::LdtkProject;
use bevy_ecs_ldtk::ldtk::{EntityInstance, LayerInstance, Type};
/// The LDtk types a game reads beside the physics (entity and level fields).
pub use bevy_ecs_ldtk::ldtk::{FieldValue, LdtkJson, Level};
use bevy_ecs_ldtk::{LdtkProjectHandle, LevelEvent};
use serde::{Deserialize, Serialize};

use crate::components::{Collider, OneWayPlatform, PathFollower, PathMode};
use crate::geometry::Aabb;
use crate::slope::{SlopeSegment, SlopeShape};
use crate::tile_grid::{TileCell, TileGrid};

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
    /// Merge adjacent solid cells into row runs ([`TileGrid::merge`]).
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

/// A lift found in a level.
#[derive(Clone, Debug, PartialEq)]
pub struct LiftSpec {
    /// Its entity iid.
    pub iid: String,
    /// Size of its box, px.
    pub size: Vec2,
    /// Its path, starting where it is placed.
    pub follower: PathFollower,
    /// Solid only from above.
    pub one_way: bool,
}

/// Where an LDtk entity is, in world space.
#[derive(Clone, Debug, PartialEq)]
pub struct LdtkEntityPlacement {
    /// Entity identifier (`Player`, `Mob`, ...).
    pub identifier: String,
    /// Entity iid.
    pub iid: String,
    /// Its rectangle.
    pub rect: Aabb,
    /// Its pivot point (for a bottom-centre pivot, the feet).
    pub pivot: Vec2,
}

/// The physics of one level, ready to spawn.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelPhysics {
    /// Level identifier.
    pub level: String,
    /// Level iid.
    pub iid: String,
    /// The level's rectangle in world space.
    pub bounds: Aabb,
    /// One grid per mapped IntGrid layer: layer identifier, grid, bottom-left corner.
    pub grids: Vec<(String, TileGrid, Vec2)>,
    /// Slope entities.
    pub slopes: Vec<SlopeShape>,
    /// One-way platform entities.
    pub one_way_platforms: Vec<Aabb>,
    /// Lift entities.
    pub lifts: Vec<LiftSpec>,
    /// Every entity of the level, for spawning the game's objects.
    pub entities: Vec<LdtkEntityPlacement>,
}

/// The world y of a level's top edge (LDtk's `worldY` is y-down).
fn level_top(level: &Level) -> f32 {
    -(level.world_y as f32)
}

fn field<'a>(entity: &'a EntityInstance, name: &str) -> Option<&'a FieldValue> {
    entity
        .field_instances
        .iter()
        .find(|f| f.identifier == name)
        .map(|f| &f.value)
}

/// Builds the physics of `level`. `file` names the project in errors. Problems are returned
/// beside whatever could be built.
pub fn level_physics(file: &str, level: &Level, mapping: &LdtkPhysicsMapping) -> (LevelPhysics, Vec<LdtkPhysicsError>) {
    let mut errors = Vec::new();
    let error = |layer: Option<&str>, entity: Option<String>, message: String| LdtkPhysicsError {
        file: file.to_string(),
        level: Some(level.identifier.clone()),
        layer: layer.map(str::to_string),
        entity,
        message,
    };
    let left = level.world_x as f32;
    let top = level_top(level);
    let mut physics = LevelPhysics {
        level: level.identifier.clone(),
        iid: level.iid.clone(),
        bounds: Aabb::from_min_size(
            Vec2::new(left, top - level.px_hei as f32),
            Vec2::new(level.px_wid as f32, level.px_hei as f32),
        ),
        grids: Vec::new(),
        slopes: Vec::new(),
        one_way_platforms: Vec::new(),
        lifts: Vec::new(),
        entities: Vec::new(),
    };
    let Some(layers) = &level.layer_instances else {
        errors.push(error(
            None,
            None,
            "the level's layers are in an external file (external levels are not supported)".to_string(),
        ));
        return (physics, errors);
    };
    let mut found_collision_layer = false;
    for layer in layers {
        match layer.layer_instance_type {
            Type::IntGrid => {
                if let Some(values) = mapping.layers.get(&layer.identifier) {
                    found_collision_layer = true;
                    match int_grid(layer, values, mapping.merge_cells, left, top) {
                        Ok((grid, origin, problems)) => {
                            errors.extend(problems.into_iter().map(|m| error(Some(&layer.identifier), None, m)));
                            physics.grids.push((layer.identifier.clone(), grid, origin));
                        }
                        Err(problem) => errors.push(error(Some(&layer.identifier), None, problem)),
                    }
                }
            }
            Type::Entities => {
                for entity in &layer.entity_instances {
                    let name = format!("{} ({})", entity.identifier, entity.iid);
                    let placement = placement(layer, entity, left, top);
                    let result = if entity.identifier == mapping.slope_entity {
                        slope(entity, &placement).map(|s| physics.slopes.push(s))
                    } else if entity.identifier == mapping.one_way_entity {
                        physics.one_way_platforms.push(placement.rect);
                        Ok(())
                    } else if entity.identifier == mapping.lift_entity {
                        lift(layer, entity, &placement, left, top).map(|l| physics.lifts.push(l))
                    } else {
                        Ok(())
                    };
                    if let Err(message) = result {
                        errors.push(error(Some(&layer.identifier), Some(name), message));
                    }
                    physics.entities.push(placement);
                }
            }
            _ => {}
        }
    }
    if !found_collision_layer {
        let wanted: Vec<&str> = mapping.layers.keys().map(String::as_str).collect();
        errors.push(error(
            None,
            None,
            format!("no collision layer: no IntGrid layer is named {}", wanted.join(", ")),
        ));
    }
    (physics, errors)
}

/// Builds the physics of every level of `project`.
pub fn world_physics(
    file: &str,
    project: &LdtkJson,
    mapping: &LdtkPhysicsMapping,
) -> (Vec<LevelPhysics>, Vec<LdtkPhysicsError>) {
    let mut errors = Vec::new();
    let levels = project
        .levels
        .iter()
        .map(|level| {
            let (physics, problems) = level_physics(file, level, mapping);
            errors.extend(problems);
            physics
        })
        .collect();
    (levels, errors)
}

/// The grid of an IntGrid layer, its bottom-left corner, and the problems (unmapped values, once
/// each); an error when the layer's size is unusable (the layer is then left out: its size, not its
/// values, would decide how much memory the grid takes).
fn int_grid(
    layer: &LayerInstance,
    values: &BTreeMap<i32, CellKind>,
    merge: bool,
    left: f32,
    top: f32,
) -> Result<(TileGrid, Vec2, Vec<String>), String> {
    let (c_wid, c_hei) = (layer.c_wid, layer.c_hei);
    let cells = u32::try_from(c_wid)
        .ok()
        .zip(u32::try_from(c_hei).ok())
        .and_then(|(w, h)| w.checked_mul(h))
        .filter(|&n| n as usize == layer.int_grid_csv.len());
    let Some(count) = cells else {
        return Err(format!(
            "the layer is {c_wid} × {c_hei} cells but intGridCsv has {} values; the layer is left out",
            layer.int_grid_csv.len()
        ));
    };
    if layer.grid_size <= 0 {
        return Err(format!(
            "the layer's gridSize is {}; it must be above 0; the layer is left out",
            layer.grid_size
        ));
    }
    let (width, height) = (c_wid as u32, c_hei as u32);
    let cell_size = layer.grid_size as f32;
    let mut grid = TileGrid::new(width, height, cell_size);
    grid.merge = merge;
    let mut problems = Vec::new();
    let mut unmapped = Vec::new();
    for (i, &value) in layer.int_grid_csv.iter().enumerate().take(count as usize) {
        if value == 0 {
            continue;
        }
        let (cx, cy) = (i as u32 % width, i as u32 / width);
        match values.get(&value) {
            Some(kind) => {
                grid.set(cx as i32, (height - 1 - cy) as i32, (*kind).into());
            }
            None if !unmapped.contains(&value) => unmapped.push(value),
            None => {}
        }
    }
    for value in unmapped {
        problems.push(format!(
            "IntGrid value {value} has no mapping; its cells are left empty"
        ));
    }
    let origin = Vec2::new(
        left + layer.px_total_offset_x as f32,
        top - layer.px_total_offset_y as f32 - height as f32 * cell_size,
    );
    Ok((grid, origin, problems))
}

fn placement(layer: &LayerInstance, entity: &EntityInstance, left: f32, top: f32) -> LdtkEntityPlacement {
    let size = Vec2::new(entity.width as f32, entity.height as f32);
    let pivot = Vec2::new(
        left + layer.px_total_offset_x as f32 + entity.px.x as f32,
        top - layer.px_total_offset_y as f32 - entity.px.y as f32,
    );
    // The pivot is a fraction of the size from the top-left corner, y down.
    let min_x = pivot.x - entity.pivot.x * size.x;
    let max_y = pivot.y + entity.pivot.y * size.y;
    LdtkEntityPlacement {
        identifier: entity.identifier.clone(),
        iid: entity.iid.clone(),
        rect: Aabb::from_min_size(Vec2::new(min_x, max_y - size.y), size),
        pivot,
    }
}

fn slope(entity: &EntityInstance, placement: &LdtkEntityPlacement) -> Result<SlopeShape, String> {
    let rises_right = match field(entity, "rises_right") {
        None => true,
        Some(FieldValue::Bool(b)) => *b,
        Some(other) => return Err(format!("field rises_right should be a Bool, is {other:?}")),
    };
    let r = placement.rect;
    if r.size().x <= 0.0 || r.size().y <= 0.0 {
        return Err(format!(
            "a slope needs a width and a height above zero, has {} × {}",
            r.size().x,
            r.size().y
        ));
    }
    Ok(if rises_right {
        SlopeShape::new(r.min, r.max)
    } else {
        SlopeShape::new(Vec2::new(r.min.x, r.max.y), Vec2::new(r.max.x, r.min.y))
    })
}

fn lift(
    layer: &LayerInstance,
    entity: &EntityInstance,
    placement: &LdtkEntityPlacement,
    left: f32,
    top: f32,
) -> Result<LiftSpec, String> {
    let cell = layer.grid_size as f32;
    let points = match field(entity, "path") {
        Some(FieldValue::Points(points)) if !points.is_empty() => points,
        Some(FieldValue::Points(_)) => return Err("field path has no points".to_string()),
        Some(other) => return Err(format!("field path should be an Array<Point>, is {other:?}")),
        None => return Err("missing field path (Array<Point>: the cells the lift visits)".to_string()),
    };
    let mut path = vec![placement.rect.center()];
    for point in points {
        let point = point.ok_or_else(|| "field path has an empty point".to_string())?;
        path.push(Vec2::new(
            left + layer.px_total_offset_x as f32 + (point.x as f32 + 0.5) * cell,
            top - layer.px_total_offset_y as f32 - (point.y as f32 + 0.5) * cell,
        ));
    }
    let number = |name: &str, default: f32| match field(entity, name) {
        None => Ok(default),
        Some(FieldValue::Float(Some(v))) if v.is_finite() && *v >= 0.0 => Ok(*v),
        Some(FieldValue::Int(Some(v))) if *v >= 0 => Ok(*v as f32),
        Some(other) => Err(format!("field {name} should be a number of at least 0, is {other:?}")),
    };
    let speed = number("speed", 48.0)?;
    let wait = number("wait", 0.5)?;
    let mode = match field(entity, "mode") {
        None => PathMode::PingPong,
        Some(FieldValue::String(Some(s)) | FieldValue::Enum(Some(s))) => match s.as_str() {
            "PingPong" => PathMode::PingPong,
            "Loop" => PathMode::Loop,
            "Once" => PathMode::Once,
            other => return Err(format!("field mode is {other:?}; expected PingPong, Loop or Once")),
        },
        Some(other) => return Err(format!("field mode should be a String or an Enum, is {other:?}")),
    };
    let one_way = match field(entity, "one_way") {
        None => false,
        Some(FieldValue::Bool(b)) => *b,
        Some(other) => return Err(format!("field one_way should be a Bool, is {other:?}")),
    };
    Ok(LiftSpec {
        iid: entity.iid.clone(),
        size: placement.rect.size(),
        follower: PathFollower::new(path, speed, mode).with_wait(wait),
        one_way,
    })
}

/// Marks the physics entities spawned for an LDtk level.
#[derive(Component, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug)]
pub struct LdtkLevelPhysics {
    /// The level's iid.
    pub level_iid: String,
}

/// Spawns the physics of a level: its grids, slopes, one-way platforms and lifts, each marked with
/// [`LdtkLevelPhysics`]. Returns the entities.
pub fn spawn_level_physics(commands: &mut Commands, physics: &LevelPhysics) -> Vec<Entity> {
    let marker = || LdtkLevelPhysics {
        level_iid: physics.iid.clone(),
    };
    let mut spawned = Vec::new();
    for (layer, grid, origin) in &physics.grids {
        spawned.push(
            commands
                .spawn((
                    marker(),
                    Name::new(format!("{} {layer}", physics.level)),
                    grid.clone(),
                    Transform::from_translation(origin.extend(0.0)),
                ))
                .id(),
        );
    }
    for slope in &physics.slopes {
        spawned.push(
            commands
                .spawn((
                    marker(),
                    SlopeSegment::new(slope.left, slope.right),
                    Transform::default(),
                ))
                .id(),
        );
    }
    for platform in &physics.one_way_platforms {
        let size = platform.size();
        spawned.push(
            commands
                .spawn((
                    marker(),
                    OneWayPlatform,
                    Collider::rectangle(size.x, size.y),
                    Transform::from_translation(platform.center().extend(0.0)),
                ))
                .id(),
        );
    }
    for lift in &physics.lifts {
        let start = lift.follower.points[0];
        let mut entity = commands.spawn((
            marker(),
            Collider::rectangle(lift.size.x, lift.size.y),
            Transform::from_translation(start.extend(0.0)),
            lift.follower.clone(),
        ));
        if lift.one_way {
            entity.insert(OneWayPlatform);
        }
        spawned.push(entity.id());
    }
    spawned
}

/// Problems found in the LDtk projects loaded so far, for tools and tests. Each is also logged
/// with `error!`.
#[derive(Resource, Clone, Debug, Default)]
pub struct LdtkPhysicsReport {
    /// Every problem, in the order found.
    pub errors: Vec<LdtkPhysicsError>,
}

/// Spawns physics for levels as `bevy_ecs_ldtk` spawns them, and despawns it with them. Uses the
/// [`LdtkPhysicsMapping`] resource (the default one unless the app inserts another).
#[derive(Default)]
pub struct LdtkPhysicsPlugin;

impl Plugin for LdtkPhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LdtkPhysicsMapping>()
            .init_resource::<LdtkPhysicsReport>()
            .register_type::<LdtkLevelPhysics>()
            .add_systems(Update, follow_level_events);
    }
}

fn follow_level_events(
    mut commands: Commands,
    mut events: MessageReader<LevelEvent>,
    projects: Query<&LdtkProjectHandle>,
    assets: Option<Res<Assets<LdtkProject>>>,
    physics: Query<(Entity, &LdtkLevelPhysics)>,
    mapping: Res<LdtkPhysicsMapping>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    for event in events.read() {
        match event {
            LevelEvent::Spawned(iid) => {
                let Some(assets) = &assets else { continue };
                for handle in &projects {
                    let Some(project) = assets.get(&handle.handle) else {
                        continue;
                    };
                    let Some(level) = project.json_data().levels.iter().find(|l| &l.iid == iid.get()) else {
                        continue;
                    };
                    let file = handle
                        .handle
                        .path()
                        .map_or_else(|| "LDtk project".to_string(), |p| p.to_string());
                    despawn_level_physics(&mut commands, &physics, iid.get());
                    let (level_physics, errors) = level_physics(&file, level, &mapping);
                    for problem in errors {
                        error!("{problem}");
                        report.errors.push(problem);
                    }
                    spawn_level_physics(&mut commands, &level_physics);
                }
            }
            LevelEvent::Despawned(iid) => despawn_level_physics(&mut commands, &physics, iid.get()),
            _ => {}
        }
    }
}

/// Despawns the physics entities of level `iid`.
pub fn despawn_level_physics(commands: &mut Commands, physics: &Query<(Entity, &LdtkLevelPhysics)>, iid: &str) {
    for (entity, marker) in physics {
        if marker.level_iid == iid {
            commands.entity(entity).despawn();
        }
    }
}
