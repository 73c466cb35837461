//! The section of the tuning file for scores, lives and timers.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Scores, lives and timers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct GameRules {
    /// Lives at the start of a game.
    pub lives: u32,
    /// Points for a coin.
    pub coin_score: u32,
    /// Points for an enemy knocked out alone (a slide, a fireball, a star, a bumped block).
    pub stomp_score: u32,
    /// Points of the enemies of a chain, one after the other: stomps without touching the ground
    /// start at the first, a shell's knock-outs at `shell_chain_start`. After the last one, each
    /// enemy of the chain is an extra life.
    pub chain_scores: Vec<u32>,
    /// Where a sliding shell's chain starts in `chain_scores`.
    pub shell_chain_start: usize,
    /// Points for a broken brick.
    pub brick_score: u32,
    /// Points for a power-up.
    pub powerup_score: u32,
    /// Coins that make one extra life.
    pub coins_per_life: u32,
    /// Points per second left on the clock at the goal.
    pub time_bonus: u32,
    /// Points for grabbing the flagpole in each fifth of its height, lowest first.
    pub flagpole_scores: Vec<u32>,
    /// Seconds the level-complete screen shows.
    pub level_complete_time: f32,
}

impl Default for GameRules {
    fn default() -> Self {
        Self {
            lives: 3,
            coin_score: 200,
            stomp_score: 100,
            chain_scores: vec![100, 200, 400, 500, 800, 1000, 2000, 4000, 5000, 8000],
            shell_chain_start: 3,
            brick_score: 50,
            powerup_score: 1000,
            coins_per_life: 100,
            time_bonus: 50,
            flagpole_scores: vec![100, 400, 800, 2000, 5000],
            level_complete_time: 3.0,
        }
    }
}
