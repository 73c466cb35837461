//! # bevy_platformer_physics
//!
//! Arcade, kinematic platformer physics for Bevy: axis-aligned boxes that never rotate, moved by
//! game rules (gravity, acceleration, friction, jump) instead of a rigid-body solver.
//!
//! - [`Collider`] boxes; [`Dynamic`] bodies moved by the simulation, [`Kinematic`] bodies (lifts)
//!   that move by their own rule and carry riders, static colliders (neither).
//! - Three [`CollisionMode`]s: swept-AABB continuous (default), discrete push-out with the
//!   correction vector, and axis-separated (the tile method).
//! - Straight [`SlopeSegment`]s that bodies walk, slide and land on.
//! - [`TileGrid`]s: a whole layer of cells (solid, one-way, slopes) as one collider.
//! - [`OneWayPlatform`]s with drop-through, [`Sensor`]s, [`CollisionLayers`], [`Frozen`] bodies.
//! - [`Contacts`] per body and [`ContactStarted`] / [`ContactEnded`] messages and entity events.
//! - [`pixel_perfect`]: overlap of two sprites' opaque pixels, from alpha masks.
//!
//! Every rule the plugin implements (slopes, the three collision modes, one-way platforms, tile
//! grids, lifts, pixel-perfect overlap) is stated, with its tolerances, in `docs/physics-rules.md`
//! at the repository's root; the code cites its sections by number and title.
//!
//! Units are pixels and seconds, y up. Add [`PlatformerPhysicsPlugins`] to an app; the step runs in
//! `FixedUpdate`, at the app's own fixed rate (the plugin changes it only when asked, with
//! [`PlatformerPhysicsPlugins::with_fixed_hz`]), unless another schedule is given.
//!
//! Cargo features: `debug-overlay` (gizmos of colliders, slopes, contacts, toggled with C / R / N),
//! `ldtk` (the LDtk bridge, module `ldtk`), `examples` (the windowed examples). None
//! needs a system library.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_platformer_physics::prelude::*;
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         commands.spawn((Collider::rectangle(400.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)));
//!         commands.spawn((Dynamic, Collider::rectangle(12.0, 24.0), Transform::from_xyz(0.0, 40.0, 0.0)));
//!     })
//!     .run();
//! ```

pub mod broad_phase;
pub mod components;
pub mod config;
#[cfg(feature = "debug-overlay")]
pub mod debug_overlay;
pub mod geometry;
#[cfg(feature = "interpolation")]
pub mod interpolation;
#[cfg(feature = "ldtk")]
pub mod ldtk;
pub mod messages;
pub mod pixel_perfect;
mod plugins;
pub mod slope;
pub mod spatial_query;
pub mod step;
pub mod tile_grid;

pub use components::*;
pub use config::{PhysicsConfig, PhysicsStep};
pub use messages::{ContactEnded, ContactStarted, Squished};
pub use plugins::*;
pub use slope::{SlopeRef, SlopeRise, SlopeSegment, SlopeShape};
pub use spatial_query::{BoxHit, QueryFilter, RayHit, SpatialQuery};
pub use step::PlatformerSystems;
pub use step::contact_events::ReportedContacts;
pub use tile_grid::{TileCell, TileGrid};

/// Everything a game usually needs.
pub mod prelude {
    pub use crate::components::*;
    pub use crate::config::{PhysicsConfig, PhysicsStep};
    #[cfg(feature = "debug-overlay")]
    pub use crate::debug_overlay::{DebugOverlay, DebugOverlayPlugin, DebugOverlayShapes, ObjectRect};
    #[cfg(feature = "interpolation")]
    pub use crate::interpolation::{NoTransformEasing, PhysicsInterpolationPlugin, TransformInterpolation};
    pub use crate::messages::{ContactEnded, ContactStarted, Squished};
    pub use crate::pixel_perfect::{AlphaMask, PixelMaskError, masks_overlap, masks_overlap_px};
    pub use crate::plugins::PlatformerPhysicsPlugins;
    pub use crate::slope::SlopeSegment;
    pub use crate::spatial_query::{BoxHit, QueryFilter, RayHit, SpatialQuery};
    pub use crate::step::PlatformerSystems;
    pub use crate::tile_grid::{TileCell, TileGrid};
}
