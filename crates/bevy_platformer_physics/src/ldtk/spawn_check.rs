//! Levels `bevy_ecs_ldtk` cannot spawn. A level whose data contradicts its project's definitions
//! makes `bevy_ecs_ldtk` 0.15 panic while it spawns it: a layer or entity whose definition is
//! missing, a tileset without a picture, an IntGrid value outside its layer or without a
//! definition, a layer of no cells, a background crop rectangle of fewer than four numbers, or
//! sizes and positions so large that its arithmetic overflows. [`level_spawn_problems`] finds
//! each of them, and `LdtkPhysicsPlugin` lets no such level spawn: it reports them instead.

use std::collections::HashSet;

use bevy_ecs_ldtk::ldtk::{Definitions, LayerInstance, Level, Type};

use super::LdtkPhysicsError;

/// The most cells a layer may have (4096 × 4096): more is not a level, and would not fit in memory.
const MAX_CELLS: i64 = 1 << 24;

/// The largest pixel size or position, either way: `bevy_ecs_ldtk` adds and negates them in `i32`.
const MAX_PIXELS: i64 = 1 << 30;

/// Why `bevy_ecs_ldtk` would panic spawning `level` of the project `file` whose definitions are
/// `defs`: one error per problem, naming the level and the layer or entity. Empty when the level
/// can be spawned.
///
/// # Example
///
/// ```
/// use bevy_ecs_ldtk::ldtk::{Definitions, LayerDefinition, LayerInstance, Level, Type};
/// use bevy_platformer_physics::ldtk::level_spawn_problems;
///
/// // A level of one IntGrid layer, 2 × 1 cells of 16 px, and the layer's definition.
/// let defs = Definitions {
///     layers: vec![LayerDefinition { uid: 1, identifier: "Collisions".into(), ..Default::default() }],
///     ..Default::default()
/// };
/// let layer = LayerInstance {
///     identifier: "Collisions".into(),
///     layer_def_uid: 1,
///     layer_instance_type: Type::IntGrid,
///     c_wid: 2,
///     c_hei: 1,
///     grid_size: 16,
///     int_grid_csv: vec![0, 0],
///     ..Default::default()
/// };
/// let mut level = Level {
///     identifier: "Start".into(),
///     px_hei: 16,
///     layer_instances: Some(vec![layer]),
///     ..Default::default()
/// };
/// assert!(level_spawn_problems("game.ldtk", &defs, &level).is_empty());
/// // The layer's definition deleted from the project.
/// level.layer_instances.as_mut().unwrap()[0].layer_def_uid = -7;
/// let problems = level_spawn_problems("game.ldtk", &defs, &level);
/// assert!(problems[0].to_string().contains("no layer definition -7"));
/// ```
pub fn level_spawn_problems(file: &str, defs: &Definitions, level: &Level) -> Vec<LdtkPhysicsError> {
    let mut problems = Vec::new();
    let mut problem = |layer: Option<&str>, entity: Option<String>, message: String| {
        problems.push(LdtkPhysicsError {
            file: file.to_string(),
            level: Some(level.identifier.clone()),
            layer: layer.map(str::to_string),
            entity,
            message,
        });
    };
    let too_far = |v: i64| v.abs() > MAX_PIXELS;
    let (px_hei, world_x, world_y) = (level.px_hei as i64, level.world_x as i64, level.world_y as i64);
    if px_hei < 0 || too_far(px_hei) || too_far(world_x) || too_far(world_y) || too_far(world_y + px_hei) {
        problem(
            None,
            None,
            format!(
                "its height {px_hei} px or world position ({world_x}, {world_y}) px is out of range (at most {MAX_PIXELS})"
            ),
        );
    }
    if let (Some(_), Some(bg)) = (&level.bg_rel_path, &level.bg_pos) {
        if bg.crop_rect.len() < 4 {
            problem(
                None,
                None,
                format!(
                    "its background's crop rectangle has {} numbers, not 4",
                    bg.crop_rect.len()
                ),
            );
        }
        if too_far(bg.top_left_px.x as i64) || too_far(bg.top_left_px.y as i64) {
            problem(None, None, "its background's position is out of range".to_string());
        }
    }
    let entity_defs: HashSet<i32> = defs.entities.iter().map(|e| e.uid).collect();
    for layer in level.layer_instances.iter().flatten() {
        let name = Some(layer.identifier.as_str());
        if too_far(layer.px_total_offset_y as i64) || too_far(layer.px_total_offset_x as i64) {
            problem(name, None, "its offset is out of range".to_string());
        }
        if layer.layer_instance_type == Type::Entities {
            for entity in &layer.entity_instances {
                let who = Some(format!("{} ({})", entity.identifier, entity.iid));
                if !entity_defs.contains(&entity.def_uid) {
                    problem(name, who.clone(), format!("no entity definition {}", entity.def_uid));
                }
                if too_far(entity.px.x as i64) || too_far(entity.px.y as i64) || too_far(px_hei - entity.px.y as i64) {
                    problem(name, who, format!("its position {} px is out of range", entity.px));
                }
            }
            continue;
        }
        for message in layer_problems(defs, layer) {
            problem(name, None, message);
        }
    }
    problems
}

/// The problems of a layer of cells (IntGrid, tiles, auto-layer).
fn layer_problems(defs: &Definitions, layer: &LayerInstance) -> Vec<String> {
    let mut problems = Vec::new();
    let (width, height, grid) = (layer.c_wid as i64, layer.c_hei as i64, layer.grid_size as i64);
    let cells = width * height;
    // Values past the cells are a problem of their own only in a layer of a sound size.
    let mut sized = false;
    if width < 1 || height < 1 || grid < 1 {
        problems.push(format!(
            "{width} × {height} cells of {grid} px: a layer needs at least one cell of 1 px"
        ));
    } else if cells > MAX_CELLS || width * grid > MAX_PIXELS || height * grid > MAX_PIXELS {
        problems.push(format!(
            "{width} × {height} cells of {grid} px is too large (at most {MAX_CELLS} cells, {MAX_PIXELS} px a side)"
        ));
    } else {
        sized = true;
    }
    if let Some(uid) = layer.tileset_def_uid {
        match defs.tilesets.iter().find(|t| t.uid == uid) {
            None => problems.push(format!("no tileset definition {uid}")),
            Some(tileset) if tileset.rel_path.is_none() => problems.push(format!(
                "its tileset {} has no picture (LDtk's embedded atlases are not loaded)",
                tileset.identifier
            )),
            Some(_) => {}
        }
    }
    let Some(definition) = defs.layers.iter().find(|d| d.uid == layer.layer_def_uid) else {
        problems.push(format!("no layer definition {}", layer.layer_def_uid));
        return problems;
    };
    if layer.layer_instance_type == Type::IntGrid {
        let defined: HashSet<i32> = definition.int_grid_values.iter().map(|v| v.value).collect();
        let mut outside = layer
            .int_grid_csv
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .filter(|&(i, _)| sized && i as i64 >= cells);
        if let Some((index, _)) = outside.next() {
            problems.push(format!(
                "IntGrid value at index {index} is outside its {width} × {height} cells"
            ));
        }
        let mut undefined: Vec<i32> = layer
            .int_grid_csv
            .iter()
            .copied()
            .filter(|v| *v != 0 && !defined.contains(v))
            .collect();
        undefined.sort_unstable();
        undefined.dedup();
        if !undefined.is_empty() {
            problems.push(format!(
                "IntGrid values {undefined:?} have no definition in layer {}",
                definition.identifier
            ));
        }
    }
    problems
}
