//! Pure geometry: boxes, sweeps, axis casts and the correction vector. No ECS here, so every rule
//! is unit-tested on plain values.

mod aabb;
mod axis_cast;
mod correction;
mod sweep;

pub use aabb::Aabb;
pub use axis_cast::{Axis, axis_cast};
pub use correction::CorrectionAccumulator;
pub use sweep::{SweepHit, correct_velocity, sweep_aabb};
