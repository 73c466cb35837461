//! Coins and power-ups. Coins are picked up by touch; a mushroom slides along the ground with the
//! physics (turning at walls, riding lifts, falling into pits) until the player touches it.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use super::Sfx;
use super::player::{ChangeForm, Player, PlayerStatus};
use super::progress::GameProgress;
use crate::draw_order;
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

/// A power-up; its transform is its collider's centre.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = ITEM_LAYERS, TransformInterpolation, LevelEntity, Name::new("Mushroom"))]
pub struct Mushroom {
    /// -1 left, 1 right.
    pub direction: f32,
}

/// Spawns a coin centred at `center`.
pub fn spawn_coin(commands: &mut Commands, center: Vec2) {
    commands.spawn((Coin, Transform::from_translation(center.extend(draw_order::ITEMS))));
}

/// A mushroom's collider, px.
pub const MUSHROOM_SIZE: Vec2 = Vec2::new(14.0, 14.0);

/// Spawns a mushroom standing on `feet`.
pub fn spawn_mushroom(commands: &mut Commands, feet: Vec2, direction: f32) {
    commands.spawn((
        Mushroom { direction },
        Collider::rectangle(MUSHROOM_SIZE.x, MUSHROOM_SIZE.y),
        Transform::from_translation((feet + Vec2::Y * MUSHROOM_SIZE.y / 2.0).extend(draw_order::ITEMS)),
    ));
}

pub(super) fn plugin(app: &mut App) {
    app.register_type::<(Coin, Mushroom)>();
    app.register_level_object("Coin", |commands, object| spawn_coin(commands, object.rect.center()));
    app.add_systems(FixedUpdate, move_mushrooms.in_set(GameSystems::Intent));
    app.add_systems(
        FixedUpdate,
        (collect_coins, collect_mushrooms, fade_coin_pops, items_in_pits)
            .chain()
            .in_set(GameSystems::React),
    );
}

fn move_mushrooms(
    tuning: Res<Tuning>,
    mut mushrooms: Query<(&mut Mushroom, &Contacts, &mut Movement, &mut MovementInput)>,
) {
    for (mut mushroom, contacts, mut movement, mut input) in &mut mushrooms {
        if mushroom.direction < 0.0 && contacts.solid_in(ContactDirection::Left).next().is_some() {
            mushroom.direction = 1.0;
        } else if mushroom.direction > 0.0 && contacts.solid_in(ContactDirection::Right).next().is_some() {
            mushroom.direction = -1.0;
        }
        movement.max_speed.x = tuning.enemies.mushroom_speed;
        movement.acceleration = 4000.0;
        input.horizontal = mushroom.direction;
    }
}

fn player_boxes<'a>(
    players: impl Iterator<Item = (&'a Player, &'a Transform, &'a Collider)>,
) -> impl Iterator<Item = Aabb> {
    players
        .filter(|(p, ..)| p.status == PlayerStatus::Alive)
        .map(|(_, t, c)| c.aabb(t.translation.truncate()))
}

fn collect_coins(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider)>,
    coins: Query<(Entity, &Transform), With<Coin>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for player_box in player_boxes(players.iter()) {
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

fn collect_mushrooms(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    players: Query<(&Player, &Transform, &Collider)>,
    mushrooms: Query<(Entity, &Transform, &Collider), With<Mushroom>>,
    mut grow: MessageWriter<ChangeForm>,
) {
    for player_box in player_boxes(players.iter()) {
        for (entity, transform, collider) in &mushrooms {
            if player_box.intersects(&collider.aabb(transform.translation.truncate()), 0.0) {
                commands.entity(entity).despawn();
                progress.add_score(tuning.rules.powerup_score);
                grow.write(ChangeForm::Grow);
            }
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

fn items_in_pits(info: Res<LevelInfo>, mut commands: Commands, items: Query<(Entity, &Transform), With<Mushroom>>) {
    for (entity, transform) in &items {
        if transform.translation.y < info.bounds.min.y - 32.0 {
            commands.entity(entity).despawn();
        }
    }
}
