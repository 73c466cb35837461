//! One level of an LDtk project turned into physics: its IntGrid layers and its entities.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_ecs_ldtk::ldtk::{EntityInstance, LayerInstance, Type};

use super::*;
use crate::components::{PathFollower, PathMode};
use crate::geometry::Aabb;
use crate::geometry::SlopeShape;
use crate::tile_grid::TileGrid;

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
    /// Its fields, by identifier, as LDtk wrote them (a Point field in cells of its layer: see
    /// [`points`](Self::points) for the same in world space).
    pub fields: BTreeMap<String, FieldValue>,
    /// Its `Point` and `Array<Point>` fields in world space, px: the centre of each cell named (an
    /// unset point is left out).
    pub points: BTreeMap<String, Vec<Vec2>>,
}

/// The physics of one level, ready to spawn. With `LdtkPhysicsPlugin`, the level entity carries
/// the one its physics was spawned from, beside [`LdtkLevelProblems`].
#[derive(Component, Clone, Debug, PartialEq)]
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
    /// Ladders: ladder entities, and each vertical run of cells mapped to [`CellKind::Ladder`].
    pub ladders: Vec<Aabb>,
    /// Every entity of the level, for spawning the game's objects.
    pub entities: Vec<LdtkEntityPlacement>,
}

fn field<'a>(entity: &'a EntityInstance, name: &str) -> Option<&'a FieldValue> {
    entity
        .field_instances
        .iter()
        .find(|f| f.identifier == name)
        .map(|f| &f.value)
}

/// Builds the physics of `level`, of the project `file` whose definitions are `defs`, with its
/// bottom-left corner at `origin` (y up, px: where the game draws the level; with
/// `bevy_ecs_ldtk`, the level entity's world position). Problems are returned beside whatever
/// could be built.
pub fn level_physics(
    file: &str,
    level: &Level,
    defs: &Definitions,
    mapping: &LdtkPhysicsMapping,
    origin: Vec2,
) -> (LevelPhysics, Vec<LdtkPhysicsError>) {
    let mut errors = Vec::new();
    let error = |layer: Option<&str>, entity: Option<String>, message: String| LdtkPhysicsError {
        file: file.to_string(),
        level: Some(level.identifier.clone()),
        layer: layer.map(str::to_string),
        entity,
        message,
    };
    let left = origin.x;
    let top = origin.y + level.px_hei as f32;
    let mut physics = LevelPhysics {
        level: level.identifier.clone(),
        iid: level.iid.clone(),
        bounds: Aabb::from_min_size(origin, Vec2::new(level.px_wid as f32, level.px_hei as f32)),
        grids: Vec::new(),
        slopes: Vec::new(),
        one_way_platforms: Vec::new(),
        lifts: Vec::new(),
        ladders: Vec::new(),
        entities: Vec::new(),
    };
    let Some(layers) = &level.layer_instances else {
        errors.push(error(
            None,
            None,
            "the level's layers are in its own .ldtkl file, not read: read the project with LdtkProjectFile, or \
             load it with bevy_ecs_ldtk"
                .to_string(),
        ));
        return (physics, errors);
    };
    let mut found_collision_layer = false;
    for layer in layers {
        match layer.layer_instance_type {
            Type::IntGrid => {
                if let Some(values) = mapping.cells_of(&layer.identifier, defs) {
                    found_collision_layer = true;
                    match int_grid(layer, &values, mapping.merge_cells, left, top) {
                        Ok((grid, origin, ladders, problems)) => {
                            errors.extend(problems.into_iter().map(|m| error(Some(&layer.identifier), None, m)));
                            physics.grids.push((layer.identifier.clone(), grid, origin));
                            physics.ladders.extend(ladders);
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
                    } else if entity.identifier == mapping.ladder_entity {
                        physics.ladders.push(placement.rect);
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
        let wanted: Vec<&str> = if mapping.layers.is_empty() {
            DEFAULT_COLLISION_LAYERS.to_vec()
        } else {
            mapping.layers.keys().map(String::as_str).collect()
        };
        errors.push(error(
            None,
            None,
            format!("no collision layer: no IntGrid layer is named {}", wanted.join(", ")),
        ));
    }
    (physics, errors)
}

/// What an IntGrid layer becomes: its grid, the grid's bottom-left corner, its ladders (one per
/// vertical run of ladder cells) and its problems.
type IntGridPhysics = (TileGrid, Vec2, Vec<Aabb>, Vec<String>);

/// The grid of an IntGrid layer, its bottom-left corner, its ladders and the problems (unmapped
/// values, once each); an error when the layer's size is unusable (the layer is then left out: its
/// size, not its values, would decide how much memory the grid takes).
fn int_grid(
    layer: &LayerInstance,
    values: &BTreeMap<i32, CellKind>,
    merge: bool,
    left: f32,
    top: f32,
) -> Result<IntGridPhysics, String> {
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
    // Ladder cells by column, top row first (LDtk's rows run down).
    let mut ladder_cells: Vec<(u32, u32)> = Vec::new();
    for (i, &value) in layer.int_grid_csv.iter().enumerate().take(count as usize) {
        if value == 0 {
            continue;
        }
        let (cx, cy) = (i as u32 % width, i as u32 / width);
        match values.get(&value) {
            Some(CellKind::Ladder) => ladder_cells.push((cx, cy)),
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
    ladder_cells.sort_unstable();
    let mut ladders: Vec<Aabb> = Vec::new();
    let mut run: Option<(u32, u32, u32)> = None; // column, first row, last row
    let cell_box = |cx: u32, first: u32, last: u32| {
        let min = origin + Vec2::new(cx as f32, (height - 1 - last) as f32) * cell_size;
        Aabb::from_min_size(min, Vec2::new(cell_size, (last - first + 1) as f32 * cell_size))
    };
    for (cx, cy) in ladder_cells {
        run = match run {
            Some((column, first, last)) if column == cx && last + 1 == cy => Some((column, first, cy)),
            Some((column, first, last)) => {
                ladders.push(cell_box(column, first, last));
                Some((cx, cy, cy))
            }
            None => Some((cx, cy, cy)),
        };
    }
    if let Some((column, first, last)) = run {
        ladders.push(cell_box(column, first, last));
    }
    Ok((grid, origin, ladders, problems))
}

/// The world centre of the cell `p` (x right, y down, as LDtk counts) of `layer`, in a level whose
/// top-left corner is at (`left`, `top`).
fn cell_centre(layer: &LayerInstance, p: IVec2, left: f32, top: f32) -> Vec2 {
    let cell = layer.grid_size as f32;
    Vec2::new(
        left + layer.px_total_offset_x as f32 + (p.x as f32 + 0.5) * cell,
        top - layer.px_total_offset_y as f32 - (p.y as f32 + 0.5) * cell,
    )
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
    let cell_centre = |p: &IVec2| cell_centre(layer, *p, left, top);
    let mut fields = BTreeMap::new();
    let mut points = BTreeMap::new();
    for field in &entity.field_instances {
        let world = match &field.value {
            FieldValue::Point(p) => Some(p.iter().map(cell_centre).collect()),
            FieldValue::Points(ps) => Some(ps.iter().flatten().map(cell_centre).collect()),
            _ => None,
        };
        if let Some(world) = world {
            points.insert(field.identifier.clone(), world);
        }
        fields.insert(field.identifier.clone(), field.value.clone());
    }
    LdtkEntityPlacement {
        identifier: entity.identifier.clone(),
        iid: entity.iid.clone(),
        rect: Aabb::from_min_size(Vec2::new(min_x, max_y - size.y), size),
        pivot,
        fields,
        points,
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
    let points = match field(entity, "path") {
        Some(FieldValue::Points(points)) if !points.is_empty() => points,
        Some(FieldValue::Points(_)) => return Err("field path has no points".to_string()),
        Some(other) => return Err(format!("field path should be an Array<Point>, is {other:?}")),
        None => return Err("missing field path (Array<Point>: the cells the lift visits)".to_string()),
    };
    let mut path = vec![placement.rect.center()];
    for point in points {
        let point = point.ok_or_else(|| "field path has an empty point".to_string())?;
        path.push(cell_centre(layer, point, left, top));
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
