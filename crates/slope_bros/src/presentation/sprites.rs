//! Sprites of characters and objects: added when the core spawns them, animated from their state.
//! Sprites are drawn with their bottom on their collider's bottom (the anchor follows the collider
//! height), facing the way they move.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_platformer_physics::prelude::*;

use super::AppSystems;
use super::assets::{GameAssets, Sheet};
use crate::gameplay::enemies::hammer::{Hammer, HammerThrower};
use crate::gameplay::enemies::shell::Shell;
use crate::gameplay::enemies::{Enemy, EnemyKind, KnockedOut, Squashed};
use crate::gameplay::fire::Fireball;
use crate::gameplay::objects::falling_lift::FallingLift;
use crate::gameplay::objects::items::{Coin, CoinPop, POWER_UP_SIZE, PowerUp, PowerUpKind, Rising};
use crate::gameplay::objects::spring::Spring;
use crate::gameplay::player::{Form, Player, PlayerStatus};
use crate::gameplay::run::finale::{DOOR_OFFSET, Finale, FinaleStage, SLIDE_SPEED};
use crate::gameplay::run::goal::{Checkpoint, Goal};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (dress_new_objects, dress_new_items).in_set(AppSystems::Spawn));
    app.add_systems(
        Update,
        (
            animate_player,
            animate_enemies,
            animate_objects,
            animate_items,
            lower_flags,
        )
            .in_set(AppSystems::Animate),
    );
}

/// Anchor that puts a sprite's bottom on the bottom of a collider centred on the transform.
pub(super) fn feet_anchor(sprite_height: f32, collider_height: f32) -> Anchor {
    Anchor(Vec2::new(0.0, -0.5 + collider_height / 2.0 / sprite_height))
}

fn set_frame(sprite: &mut Sprite, sheet: &Sheet, index: usize) {
    if sprite.image != sheet.image {
        sprite.image = sheet.image.clone();
    }
    match &mut sprite.texture_atlas {
        Some(atlas) if atlas.layout == sheet.layout => atlas.index = index,
        _ => {
            sprite.texture_atlas = Some(TextureAtlas {
                layout: sheet.layout.clone(),
                index,
            });
        }
    }
}

fn dress_new_objects(
    mut commands: Commands,
    assets: Res<GameAssets>,
    players: Query<(Entity, &Collider), Added<Player>>,
    enemies: Query<(Entity, &Collider), Added<Enemy>>,
    hammers: Query<Entity, Added<Hammer>>,
    coins: Query<Entity, Or<(Added<Coin>, Added<CoinPop>)>>,
    goals: Query<Entity, Added<Goal>>,
    checkpoints: Query<Entity, Added<Checkpoint>>,
) {
    // Characters start as a 16 × 16 picture standing on the collider's bottom; the animation
    // systems pick the sheet and frame.
    for (entity, collider) in players.iter().chain(&enemies) {
        commands.entity(entity).insert((
            assets.walker.sprite(0),
            feet_anchor(16.0, collider.size.y),
            ObjectRect {
                size: Vec2::splat(16.0),
                offset: Vec2::new(0.0, 8.0 - collider.size.y / 2.0),
            },
        ));
    }
    for entity in &hammers {
        commands.entity(entity).insert(assets.hammer.sprite(0));
    }
    for entity in &coins {
        commands.entity(entity).insert(assets.coin.sprite(0));
    }
    for entity in &goals {
        commands
            .entity(entity)
            .insert((Sprite::from_image(assets.goal.clone()), Anchor::BOTTOM_CENTER))
            .with_children(|goal| {
                // The castle the finale walks into, its door `DOOR_OFFSET` right of the pole,
                // behind the player.
                goal.spawn((
                    Sprite::from_image(assets.castle.clone()),
                    Anchor::BOTTOM_CENTER,
                    Transform::from_xyz(DOOR_OFFSET, 0.0, -0.5),
                ));
                goal.spawn((
                    GoalFlag,
                    Sprite::from_image(assets.flag.clone()),
                    Anchor::TOP_CENTER,
                    Transform::from_xyz(FLAG_X, GoalFlag::TOP, 0.1),
                ));
            });
    }
    for entity in &checkpoints {
        commands
            .entity(entity)
            .insert((assets.checkpoint.sprite(0), Anchor::BOTTOM_CENTER));
    }
}

/// The flag on a goal's pole (a child of the goal): it flies at the top until the player takes
/// the pole, then comes down it with the player, to the base block.
#[derive(Component, Clone, Copy, Debug)]
pub struct GoalFlag;

impl GoalFlag {
    /// Where the flag's top flies, above the pole's base, px: just under the ball.
    pub const TOP: f32 = 150.0;
    /// Where it stops: its bottom on the base block.
    pub const LOWEST: f32 = 32.0;
}

/// The flag's centre, left of the pole's: its right edge (16 px wide) on the pole's left side.
const FLAG_X: f32 = -10.0;

/// Brings the flags down while a player is in the finale.
fn lower_flags(time: Res<Time>, finales: Query<(), With<Finale>>, mut flags: Query<&mut Transform, With<GoalFlag>>) {
    if finales.is_empty() {
        return;
    }
    for mut flag in &mut flags {
        flag.translation.y = (flag.translation.y - SLIDE_SPEED * time.delta_secs()).max(GoalFlag::LOWEST);
    }
}

/// The player's latest change of form, for the flicker.
#[derive(Clone, Copy, Debug)]
pub(super) struct FormChange {
    entity: Entity,
    form: Form,
    previous: Form,
    left: f32,
}

/// Seconds the old and new forms flicker after growing or shrinking.
const FORM_CHANGE_TIME: f32 = 0.6;
/// Seconds each of them shows in the flicker.
const FORM_FLICKER: f32 = 0.08;

/// Seconds of animation per walking frame at full walking speed.
const WALK_FRAME: f32 = 0.1;

pub(super) fn animate_player(
    time: Res<Time>,
    assets: Res<GameAssets>,
    mut players: Query<(
        Entity,
        &Player,
        &Velocity,
        &Collider,
        &mut Sprite,
        &mut Anchor,
        &mut Visibility,
        &mut Transform,
        Option<&Finale>,
        &mut ObjectRect,
    )>,
    mut walk_phase: Local<f32>,
    mut dying_speed: Local<Option<f32>>,
    mut form_change: Local<Option<FormChange>>,
) {
    let dt = time.delta_secs();
    for (
        entity,
        player,
        velocity,
        collider,
        mut sprite,
        mut anchor,
        mut visibility,
        mut transform,
        finale,
        mut object_rect,
    ) in &mut players
    {
        // Growing or shrinking: the old and the new form flicker for a moment (a new player
        // entity, after a restart, starts without).
        let change = match *form_change {
            Some(FormChange { entity: e, form, .. }) if e == entity && form != player.form => FormChange {
                entity,
                form: player.form,
                previous: form,
                left: FORM_CHANGE_TIME,
            },
            Some(change) if change.entity == entity => FormChange {
                left: (change.left - dt).max(0.0),
                ..change
            },
            _ => FormChange {
                entity,
                form: player.form,
                previous: player.form,
                left: 0.0,
            },
        };
        *form_change = Some(change);
        let shown = if change.left > 0.0 && ((change.left / FORM_FLICKER) as u32).is_multiple_of(2) {
            change.previous
        } else {
            player.form
        };
        let (sheet, height) = match shown {
            Form::Small => (&assets.player_small, 16.0),
            Form::Big => (&assets.player_big, 32.0),
            Form::Fire => (&assets.player_fire, 32.0),
        };
        // The overlay's object rect is the picture drawn, whatever its size now.
        *object_rect = ObjectRect {
            size: Vec2::new(16.0, height),
            offset: Vec2::new(0.0, (height - collider.size.y) / 2.0),
        };
        let frame = match player.status {
            PlayerStatus::Dying(_) => 6,
            _ if player.sliding => 8,
            _ if player.crouching => 7,
            _ if !player.on_ground => 4,
            _ if player.skidding => 5,
            _ if velocity.x.abs() > 5.0 => {
                *walk_phase += dt * velocity.x.abs() / 90.0;
                1 + ((*walk_phase / WALK_FRAME) as usize % 3)
            }
            _ => 0,
        };
        set_frame(&mut sprite, sheet, frame);
        sprite.flip_x = player.facing < 0.0;
        *anchor = feet_anchor(height, collider.size.y);
        let blink = player.invulnerable > 0.0 && ((time.elapsed_secs() / 0.07) as u32).is_multiple_of(2);
        // In the castle.
        let inside = finale.is_some_and(|f| matches!(f.stage, FinaleStage::Count | FinaleStage::Done));
        *visibility = if blink || inside {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        // Star power: the colours cycle.
        sprite.color = if player.starred() {
            Color::hsl((time.elapsed_secs() * 720.0) % 360.0, 1.0, 0.75)
        } else {
            Color::WHITE
        };
        // The death hop: the body is frozen, only its picture jumps and falls.
        if let PlayerStatus::Dying(_) = player.status {
            let speed = dying_speed.get_or_insert(320.0);
            transform.translation.y += *speed * dt;
            *speed -= 900.0 * dt;
        } else {
            *dying_speed = None;
        }
    }
}

fn animate_enemies(
    time: Res<Time>,
    assets: Res<GameAssets>,
    mut enemies: Query<(
        &Enemy,
        &Collider,
        &Contacts,
        &mut Sprite,
        &mut Anchor,
        Option<&Shell>,
        Option<&HammerThrower>,
        Has<Squashed>,
        Has<KnockedOut>,
    )>,
    tuning: Res<crate::tuning::Tuning>,
) {
    let t = time.elapsed_secs();
    let two = (t / 0.2) as usize % 2;
    for (enemy, collider, contacts, mut sprite, mut anchor, shell, thrower, squashed, knocked_out) in &mut enemies {
        let (sheet, frame, height) = match enemy.kind {
            EnemyKind::Walker => (&assets.walker, if squashed { 2 } else { two }, 16.0),
            EnemyKind::LedgeWalker => (&assets.ledge_walker, if squashed { 2 } else { two }, 16.0),
            EnemyKind::ShellEnemy => (&assets.shell_enemy, two, 24.0),
            // A roller is drawn as a spinning shell, tinted (below).
            EnemyKind::Roller => (&assets.shell, 1 + (t / 0.08) as usize % 3, 16.0),
            EnemyKind::Shell => {
                let frame = if shell.is_some_and(|s| s.moving) {
                    1 + (t / 0.06) as usize % 3
                } else {
                    0
                };
                (&assets.shell, frame, 16.0)
            }
            EnemyKind::HammerThrower => {
                let throwing = thrower.is_some_and(|h| h.throw_in > tuning.enemies.hammer_throw_interval - 0.25);
                let frame = if !contacts.on_floor() {
                    2
                } else if throwing {
                    1
                } else {
                    0
                };
                (&assets.hammer_thrower, frame, 24.0)
            }
        };
        set_frame(&mut sprite, sheet, frame);
        sprite.flip_x = enemy.direction > 0.0;
        sprite.flip_y = knocked_out;
        sprite.color = if enemy.kind == EnemyKind::Roller {
            Color::srgb(1.0, 0.45, 0.35)
        } else {
            Color::WHITE
        };
        *anchor = feet_anchor(height, collider.size.y);
    }
}

fn animate_objects(
    time: Res<Time>,
    assets: Res<GameAssets>,
    mut hammers: Query<(&Hammer, &mut Sprite), Without<Coin>>,
    mut coins: Query<&mut Sprite, (Or<(With<Coin>, With<CoinPop>)>, Without<Hammer>, Without<Checkpoint>)>,
    mut checkpoints: Query<(&Checkpoint, &mut Sprite), (Without<Coin>, Without<Hammer>, Without<CoinPop>)>,
) {
    for (hammer, mut sprite) in &mut hammers {
        set_frame(&mut sprite, &assets.hammer, hammer.frame());
    }
    let coin_frame = (time.elapsed_secs() / 0.12) as usize % 4;
    for mut sprite in &mut coins {
        set_frame(&mut sprite, &assets.coin, coin_frame);
    }
    for (checkpoint, mut sprite) in &mut checkpoints {
        set_frame(&mut sprite, &assets.checkpoint, usize::from(checkpoint.active));
    }
}

/// Power-ups, fireballs, springs and falling lifts get their pictures when they appear.
fn dress_new_items(
    mut commands: Commands,
    assets: Res<GameAssets>,
    power_ups: Query<(Entity, &PowerUp), Added<PowerUp>>,
    fireballs: Query<Entity, Added<Fireball>>,
    springs: Query<Entity, Added<Spring>>,
    lifts: Query<(Entity, &Collider), Added<FallingLift>>,
    info: Res<crate::level::LevelInfo>,
) {
    for (entity, power_up) in &power_ups {
        let sprite = match power_up.kind {
            PowerUpKind::Mushroom => Sprite::from_image(assets.mushroom.clone()),
            PowerUpKind::OneUp => Sprite::from_image(assets.one_up.clone()),
            PowerUpKind::FireFlower => assets.fire_flower.sprite(0),
            PowerUpKind::Star => assets.star.sprite(0),
        };
        commands
            .entity(entity)
            .insert((sprite, feet_anchor(16.0, POWER_UP_SIZE.y)));
    }
    for entity in &fireballs {
        commands.entity(entity).insert((
            assets.fireball.sprite(0),
            ObjectRect {
                size: Fireball::SIZE,
                offset: Vec2::ZERO,
            },
        ));
    }
    for entity in &springs {
        commands.entity(entity).insert(assets.spring.sprite(0));
    }
    // A falling lift: a row of the theme's lift tiles (column 14 of `tiles.png`), tinted.
    for (entity, collider) in &lifts {
        let tiles = (collider.size.x / 16.0).round().max(1.0) as usize;
        commands
            .entity(entity)
            .insert(Visibility::default())
            .with_children(|lift| {
                for i in 0..tiles {
                    let x = (i as f32 + 0.5) * 16.0 - collider.size.x / 2.0;
                    let mut tile = assets.tiles.sprite(GameAssets::tile(info.theme, 14));
                    tile.custom_size = Some(Vec2::new(16.0, collider.size.y));
                    tile.color = Color::srgb(1.0, 0.75, 0.55);
                    lift.spawn((tile, Transform::from_xyz(x, 0.0, 0.0)));
                }
            });
    }
}

fn animate_items(
    time: Res<Time>,
    assets: Res<GameAssets>,
    mut power_ups: Query<(&PowerUp, Option<&Rising>, &mut Sprite, &mut Anchor), (Without<Fireball>, Without<Spring>)>,
    mut fireballs: Query<(&Fireball, &mut Sprite), (Without<PowerUp>, Without<Spring>)>,
    mut springs: Query<(&Spring, &mut Sprite), (Without<PowerUp>, Without<Fireball>)>,
) {
    let four = (time.elapsed_secs() / 0.1) as usize % 4;
    for (power_up, rising, mut sprite, mut anchor) in &mut power_ups {
        // Coming out of its block: the part still inside is drawn below the body, behind the block.
        let hidden = rising.map_or(0.0, Rising::hidden);
        *anchor = Anchor(feet_anchor(16.0, POWER_UP_SIZE.y).0 + Vec2::Y * hidden);
        match power_up.kind {
            PowerUpKind::FireFlower => set_frame(&mut sprite, &assets.fire_flower, four),
            PowerUpKind::Star => set_frame(&mut sprite, &assets.star, four),
            PowerUpKind::Mushroom | PowerUpKind::OneUp => {}
        }
    }
    for (fireball, mut sprite) in &mut fireballs {
        set_frame(&mut sprite, &assets.fireball, fireball.frame());
    }
    for (spring, mut sprite) in &mut springs {
        set_frame(&mut sprite, &assets.spring, usize::from(spring.squashed > 0.0));
    }
}
