//! Levels: what the game knows of the LDtk level it plays, and how it is loaded ([`pipeline`]:
//! through `bevy_ecs_ldtk`, with the plugin's `LdtkPhysicsPlugin`).
//!
//! The level's IntGrid `Collisions` layer becomes one `TileGrid` through the plugin's LDtk bridge
//! (`levels/mapping.ron` says which value is which cell kind); the game keeps the raw values too,
//! because a brick and a question block are both solid to the physics but not to the player.
//! Entities (`Player`, `Walker`, `Coin`, ...) become the game's objects. Everything spawned for a
//! level carries [`LevelEntity`] and goes away on [`LoadLevel`] or when play stops.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::{Definitions, FieldValue, LdtkEntityPlacement, Level, LevelPhysics};
use bevy_platformer_physics::prelude::{PathFollower, TransformInterpolation};

pub mod live_edit;
mod objects;
pub mod pipeline;
pub mod sources;

pub use live_edit::LevelFileWatch;
pub use objects::{LevelObject, LevelObjects, ObjectFields, RegisterLevelObject, SpawnObject};
pub use pipeline::{LevelReady, level_ready};

use crate::paths::DataRoot;

/// The `bevy_ecs_ldtk` world entity of the level being played.
#[derive(Component, Clone, Debug)]
pub struct LevelWorld {
    /// The project's asset path, for messages.
    pub file: String,
}

/// The LDtk identifier of the player's start.
pub const PLAYER: &str = "Player";

/// The LDtk identifier of a pipe: where a player coming through a pipe appears is the top of the
/// pipe whose `name` field the [`PipeArrival`] names.
pub const PIPE: &str = "Pipe";

/// The levels of a game, in order: worlds of [`LEVELS_PER_WORLD`], each ending in a castle.
pub const BUILTIN_LEVELS: [&str; 8] = [
    "overworld",
    "underground",
    "sky",
    "castle",
    "hills",
    "caverns",
    "skyway",
    "fortress",
];

/// Levels in a world.
pub const LEVELS_PER_WORLD: usize = 4;

/// The world and the level in it of built-in level `index`, as the game shows it: `1-1` for the
/// first, `2-4` for the last.
pub fn world_and_level(index: usize) -> String {
    format!("{}-{}", index / LEVELS_PER_WORLD + 1, index % LEVELS_PER_WORLD + 1)
}

/// What a cell of the game's `Collisions` layer is. The numbers of the IntGrid values are defined
/// once, in `levels/alphabet.json` (written into each project's definitions by
/// `tools/make_levels.py`); the game reads each value's identifier from the project it loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum Block {
    /// `ground`: solid.
    Ground,
    /// `stone`: solid.
    Stone,
    /// `one_way`: solid from above only.
    OneWay,
    /// `brick`: a big player breaks it.
    Brick,
    /// `question_coin`: gives a coin once.
    QuestionCoin,
    /// `question_mushroom`: gives a power-up once: a mushroom to a small player, a fire flower to a
    /// big one.
    QuestionMushroom,
    /// `question_star`: gives a star once.
    QuestionStar,
    /// `question_1up`: gives an extra-life mushroom once.
    QuestionOneUp,
    /// `hidden_coin`: not there (nothing to the physics, not drawn) until a head comes up into it
    /// from below: then it is a coin block, hit.
    HiddenCoin,
    /// `hidden_1up`: as `hidden_coin`, with an extra-life mushroom.
    HiddenOneUp,
    /// `multi_coin`: looks like a brick; gives a coin per hit for `items.multi_coin_time` after
    /// the first one (at most `items.multi_coin_max`), then is used.
    MultiCoin,
    /// `lava`: nothing to the physics; a body that sinks `items.lava_depth` into it is lost.
    Lava,
    /// `used_block`: an emptied question block.
    Used,
    /// `slope45_up_right`: a 45° slope cell rising to the right.
    Slope45UpRight,
    /// `slope45_up_left`: a 45° slope cell rising to the left.
    Slope45UpLeft,
    /// `gentle_low_up_right`: the lower half of a 1/2 slope rising to the right.
    GentleLowUpRight,
    /// `gentle_high_up_right`: the upper half of a 1/2 slope rising to the right.
    GentleHighUpRight,
    /// `gentle_low_up_left`: the lower half of a 1/2 slope rising to the left.
    GentleLowUpLeft,
    /// `gentle_high_up_left`: the upper half of a 1/2 slope rising to the left.
    GentleHighUpLeft,
}

impl Block {
    /// The block of an IntGrid value identifier.
    pub fn from_identifier(identifier: &str) -> Option<Self> {
        Some(match identifier {
            "ground" => Self::Ground,
            "stone" => Self::Stone,
            "one_way" => Self::OneWay,
            "brick" => Self::Brick,
            "question_coin" => Self::QuestionCoin,
            "question_mushroom" => Self::QuestionMushroom,
            "question_star" => Self::QuestionStar,
            "question_1up" => Self::QuestionOneUp,
            "hidden_coin" => Self::HiddenCoin,
            "hidden_1up" => Self::HiddenOneUp,
            "multi_coin" => Self::MultiCoin,
            "lava" => Self::Lava,
            "used_block" => Self::Used,
            "slope45_up_right" => Self::Slope45UpRight,
            "slope45_up_left" => Self::Slope45UpLeft,
            "gentle_low_up_right" => Self::GentleLowUpRight,
            "gentle_high_up_right" => Self::GentleHighUpRight,
            "gentle_low_up_left" => Self::GentleLowUpLeft,
            "gentle_high_up_left" => Self::GentleHighUpLeft,
            _ => return None,
        })
    }

    /// Not there for a head coming up into it (a one-way platform, a hidden block, lava).
    pub fn lets_heads_through(self) -> bool {
        matches!(self, Self::OneWay | Self::HiddenCoin | Self::HiddenOneUp | Self::Lava)
    }

    /// A slope cell.
    pub fn is_slope(self) -> bool {
        matches!(
            self,
            Self::Slope45UpRight
                | Self::Slope45UpLeft
                | Self::GentleLowUpRight
                | Self::GentleHighUpRight
                | Self::GentleLowUpLeft
                | Self::GentleHighUpLeft
        )
    }
}

/// Which level to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelSource {
    /// One of [`BUILTIN_LEVELS`].
    Builtin(usize),
    /// Any LDtk project (its first level), with an optional physics mapping.
    File {
        /// The `.ldtk` file.
        path: PathBuf,
        /// A RON [`LdtkPhysicsMapping`]; the default one when absent.
        mapping: Option<PathBuf>,
    },
}

impl LevelSource {
    /// A built-in level by name, or a path to an `.ldtk` file.
    pub fn parse(name_or_path: &str, mapping: Option<PathBuf>) -> Result<Self, String> {
        if let Some(index) = BUILTIN_LEVELS.iter().position(|l| *l == name_or_path)
            && mapping.is_none()
        {
            return Ok(Self::Builtin(index));
        }
        let path = PathBuf::from(name_or_path);
        if path.extension().is_some_and(|e| e == "ldtk") || path.exists() {
            return Ok(Self::File { path, mapping });
        }
        Err(format!(
            "unknown level {name_or_path:?}: give one of {} or a path to an .ldtk file",
            BUILTIN_LEVELS.join(", ")
        ))
    }

    /// The `.ldtk` file and the physics mapping file (`None`: the default mapping).
    pub fn files(&self, root: &DataRoot) -> Result<(PathBuf, Option<PathBuf>), String> {
        Ok(match self {
            Self::Builtin(i) => {
                let name = BUILTIN_LEVELS.get(*i).ok_or_else(|| format!("no built-in level {i}"))?;
                (
                    root.levels().join(format!("{name}.ldtk")),
                    Some(root.levels().join("mapping.ron")),
                )
            }
            Self::File { path, mapping } => (path.clone(), mapping.clone()),
        })
    }

    /// A short name for the HUD and the trace.
    pub fn name(&self) -> String {
        match self {
            Self::Builtin(i) => BUILTIN_LEVELS.get(*i).unwrap_or(&"?").to_string(),
            Self::File { path, .. } => path.display().to_string(),
        }
    }
}

/// The level being played and where the player restarts.
#[derive(Resource, Clone, Debug)]
pub struct CurrentLevel {
    /// The level.
    pub source: LevelSource,
    /// The latest checkpoint reached (feet position), kept across restarts of the level.
    pub checkpoint: Option<Vec2>,
    /// A start position that replaces the level's `Player` entity (command line).
    pub start_override: Option<Vec2>,
    /// The pipe the player comes out of, after going through a pipe: a level of the same project
    /// (a bonus room, or back to the main level) and a pipe of it. `None`: the project's first
    /// level, from its start or checkpoint. A death clears it.
    pub arrival: Option<PipeArrival>,
}

/// Where a pipe leads: a level of the level's own project and the pipe of that level the player
/// comes out of, standing on its top.
#[derive(Clone, Debug, PartialEq, Eq, Reflect)]
pub struct PipeArrival {
    /// The level's LDtk identifier.
    pub level: String,
    /// The `name` of the pipe.
    pub pipe: String,
}

impl CurrentLevel {
    /// Play `source` from its start.
    pub fn new(source: LevelSource) -> Self {
        Self {
            source,
            checkpoint: None,
            start_override: None,
            arrival: None,
        }
    }
}

/// The look of a level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
pub enum Theme {
    /// Grass and sky.
    #[default]
    Overworld,
    /// Caves.
    Underground,
    /// Clouds.
    Sky,
    /// Stone.
    Castle,
}

impl Theme {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "overworld" => Some(Self::Overworld),
            "underground" => Some(Self::Underground),
            "sky" => Some(Self::Sky),
            "castle" => Some(Self::Castle),
            _ => None,
        }
    }

    /// Row of the theme in `tiles.png`, and its file-name part.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Name used in file names.
    pub fn name(self) -> &'static str {
        ["overworld", "underground", "sky", "castle"][self.index()]
    }
}

/// The IntGrid values of the level's collision layer, in world space.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelCells {
    /// The physics grid entity, if the level has a collision layer.
    pub grid: Option<Entity>,
    /// The collision layer's identifier.
    pub layer: String,
    /// World position of the bottom-left corner of cell (0, 0).
    pub origin: Vec2,
    /// Cell size, px.
    pub cell_size: f32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Values, row 0 at the bottom.
    pub values: Vec<i32>,
    /// The game's block of each IntGrid value of the layer, by the value's identifier in the
    /// project.
    pub blocks: Vec<(i32, Block)>,
    /// Every value of the layer is one of the game's blocks (a foreign project's are not).
    pub game_values: bool,
    /// The layer has a tileset and tiles in the project (auto-layer rules or painted tiles), which
    /// `bevy_ecs_ldtk` spawns and the game draws; else the game draws each cell by physics kind.
    pub drawn_by_project: bool,
}

impl LevelCells {
    /// The value at a cell (0 outside).
    pub fn value(&self, cell: IVec2) -> i32 {
        self.index(cell).map_or(0, |i| self.values[i])
    }

    /// The game's block at a cell (`None` for empty, outside, or a value the game does not know).
    pub fn block(&self, cell: IVec2) -> Option<Block> {
        let value = self.value(cell);
        self.blocks.iter().find(|(v, _)| *v == value).map(|(_, b)| *b)
    }

    /// Puts `block` at a cell (`None` empties it); false outside, or for a block the level's
    /// layer does not define.
    pub fn set_block(&mut self, cell: IVec2, block: Option<Block>) -> bool {
        let value = match block {
            None => 0,
            Some(block) => match self.blocks.iter().find(|(_, b)| *b == block) {
                Some((value, _)) => *value,
                None => return false,
            },
        };
        match self.index(cell) {
            Some(i) => {
                self.values[i] = value;
                true
            }
            None => false,
        }
    }

    /// The cell containing a world point.
    pub fn cell_at(&self, point: Vec2) -> IVec2 {
        ((point - self.origin) / self.cell_size).floor().as_ivec2()
    }

    /// A cell's world rectangle.
    pub fn cell_rect(&self, cell: IVec2) -> Aabb {
        Aabb::from_min_size(
            self.origin + cell.as_vec2() * self.cell_size,
            Vec2::splat(self.cell_size),
        )
    }

    fn index(&self, cell: IVec2) -> Option<usize> {
        (cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height)
            .then(|| (cell.y as u32 * self.width + cell.x as u32) as usize)
    }
}

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

/// Marks everything spawned for the current level.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct LevelEntity;

/// Asks for the current level to be (re)loaded: everything of the old one is despawned first.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LoadLevel;

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

/// The level could not be loaded; the message says why.
#[derive(Resource, Clone, Debug, Default)]
pub struct LevelLoadError(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LoadLevel>()
        .init_resource::<LevelInfo>()
        .init_resource::<LevelLoadError>();
    app.add_message::<LevelSpawned>();
    app.add_plugins((pipeline::plugin, live_edit::plugin));
    // Lifts are drawn between fixed steps, as the bodies are.
    app.add_observer(|added: On<Add, PathFollower>, mut commands: Commands| {
        commands.entity(added.entity).insert(TransformInterpolation);
    });
}

/// Sent after a level was spawned (visuals, clock and camera start from it).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LevelSpawned;
