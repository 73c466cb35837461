//! Loading the project, the level selection following the player across levels, R to start the
//! level again, and a fall out of the world to start over.

use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::*;
use bevy_platformer_physics::ldtk::{LevelPhysics, RespawnLdtkLevel};
use bevy_platformer_physics::prelude::*;

use super::player::{Player, PlayerStart};

/// The LDtk project played, an asset path.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct LdtkPlatformerProject(pub String);

impl Default for LdtkPlatformerProject {
    fn default() -> Self {
        Self("Typical_2D_platformer_example.ldtk".to_string())
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LdtkPlatformerProject>()
        .add_systems(Startup, load_project)
        .add_systems(
            Update,
            (follow_player_across_levels, restart_level, fall_out_of_the_world),
        );
}

fn load_project(mut commands: Commands, assets: Res<AssetServer>, project: Res<LdtkPlatformerProject>) {
    commands.spawn(LdtkWorldBundle {
        ldtk_handle: assets.load(project.0.clone()).into(),
        ..default()
    });
}

/// The spawned level the point `at` is in, if any.
pub fn player_level<'a>(levels: impl IntoIterator<Item = &'a LevelPhysics>, at: Vec2) -> Option<&'a LevelPhysics> {
    levels.into_iter().find(|level| level.bounds.contains(at))
}

/// Selects the level the player is in, so that bevy_ecs_ldtk loads its neighbours.
fn follow_player_across_levels(
    levels: Query<&LevelPhysics>,
    players: Query<&Transform, With<Player>>,
    mut selection: ResMut<LevelSelection>,
) {
    for player in &players {
        if let Some(level) = player_level(levels.iter(), player.translation.truncate()) {
            let here = LevelSelection::iid(level.iid.clone());
            if *selection != here {
                *selection = here;
            }
        }
    }
}

/// R: the current level is made again and the player starts over.
fn restart_level(
    keys: Res<ButtonInput<KeyCode>>,
    selection: Res<LevelSelection>,
    mut respawn: MessageWriter<RespawnLdtkLevel>,
    mut players: Query<(&PlayerStart, &mut Transform, &mut Velocity), With<Player>>,
) {
    if !keys.just_pressed(KeyCode::KeyR) {
        return;
    }
    if let LevelSelection::Iid(iid) = &*selection {
        respawn.write(RespawnLdtkLevel::new(iid.get().clone()));
    }
    for (start, mut transform, mut velocity) in &mut players {
        start_over(start, &mut transform, &mut velocity);
    }
}

/// A player below every spawned level starts over.
fn fall_out_of_the_world(
    levels: Query<&LevelPhysics>,
    mut players: Query<(&PlayerStart, &mut Transform, &mut Velocity), With<Player>>,
) {
    let Some(bottom) = levels.iter().map(|l| l.bounds.min.y).reduce(f32::min) else {
        return;
    };
    for (start, mut transform, mut velocity) in &mut players {
        if transform.translation.y < bottom {
            start_over(start, &mut transform, &mut velocity);
        }
    }
}

fn start_over(start: &PlayerStart, transform: &mut Transform, velocity: &mut Velocity) {
    transform.translation = start.0.extend(transform.translation.z);
    velocity.0 = Vec2::ZERO;
}
