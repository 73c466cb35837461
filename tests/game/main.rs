//! The game's end-to-end tests: real levels loaded headless, the real player driven by scripted
//! input, one module per feature, all in one test executable so that Bevy is linked once.
//!
//! Run one feature with a filter: `cargo test -p platformer_tests --test game player::`. The
//! `screenshot` module opens a real window and needs the `xvfb-tests` feature:
//! `cargo test -p platformer_tests --features xvfb-tests --test game screenshot`.

mod blocks;
mod boss;
mod enemies;
mod feel;
mod finale;
mod ldtk_path;
mod level_objects;
mod levels;
mod levels_schema;
mod lifts;
mod loader_fuzz;
mod pipes;
mod player;
mod power_ups;
mod screens;
#[cfg(feature = "xvfb-tests")]
mod screenshot;
mod tuning;
