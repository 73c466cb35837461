//! Enemies: what an enemy is (its kind and the states it can be in, here), the rules every enemy
//! follows (`rules.rs`: waking, walking, turning, meeting the player), and each kind's own
//! behaviour beside them (`shell.rs`, `hammer.rs`, `roller.rs`, `boss.rs`). The behaviours all read
//! this file's types, and none of them reads another's file for them.

pub mod boss;
pub mod hammer;
pub mod roller;
pub mod rules;
pub mod shell;

pub use rules::{spawn_hammer_thrower, spawn_shell_enemy, spawn_walker};

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::layers::ENEMY_LAYERS;
use crate::level::LevelEntity;

/// What an enemy is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
pub enum EnemyKind {
    /// Walks, turns at walls.
    Walker,
    /// Walks, turns at walls and at ledges.
    LedgeWalker,
    /// Walks; a stomp turns it into a [`Shell`].
    ShellEnemy,
    /// The shell of a stomped shell enemy: still or sliding.
    Shell,
    /// Hops and throws hammers.
    HammerThrower,
    /// A spiked ball that rolls down slopes, faster on steeper ones (`roller.rs`); a stomp hurts.
    Roller,
}

/// An enemy. Its transform is the centre of its collider.
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = ENEMY_LAYERS, TransformInterpolation, LevelEntity)]
pub struct Enemy {
    /// Kind.
    pub kind: EnemyKind,
    /// Walking direction: -1 left, 1 right.
    pub direction: f32,
}

/// Not awake yet: the enemy stands where the level put it, out of the physics ([`Frozen`]), until
/// the player comes within `enemies.wake_distance` of it (a little more than half the view's
/// width). Enemies are met where the level designer placed them, not in the pits they walked
/// into while the player was still far away.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
pub struct Asleep;

/// A stomped walker, flat for a moment before it disappears.
#[derive(Component, Clone, Copy, Debug, Reflect)]
pub struct Squashed(pub f32);

/// Knocked out (by a shell, a slide, a fireball, a star, a bumped block or a stomp on a thrower):
/// falls off the screen, through everything.
#[derive(Component, Clone, Copy, Debug, Reflect)]
pub struct KnockedOut {
    /// Vertical speed, px/s.
    pub velocity_y: f32,
}

/// Upward speed of an enemy knocked out by a hit (it hops, then falls off the screen), px/s.
pub const KNOCK_OUT_HOP: f32 = 200.0;

/// Knocks `enemy` out: it hops and falls off the screen, out of the physics.
pub fn knock_out(commands: &mut Commands, enemy: Entity) {
    commands.entity(enemy).insert((
        KnockedOut {
            velocity_y: KNOCK_OUT_HOP,
        },
        Frozen,
    ));
}
