//! What the game reads of a level: its name, theme, clock, player start, blocks and objects.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::{Definitions, FieldValue, LdtkEntityPlacement, Level, LevelPhysics};

use super::{Block, LevelCells, ObjectFields, Theme};

/// The LDtk identifier of the player's start.
pub const PLAYER: &str = "Player";

/// The LDtk identifier of a pipe: where a player coming through a pipe appears is the top of the
/// pipe whose `name` field the [`PipeArrival`] names.
pub const PIPE: &str = "Pipe";

/// What the game knows of the level being played.
#[derive(Resource, Clone, Debug, Default)]
pub struct LevelInfo {
    /// Level name.
    pub name: String,
    /// Look.
    pub theme: Theme,
    /// The level's rectangle (camera limits; falling below it is death).
    pub bounds: Aabb,
    /// Seconds on the clock at the start.
    pub time_limit: f32,
    /// Where the player's feet start.
    pub player_start: Vec2,
    /// Collision layer values.
    pub cells: LevelCells,
    /// Problems found in the file (each was logged).
    pub problems: Vec<String>,
}

/// Seconds left on the level's clock.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct LevelClock {
    /// Seconds left.
    pub left: f32,
    /// Fixed steps played in this attempt.
    pub steps: u64,
}

/// A level read from disk, before spawning.
#[derive(Clone, Debug)]
pub struct LevelData {
    /// Physics from the plugin's bridge.
    pub physics: LevelPhysics,
    /// The game's view of it.
    pub info: LevelInfo,
    /// Placed objects with the fields the game reads.
    pub objects: Vec<(LdtkEntityPlacement, ObjectFields)>,
}

/// The game's view of `level` (of the project `file` with definitions `defs`), whose physics the
/// plugin's bridge made: its theme, clock, player start, collision cells and objects. `problems`
/// are those found so far; the game's own (an unknown theme, no player) are added after them.
pub fn level_data(
    file: &str,
    level: &Level,
    defs: &Definitions,
    physics: LevelPhysics,
    mut problems: Vec<String>,
) -> LevelData {
    let field_string = |name: &str| -> Option<String> {
        level
            .field_instances
            .iter()
            .find(|f| f.identifier == name)
            .and_then(|f| match &f.value {
                FieldValue::String(Some(s)) => Some(s.clone()),
                FieldValue::Enum(Some(s)) => Some(s.clone()),
                _ => None,
            })
    };
    let theme = match field_string("theme") {
        Some(t) => Theme::parse(&t).unwrap_or_else(|| {
            problems.push(format!("{file}: level {}: unknown theme {t:?}", level.identifier));
            Theme::Overworld
        }),
        None => Theme::Overworld,
    };
    let time_limit = level
        .field_instances
        .iter()
        .find(|f| f.identifier == "time_limit")
        .and_then(|f| match f.value {
            FieldValue::Int(Some(v)) if v > 0 => Some(v as f32),
            _ => None,
        })
        .unwrap_or(300.0);

    let mut cells = LevelCells::default();
    if let Some((layer_name, grid, origin)) = physics.grids.first() {
        let layer = level
            .layer_instances
            .iter()
            .flatten()
            .find(|l| &l.identifier == layer_name);
        cells.layer = layer_name.clone();
        cells.origin = *origin;
        cells.cell_size = grid.cell_size;
        cells.width = grid.width();
        cells.height = grid.height();
        cells.values = vec![0; (grid.width() * grid.height()) as usize];
        if let Some(layer) = layer {
            for (i, value) in layer.int_grid_csv.iter().enumerate().take(cells.values.len()) {
                let (x, y) = (i as u32 % cells.width, i as u32 / cells.width);
                cells.values[((cells.height - 1 - y) * cells.width + x) as usize] = *value;
            }
            cells.drawn_by_project =
                layer.tileset_def_uid.is_some() && !(layer.auto_layer_tiles.is_empty() && layer.grid_tiles.is_empty());
        }
        let definitions = defs.layers.iter().find(|l| &l.identifier == layer_name);
        let values = definitions.map(|l| l.int_grid_values.as_slice()).unwrap_or_default();
        cells.blocks = values
            .iter()
            .filter_map(|v| Some((v.value, Block::from_identifier(v.identifier.as_deref()?)?)))
            .collect();
        cells.game_values = !values.is_empty() && cells.blocks.len() == values.len();
    }

    let mut objects = Vec::new();
    let entity_fields = |iid: &str| -> ObjectFields {
        let mut fields = ObjectFields::default();
        let instances = level
            .layer_instances
            .iter()
            .flatten()
            .flat_map(|l| l.entity_instances.iter())
            .filter(|e| e.iid == iid)
            .flat_map(|e| e.field_instances.iter());
        for field in instances {
            match &field.value {
                FieldValue::Bool(b) => fields.flags.push((field.identifier.clone(), *b)),
                FieldValue::String(Some(text)) | FieldValue::Enum(Some(text)) => {
                    fields.texts.push((field.identifier.clone(), text.clone()))
                }
                _ => {}
            }
        }
        fields
    };
    let mut player_start = None;
    for placement in &physics.entities {
        if placement.identifier == PLAYER && player_start.is_none() {
            player_start = Some(Vec2::new(placement.rect.center().x, placement.rect.min.y));
        }
        objects.push((placement.clone(), entity_fields(&placement.iid)));
    }
    // A bonus room is entered through its pipes: it needs no Player entity.
    let room = physics.entities.iter().any(|p| p.identifier == PIPE);
    let player_start = player_start.unwrap_or_else(|| {
        if !room {
            problems.push(format!(
                "{file}: level {}: no Player entity; starting at the top-left corner",
                level.identifier
            ));
        }
        Vec2::new(physics.bounds.min.x + 24.0, physics.bounds.max.y - 24.0)
    });
    let info = LevelInfo {
        name: level.identifier.clone(),
        theme,
        bounds: physics.bounds,
        time_limit,
        player_start,
        cells,
        problems,
    };
    LevelData { physics, info, objects }
}
