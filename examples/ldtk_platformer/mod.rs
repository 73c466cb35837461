//! bevy_ecs_ldtk's platformer example, ported from avian2d to bevy_platformer_physics: the LDtk
//! sample level played with walls and ladders from its IntGrid layer, a player who walks, jumps and
//! climbs, patrolling enemies, chests and pumpkins, an inventory printed on P, the level's
//! neighbours loaded around it and the selection following the player across levels, R to start
//! the level again and a fall out of the world to start over.
//!
//! The physics glue is `physics.rs`: the IntGrid mapping, gravity and each entity's box. The
//! walls, ground detection and ladders the original builds itself are the plugin's (its LDtk
//! bridge, `Contacts`, `Ladder` and `Climber`). The windowed binary (`main.rs`) adds the window,
//! the drawing and the camera; everything here also runs headless.

mod enemy;
mod game_flow;
mod inventory;
mod objects;
mod physics;
mod player;

use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::*;
use bevy_platformer_physics::ldtk::LdtkPhysicsPlugin;
use bevy_platformer_physics::prelude::*;

pub use enemy::Enemy;
pub use game_flow::{LdtkPlatformerProject, player_level};
pub use inventory::Inventory;
pub use objects::{Chest, LevelObject, Pumpkins};
pub use player::{Player, PlayerStart};

/// The physics steps per second (the window's refresh on most screens: one step a frame).
pub const STEPS_PER_SECOND: f64 = 60.0;

/// The whole game: bevy_ecs_ldtk, the physics with its LDtk bridge, and the game's rules. A game
/// adds it after `DefaultPlugins` (or, headless, the asset, image and transform plugins).
pub struct LdtkPlatformerPlugin;

impl Plugin for LdtkPlatformerPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            LdtkPlugin,
            PlatformerPhysicsPlugins::default().with_fixed_hz(STEPS_PER_SECOND),
            LdtkPhysicsPlugin,
        ))
        .insert_resource(LevelSelection::index(0))
        .insert_resource(LdtkSettings {
            level_spawn_behavior: LevelSpawnBehavior::UseWorldTranslation {
                load_level_neighbors: true,
            },
            set_clear_color: SetClearColor::FromLevelBackground,
            ..default()
        })
        .add_plugins((
            physics::plugin,
            game_flow::plugin,
            player::plugin,
            enemy::plugin,
            objects::plugin,
            inventory::plugin,
        ));
    }
}
