//! Which level is played: the built-in levels, a level file, and the pipe the player comes out of.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::paths::DataRoot;

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
