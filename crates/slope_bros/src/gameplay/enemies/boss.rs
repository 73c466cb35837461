//! The castle's boss, its bridge and the axe that drops it.
//!
//! The boss is a big hammer thrower: asleep until the player comes near, then it paces
//! `enemies.boss_pace` either side of where it stood, faces the player, hops and throws hammers.
//! Touching it hurts (it cannot be stomped); star power knocks it out, and so do
//! `enemies.boss_fireball_hits` fireballs. A `Bridge` is a row of planks, one solid 16 × 8 body per
//! cell; touching the `Axe` at its right end takes the planks away one by one from the axe's side
//! (`enemies.bridge_fall_interval` each), and whatever stood on them, the boss first, falls into
//! what lies below. The physics moves all of it: the boss is a dynamic body, the planks static
//! colliders that are despawned.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::enemies::hammer::throw_hammer;
use crate::gameplay::enemies::{KnockedOut, knock_out};
use crate::gameplay::fire::Fireball;
use crate::gameplay::player::{ChangeForm, Player, PlayerStatus, alive_player_boxes};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::layers::ENEMY_LAYERS;
use crate::level::{LevelEntity, LevelInfo, LevelObject, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// The boss; its transform is its collider's centre.
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = ENEMY_LAYERS, TransformInterpolation, LevelEntity, Name::new("Boss"))]
pub struct Boss {
    /// The x it paces around.
    pub home_x: f32,
    /// Pacing direction: -1 left, 1 right.
    pub direction: f32,
    /// Facing (toward the player): -1 left, 1 right.
    pub facing: f32,
    /// The player came near: it moves.
    pub awake: bool,
    /// Seconds to the next hop.
    pub hop_in: f32,
    /// Seconds to the next throw.
    pub throw_in: f32,
    /// Fireballs it still takes.
    pub hits_left: u32,
}

impl Boss {
    /// Its collider, px (the picture is 32 × 32).
    pub const SIZE: Vec2 = Vec2::new(24.0, 30.0);
}

/// One plank of a bridge: a solid 16 × 8 body at the top of its cell.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Bridge plank"))]
pub struct BridgePlank;

impl BridgePlank {
    /// Its collider, px.
    pub const SIZE: Vec2 = Vec2::new(16.0, 8.0);
}

/// The axe at a bridge's end; its transform is its feet (the middle of its bottom edge).
#[derive(Component, Clone, Debug, Default, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Axe"))]
pub struct Axe {
    /// Touched: the bridge is falling. Seconds to the next plank's fall.
    pub dropping: Option<f32>,
    /// The planks of its bridge still to fall, nearest first.
    pub bridge: Vec<Entity>,
}

impl Axe {
    /// Its box, px.
    pub const SIZE: Vec2 = Vec2::new(16.0, 16.0);

    /// Its box, from its feet.
    pub fn aabb(feet: Vec2) -> Aabb {
        Aabb::from_min_size(feet - Vec2::X * Self::SIZE.x / 2.0, Self::SIZE)
    }
}

/// Spawns the boss standing on `feet`, asleep.
pub fn spawn_boss(commands: &mut Commands, feet: Vec2, tuning: &Tuning) {
    let t = &tuning.enemies;
    commands.spawn((
        Boss {
            home_x: feet.x,
            direction: -1.0,
            facing: -1.0,
            awake: false,
            hop_in: t.boss_hop_interval,
            throw_in: t.boss_throw_interval,
            hits_left: t.boss_fireball_hits,
        },
        Frozen,
        Collider::rectangle(Boss::SIZE.x, Boss::SIZE.y),
        Transform::from_translation((feet + Vec2::Y * Boss::SIZE.y / 2.0).extend(draw_order::ENEMIES)),
    ));
}

/// Spawns the planks of a bridge over the cells of `object`'s rectangle.
pub fn spawn_bridge(commands: &mut Commands, object: &LevelObject) {
    let cells = (object.rect.size().x / BridgePlank::SIZE.x).round().max(1.0) as u32;
    for i in 0..cells {
        let centre = Vec2::new(
            object.rect.min.x + (i as f32 + 0.5) * BridgePlank::SIZE.x,
            object.rect.max.y - BridgePlank::SIZE.y / 2.0,
        );
        commands.spawn((
            BridgePlank,
            Collider::rectangle(BridgePlank::SIZE.x, BridgePlank::SIZE.y),
            Transform::from_translation(centre.extend(draw_order::TILES + 0.5)),
        ));
    }
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(Boss, BridgePlank, Axe)>();
    app.register_level_object("Boss", |commands, object| {
        spawn_boss(commands, object.feet(), object.tuning);
    });
    app.register_level_object("Bridge", spawn_bridge);
    app.register_level_object("Axe", |commands, object| {
        commands.spawn((
            Axe::default(),
            Transform::from_translation(object.feet().extend(draw_order::MARKERS)),
        ));
    });
    app.add_systems(FixedUpdate, boss_acts.in_set(GameSystems::Intent));
    app.add_systems(
        FixedUpdate,
        (
            boss_meets_player,
            fireballs_hit_boss,
            touch_axe,
            drop_bridge,
            boss_falls,
        )
            .chain()
            .in_set(GameSystems::React),
    );
}

/// Wakes near the player; then paces, faces the player, hops and throws hammers.
fn boss_acts(
    mut commands: Commands,
    time: Res<Time>,
    tuning: Res<Tuning>,
    players: Query<&Transform, With<Player>>,
    mut bosses: Query<
        (
            Entity,
            &mut Boss,
            &Transform,
            &Contacts,
            &mut MovementTuning,
            &mut MovementInput,
        ),
        Without<KnockedOut>,
    >,
    mut sfx: MessageWriter<Sfx>,
) {
    let dt = time.delta_secs();
    let t = &tuning.enemies;
    let Some(target) = players.iter().next().map(|p| p.translation.truncate()) else {
        return;
    };
    for (entity, mut boss, transform, contacts, mut movement, mut input) in &mut bosses {
        let here = transform.translation.truncate();
        if !boss.awake {
            if (target.x - here.x).abs() > t.wake_distance {
                continue;
            }
            boss.awake = true;
            commands.entity(entity).remove::<Frozen>();
        }
        boss.facing = crate::gameplay::sign_or(target.x - here.x, boss.facing);
        if here.x <= boss.home_x - t.boss_pace || contacts.solid_in(ContactDirection::Left).next().is_some() {
            boss.direction = 1.0;
        } else if here.x >= boss.home_x + t.boss_pace || contacts.solid_in(ContactDirection::Right).next().is_some() {
            boss.direction = -1.0;
        }
        movement.max_speed.x = t.boss_speed;
        movement.acceleration = 2000.0;
        movement.deceleration = 2000.0;
        input.horizontal = boss.direction;
        boss.hop_in -= dt;
        if boss.hop_in <= 0.0 && contacts.on_floor() {
            input.jump = Some(t.boss_hop_speed);
            boss.hop_in = t.boss_hop_interval;
        }
        // It throws standing, not hopping or falling.
        boss.throw_in -= dt;
        if boss.throw_in <= 0.0 && contacts.on_floor() {
            boss.throw_in = t.boss_throw_interval;
            if (target.x - here.x).abs() <= t.hammer_range {
                let hand = here + Vec2::new(8.0 * boss.facing, 14.0);
                throw_hammer(&mut commands, &mut sfx, t, hand, boss.facing);
            }
        }
    }
}

/// Touching the boss hurts, unless the player has star power, which knocks it out.
fn boss_meets_player(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider)>,
    bosses: Query<(Entity, &Transform, &Collider), (With<Boss>, Without<KnockedOut>, Without<Player>)>,
    mut hurts: MessageWriter<ChangeForm>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (player, player_transform, player_collider) in &players {
        if player.status != PlayerStatus::Alive {
            continue;
        }
        let player_box = player_collider.aabb(player_transform.translation.truncate());
        for (boss, transform, collider) in &bosses {
            let boss_box = collider.aabb(transform.translation.truncate());
            if !player_box.intersects(&boss_box, 0.0) {
                continue;
            }
            if player.starred() {
                defeat(&mut commands, &mut progress, &mut sfx, &tuning, boss, boss_box.center());
            } else if player.vulnerable() {
                hurts.write(ChangeForm::Hurt);
            }
        }
    }
}

/// The boss is knocked out: it falls off the screen; its score.
fn defeat(
    commands: &mut Commands,
    progress: &mut GameProgress,
    sfx: &mut MessageWriter<Sfx>,
    tuning: &Tuning,
    boss: Entity,
    at: Vec2,
) {
    knock_out(commands, boss);
    score_boss(commands, progress, sfx, tuning, at);
}

/// The boss is beaten, however: its score shown at `at`, its fall's sound.
fn score_boss(
    commands: &mut Commands,
    progress: &mut GameProgress,
    sfx: &mut MessageWriter<Sfx>,
    tuning: &Tuning,
    at: Vec2,
) {
    give(commands, progress, sfx, at, Award::Points(tuning.enemies.boss_score));
    sfx.write(Sfx::BossFall);
}

/// Each fireball that touches the boss is gone and costs it a hit; the last one knocks it out.
fn fireballs_hit_boss(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    fireballs: Query<(Entity, &Transform, &Collider), With<Fireball>>,
    mut bosses: Query<(Entity, &mut Boss, &Transform, &Collider), Without<KnockedOut>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (entity, mut boss, transform, collider) in &mut bosses {
        let boss_box = collider.aabb(transform.translation.truncate());
        for (fireball, fireball_transform, fireball_collider) in &fireballs {
            if boss.hits_left == 0
                || !fireball_collider
                    .aabb(fireball_transform.translation.truncate())
                    .intersects(&boss_box, 0.0)
            {
                continue;
            }
            commands.entity(fireball).despawn();
            boss.hits_left -= 1;
            sfx.write(Sfx::Kick);
            if boss.hits_left == 0 {
                defeat(
                    &mut commands,
                    &mut progress,
                    &mut sfx,
                    &tuning,
                    entity,
                    boss_box.center(),
                );
            }
        }
    }
}

/// A player touching the axe starts its bridge's fall: the planks in one unbroken row at the
/// height of the axe's feet, from the one next to the axe leftward.
fn touch_axe(
    players: Query<(&Player, &Transform, &Collider)>,
    mut axes: Query<(&mut Axe, &Transform)>,
    planks: Query<(Entity, &Transform), With<BridgePlank>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for player_box in alive_player_boxes(players.iter()) {
        for (mut axe, axe_transform) in &mut axes {
            let feet = axe_transform.translation.truncate();
            if axe.dropping.is_some() || !player_box.intersects(&Axe::aabb(feet), 0.0) {
                continue;
            }
            let mut row: Vec<(Entity, f32)> = planks
                .iter()
                .map(|(entity, at)| (entity, at.translation.truncate()))
                .filter(|(_, at)| (at.y + BridgePlank::SIZE.y / 2.0 - feet.y).abs() < 1.0 && at.x < feet.x)
                .map(|(entity, at)| (entity, at.x))
                .collect();
            row.sort_by(|a, b| b.1.total_cmp(&a.1));
            // From the axe leftward, while each plank touches the one before (or the axe's cell).
            let mut edge = feet.x - Axe::SIZE.x / 2.0;
            axe.bridge.clear();
            for (plank, x) in row {
                if edge - (x + BridgePlank::SIZE.x / 2.0) > 0.5 {
                    break;
                }
                axe.bridge.push(plank);
                edge = x - BridgePlank::SIZE.x / 2.0;
            }
            axe.dropping = Some(0.0);
            sfx.write(Sfx::Break);
        }
    }
}

/// A touched axe takes away the next plank of its bridge every `enemies.bridge_fall_interval`.
fn drop_bridge(mut commands: Commands, time: Res<Time>, tuning: Res<Tuning>, mut axes: Query<&mut Axe>) {
    for mut axe in &mut axes {
        let Some(wait) = axe.dropping else {
            continue;
        };
        let wait = wait - time.delta_secs();
        if wait > 0.0 {
            axe.dropping = Some(wait);
            continue;
        }
        axe.dropping = Some(wait + tuning.enemies.bridge_fall_interval);
        if !axe.bridge.is_empty() {
            let plank = axe.bridge.remove(0);
            if let Ok(mut entity) = commands.get_entity(plank) {
                entity.despawn();
            }
        }
    }
}

/// A boss that fell out of the level (a dropped bridge) is beaten.
fn boss_falls(
    mut commands: Commands,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    mut progress: ResMut<GameProgress>,
    bosses: Query<(Entity, &Transform), (With<Boss>, Without<KnockedOut>)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (entity, transform) in &bosses {
        if transform.translation.y < info.bounds.min.y - Boss::SIZE.y {
            let at = Vec2::new(transform.translation.x, info.bounds.min.y + 16.0);
            score_boss(&mut commands, &mut progress, &mut sfx, &tuning, at);
            commands.entity(entity).despawn();
        }
    }
}
