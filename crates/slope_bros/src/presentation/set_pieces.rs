//! Pictures of the pipes, the boss, its bridge and the axe; the player going into a pipe.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_platformer_physics::prelude::*;

use super::AppSystems;
use super::assets::GameAssets;
use super::sprites::feet_anchor;
use crate::gameplay::enemies::KnockedOut;
use crate::gameplay::enemies::boss::{Axe, Boss, BridgePlank};
use crate::gameplay::objects::pipe::{EnteringPipe, PIPE_TIME, Pipe, PipeEntry};
use crate::gameplay::player::Player;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, dress_set_pieces.in_set(AppSystems::Spawn));
    // After the player's own animation, which places its picture.
    app.add_systems(
        Update,
        (animate_set_pieces, go_into_pipes)
            .in_set(AppSystems::Animate)
            .after(super::sprites::animate_player),
    );
}

/// The tiles of `pipe.png` a pipe is built of: an upright pipe has its mouth (frames 0, 1) on its
/// top row and body (2, 3) below; a side pipe its mouth (4 over 5) in its left column and body (6
/// over 7) to the right.
fn pipe_tiles(side: bool, size: Vec2) -> Vec<(Vec2, usize)> {
    let (columns, rows) = (
        (size.x / 16.0).round().max(1.0) as usize,
        (size.y / 16.0).round().max(1.0) as usize,
    );
    let mut tiles = Vec::new();
    for row in 0..rows {
        for column in 0..columns {
            // Offsets from the pipe's top-left corner to the tile's centre, y up.
            let at = Vec2::new(column as f32 * 16.0 + 8.0, -(row as f32 * 16.0 + 8.0));
            let frame = if side {
                let body = if column == 0 { 4 } else { 6 };
                body + (row % 2)
            } else {
                let body = if row == 0 { 0 } else { 2 };
                body + (column % 2)
            };
            tiles.push((at, frame));
        }
    }
    tiles
}

fn dress_set_pieces(
    mut commands: Commands,
    assets: Res<GameAssets>,
    pipes: Query<(Entity, &Pipe, &Collider), Added<Pipe>>,
    bosses: Query<Entity, Added<Boss>>,
    planks: Query<Entity, Added<BridgePlank>>,
    axes: Query<Entity, Added<Axe>>,
) {
    for (entity, pipe, collider) in &pipes {
        let top_left = Vec2::new(-collider.size.x / 2.0, collider.size.y / 2.0);
        let side = pipe.entry == PipeEntry::Right;
        commands
            .entity(entity)
            .insert(Visibility::default())
            .with_children(|parent| {
                for (at, frame) in pipe_tiles(side, collider.size) {
                    parent.spawn((
                        assets.pipe.sprite(frame),
                        Transform::from_translation((top_left + at).extend(0.0)),
                    ));
                }
            });
    }
    for entity in &bosses {
        commands.entity(entity).insert((
            assets.boss.sprite(0),
            feet_anchor(32.0, Boss::SIZE.y),
            ObjectRect {
                size: Vec2::splat(32.0),
                offset: Vec2::new(0.0, 16.0 - Boss::SIZE.y / 2.0),
            },
        ));
    }
    for entity in &planks {
        // The plank is the top half of the 16 × 16 picture; the chain hangs below it.
        commands.entity(entity).insert((
            Sprite::from_image(assets.bridge.clone()),
            Anchor(Vec2::new(0.0, 0.5 - BridgePlank::SIZE.y / 2.0 / 16.0)),
        ));
    }
    for entity in &axes {
        commands
            .entity(entity)
            .insert((assets.axe.sprite(0), Anchor::BOTTOM_CENTER));
    }
}

fn animate_set_pieces(
    time: Res<Time>,
    mut bosses: Query<(&Boss, &Contacts, Has<KnockedOut>, &mut Sprite), Without<Axe>>,
    mut axes: Query<(&Axe, &mut Sprite, &mut Visibility), Without<Boss>>,
) {
    let t = time.elapsed_secs();
    for (boss, contacts, knocked_out, mut sprite) in &mut bosses {
        let frame = if knocked_out || !contacts.on_floor() {
            2
        } else if boss.awake {
            (t / 0.25) as usize % 2
        } else {
            0
        };
        if let Some(atlas) = &mut sprite.texture_atlas {
            atlas.index = frame;
        }
        // The picture faces left.
        sprite.flip_x = boss.facing > 0.0;
        sprite.flip_y = knocked_out;
    }
    for (axe, mut sprite, mut visibility) in &mut axes {
        if let Some(atlas) = &mut sprite.texture_atlas {
            atlas.index = usize::from(((t / 0.4) as usize).is_multiple_of(3));
        }
        // Touched, it is gone with the bridge.
        *visibility = if axe.dropping.is_some() {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
    }
}

/// The player going into a pipe: frozen in the physics, its picture sinks into the mouth (or
/// slides into a side pipe), drawn behind the pipe.
fn go_into_pipes(mut players: Query<(&EnteringPipe, &Collider, &mut Anchor), With<Player>>) {
    for (entering, collider, mut anchor) in &mut players {
        let gone = (1.0 - entering.left / PIPE_TIME).clamp(0.0, 1.0);
        let height = if collider.size.y > 20.0 { 32.0 } else { 16.0 };
        match entering.entry {
            // The picture is 16 px wide: it slides one width to the right.
            PipeEntry::Right => anchor.0.x -= gone,
            _ => anchor.0.y += gone * collider.size.y / height,
        }
    }
}
