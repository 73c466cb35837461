//! Blocks hit from below: a question block gives a coin or a mushroom and becomes a used block;
//! a big player breaks bricks (a cell edit of the physics grid, effective next step); a small
//! player only bumps them.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use super::Sfx;
use super::items::{CoinPop, spawn_mushroom};
use super::player::{Form, Player};
use super::progress::GameProgress;
use crate::draw_order;
use crate::level::{Block, LevelInfo};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A block was hit from below (for visuals: the bump animation, debris).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockHit {
    /// The cell.
    pub cell: IVec2,
    /// The block before the hit.
    pub block: Option<Block>,
    /// It broke.
    pub broken: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BlockHit>();
    app.add_systems(FixedUpdate, hit_blocks.in_set(GameSystems::React));
}

/// The cell a head hits: of the cells just above the player's top, the one under its centre, else
/// the one it overlaps most.
pub fn head_cell(info: &LevelInfo, head_center: Vec2, half_width: f32) -> Option<IVec2> {
    let cells = &info.cells;
    let probe = head_center + Vec2::Y * 1.0;
    let centre = cells.cell_at(probe);
    if cells.value(centre) != 0 {
        return Some(centre);
    }
    [probe.x - half_width + 0.5, probe.x + half_width - 0.5]
        .into_iter()
        .map(|x| cells.cell_at(Vec2::new(x, probe.y)))
        .find(|c| cells.value(*c) != 0)
}

fn hit_blocks(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut info: ResMut<LevelInfo>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider, &Contacts, &MovementState)>,
    mut grids: Query<&mut TileGrid>,
    mut hits: MessageWriter<BlockHit>,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(grid_entity) = info.cells.grid else { return };
    for (player, transform, collider, contacts, state) in &players {
        // Only a head moving up hits: resting against a low ceiling does not.
        if state.integrated_vel_y <= 0.0 || !contacts.solid_in(ContactDirection::Up).any(|c| c.entity == grid_entity) {
            continue;
        }
        let head = transform.translation.truncate() + Vec2::Y * collider.size.y / 2.0;
        let Some(cell) = head_cell(&info, head, collider.size.x / 2.0) else {
            continue;
        };
        let block = info.cells.block(cell);
        let above = info.cells.cell_rect(cell);
        let mut broken = false;
        match block {
            Some(Block::QuestionCoin) => {
                info.cells.set_block(cell, Some(Block::Used));
                commands.spawn((
                    CoinPop { left: 0.45 },
                    Transform::from_translation((above.center() + Vec2::Y * 16.0).extend(draw_order::ITEMS)),
                ));
                if progress.add_coin(&tuning.rules) {
                    sfx.write(Sfx::OneUp);
                }
                sfx.write(Sfx::Coin);
            }
            Some(Block::QuestionMushroom) => {
                info.cells.set_block(cell, Some(Block::Used));
                let direction = super::sign_or(above.center().x - transform.translation.x, 1.0);
                spawn_mushroom(&mut commands, Vec2::new(above.center().x, above.max.y), direction);
                sfx.write(Sfx::PowerupAppears);
            }
            Some(Block::Brick) if player.form == Form::Big => {
                info.cells.set_block(cell, None);
                if let Ok(mut grid) = grids.get_mut(grid_entity) {
                    grid.set(cell.x, cell.y, TileCell::Empty);
                }
                progress.add_score(tuning.rules.brick_score);
                broken = true;
                sfx.write(Sfx::Break);
            }
            _ => {
                sfx.write(Sfx::Bump);
            }
        }
        hits.write(BlockHit { cell, block, broken });
    }
}
