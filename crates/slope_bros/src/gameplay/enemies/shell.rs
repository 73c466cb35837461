//! Shells: a stomped shell enemy leaves a shell; a touch or a stomp kicks it, and a sliding shell
//! knocks out every enemy it meets (and hurts the player after a short grace time).

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::gameplay::Sfx;
use crate::gameplay::enemies::{Enemy, EnemyKind, knock_out};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::schedule::GameSystems;
use crate::tuning::{EnemyTuning, Tuning};

/// A shell: still or sliding.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component)]
pub struct Shell {
    /// Sliding.
    pub moving: bool,
    /// Seconds after a kick during which it cannot hurt the player.
    pub grace: f32,
    /// Enemies knocked out by this shell.
    pub knocked_out: u32,
}

impl Shell {
    /// Kicks the shell toward `direction` (-1 or 1).
    pub fn kick(&mut self, enemy: &mut Enemy, direction: f32, tuning: &EnemyTuning) {
        self.moving = true;
        self.grace = tuning.shell_kick_grace;
        enemy.direction = direction;
    }
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Shell>();
    app.add_systems(
        FixedUpdate,
        (shells_hit_enemies, tick_shells).chain().in_set(GameSystems::React),
    );
}

/// A sliding shell knocks out the enemies it overlaps, each one of its chain scoring more.
fn shells_hit_enemies(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    mut shells: Query<(Entity, &Transform, &Collider, &mut Shell)>,
    enemies: Query<(Entity, &Enemy, &Transform, &Collider), (Without<Frozen>, Without<Shell>)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (shell_entity, shell_transform, shell_collider, mut shell) in &mut shells {
        if !shell.moving {
            continue;
        }
        let shell_box = shell_collider.aabb(shell_transform.translation.truncate());
        for (entity, enemy, transform, collider) in &enemies {
            if entity == shell_entity || enemy.kind == EnemyKind::Shell {
                continue;
            }
            let enemy_box = collider.aabb(transform.translation.truncate());
            if shell_box.intersects(&enemy_box, 0.0) {
                knock_out(&mut commands, entity);
                let rules = &tuning.rules;
                let award = Award::of_chain(rules, rules.shell_chain_start + shell.knocked_out as usize);
                shell.knocked_out += 1;
                give(&mut commands, &mut progress, &mut sfx, enemy_box.center(), award);
                sfx.write(Sfx::Kick);
            }
        }
    }
}

fn tick_shells(time: Res<Time>, mut shells: Query<&mut Shell>) {
    for mut shell in &mut shells {
        shell.grace = (shell.grace - time.delta_secs()).max(0.0);
    }
}
