//! A whole LDtk project read from disk, as a game or tool without `bevy_ecs_ldtk`'s asset
//! pipeline reads it (a headless check, a test, a level tool): every level of every world, with
//! the levels that live in their own `.ldtkl` files, each placed where the project's layout puts
//! it.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_ecs_ldtk::ldtk::{LdtkJson, Level, WorldLayout};
use serde::Deserialize;

use super::{LdtkPhysicsError, LdtkPhysicsMapping, LevelPhysics, level_physics};

/// The newest LDtk file format the bridge reads (`jsonVersion` major and minor).
pub const NEWEST_LDTK_VERSION: (u32, u32) = (1, 5);

/// One level of a project, with its layers, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectLevel {
    /// The world it belongs to: `None` in a project of one world (its levels at the top level).
    pub world: Option<String>,
    /// The level, with its layer instances (read from its `.ldtkl` file when it lives in one).
    pub level: Level,
    /// Its bottom-left corner in world space, px (y up). LDtk's `worldX` / `worldY` in the free
    /// and grid-vania layouts; in the linear layouts (where levels have no world position) the
    /// levels side by side, left to right or top to bottom, in the project's order, as the LDtk
    /// editor shows them.
    pub origin: Vec2,
}

/// An LDtk project read from disk.
#[derive(Clone, Debug)]
pub struct LdtkProjectFile {
    /// The project file, as it was named (for errors).
    pub file: String,
    /// The project.
    pub json: LdtkJson,
    /// Every level of every world, in the project's order. A level whose `.ldtkl` file cannot be
    /// read is missing; an error names it.
    pub levels: Vec<ProjectLevel>,
}

impl LdtkProjectFile {
    /// Reads the project at `path` and the `.ldtkl` files of its external levels (relative to its
    /// folder). `Err` only when the project file itself cannot be read or parsed; the problems
    /// of single levels and worlds come beside the project, which keeps everything else.
    pub fn load(path: impl AsRef<Path>) -> Result<(Self, Vec<LdtkPhysicsError>), LdtkPhysicsError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| LdtkPhysicsError::file(&file, format!("cannot read: {e}")))?;
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::parse(&text, &file, |relative| {
            let level_path: PathBuf = folder.join(relative);
            std::fs::read_to_string(&level_path).map_err(|e| (level_path.display().to_string(), e.to_string()))
        })
    }

    /// Parses a project's text; `file` names it in errors, and `read_level` reads an external
    /// level's file by its path relative to the project (`Err((file, why))` when it cannot).
    pub fn parse(
        text: &str,
        file: &str,
        read_level: impl Fn(&str) -> Result<String, (String, String)>,
    ) -> Result<(Self, Vec<LdtkPhysicsError>), LdtkPhysicsError> {
        let mut errors = Vec::new();
        let newer = newer_version(text);
        if let Some(version) = &newer {
            errors.push(LdtkPhysicsError::file(
                file,
                format!(
                    "the project was saved by LDtk {version}, newer than {}.{}, the newest this bridge reads: \
                     it may not load as the editor shows it",
                    NEWEST_LDTK_VERSION.0, NEWEST_LDTK_VERSION.1
                ),
            ));
        }
        let json = super::parse_ldtk(text, file).map_err(|mut e| {
            if let Some(version) = &newer {
                e.message = format!("{} (saved by LDtk {version}, newer than the bridge reads)", e.message);
            }
            e
        })?;
        let (project, more) = Self::assemble(json, file, read_level);
        errors.extend(more);
        Ok((project, errors))
    }

    /// A project already parsed, whose levels are all in the project file: a level in its own
    /// `.ldtkl` file is left out, with an error naming it.
    pub fn from_json(json: LdtkJson, file: &str) -> (Self, Vec<LdtkPhysicsError>) {
        Self::assemble(json, file, |relative| {
            Err((
                relative.to_string(),
                "the project was given already parsed, without its folder".to_string(),
            ))
        })
    }

    /// Collects the levels of every world of `json`, reading external ones with `read_level`.
    fn assemble(
        json: LdtkJson,
        file: &str,
        read_level: impl Fn(&str) -> Result<String, (String, String)>,
    ) -> (Self, Vec<LdtkPhysicsError>) {
        let mut errors = Vec::new();
        let mut levels = Vec::new();
        let mut worlds: Vec<(Option<String>, Option<WorldLayout>, &[Level])> = Vec::new();
        if !json.levels.is_empty() || json.worlds.is_empty() {
            worlds.push((None, json.world_layout, &json.levels));
        }
        for world in &json.worlds {
            worlds.push((Some(world.identifier.clone()), world.world_layout, &world.levels));
        }
        for (world, layout, world_levels) in worlds {
            if world_levels.is_empty() {
                let name = world.as_deref().unwrap_or("the project");
                errors.push(LdtkPhysicsError::file(file, format!("world {name} has no level")));
                continue;
            }
            let mut next = Vec2::ZERO;
            for level in world_levels {
                let origin = match layout {
                    Some(WorldLayout::LinearHorizontal) => {
                        let origin = Vec2::new(next.x, -(level.px_hei as f32));
                        next.x += level.px_wid as f32;
                        origin
                    }
                    Some(WorldLayout::LinearVertical) => {
                        let origin = Vec2::new(0.0, next.y - level.px_hei as f32);
                        next.y -= level.px_hei as f32;
                        origin
                    }
                    _ => world_origin(level),
                };
                match with_layers(level, file, &read_level) {
                    Ok(level) => levels.push(ProjectLevel {
                        world: world.clone(),
                        level,
                        origin,
                    }),
                    Err(e) => errors.push(e),
                }
            }
        }
        let project = Self {
            file: file.to_string(),
            json,
            levels,
        };
        (project, errors)
    }

    /// The level named `identifier` (in any world), if any.
    pub fn level(&self, identifier: &str) -> Option<&ProjectLevel> {
        self.levels.iter().find(|l| l.level.identifier == identifier)
    }

    /// The physics of `level`, placed where the project puts it. (The problems of the mapping
    /// against the project are not repeated here: see [`LdtkPhysicsMapping::check`].)
    pub fn level_physics(
        &self,
        level: &ProjectLevel,
        mapping: &LdtkPhysicsMapping,
    ) -> (LevelPhysics, Vec<LdtkPhysicsError>) {
        level_physics(&self.file, &level.level, &self.json.defs, mapping, level.origin)
    }

    /// The physics of every level, placed where the project puts them, and the problems found
    /// (those of the mapping against the project first).
    pub fn physics(&self, mapping: &LdtkPhysicsMapping) -> (Vec<LevelPhysics>, Vec<LdtkPhysicsError>) {
        let mut errors = mapping.check(&self.file, &self.json.defs);
        let levels = self
            .levels
            .iter()
            .map(|level| {
                let (physics, problems) = self.level_physics(level, mapping);
                errors.extend(problems);
                physics
            })
            .collect();
        (levels, errors)
    }
}

/// The bottom-left corner of `level` in world space (y up, px), from LDtk's `worldX` and
/// `worldY` (y down, the level's top-left corner): where `bevy_ecs_ldtk` puts it with
/// `LevelSpawnBehavior::UseWorldTranslation`.
pub fn world_origin(level: &Level) -> Vec2 {
    // In i64: a damaged file may hold values whose sum overflows an i32.
    Vec2::new(
        level.world_x as f32,
        -((level.world_y as i64 + level.px_hei as i64) as f32),
    )
}

/// The physics of every level of `project` (already parsed, its levels in the project file),
/// placed where the project's layout puts them, and the problems found.
pub fn world_physics(
    file: &str,
    project: &LdtkJson,
    mapping: &LdtkPhysicsMapping,
) -> (Vec<LevelPhysics>, Vec<LdtkPhysicsError>) {
    let (project, mut errors) = LdtkProjectFile::from_json(project.clone(), file);
    let (levels, more) = project.physics(mapping);
    errors.extend(more);
    (levels, errors)
}

/// The version that saved `text`, if it is newer than the bridge reads.
fn newer_version(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Version {
        #[serde(rename = "jsonVersion")]
        json_version: String,
    }
    let version = serde_json::from_str::<Version>(text).ok()?.json_version;
    let mut parts = version.split('.').map(|p| p.trim().parse::<u32>().ok());
    let (major, minor) = (parts.next().flatten()?, parts.next().flatten().unwrap_or(0));
    ((major, minor) > NEWEST_LDTK_VERSION).then_some(version)
}

/// `level` with its layer instances: as it is, or read from its `.ldtkl` file.
fn with_layers(
    level: &Level,
    file: &str,
    read_level: &impl Fn(&str) -> Result<String, (String, String)>,
) -> Result<Level, LdtkPhysicsError> {
    if level.layer_instances.is_some() {
        return Ok(level.clone());
    }
    let in_level = |message: String| LdtkPhysicsError {
        level: Some(level.identifier.clone()),
        ..LdtkPhysicsError::file(file, message)
    };
    let Some(relative) = &level.external_rel_path else {
        return Err(in_level(
            "the level has no layers and no external file (externalRelPath)".to_string(),
        ));
    };
    let text = read_level(relative).map_err(|(path, why)| {
        in_level(format!(
            "its level file {path} cannot be read: {why}; the level is left out"
        ))
    })?;
    let loaded: Level = serde_json::from_str(&text).map_err(|e| {
        in_level(format!(
            "its level file {relative} is not a valid LDtk level at line {}, column {}: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if loaded.layer_instances.is_none() {
        return Err(in_level(format!("its level file {relative} has no layers")));
    }
    Ok(loaded)
}
