//! The end of a level, after the player touches the flagpole: the height of the grab scores a
//! bonus, the player slides down the pole, walks to the castle's door and goes in while the time
//! left on the clock is counted into the score; then the level is done. The physics moves the
//! player all along (a slide is a fall at a fixed speed; the walk is the usual walk); the input is
//! not read.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::gameplay::Sfx;
use crate::gameplay::player::Player;
use crate::gameplay::run::progress::{GameProgress, RunOutcome};
use crate::gameplay::run::scoring::{Award, give};
use crate::level::{LevelClock, LevelInfo};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// Where the player is in the finale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
pub enum FinaleStage {
    /// Sliding down the pole.
    Slide,
    /// Walking to the castle's door.
    Walk,
    /// In the castle: the time left is counted into the score.
    Count,
    /// Over: the level is done.
    Done,
}

/// The player's finale; added when the pole is touched.
#[derive(Component, Clone, Copy, Debug, Reflect)]
#[reflect(Component)]
pub struct Finale {
    /// Where it is.
    pub stage: FinaleStage,
    /// The x of the castle's door.
    pub door_x: f32,
}

/// How far right of the pole the castle's door is, px.
pub const DOOR_OFFSET: f32 = 56.0;
/// Speed of the slide down the pole (and of the flag coming down it), px/s.
pub const SLIDE_SPEED: f32 = 180.0;
/// Seconds of the clock counted into the score per step (300 s take 1.7 s).
const COUNT_PER_STEP: f32 = 3.0;

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Finale>();
    app.add_systems(
        FixedUpdate,
        play_finale
            .in_set(GameSystems::Intent)
            .after(crate::gameplay::player::control_player),
    );
}

/// Starts the finale of a player that touched the pole whose base is at `base`: the height
/// `bonus` given, the player's hold on the pole.
pub fn start_finale(
    commands: &mut Commands,
    progress: &mut GameProgress,
    sfx: &mut MessageWriter<Sfx>,
    player: (Entity, &mut Transform, &Collider, &mut Velocity),
    base: Vec2,
    bonus: u32,
) {
    let (entity, transform, collider, velocity) = player;
    let feet = transform.translation.y - collider.size.y / 2.0;
    let at = Vec2::new(base.x + 12.0, feet);
    give(commands, progress, sfx, at, Award::Points(bonus));
    // Hold the pole on its left side.
    transform.translation.x = base.x - 3.0 - collider.size.x / 2.0;
    velocity.0 = Vec2::ZERO;
    commands.entity(entity).insert(Finale {
        stage: FinaleStage::Slide,
        door_x: base.x + DOOR_OFFSET,
    });
    sfx.write(Sfx::Flagpole);
}

fn play_finale(
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    mut clock: ResMut<LevelClock>,
    mut progress: ResMut<GameProgress>,
    mut outcome: ResMut<RunOutcome>,
    mut players: Query<(
        &mut Finale,
        &mut Player,
        &Transform,
        &Contacts,
        &mut Velocity,
        &mut MovementTuning,
        &mut MovementInput,
    )>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (mut finale, mut player, transform, contacts, mut velocity, mut movement, mut input) in &mut players {
        player.on_ground = contacts.on_floor();
        // A pole over nothing, or a pit before the door: the count starts when the player is
        // out of the level.
        if matches!(finale.stage, FinaleStage::Slide | FinaleStage::Walk) && transform.translation.y < info.bounds.min.y
        {
            finale.stage = FinaleStage::Count;
            velocity.0 = Vec2::ZERO;
            movement.gravity_scale = 0.0;
            input.horizontal = 0.0;
        }
        match finale.stage {
            FinaleStage::Slide => {
                movement.gravity_scale = 0.0;
                velocity.0 = Vec2::new(0.0, -SLIDE_SPEED);
                input.horizontal = 0.0;
                if contacts.on_floor() {
                    finale.stage = FinaleStage::Walk;
                    player.facing = 1.0;
                    sfx.write(Sfx::Fanfare);
                }
            }
            FinaleStage::Walk => {
                let t = &tuning.player;
                movement.gravity_scale = 1.0;
                movement.max_speed.x = t.walk_speed;
                movement.acceleration = t.acceleration;
                input.horizontal = 1.0;
                if transform.translation.x >= finale.door_x
                    || contacts.solid_in(ContactDirection::Right).next().is_some()
                {
                    finale.stage = FinaleStage::Count;
                    input.horizontal = 0.0;
                    velocity.x = 0.0;
                }
            }
            FinaleStage::Count => {
                let seconds = clock.left.ceil().min(COUNT_PER_STEP);
                if seconds > 0.0 {
                    progress.add_score(seconds as u32 * tuning.rules.time_bonus);
                    clock.left = (clock.left.ceil() - seconds).max(0.0);
                    sfx.write(Sfx::Tick);
                } else {
                    finale.stage = FinaleStage::Done;
                    outcome.level_done = true;
                }
            }
            FinaleStage::Done => {}
        }
    }
}
