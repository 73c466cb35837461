//! The player: spawned at the sample's `Player` entity the first time its level is ready, kept
//! across levels; A/D walk, W/S climb ladders, Space jumps (from the ground or a ladder).

use bevy::prelude::*;
use bevy_platformer_physics::ldtk::{LdtkLevelReady, LevelPhysics};
use bevy_platformer_physics::prelude::*;

use super::inventory::Inventory;
use super::physics::body_size;

/// The player.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Player;

/// Where the player started, and starts again after a fall or a restart (its centre).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PlayerStart(pub Vec2);

/// Walking speed, px/s.
const WALK_SPEED: f32 = 200.0;
/// Climbing speed, px/s.
const CLIMB_SPEED: f32 = 200.0;
/// Upward speed of a jump, px/s.
const JUMP_SPEED: f32 = 500.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ButtonInput<KeyCode>>()
        .add_systems(
            PreUpdate,
            spawn_player.after(bevy_platformer_physics::ldtk::LdtkPhysicsSystems),
        )
        .add_systems(Update, player_input);
}

/// Spawns the player at the first ready level that places one, if there is none yet.
fn spawn_player(
    mut commands: Commands,
    mut ready: MessageReader<LdtkLevelReady>,
    levels: Query<&LevelPhysics>,
    players: Query<(), With<Player>>,
) {
    let mut spawned = !players.is_empty();
    for level in ready.read() {
        let Ok(physics) = levels.get(level.level) else { continue };
        let Some(placement) = physics.entities.iter().find(|e| e.identifier == "Player") else {
            continue;
        };
        if spawned {
            continue;
        }
        let size = body_size("Player");
        let centre = Vec2::new(placement.rect.center().x, placement.rect.min.y + size.y * 0.5);
        commands.spawn((
            Player,
            PlayerStart(centre),
            Name::new("Player"),
            Inventory::from_fields(&placement.fields, "items"),
            Dynamic,
            Collider::rectangle(size.x, size.y),
            Transform::from_translation(centre.extend(11.0)),
            // Walks at WALK_SPEED at once and stops at once, as the original sets its velocity.
            MovementTuning {
                acceleration: 100_000.0,
                deceleration: 100_000.0,
                skid_deceleration: 100_000.0,
                max_speed: Vec2::new(WALK_SPEED, 2000.0),
                ..default()
            },
            Climber { speed: CLIMB_SPEED },
        ));
        spawned = true;
    }
}

/// The keyboard, as the original reads it.
fn player_input(keys: Res<ButtonInput<KeyCode>>, mut players: Query<&mut MovementInput, With<Player>>) {
    let axis = |plus: KeyCode, minus: KeyCode| keys.pressed(plus) as i32 as f32 - keys.pressed(minus) as i32 as f32;
    for mut input in &mut players {
        input.horizontal = axis(KeyCode::KeyD, KeyCode::KeyA);
        input.climb = axis(KeyCode::KeyW, KeyCode::KeyS);
        if keys.just_pressed(KeyCode::Space) {
            input.jump = Some(JUMP_SPEED);
        }
    }
}
