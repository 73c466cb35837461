//! Levels: reading an LDtk project, spawning its physics and its objects, and reloading it.
//!
//! The level's IntGrid `Collisions` layer becomes one [`TileGrid`] through the plugin's LDtk bridge
//! (`levels/mapping.ron` says which value is which cell kind); the game keeps the raw values too,
//! because a brick and a question block are both solid to the physics but not to the player.
//! Entities (`Player`, `Walker`, `Coin`, ...) become the game's objects. Everything spawned for a
//! level carries [`LevelEntity`] and goes away on [`LoadLevel`] or when play stops.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::FieldValue;
use bevy_platformer_physics::ldtk::{
    LdtkEntityPlacement, LdtkPhysicsMapping, LdtkProjectFile, LevelPhysics, spawn_level_physics,
};
use bevy_platformer_physics::prelude::{PathFollower, TransformInterpolation};

mod objects;

pub use objects::{LevelObject, LevelObjects, RegisterLevelObject, SpawnObject};

use crate::paths::DataRoot;
use crate::screens::state::Screen;
use crate::tuning::Tuning;

/// The LDtk identifier of the player's start.
pub const PLAYER: &str = "Player";

/// The levels of a game, in order.
pub const BUILTIN_LEVELS: [&str; 4] = ["overworld", "underground", "sky", "castle"];

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
    /// `question_mushroom`: gives a mushroom once.
    QuestionMushroom,
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
}

impl CurrentLevel {
    /// Play `source` from its start.
    pub fn new(source: LevelSource) -> Self {
        Self {
            source,
            checkpoint: None,
            start_override: None,
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
    /// Every value of the layer is one of the game's blocks (else a foreign project: it is drawn
    /// by physics kind).
    pub game_values: bool,
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
    /// Placed objects with the Bool fields the game reads.
    pub objects: Vec<(LdtkEntityPlacement, Vec<(String, bool)>)>,
}

/// Reads a level. A file that cannot be used at all is an error naming it; smaller problems are
/// kept in [`LevelInfo::problems`] and the rest of the level loads.
pub fn read_level(source: &LevelSource, root: &DataRoot) -> Result<LevelData, String> {
    let (path, mapping_path) = match source {
        LevelSource::Builtin(i) => {
            let name = BUILTIN_LEVELS.get(*i).ok_or_else(|| format!("no built-in level {i}"))?;
            (
                root.levels().join(format!("{name}.ldtk")),
                Some(root.levels().join("mapping.ron")),
            )
        }
        LevelSource::File { path, mapping } => (path.clone(), mapping.clone()),
    };
    let mapping = match &mapping_path {
        Some(m) => LdtkPhysicsMapping::load(m).map_err(|e| e.to_string())?,
        None => LdtkPhysicsMapping::default(),
    };
    let (project, load_problems) = LdtkProjectFile::load(&path).map_err(|e| e.to_string())?;
    let file = path.display().to_string();
    // The first level of the first world (a project of one level, or the start of a world).
    let project_level = project.levels.first().ok_or_else(|| {
        let why: Vec<String> = load_problems.iter().map(ToString::to_string).collect();
        format!("{file}: the project has no level that loads ({})", why.join("; "))
    })?;
    let level = &project_level.level;
    let (physics, errors) = project.level_physics(project_level, &mapping);
    let mapping_problems = mapping.check(&file, &project.json.defs);
    let mut problems: Vec<String> = load_problems
        .iter()
        .chain(&mapping_problems)
        .chain(&errors)
        .map(ToString::to_string)
        .collect();

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
        }
        let definitions = project.json.defs.layers.iter().find(|l| &l.identifier == layer_name);
        let values = definitions.map(|l| l.int_grid_values.as_slice()).unwrap_or_default();
        cells.blocks = values
            .iter()
            .filter_map(|v| Some((v.value, Block::from_identifier(v.identifier.as_deref()?)?)))
            .collect();
        cells.game_values = !values.is_empty() && cells.blocks.len() == values.len();
    }

    let mut objects = Vec::new();
    let entity_fields = |iid: &str| -> Vec<(String, bool)> {
        level
            .layer_instances
            .iter()
            .flatten()
            .flat_map(|l| l.entity_instances.iter())
            .filter(|e| e.iid == iid)
            .flat_map(|e| e.field_instances.iter())
            .filter_map(|f| match f.value {
                FieldValue::Bool(b) => Some((f.identifier.clone(), b)),
                _ => None,
            })
            .collect()
    };
    let mut player_start = None;
    for placement in &physics.entities {
        if placement.identifier == PLAYER && player_start.is_none() {
            player_start = Some(Vec2::new(placement.rect.center().x, placement.rect.min.y));
        }
        objects.push((placement.clone(), entity_fields(&placement.iid)));
    }
    let player_start = player_start.unwrap_or_else(|| {
        problems.push(format!(
            "{file}: level {}: no Player entity; starting at the top-left corner",
            level.identifier
        ));
        Vec2::new(physics.bounds.min.x + 24.0, physics.bounds.max.y - 24.0)
    });
    for problem in &problems {
        error!("{problem}");
    }
    let info = LevelInfo {
        name: level.identifier.clone(),
        theme,
        bounds: physics.bounds,
        time_limit,
        player_start,
        cells,
        problems,
    };
    Ok(LevelData { physics, info, objects })
}

/// Resources the level systems need.
#[derive(Resource, Clone, Debug)]
pub struct GameData {
    /// Where assets and levels are.
    pub root: DataRoot,
}

/// The level could not be loaded; the message says why.
#[derive(Resource, Clone, Debug, Default)]
pub struct LevelLoadError(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LoadLevel>()
        .init_resource::<LevelInfo>()
        .init_resource::<LevelLoadError>();
    app.add_message::<LevelSpawned>();
    app.add_systems(OnEnter(Screen::Playing), load_requested_level);
    app.add_systems(OnExit(Screen::Playing), despawn_level);
    app.add_systems(PreUpdate, load_requested_level.run_if(on_message::<LoadLevel>));
    // Lifts are drawn between fixed steps, as the bodies are.
    app.add_observer(|added: On<Add, PathFollower>, mut commands: Commands| {
        commands.entity(added.entity).insert(TransformInterpolation);
    });
}

fn despawn_level(mut commands: Commands, spawned: Query<Entity, With<LevelEntity>>) {
    for entity in &spawned {
        commands.entity(entity).despawn();
    }
}

/// Despawns the old level and spawns the current one.
pub fn load_requested_level(world: &mut World) {
    world.resource_mut::<Messages<LoadLevel>>().clear();
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<LevelEntity>>()
        .iter(world)
        .collect();
    for entity in old {
        if let Ok(e) = world.get_entity_mut(entity) {
            e.despawn();
        }
    }
    let current = world.resource::<CurrentLevel>().clone();
    let root = world.resource::<GameData>().root.clone();
    match read_level(&current.source, &root) {
        Ok(data) => {
            world.resource_mut::<LevelLoadError>().0 = None;
            spawn_level(world, data, &current);
        }
        Err(e) => {
            error!("{e}");
            world.resource_mut::<LevelLoadError>().0 = Some(e);
        }
    }
}

fn spawn_level(world: &mut World, mut data: LevelData, current: &CurrentLevel) {
    let tuning = world.resource::<Tuning>().clone();
    let objects = world.get_resource::<LevelObjects>().cloned().unwrap_or_default();
    let mut commands = world.commands();
    let physics_entities = spawn_level_physics(&mut commands, &data.physics);
    for entity in &physics_entities {
        commands.entity(*entity).insert(LevelEntity);
    }
    if !data.physics.grids.is_empty() {
        data.info.cells.grid = physics_entities.first().copied();
    }
    let start = current
        .start_override
        .or(current.checkpoint)
        .unwrap_or(data.info.player_start);
    let object = |rect, flags| LevelObject {
        rect,
        flags,
        checkpoint: current.checkpoint,
        tuning: &tuning,
    };
    // The player first, at its start (the override or checkpoint wins over its entity), then the
    // objects in the file's order: the same order every run, so replays stay identical.
    if let Some(spawn) = objects.get(PLAYER) {
        spawn(&mut commands, &object(Aabb::from_min_size(start, Vec2::ZERO), &[]));
    }
    for (placement, flags) in data.objects.iter().filter(|(p, _)| p.identifier != PLAYER) {
        if let Some(spawn) = objects.get(&placement.identifier) {
            spawn(&mut commands, &object(placement.rect, flags));
        }
    }
    world.flush();
    world.insert_resource(LevelClock {
        left: data.info.time_limit,
        steps: 0,
    });
    world.insert_resource(data.info);
    world.write_message(LevelSpawned);
}

/// Sent after a level was spawned (visuals, clock and camera start from it).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LevelSpawned;
