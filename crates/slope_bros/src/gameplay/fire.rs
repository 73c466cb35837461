//! The fire flower's power: with it, the run button throws a fireball, at most
//! `items.fireballs_at_once` in flight. A fireball is a small physics body: it runs along at
//! `items.fireball_speed` and bounces off every floor it lands on, slopes included (the physics
//! lands it on the surface like any body; the bounce is a jump from there), so it follows the
//! ground up and down hills. It is gone when it meets a wall, an enemy (knocked out) or lava, or
//! when it is out of the view.

use bevy::prelude::*;

use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::enemies::{Enemy, knock_out};
use crate::gameplay::player::{Form, Player, PlayerStatus, box_fits};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::input::PlayerInput;
use crate::layers::ITEM_LAYERS;
use crate::level::{LevelEntity, LevelInfo};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A fireball; its transform is its collider's centre.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = ITEM_LAYERS, TransformInterpolation, LevelEntity, Name::new("Fireball"))]
pub struct Fireball {
    /// -1 left, 1 right.
    pub direction: f32,
    /// Seconds since thrown (the spin frame).
    pub age: f32,
}

impl Fireball {
    /// Its collider and drawn size, px.
    pub const SIZE: Vec2 = Vec2::new(8.0, 8.0);

    /// The spin frame (0..4).
    pub fn frame(&self) -> usize {
        ((self.age / 0.06) as usize) % 4
    }
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Fireball>();
    app.add_systems(
        FixedUpdate,
        (throw_fireballs, bounce_fireballs)
            .chain()
            .in_set(GameSystems::Intent)
            .after(crate::gameplay::player::control_player),
    );
    app.add_systems(
        FixedUpdate,
        (fireballs_hit_enemies, fireballs_gone)
            .chain()
            .in_set(GameSystems::React),
    );
}

/// A fire player throws a fireball when run goes down, from its hand, if one fits there.
fn throw_fireballs(
    mut commands: Commands,
    input: Res<PlayerInput>,
    tuning: Res<Tuning>,
    query: SpatialQuery,
    players: Query<(&Player, &Transform, &Collider)>,
    fireballs: Query<(), With<Fireball>>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !input.run_pressed() || fireballs.iter().count() >= tuning.items.fireballs_at_once as usize {
        return;
    }
    for (player, transform, collider) in &players {
        if player.form != Form::Fire || player.status != PlayerStatus::Alive {
            continue;
        }
        let hand = transform.translation.truncate()
            + Vec2::new(
                player.facing * (collider.size.x + Fireball::SIZE.x) / 2.0,
                collider.size.y / 2.0 - 10.0,
            );
        if !box_fits(&query, &Aabb::from_center_half_size(hand, Fireball::SIZE / 2.0)) {
            continue;
        }
        commands.spawn((
            Fireball {
                direction: player.facing,
                age: 0.0,
            },
            Collider::rectangle(Fireball::SIZE.x, Fireball::SIZE.y),
            Velocity(Vec2::new(player.facing * tuning.items.fireball_speed, 0.0)),
            Transform::from_translation(hand.extend(draw_order::PROJECTILES)),
        ));
        sfx.write(Sfx::Fireball);
    }
}

/// Along at full speed; a bounce from every floor. Uphill, the bounce adds the speed at which the
/// slope rises under the fireball (`speed × gradient`), so it hops as high above the slope as it
/// does above level ground; a smaller bounce would run into the slope.
fn bounce_fireballs(
    time: Res<Time>,
    tuning: Res<Tuning>,
    mut fireballs: Query<(
        &mut Fireball,
        &Contacts,
        &MovementState,
        &mut MovementTuning,
        &mut MovementInput,
    )>,
) {
    let t = &tuning.items;
    for (mut fireball, contacts, state, mut movement, mut input) in &mut fireballs {
        fireball.age += time.delta_secs();
        movement.acceleration = 100_000.0;
        movement.gravity_scale = t.fireball_gravity_scale;
        input.horizontal = fireball.direction;
        let uphill_gradient = state
            .supporting_slope
            .map(|slope| slope.shape)
            .filter(|shape| shape.rises_right() == (fireball.direction > 0.0))
            .map_or(0.0, |shape| shape.gradient().min(MAX_BOUNCE_GRADIENT));
        let bounce = t.fireball_bounce + t.fireball_speed * uphill_gradient;
        movement.max_speed = Vec2::new(
            t.fireball_speed,
            (t.fireball_bounce + t.fireball_speed * MAX_BOUNCE_GRADIENT).max(t.fireball_speed),
        );
        if contacts.on_floor() {
            input.jump = Some(bounce);
        }
    }
}

/// The steepest gradient a fireball's bounce follows (steeper slopes bounce as this one).
const MAX_BOUNCE_GRADIENT: f32 = 2.0;

/// A fireball that touches an enemy knocks it out and is gone.
fn fireballs_hit_enemies(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    fireballs: Query<(Entity, &Transform, &Collider), With<Fireball>>,
    enemies: Query<(Entity, &Transform, &Collider), (With<Enemy>, Without<Frozen>)>,
    mut sfx: MessageWriter<Sfx>,
) {
    let mut hit = Vec::new();
    for (fireball, transform, collider) in &fireballs {
        let fireball_box = collider.aabb(transform.translation.truncate());
        let Some((enemy, enemy_box)) = enemies
            .iter()
            .filter(|(enemy, ..)| !hit.contains(enemy))
            .map(|(enemy, t, c)| (enemy, c.aabb(t.translation.truncate())))
            .find(|(_, enemy_box)| fireball_box.intersects(enemy_box, 0.0))
        else {
            continue;
        };
        hit.push(enemy);
        knock_out(&mut commands, enemy);
        commands.entity(fireball).despawn();
        let award = Award::Points(tuning.rules.stomp_score);
        give(&mut commands, &mut progress, &mut sfx, enemy_box.center(), award);
        sfx.write(Sfx::Kick);
    }
}

/// How far below a wall's top a fireball's bottom may be and hop over it, px: half its height.
/// Bodies stand on a slope at their centre, so rising along a slope a fireball's front corner is
/// under the surface, and the block that continues the slope at its top is met side-on; that is
/// a lip, not a wall.
const FIREBALL_LIP: f32 = 4.0;

/// Against a wall, out of the view or out of the level, a fireball is gone; at a lip it hops.
fn fireballs_gone(
    mut commands: Commands,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    query: SpatialQuery,
    mut fireballs: Query<(Entity, &Transform, &Contacts, &mut Velocity), With<Fireball>>,
    players: Query<&Transform, With<Player>>,
) {
    let t = &tuning.items;
    let player_x = players.iter().next().map(|t| t.translation.x);
    for (entity, transform, contacts, mut velocity) in &mut fireballs {
        let at = transform.translation.truncate();
        let bottom = at.y - Fireball::SIZE.y / 2.0;
        let walls: Vec<Option<ColliderHit>> = [ContactDirection::Left, ContactDirection::Right]
            .into_iter()
            .flat_map(|side| contacts.solid_in(side))
            .map(|contact| query.collider(contact.entity, contact.part))
            .collect();
        let is_lip = |wall: &ColliderHit| wall.slope.is_some() || wall.aabb.max.y <= bottom + FIREBALL_LIP;
        let against_wall = walls.iter().any(|wall| wall.as_ref().is_none_or(|w| !is_lip(w)));
        if !walls.is_empty() && !against_wall {
            // Over the lip as up a 45° slope: it rises as fast as it runs.
            velocity.y = velocity.y.max(t.fireball_bounce + t.fireball_speed);
        }
        let out_of_view = player_x.is_some_and(|x| (at.x - x).abs() > tuning.items.fireball_range);
        let out_of_level = at.y < info.bounds.min.y - 32.0;
        if against_wall || out_of_view || out_of_level {
            commands.entity(entity).despawn();
        }
    }
}
