//! What runs the game rather than what the game is: the apps' assembly (windowed, offscreen,
//! headless), the command line and what the binary does with it, headless runs, the per-step
//! trace and the autopilot that plans replays.

pub mod app;
pub mod autopilot;
pub mod cli;
pub mod headless;
pub mod launch;
pub mod trace;
