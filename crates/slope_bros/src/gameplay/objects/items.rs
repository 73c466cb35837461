//! Coins and power-ups. Coins are picked up by touch. Power-ups are physics bodies: a mushroom
//! (and the extra-life one) slides along the ground (turning at walls, riding lifts, falling into
//! pits), a star hops along, a fire flower stands where it came out, until the player touches it.
//! A power-up first rises out of its block ([`Rising`]): its body waits on the block, frozen and
//! untouchable, for `items.power_up_rise_time` while its picture comes up out of the block.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{ChangeForm, Player, PlayerStatus, alive_player_boxes};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::layers::ITEM_LAYERS;
use crate::level::{LevelEntity, LevelInfo, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A coin; its transform is its centre.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Coin"))]
pub struct Coin;

impl Coin {
    /// The box that the player touches.
    pub const SIZE: Vec2 = Vec2::new(10.0, 14.0);
}

/// A coin popping out of a question block (counted at once; only drawn).
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[require(LevelEntity)]
pub struct CoinPop {
    /// Seconds left.
    pub left: f32,
}

/// What a power-up gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
pub enum PowerUpKind {
    /// Small grows big.
    Mushroom,
    /// Small grows big; big gets the fire power.
    FireFlower,
    /// Star power: no hurt, enemies touched are knocked out.
    Star,
    /// An extra life.
    OneUp,
}

/// A power-up; its transform is its collider's centre.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = ITEM_LAYERS, TransformInterpolation, LevelEntity, Name::new("Power-up"))]
pub struct PowerUp {
    /// What it gives.
    pub kind: PowerUpKind,
    /// -1 left, 1 right.
    pub direction: f32,
}

/// Spawns a coin centred at `center`.
pub fn spawn_coin(commands: &mut Commands, center: Vec2) {
    commands.spawn((Coin, Transform::from_translation(center.extend(draw_order::ITEMS))));
}

/// A power-up's collider, px.
pub const POWER_UP_SIZE: Vec2 = Vec2::new(14.0, 14.0);

/// A power-up still coming out of its block: frozen where it will stand, not collected, drawn
/// behind the block and `left / rise_time` of its height down.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(Frozen)]
pub struct Rising {
    /// Seconds until it is out.
    pub left: f32,
    /// Seconds the whole rise takes.
    pub rise_time: f32,
}

impl Rising {
    /// The part of its height still inside the block: 1 when it appears, 0 when it is out.
    pub fn hidden(&self) -> f32 {
        if self.rise_time > 0.0 {
            (self.left / self.rise_time).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

/// Spawns a power-up that rises out of the block under `feet` for `rise_time` seconds, then
/// moves toward `direction` (a flower stays).
pub fn spawn_power_up(commands: &mut Commands, kind: PowerUpKind, feet: Vec2, direction: f32, rise_time: f32) {
    let rising = rise_time > 0.0;
    // Rising, it is drawn behind the block it comes out of.
    let z = if rising {
        draw_order::TILES - 0.5
    } else {
        draw_order::ITEMS
    };
    let mut power_up = commands.spawn((
        PowerUp { kind, direction },
        Collider::rectangle(POWER_UP_SIZE.x, POWER_UP_SIZE.y),
        Transform::from_translation((feet + Vec2::Y * POWER_UP_SIZE.y / 2.0).extend(z)),
    ));
    if rising {
        power_up.insert(Rising {
            left: rise_time,
            rise_time,
        });
    }
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(Coin, PowerUp, Rising)>();
    app.register_level_object("Coin", |commands, object| spawn_coin(commands, object.rect.center()));
    app.add_systems(
        FixedUpdate,
        (rise_out_of_blocks, move_power_ups).chain().in_set(GameSystems::Intent),
    );
    app.add_systems(
        FixedUpdate,
        (collect_coins, collect_power_ups, fade_coin_pops, items_in_pits)
            .chain()
            .in_set(GameSystems::React),
    );
}

/// Counts down each rising power-up's rise; once out, it is thawed and drawn in front.
fn rise_out_of_blocks(
    mut commands: Commands,
    time: Res<Time>,
    mut rising: Query<(Entity, &mut Rising, &mut Transform)>,
) {
    for (entity, mut rise, mut transform) in &mut rising {
        rise.left -= time.delta_secs();
        if rise.left <= 0.0 {
            commands.entity(entity).remove::<(Rising, Frozen)>();
            transform.translation.z = draw_order::ITEMS;
        }
    }
}

fn move_power_ups(
    tuning: Res<Tuning>,
    mut power_ups: Query<(&mut PowerUp, &Contacts, &mut MovementTuning, &mut MovementInput), Without<Rising>>,
) {
    for (mut power_up, contacts, mut movement, mut input) in &mut power_ups {
        if power_up.direction < 0.0 && contacts.solid_in(ContactDirection::Left).next().is_some() {
            power_up.direction = 1.0;
        } else if power_up.direction > 0.0 && contacts.solid_in(ContactDirection::Right).next().is_some() {
            power_up.direction = -1.0;
        }
        movement.max_speed.x = match power_up.kind {
            PowerUpKind::Mushroom | PowerUpKind::OneUp => tuning.enemies.mushroom_speed,
            PowerUpKind::Star => tuning.items.star_speed,
            PowerUpKind::FireFlower => 0.0,
        };
        movement.acceleration = 4000.0;
        input.horizontal = if movement.max_speed.x > 0.0 {
            power_up.direction
        } else {
            0.0
        };
        if power_up.kind == PowerUpKind::Star && contacts.on_floor() {
            input.jump = Some(tuning.items.star_bounce);
        }
    }
}

fn collect_coins(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider)>,
    coins: Query<(Entity, &Transform), With<Coin>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for player_box in alive_player_boxes(players.iter()) {
        for (entity, transform) in &coins {
            let coin_box = Aabb::from_center_half_size(transform.translation.truncate(), Coin::SIZE / 2.0);
            if player_box.intersects(&coin_box, 0.0) {
                commands.entity(entity).despawn();
                if progress.add_coin(&tuning.rules) {
                    sfx.write(Sfx::OneUp);
                }
                sfx.write(Sfx::Coin);
            }
        }
    }
}

fn collect_power_ups(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    mut players: Query<(&mut Player, &Transform, &Collider)>,
    power_ups: Query<(Entity, &PowerUp, &Transform, &Collider), Without<Rising>>,
    mut grow: MessageWriter<ChangeForm>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (mut player, player_transform, player_collider) in &mut players {
        if player.status != PlayerStatus::Alive {
            continue;
        }
        let player_box = player_collider.aabb(player_transform.translation.truncate());
        for (entity, power_up, transform, collider) in &power_ups {
            let power_up_box = collider.aabb(transform.translation.truncate());
            if !player_box.intersects(&power_up_box, 0.0) {
                continue;
            }
            commands.entity(entity).despawn();
            let award = match power_up.kind {
                PowerUpKind::Mushroom => {
                    grow.write(ChangeForm::Grow);
                    Award::Points(tuning.rules.powerup_score)
                }
                PowerUpKind::FireFlower => {
                    grow.write(ChangeForm::Fire);
                    Award::Points(tuning.rules.powerup_score)
                }
                PowerUpKind::Star => {
                    player.star = tuning.items.star_time;
                    sfx.write(Sfx::Powerup);
                    Award::Points(tuning.rules.powerup_score)
                }
                PowerUpKind::OneUp => Award::OneUp,
            };
            give(&mut commands, &mut progress, &mut sfx, power_up_box.center(), award);
        }
    }
}

fn fade_coin_pops(time: Res<Time>, mut commands: Commands, mut pops: Query<(Entity, &mut CoinPop, &mut Transform)>) {
    for (entity, mut pop, mut transform) in &mut pops {
        pop.left -= time.delta_secs();
        transform.translation.y += 90.0 * time.delta_secs();
        if pop.left <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

fn items_in_pits(info: Res<LevelInfo>, mut commands: Commands, items: Query<(Entity, &Transform), With<PowerUp>>) {
    for (entity, transform) in &items {
        if transform.translation.y < info.bounds.min.y - 32.0 {
            commands.entity(entity).despawn();
        }
    }
}
