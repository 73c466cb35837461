//! The plugin's behaviour tests: headless `App`s (`MinimalPlugins`, one fixed physics step per
//! `update()`), one module per feature, all in one test executable so that Bevy is linked once.
//!
//! Run one feature with a filter: `cargo test -p bevy_platformer_physics --test behaviour slopes_`.
//! The `ldtk` and `debug_overlay` modules need their cargo features:
//! `cargo test -p bevy_platformer_physics --features ldtk,debug-overlay --test behaviour`.

mod common;

mod bad_input;
mod body_collisions;
mod broad_phase;
mod collider_disabled;
mod contact_events;
#[cfg(feature = "debug-overlay")]
mod debug_overlay;
mod discrete_push_out;
mod floor_seams;
mod grounded;
#[cfg(feature = "interpolation")]
mod interpolation;
mod landing;
mod layers_and_sensors;
#[cfg(feature = "ldtk")]
mod ldtk;
#[cfg(feature = "ldtk")]
mod ldtk_projects;
mod lifts;
mod one_way;
mod pixel_perfect;
mod regressions;
mod robustness;
mod schedule;
#[cfg(feature = "serialize")]
mod serialize;
mod slopes_landing;
mod slopes_obstacles;
mod slopes_rules;
mod slopes_sliding;
mod slopes_walking;
mod spatial_query;
mod start_inside_solid;
mod steep_valleys;
mod tile_grid;
mod tunnelling;
