#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub(crate) mod broad_phase;
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
pub mod physics_rules;
pub mod pixel_perfect;
mod plugins;
pub mod schedule;
pub mod spatial_query;
mod step;
pub mod tile_grid;

pub use components::*;
pub use config::{PhysicsConfig, PhysicsStepLength};
pub use geometry::{SlopeRise, SlopeShape};
pub use messages::{ContactEnded, ContactStarted, EnteredFluid, LeftFluid, Squished};
pub use plugins::*;
pub use schedule::{PhysicsSchedule, PlatformerSystems};
pub use spatial_query::{BoxHit, ColliderHit, QueryFilter, RayHit, SpatialQuery};
pub use step::contact_events::{ContactEventsPlugin, ReportedContacts};
pub use step::integrate::IntegratePlugin;
pub use step::kinematics::KinematicsPlugin;
pub use step::movement::MovementPlugin;
pub use step::sync::SyncCollidersPlugin;
pub use tile_grid::{TileCell, TileGrid};

/// Everything a game usually needs.
pub mod prelude {
    pub use crate::components::*;
    pub use crate::config::{PhysicsConfig, PhysicsStepLength};
    #[cfg(feature = "debug-overlay")]
    pub use crate::debug_overlay::{DebugOverlay, DebugOverlayPlugin, DebugOverlayShapes, ObjectRect};
    pub use crate::geometry::SlopeShape;
    #[cfg(feature = "interpolation")]
    pub use crate::interpolation::{NoTransformEasing, PhysicsInterpolationPlugin, TransformInterpolation};
    pub use crate::messages::{ContactEnded, ContactStarted, EnteredFluid, LeftFluid, Squished};
    pub use crate::physics_layers;
    pub use crate::pixel_perfect::{AlphaMask, PixelMaskError, masks_overlap, masks_overlap_px};
    pub use crate::plugins::PlatformerPhysicsPlugins;
    pub use crate::schedule::PlatformerSystems;
    pub use crate::spatial_query::{BoxHit, ColliderHit, QueryFilter, RayHit, SpatialQuery};
    pub use crate::tile_grid::{TileCell, TileGrid};
}
