//! The rules of the game, run in `FixedUpdate` around the physics step (see [`GameSystems`]):
//! intents before it (player control, enemy AI), reactions after it (stomps, pick-ups, blocks,
//! damage, the goal). None of it touches rendering: the same code runs headless.
//!
//! [`GameSystems`]: crate::GameSystems

pub mod enemies;
pub mod fire;
pub mod objects;
pub mod player;
pub mod run;

use bevy::prelude::*;

/// Something happened that a sound (or a test) may care about.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum Sfx {
    /// A small jump.
    Jump,
    /// A big jump.
    JumpBig,
    /// A coin.
    Coin,
    /// An enemy stomped.
    Stomp,
    /// A shell kicked, or an enemy knocked out by one.
    Kick,
    /// A block hit from below without effect.
    Bump,
    /// A brick broken.
    Break,
    /// A power-up came out of a block.
    PowerupAppears,
    /// The player grew.
    Powerup,
    /// The player was hurt and shrank.
    Hurt,
    /// The player died.
    Die,
    /// An extra life.
    OneUp,
    /// A checkpoint reached.
    Checkpoint,
    /// A hammer thrown.
    Hammer,
    /// A fireball thrown.
    Fireball,
    /// A spring launched the player.
    Spring,
    /// 100 seconds are left on the clock.
    TimeWarning,
    /// The flagpole was grabbed.
    Flagpole,
    /// The level's fanfare, as the player walks to the castle.
    Fanfare,
    /// A second of the clock counted into the score.
    Tick,
    /// The player went into a pipe.
    Pipe,
    /// The boss fell.
    BossFall,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Sfx>();
    app.add_plugins((
        player::plugin,
        enemies::rules::plugin,
        enemies::shell::plugin,
        enemies::hammer::plugin,
        objects::items::plugin,
        objects::blocks::plugin,
        run::goal::plugin,
        run::progress::plugin,
    ));
    app.add_plugins((
        fire::plugin,
        run::finale::plugin,
        run::scoring::plugin,
        objects::spring::plugin,
        objects::falling_lift::plugin,
        objects::lava::plugin,
        enemies::roller::plugin,
        objects::pipe::plugin,
        enemies::boss::plugin,
    ));
}

/// Horizontal direction as a sign: -1 left, 1 right.
pub fn sign_or(value: f32, fallback: f32) -> f32 {
    if value > 0.0 {
        1.0
    } else if value < 0.0 {
        -1.0
    } else {
        fallback
    }
}
