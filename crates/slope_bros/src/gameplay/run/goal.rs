//! The goal flag and checkpoints.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{Player, PlayerStatus, alive_player_boxes};
use crate::gameplay::run::finale::start_finale;
use crate::gameplay::run::progress::{GameProgress, LevelCompleted};
use crate::level::{CurrentLevel, LevelEntity, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// The goal: a flag pole standing on its base; touching the pole anywhere ends the level (and
/// starts the finale).
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Goal"))]
pub struct Goal;

impl Goal {
    /// Height of the pole, px.
    pub const HEIGHT: f32 = 160.0;

    /// The pole's box, from the base's centre (the transform).
    pub fn pole(base: Vec2) -> Aabb {
        Aabb::from_min_size(base - Vec2::X * 3.0, Vec2::new(6.0, Self::HEIGHT))
    }
}

/// A checkpoint: touching it makes the player restart here.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Checkpoint"))]
pub struct Checkpoint {
    /// Reached.
    pub active: bool,
}

/// The bonus for grabbing the pole at `feet_y`, by the fifth of its height the feet are in (the
/// higher, the more: `rules.flagpole_scores`, lowest first).
pub fn height_bonus(scores: &[u32], base_y: f32, feet_y: f32) -> u32 {
    let fraction = ((feet_y - base_y) / Goal::HEIGHT).clamp(0.0, 0.999);
    let band = (fraction * scores.len() as f32) as usize;
    scores.get(band).copied().unwrap_or(0)
}

/// Spawns the goal with its base at `feet`.
pub fn spawn_goal(commands: &mut Commands, feet: Vec2) {
    commands.spawn((Goal, Transform::from_translation(feet.extend(draw_order::MARKERS))));
}

/// Spawns a checkpoint standing on `feet`; active if it is the one the player restarts at.
pub fn spawn_checkpoint(commands: &mut Commands, feet: Vec2, restart: Option<Vec2>) {
    let active = restart.is_some_and(|r| r.distance(feet) < 1.0);
    commands.spawn((
        Checkpoint { active },
        Transform::from_translation(feet.extend(draw_order::MARKERS)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(Goal, Checkpoint)>();
    app.register_level_object("Goal", |commands, object| spawn_goal(commands, object.feet()));
    app.register_level_object("Checkpoint", |commands, object| {
        spawn_checkpoint(commands, object.feet(), object.checkpoint);
    });
    app.add_systems(FixedUpdate, (reach_checkpoints, reach_goal).in_set(GameSystems::React));
}

fn reach_checkpoints(
    mut current: ResMut<CurrentLevel>,
    players: Query<(&Player, &Transform, &Collider)>,
    mut checkpoints: Query<(&mut Checkpoint, &Transform)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for player_box in alive_player_boxes(players.iter()) {
        for (mut checkpoint, base) in &mut checkpoints {
            let feet = base.translation.truncate();
            let area = Aabb::from_min_size(feet - Vec2::X * 8.0, Vec2::new(16.0, 32.0));
            if !checkpoint.active && player_box.intersects(&area, 0.0) {
                checkpoint.active = true;
                current.checkpoint = Some(feet);
                sfx.write(Sfx::Checkpoint);
            }
        }
    }
}

/// Touching the pole ends the level: the finale begins (see `finale`).
fn reach_goal(
    mut commands: Commands,
    tuning: Res<Tuning>,
    mut progress: ResMut<GameProgress>,
    mut players: Query<(Entity, &mut Player, &mut Transform, &Collider, &mut Velocity)>,
    goals: Query<&Transform, (With<Goal>, Without<Player>)>,
    mut completed: MessageWriter<LevelCompleted>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (entity, mut player, mut transform, collider, mut velocity) in &mut players {
        if player.status != PlayerStatus::Alive {
            continue;
        }
        let player_box = collider.aabb(transform.translation.truncate());
        let Some(base) = goals
            .iter()
            .map(|g| g.translation.truncate())
            .find(|base| Goal::pole(*base).intersects(&player_box, 0.0))
        else {
            continue;
        };
        player.status = PlayerStatus::Finished;
        player.sliding = false;
        player.star = 0.0;
        let feet = transform.translation.y - collider.size.y / 2.0;
        let bonus = height_bonus(&tuning.rules.flagpole_scores, base.y, feet);
        let held = (entity, &mut *transform, collider, &mut *velocity);
        start_finale(&mut commands, &mut progress, &mut sfx, held, base, bonus);
        completed.write(LevelCompleted);
    }
}
