//! Rollers: spiked balls that roll down slopes. On a slope a roller rolls downhill, up to
//! `enemies.roller_speed + roller_speed_per_gradient × gradient` (faster on steeper slopes); on
//! level ground it keeps its speed, losing `roller_friction` per second, down to `roller_speed`;
//! it turns at walls. Its spikes hurt a player who lands on it; fireballs, shells, a star, a slide
//! or a bumped block knock it out. The physics moves it, slopes and all.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::enemies::{Asleep, Enemy, EnemyKind};
use crate::level::RegisterLevelObject;
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A roller's collider, px.
pub const ROLLER_SIZE: Vec2 = Vec2::new(14.0, 14.0);

/// Spawns a roller standing on `feet`.
pub fn spawn_roller(commands: &mut Commands, feet: Vec2) {
    commands.spawn((
        Enemy {
            kind: EnemyKind::Roller,
            direction: -1.0,
        },
        Asleep,
        Frozen,
        Name::new("Roller"),
        Collider::rectangle(ROLLER_SIZE.x, ROLLER_SIZE.y),
        Transform::from_translation((feet + Vec2::Y * ROLLER_SIZE.y / 2.0).extend(draw_order::ENEMIES)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_level_object("Roller", |commands, object| spawn_roller(commands, object.feet()));
    app.add_systems(
        FixedUpdate,
        roll.in_set(GameSystems::Intent).after(super::rules::walk_enemies),
    );
}

fn roll(
    time: Res<Time>,
    tuning: Res<Tuning>,
    mut rollers: Query<
        (
            &mut Enemy,
            &Contacts,
            &MovementState,
            &Velocity,
            &mut MovementTuning,
            &mut MovementInput,
        ),
        Without<Frozen>,
    >,
) {
    let t = &tuning.enemies;
    for (mut enemy, contacts, state, velocity, mut movement, mut input) in &mut rollers {
        if enemy.kind != EnemyKind::Roller {
            continue;
        }
        let blocked = if enemy.direction < 0.0 {
            ContactDirection::Left
        } else {
            ContactDirection::Right
        };
        if contacts.solid_in(blocked).next().is_some() {
            enemy.direction = -enemy.direction;
        }
        movement.acceleration = t.roller_acceleration;
        movement.deceleration = t.roller_friction;
        movement.skid_deceleration = t.roller_acceleration;
        match state.supporting_slope.filter(|_| contacts.on_floor()).map(|s| s.shape) {
            Some(shape) => {
                enemy.direction = if shape.rises_right() { -1.0 } else { 1.0 };
                movement.max_speed.x = t.roller_speed + t.roller_speed_per_gradient * shape.gradient().min(2.0);
            }
            None => {
                // Level ground or air: the speed it has fades to its rolling speed.
                let slower = velocity.x.abs() - t.roller_friction * time.delta_secs();
                movement.max_speed.x = slower.max(t.roller_speed);
            }
        }
        input.horizontal = enemy.direction;
    }
}
