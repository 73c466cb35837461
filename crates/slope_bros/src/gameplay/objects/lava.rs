//! Lava: cells that are nothing to the physics, so bodies sink into them. The player who sinks
//! `items.lava_depth` below a lava cell's top dies; an enemy, a power-up or a fireball is gone.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::gameplay::enemies::{Enemy, KnockedOut};
use crate::gameplay::fire::Fireball;
use crate::gameplay::objects::items::PowerUp;
use crate::gameplay::player::{Kill, Player, PlayerStatus};
use crate::level::{Block, LevelCells, LevelInfo};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.add_systems(FixedUpdate, sink_into_lava.in_set(GameSystems::React));
}

/// Whether `body` reaches `depth` below the top of a lava cell it overlaps.
pub fn in_lava(cells: &LevelCells, body: &Aabb, depth: f32) -> bool {
    let low = cells.cell_at(body.min + Vec2::new(0.5, 0.0));
    let high = cells.cell_at(body.max - Vec2::new(0.5, 0.0));
    (low.x..=high.x).any(|x| {
        (low.y..=high.y).any(|y| {
            let cell = IVec2::new(x, y);
            cells.block(cell) == Some(Block::Lava) && body.min.y <= cells.cell_rect(cell).max.y - depth
        })
    })
}

fn sink_into_lava(
    mut commands: Commands,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    players: Query<(&Player, &Transform, &Collider)>,
    others: Query<
        (Entity, &Transform, &Collider),
        (Or<(With<Enemy>, With<PowerUp>, With<Fireball>)>, Without<KnockedOut>),
    >,
    mut kills: MessageWriter<Kill>,
) {
    let depth = tuning.items.lava_depth;
    for (player, transform, collider) in &players {
        if player.status == PlayerStatus::Alive
            && in_lava(&info.cells, &collider.aabb(transform.translation.truncate()), depth)
        {
            kills.write(Kill);
        }
    }
    for (entity, transform, collider) in &others {
        if in_lava(&info.cells, &collider.aabb(transform.translation.truncate()), depth) {
            commands.entity(entity).despawn();
        }
    }
}
