//! The run: the goal and checkpoints, the flagpole finale, scores and their pop-ups, and what is
//! carried across levels (score, coins, lives, the power-up, the clock).

pub mod finale;
pub mod goal;
pub mod progress;
pub mod scoring;
