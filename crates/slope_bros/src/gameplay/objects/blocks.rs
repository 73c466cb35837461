//! Blocks hit from below: a question block gives a coin or a power-up and becomes a used block;
//! a multi-coin block gives a coin per hit for a while; a big player breaks bricks (a cell edit of
//! the physics grid, effective next step); a small player only bumps them. A hit knocks out the
//! enemies standing on the block. A hidden block is nothing until a head comes up into it from
//! below: the step before the head would cross its bottom edge it becomes a solid question block,
//! which the physics then stops the head at, and the hit gives what it hid.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::enemies::{Enemy, knock_out};
use crate::gameplay::objects::items::{CoinPop, PowerUpKind, spawn_power_up};
use crate::gameplay::player::{Player, PlayerStatus};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::level::{Block, LevelEntity, LevelInfo};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A multi-coin block that has been hit: coins given and seconds left.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[require(LevelEntity, Name::new("Multi-coin block"))]
pub struct MultiCoinBlock {
    /// Its cell.
    pub cell: IVec2,
    /// Coins given so far.
    pub coins: u32,
    /// Seconds left to give more.
    pub left: f32,
}

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

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.add_message::<BlockHit>();
    app.register_type::<MultiCoinBlock>();
    app.add_systems(
        FixedUpdate,
        reveal_hidden_blocks
            .in_set(GameSystems::Intent)
            .after(crate::gameplay::player::control_player),
    );
    app.add_systems(
        FixedUpdate,
        (hit_blocks, tick_multi_coin_blocks).chain().in_set(GameSystems::React),
    );
}

/// The step before a rising head would cross a hidden block's bottom edge, the block becomes a
/// solid question block (drawn, and solid to the physics from this step on).
fn reveal_hidden_blocks(
    time: Res<Time>,
    mut info: ResMut<LevelInfo>,
    players: Query<(&Player, &Transform, &Collider, &Velocity, &MovementInput)>,
    mut grids: Query<&mut TileGrid>,
) {
    let Some(grid_entity) = info.cells.grid else { return };
    for (player, transform, collider, velocity, intent) in &players {
        let rise = intent.jump.unwrap_or(velocity.y);
        if player.status != PlayerStatus::Alive || rise <= 0.0 {
            continue;
        }
        let body = collider.aabb(transform.translation.truncate());
        let reach = rise * time.delta_secs();
        let cells = &info.cells;
        // The cells just above the head, over the columns the body covers (by more than a pixel).
        let row = cells.cell_at(Vec2::new(body.min.x, body.max.y + reach)).y;
        let from = cells.cell_at(Vec2::new(body.min.x + 1.0, body.max.y)).x;
        let to = cells.cell_at(Vec2::new(body.max.x - 1.0, body.max.y)).x;
        let revealed: Vec<(IVec2, Block)> = (from..=to)
            .map(|x| IVec2::new(x, row))
            .filter(|cell| cells.cell_rect(*cell).min.y >= body.max.y - 0.01)
            .filter_map(|cell| {
                let shown = match cells.block(cell)? {
                    Block::HiddenCoin => Block::QuestionCoin,
                    Block::HiddenOneUp => Block::QuestionOneUp,
                    _ => return None,
                };
                Some((cell, shown))
            })
            .collect();
        for (cell, shown) in revealed {
            if info.cells.set_block(cell, Some(shown))
                && let Ok(mut grid) = grids.get_mut(grid_entity)
            {
                grid.set(cell.x, cell.y, TileCell::Solid);
            }
        }
    }
}

/// A multi-coin block's time runs only once it has been hit.
fn tick_multi_coin_blocks(time: Res<Time>, mut blocks: Query<&mut MultiCoinBlock>) {
    for mut block in &mut blocks {
        block.left -= time.delta_secs();
    }
}

/// The cell a head hits: of the cells just above the player's top, the one under its centre, else
/// the one it overlaps most.
pub fn head_cell(info: &LevelInfo, head_center: Vec2, half_width: f32) -> Option<IVec2> {
    let cells = &info.cells;
    let stops_heads = |cell: IVec2| cells.value(cell) != 0 && !cells.block(cell).is_some_and(Block::lets_heads_through);
    let probe = head_center + Vec2::Y * 1.0;
    let centre = cells.cell_at(probe);
    if stops_heads(centre) {
        return Some(centre);
    }
    [probe.x - half_width + 0.5, probe.x + half_width - 0.5]
        .into_iter()
        .map(|x| cells.cell_at(Vec2::new(x, probe.y)))
        .find(|c| stops_heads(*c))
}

fn hit_blocks(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut info: ResMut<LevelInfo>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider, &Contacts, &MovementState)>,
    enemies: Query<(Entity, &Transform, &Collider), (With<Enemy>, Without<Frozen>)>,
    mut multi_coin_blocks: Query<&mut MultiCoinBlock>,
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
        let give_coin = |commands: &mut Commands, progress: &mut GameProgress, sfx: &mut MessageWriter<Sfx>| {
            commands.spawn((
                CoinPop { left: 0.45 },
                Transform::from_translation((above.center() + Vec2::Y * 16.0).extend(draw_order::ITEMS)),
            ));
            if progress.add_coin(&tuning.rules) {
                sfx.write(Sfx::OneUp);
            }
            sfx.write(Sfx::Coin);
        };
        let power_up = match block {
            Some(Block::QuestionMushroom) if player.form.is_big() => Some(PowerUpKind::FireFlower),
            Some(Block::QuestionMushroom) => Some(PowerUpKind::Mushroom),
            Some(Block::QuestionStar) => Some(PowerUpKind::Star),
            Some(Block::QuestionOneUp) => Some(PowerUpKind::OneUp),
            _ => None,
        };
        match block {
            Some(Block::QuestionCoin) => {
                info.cells.set_block(cell, Some(Block::Used));
                give_coin(&mut commands, &mut progress, &mut sfx);
            }
            Some(Block::MultiCoin) => {
                let t = &tuning.items;
                let coins = match multi_coin_blocks.iter_mut().find(|b| b.cell == cell) {
                    Some(mut hit_before) => {
                        hit_before.coins += 1;
                        (hit_before.coins, hit_before.left)
                    }
                    None => {
                        commands.spawn(MultiCoinBlock {
                            cell,
                            coins: 1,
                            left: t.multi_coin_time,
                        });
                        (1, t.multi_coin_time)
                    }
                };
                if coins.0 >= t.multi_coin_max || coins.1 <= 0.0 {
                    info.cells.set_block(cell, Some(Block::Used));
                }
                give_coin(&mut commands, &mut progress, &mut sfx);
            }
            Some(Block::QuestionMushroom | Block::QuestionStar | Block::QuestionOneUp) => {
                info.cells.set_block(cell, Some(Block::Used));
                let direction = crate::gameplay::sign_or(above.center().x - transform.translation.x, 1.0);
                if let Some(kind) = power_up {
                    spawn_power_up(
                        &mut commands,
                        kind,
                        Vec2::new(above.center().x, above.max.y),
                        direction,
                        tuning.items.power_up_rise_time,
                    );
                }
                sfx.write(Sfx::PowerupAppears);
            }
            Some(Block::Brick) if player.form.is_big() => {
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
        // The enemies standing on the block are knocked out by the bump.
        let top = Aabb::from_min_size(Vec2::new(above.min.x, above.max.y), Vec2::new(above.size().x, 3.0));
        for (enemy, enemy_transform, enemy_collider) in &enemies {
            let enemy_box = enemy_collider.aabb(enemy_transform.translation.truncate());
            if enemy_box.intersects(&top, 0.0) && enemy_box.min.y >= above.max.y - 1.0 {
                knock_out(&mut commands, enemy);
                let award = Award::Points(tuning.rules.stomp_score);
                give(&mut commands, &mut progress, &mut sfx, enemy_box.center(), award);
                sfx.write(Sfx::Kick);
            }
        }
        hits.write(BlockHit { cell, block, broken });
    }
}
