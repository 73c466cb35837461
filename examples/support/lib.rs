//! What the windowed examples share: a keyboard-driven player and a camera that follows it.
//! Arrows or A/D walk, Space jumps, Down + Space drops through a one-way platform.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

/// bevy_ecs_ldtk's platformer example on this plugin (its binary is `ldtk_platformer/main.rs`).
#[cfg(feature = "ldtk")]
#[path = "../ldtk_platformer/mod.rs"]
pub mod ldtk_platformer;

/// The body the keyboard drives.
#[derive(Component)]
pub struct Player {
    /// Upward speed of a jump, px/s.
    pub jump_speed: f32,
}

/// Keeps the camera on the player, this many pixels above it.
#[derive(Component)]
pub struct FollowPlayer {
    /// Height of the camera above the player, px.
    pub above: f32,
}

/// Writes the player's `MovementInput` from the keyboard.
pub fn player_input(keys: Res<ButtonInput<KeyCode>>, mut players: Query<(&Player, &mut MovementInput)>) {
    for (player, mut input) in &mut players {
        let left = keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]);
        let right = keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]);
        input.horizontal = (right as i32 - left as i32) as f32;
        if keys.just_pressed(KeyCode::Space) {
            if keys.any_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
                input.drop_through = true;
            } else {
                input.jump = Some(player.jump_speed);
            }
        }
    }
}

/// Moves each following camera over the player.
pub fn follow_player(
    players: Query<&Transform, With<Player>>,
    mut cameras: Query<(&FollowPlayer, &mut Transform), Without<Player>>,
) {
    let Ok(player) = players.single() else { return };
    for (follow, mut camera) in &mut cameras {
        camera.translation.x = player.translation.x;
        camera.translation.y = player.translation.y + follow.above;
    }
}
