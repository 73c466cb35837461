//! Hammer throwers hop and throw hammers on arcs; a hammer hits the player only where opaque
//! pixels overlap (the plugin's pixel-perfect test, after the box test: see *Pixel-perfect overlap*
//! in the plugin's physics rules (`bevy_platformer_physics::physics_rules`)).

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::pixel_perfect::{AlphaMask, masks_overlap};
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{ChangeForm, Form, Player};
use crate::level::{LevelEntity, LevelInfo};
use crate::masks::SpriteMasks;
use crate::schedule::GameSystems;
use crate::tuning::{EnemyTuning, Tuning};

/// Timers of a hammer thrower.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
pub struct HammerThrower {
    /// Seconds to the next hop.
    pub hop_in: f32,
    /// Seconds to the next throw.
    pub throw_in: f32,
    /// Hammers thrown.
    pub thrown: u32,
}

impl HammerThrower {
    /// Fresh timers.
    pub fn new(tuning: &EnemyTuning) -> Self {
        Self {
            hop_in: tuning.hammer_hop_interval,
            throw_in: tuning.hammer_throw_interval * 0.5,
            thrown: 0,
        }
    }
}

/// A flying hammer: not a physics body (it flies through walls), drawn 16×16.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, TransformInterpolation, Name::new("Hammer"))]
pub struct Hammer {
    /// Velocity, px/s.
    pub velocity: Vec2,
    /// Seconds since thrown (the spin frame).
    pub age: f32,
}

impl Hammer {
    /// Size of the drawn image and of its box.
    pub const SIZE: Vec2 = Vec2::new(16.0, 16.0);

    /// The spin frame (0..4), a quarter turn each 0.08 s.
    pub fn frame(&self) -> usize {
        ((self.age / 0.08) as usize) % 4
    }
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(HammerThrower, Hammer)>();
    app.add_systems(FixedUpdate, throwers_act.in_set(GameSystems::Intent));
    app.add_systems(
        FixedUpdate,
        (fly_hammers, hammers_hit_player).chain().in_set(GameSystems::React),
    );
}

fn throwers_act(
    mut commands: Commands,
    time: Res<Time>,
    tuning: Res<Tuning>,
    players: Query<&Transform, With<Player>>,
    mut throwers: Query<
        (
            &mut HammerThrower,
            &mut crate::gameplay::enemies::Enemy,
            &Transform,
            &Contacts,
            &mut MovementInput,
        ),
        Without<Frozen>,
    >,
    mut sfx: MessageWriter<Sfx>,
) {
    let dt = time.delta_secs();
    let t = &tuning.enemies;
    let target = players.iter().next().map(|p| p.translation.truncate());
    for (mut thrower, mut enemy, transform, contacts, mut input) in &mut throwers {
        let here = transform.translation.truncate();
        if let Some(target) = target {
            enemy.direction = crate::gameplay::sign_or(target.x - here.x, enemy.direction);
        }
        thrower.hop_in -= dt;
        if thrower.hop_in <= 0.0 && contacts.on_floor() {
            input.jump = Some(t.hammer_hop_speed);
            thrower.hop_in = t.hammer_hop_interval;
        }
        thrower.throw_in -= dt;
        let in_range = target.is_some_and(|p| (p.x - here.x).abs() <= t.hammer_range);
        if thrower.throw_in <= 0.0 {
            thrower.throw_in = t.hammer_throw_interval;
            if in_range {
                thrower.thrown += 1;
                throw_hammer(
                    &mut commands,
                    &mut sfx,
                    t,
                    here + Vec2::new(4.0 * enemy.direction, 12.0),
                    enemy.direction,
                );
            }
        }
    }
}

/// Throws a hammer from `hand` toward `direction` (-1 left, 1 right) at `hammer_velocity`.
pub fn throw_hammer(
    commands: &mut Commands,
    sfx: &mut MessageWriter<Sfx>,
    tuning: &EnemyTuning,
    hand: Vec2,
    direction: f32,
) {
    commands.spawn((
        Hammer {
            velocity: Vec2::new(tuning.hammer_velocity.x * direction, tuning.hammer_velocity.y),
            age: 0.0,
        },
        Transform::from_translation(hand.extend(draw_order::PROJECTILES)),
    ));
    sfx.write(Sfx::Hammer);
}

fn fly_hammers(
    mut commands: Commands,
    time: Res<Time>,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    mut hammers: Query<(Entity, &mut Hammer, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (entity, mut hammer, mut transform) in &mut hammers {
        hammer.velocity.y -= tuning.enemies.hammer_gravity * dt;
        hammer.age += dt;
        transform.translation += (hammer.velocity * dt).extend(0.0);
        if transform.translation.y < info.bounds.min.y - 32.0 {
            commands.entity(entity).despawn();
        }
    }
}

/// The image of the player as drawn: its frame's mask and its bottom-left corner. Sprites are
/// 16 px wide and drawn with their bottom on the collider's bottom, centred on it.
pub fn player_image<'a>(
    masks: &'a SpriteMasks,
    player: &Player,
    transform: &Transform,
    collider: &Collider,
) -> Option<(&'a AlphaMask, Vec2)> {
    let mask = match (player.form, player.facing < 0.0) {
        (Form::Small, false) => masks.player_small.as_ref()?,
        (Form::Small, true) => masks.player_small_left.as_ref()?,
        (Form::Big | Form::Fire, false) => masks.player_big.as_ref()?,
        (Form::Big | Form::Fire, true) => masks.player_big_left.as_ref()?,
    };
    let feet = transform.translation.truncate() - Vec2::Y * collider.size.y / 2.0;
    Some((mask, feet - Vec2::X * mask.width() as f32 / 2.0))
}

fn hammers_hit_player(
    masks: Res<SpriteMasks>,
    hammers: Query<(&Hammer, &Transform)>,
    players: Query<(&Player, &Transform, &Collider)>,
    mut hurts: MessageWriter<ChangeForm>,
) {
    for (player, player_transform, collider) in &players {
        if !player.vulnerable() {
            continue;
        }
        let player_box = collider.aabb(player_transform.translation.truncate());
        for (hammer, transform) in &hammers {
            let hammer_min = transform.translation.truncate() - Hammer::SIZE / 2.0;
            let hammer_box = Aabb::from_min_size(hammer_min, Hammer::SIZE);
            if !player_box.intersects(&hammer_box, 0.0) {
                continue;
            }
            let hit = match (
                masks.hammer.get(hammer.frame()),
                player_image(&masks, player, player_transform, collider),
            ) {
                (Some(hammer_mask), Some((player_mask, player_min))) => {
                    masks_overlap(hammer_mask, hammer_min, player_mask, player_min)
                }
                // Without images, the boxes decide.
                _ => true,
            };
            if hit {
                hurts.write(ChangeForm::Hurt);
                break;
            }
        }
    }
}
