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
    LdtkEntityPlacement, LdtkPhysicsMapping, LevelPhysics, level_physics, load_ldtk_file, spawn_level_physics,
};

use crate::gameplay::progress::LevelClock;
use crate::gameplay::{enemies, goal, items, player};
use crate::paths::DataRoot;
use crate::screens::Screen;
use crate::tuning::Tuning;

/// The levels of a game, in order.
pub const BUILTIN_LEVELS: [&str; 4] = ["overworld", "underground", "sky", "castle"];

/// IntGrid values of the game's `Collisions` layer (see `levels/README.md`).
pub mod cell {
    /// Ground.
    pub const GROUND: i32 = 1;
    /// Stone.
    pub const STONE: i32 = 2;
    /// One-way platform.
    pub const ONE_WAY: i32 = 3;
    /// Brick: a big player breaks it.
    pub const BRICK: i32 = 4;
    /// Question block with a coin.
    pub const QUESTION_COIN: i32 = 5;
    /// Question block with a mushroom.
    pub const QUESTION_MUSHROOM: i32 = 6;
    /// An emptied question block.
    pub const USED: i32 = 7;
    /// First slope value (8..=13).
    pub const FIRST_SLOPE: i32 = 8;
    /// Last slope value.
    pub const LAST_SLOPE: i32 = 13;
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
    /// The level uses the game's own values (else a foreign project: draw by physics kind).
    pub game_values: bool,
}

impl LevelCells {
    /// The value at a cell (0 outside).
    pub fn value(&self, cell: IVec2) -> i32 {
        self.index(cell).map_or(0, |i| self.values[i])
    }

    /// Changes a value; false outside.
    pub fn set_value(&mut self, cell: IVec2, value: i32) -> bool {
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
    let project = load_ldtk_file(&path).map_err(|e| e.to_string())?;
    let file = path.display().to_string();
    let level = project
        .levels
        .first()
        .ok_or_else(|| format!("{file}: the project has no level"))?;
    let (physics, errors) = level_physics(&file, level, &mapping);
    let mut problems: Vec<String> = errors.iter().map(ToString::to_string).collect();

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
        cells.game_values = matches!(source, LevelSource::Builtin(_));
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
        if placement.identifier == "Player" && player_start.is_none() {
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
    player::spawn_player(&mut commands, start, &tuning);
    for (placement, fields) in &data.objects {
        let feet = Vec2::new(placement.rect.center().x, placement.rect.min.y);
        let flag = |name: &str| fields.iter().any(|(n, v)| n == name && *v);
        match placement.identifier.as_str() {
            "Walker" => enemies::spawn_walker(&mut commands, feet, flag("turns_at_ledges"), &tuning),
            "ShellEnemy" => enemies::spawn_shell_enemy(&mut commands, feet, &tuning),
            "HammerThrower" => enemies::spawn_hammer_thrower(&mut commands, feet, &tuning),
            "Coin" => items::spawn_coin(&mut commands, placement.rect.center()),
            "Goal" => goal::spawn_goal(&mut commands, feet),
            "Checkpoint" => goal::spawn_checkpoint(&mut commands, feet, current.checkpoint),
            _ => {}
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
