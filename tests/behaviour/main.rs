//! The plugin's behaviour tests: headless `App`s (`MinimalPlugins`, one fixed physics step per
//! `update()`), one module per feature, all in one test executable so that Bevy is linked once.
//!
//! Run one feature with a filter: `cargo test -p platformer_tests --test behaviour slopes_`. With
//! `--no-default-features` they build a std-only Bevy (no renderer: the quick way to iterate on the
//! plugin) and leave out the modules of the plugin's optional features (`ldtk`, `debug_overlay`,
//! `serialize`), which this package's features of the same names bring back.

mod bad_input;
mod body_collisions;
mod broad_phase;
mod collider_disabled;
mod contact_events;
#[cfg(feature = "debug-overlay")]
mod debug_overlay;
mod discrete_push_out;
mod floor_seams;
mod fluids;
mod grounded;
mod interpolation;
mod jumping;
mod ladders;
mod landing;
mod layers_and_sensors;
#[cfg(feature = "ldtk")]
mod ldtk;
#[cfg(feature = "ldtk")]
mod ldtk_level_life;
#[cfg(feature = "ldtk")]
mod ldtk_platformer;
#[cfg(feature = "ldtk")]
mod ldtk_projects;
mod lift_momentum;
mod lifts;
mod max_gradient;
mod one_way;
mod peer_cases;
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
