//! The registry of level objects: each gameplay plugin says which LDtk entity identifiers it
//! spawns, so the level loader knows none of them and a new object kind touches only its own file.
//!
//! # Example
//!
//! ```
//! use bevy::prelude::*;
//! use slope_bros::level::{LevelObject, RegisterLevelObject};
//!
//! #[derive(Component)]
//! struct Spike;
//!
//! fn spawn_spike(commands: &mut Commands, object: &LevelObject) {
//!     commands.spawn((Spike, Transform::from_translation(object.feet().extend(4.0))));
//! }
//!
//! let mut app = App::new();
//! app.register_level_object("Spike", spawn_spike);
//! ```

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;

use crate::tuning::Tuning;

/// The fields of a placed object that the game reads: Bool and String fields, by identifier.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectFields {
    /// Bool fields.
    pub flags: Vec<(String, bool)>,
    /// String (and Enum) fields that have a value.
    pub texts: Vec<(String, String)>,
}

impl ObjectFields {
    /// The Bool field `name` (false when absent).
    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, v)| n == name && *v)
    }

    /// The String field `name` ("" when absent or null).
    pub fn text(&self, name: &str) -> &str {
        self.texts
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// One placed object of a level, as its spawn function sees it.
pub struct LevelObject<'a> {
    /// The entity's rectangle in the world, px.
    pub rect: Aabb,
    /// The entity's fields.
    pub fields: &'a ObjectFields,
    /// The checkpoint the player restarts at, if any.
    pub checkpoint: Option<Vec2>,
    /// The game's tuning.
    pub tuning: &'a Tuning,
}

impl LevelObject<'_> {
    /// The middle of the rectangle's bottom edge: where a standing object's feet go.
    pub fn feet(&self) -> Vec2 {
        Vec2::new(self.rect.center().x, self.rect.min.y)
    }

    /// The Bool field `name` (false when absent).
    pub fn flag(&self, name: &str) -> bool {
        self.fields.flag(name)
    }

    /// The String field `name` ("" when absent or null).
    pub fn text(&self, name: &str) -> &str {
        self.fields.text(name)
    }
}

/// Spawns one object kind.
pub type SpawnObject = fn(&mut Commands, &LevelObject);

/// Spawn functions by LDtk entity identifier.
#[derive(Resource, Clone, Default)]
pub struct LevelObjects(HashMap<&'static str, SpawnObject>);

impl LevelObjects {
    /// The spawn function of `identifier`.
    pub fn get(&self, identifier: &str) -> Option<SpawnObject> {
        self.0.get(identifier).copied()
    }
}

/// Registers level objects on an [`App`].
pub trait RegisterLevelObject {
    /// Entities of LDtk identifier `identifier` are spawned by `spawn`.
    fn register_level_object(&mut self, identifier: &'static str, spawn: SpawnObject) -> &mut Self;
}

impl RegisterLevelObject for App {
    fn register_level_object(&mut self, identifier: &'static str, spawn: SpawnObject) -> &mut Self {
        self.world_mut()
            .get_resource_or_init::<LevelObjects>()
            .0
            .insert(identifier, spawn);
        self
    }
}
