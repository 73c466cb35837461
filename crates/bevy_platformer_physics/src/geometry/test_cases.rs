//! Deterministic random cases and a marching reference for the geometry's property tests: each
//! pure function is checked against the plain answer found by stepping along the motion.

use bevy::prelude::*;

/// A small deterministic generator: the same cases every run.
pub(crate) struct Cases(pub(crate) u64);

impl Cases {
    pub(crate) fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    pub(crate) fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.next()
    }

    /// A unit direction: one of the four axes a quarter of the time, any angle otherwise.
    pub(crate) fn direction(&mut self) -> Vec2 {
        if self.next() < 0.25 {
            [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y][(self.next() * 3.99) as usize]
        } else {
            Vec2::from_angle(self.range(0.0, std::f32::consts::TAU))
        }
    }
}

/// Marching step of the references along a distance, px.
pub(crate) const MARCH: f32 = 0.005;

/// The first distance, in steps of [`MARCH`] up to `max_distance`, where `hit(distance)` holds.
pub(crate) fn marched(max_distance: f32, hit: impl Fn(f32) -> bool) -> Option<f32> {
    marched_by(MARCH, max_distance, hit)
}

/// The first value, in steps of `step` from 0 up to `max`, where `hit(value)` holds.
pub(crate) fn marched_by(step: f32, max: f32, hit: impl Fn(f32) -> bool) -> Option<f32> {
    let steps = (max / step) as usize;
    (0..=steps).map(|i| i as f32 * step).find(|&d| hit(d))
}
