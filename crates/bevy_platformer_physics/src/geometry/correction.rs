//! The accumulated correction vector of the discrete push-out (see *Discrete mode* in
//! [the physics rules](crate::physics_rules)).
//!
//! Pushing a body out of each overlap by that overlap's own penetration vector moves it by the *sum*
//! of the vectors, too far whenever two contacts share a direction (a box sunk into two floor tiles
//! would jump up twice as high). Instead the corrections already applied are projected onto each
//! new penetration vector, and only the part not yet covered is applied.

use bevy::prelude::*;

/// Accumulates push-outs for one body during one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CorrectionAccumulator {
    /// Total correction applied so far, in pixels.
    pub total: Vec2,
}

impl CorrectionAccumulator {
    /// Adds the penetration vector `penetration` (the full push that would separate the body from
    /// one contact) and returns the compensation still needed for it, which the caller applies to
    /// the body's position. Returns zero when earlier corrections already separated it.
    pub fn push(&mut self, penetration: Vec2) -> Vec2 {
        let length_squared = penetration.length_squared();
        if length_squared <= 0.0 || !length_squared.is_finite() {
            return Vec2::ZERO;
        }
        // Fraction of this penetration already covered by the accumulated correction.
        let projection = self.total.dot(penetration) / length_squared;
        if projection >= 1.0 {
            return Vec2::ZERO;
        }
        let compensation = penetration * (1.0 - projection);
        self.total += compensation;
        compensation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_contacts_in_the_same_direction_are_not_summed() {
        let mut acc = CorrectionAccumulator::default();
        assert_eq!(acc.push(Vec2::new(0.0, 2.0)), Vec2::new(0.0, 2.0));
        assert_eq!(acc.push(Vec2::new(0.0, 4.0)), Vec2::new(0.0, 2.0));
        assert_eq!(acc.total, Vec2::new(0.0, 4.0), "the deeper contact, not the sum 6");
    }

    #[test]
    fn order_does_not_change_a_covered_contact() {
        let mut acc = CorrectionAccumulator::default();
        assert_eq!(acc.push(Vec2::new(0.0, 3.0)), Vec2::new(0.0, 3.0));
        assert_eq!(acc.push(Vec2::new(0.0, 2.0)), Vec2::ZERO);
        assert_eq!(acc.total, Vec2::new(0.0, 3.0));
    }

    #[test]
    fn perpendicular_contacts_add_up() {
        let mut acc = CorrectionAccumulator::default();
        acc.push(Vec2::new(0.0, 2.0));
        acc.push(Vec2::new(-3.0, 0.0));
        assert_eq!(acc.total, Vec2::new(-3.0, 2.0));
    }

    #[test]
    fn oblique_previous_correction_is_projected() {
        let mut acc = CorrectionAccumulator::default();
        acc.push(Vec2::new(1.0, 1.0));
        // Projection of (1,1) on (0,4) is 1/4 of it: 3 remain.
        assert_eq!(acc.push(Vec2::new(0.0, 4.0)), Vec2::new(0.0, 3.0));
        assert_eq!(acc.total, Vec2::new(1.0, 4.0));
    }

    #[test]
    fn zero_or_nan_penetration_is_ignored() {
        let mut acc = CorrectionAccumulator::default();
        assert_eq!(acc.push(Vec2::ZERO), Vec2::ZERO);
        assert_eq!(acc.push(Vec2::new(f32::NAN, 1.0)), Vec2::ZERO);
        assert_eq!(acc.total, Vec2::ZERO);
    }
}
