//! Fluid zones (water, mud, low gravity): sensors that change how the bodies in them move.

use bevy::prelude::*;

use super::Sensor;

/// A zone of fluid: a [`Sensor`] collider whose bodies (a dynamic body whose latest contacts touch
/// it) fall with `gravity_scale` times their own gravity, are slowed by `drag`, and sink no faster
/// than `max_fall_speed`. A body entering one is sent [`EnteredFluid`](crate::EnteredFluid) and
/// marked [`InFluid`]; leaving, [`LeftFluid`](crate::LeftFluid). Of two zones a body touches, the
/// one it touched first counts.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// # let mut world = World::new();
/// // A pool 200 × 64 px: a third of the gravity, strong drag, sinking at 60 px/s at most.
/// world.spawn((
///     FluidZone {
///         gravity_scale: 0.33,
///         drag: 4.0,
///         max_fall_speed: 60.0,
///     },
///     Collider::rectangle(200.0, 64.0),
///     Transform::from_xyz(0.0, -32.0, 0.0),
/// ));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(Sensor)]
pub struct FluidZone {
    /// Multiplier of a body's gravity inside (0 floats, 1 changes nothing).
    pub gravity_scale: f32,
    /// Linear drag per second: each step the velocity is divided by `1 + drag · dt` (0: none).
    pub drag: f32,
    /// Largest sinking speed inside, px/s.
    pub max_fall_speed: f32,
}

impl Default for FluidZone {
    fn default() -> Self {
        Self {
            gravity_scale: 0.35,
            drag: 3.0,
            max_fall_speed: 80.0,
        }
    }
}

impl FluidZone {
    /// The rules of the zone applied to `v`, a velocity Integrate made with the zone's gravity.
    pub fn slow(&self, v: Vec2, dt: f32) -> Vec2 {
        let drag = if self.drag.is_finite() && self.drag > 0.0 {
            1.0 / (1.0 + self.drag * dt)
        } else {
            1.0
        };
        let v = v * drag;
        Vec2::new(v.x, v.y.max(-self.max_fall_speed.abs()))
    }
}

/// Marks a body inside a [`FluidZone`] (the zone), inserted and removed by the plugin after the
/// step's Integrate stage.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct InFluid(pub Entity);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drag_divides_the_velocity_and_the_sinking_is_capped() {
        let zone = FluidZone {
            gravity_scale: 0.5,
            // Halves the velocity in a step of 0.01 s.
            drag: 100.0,
            max_fall_speed: 50.0,
        };
        assert_eq!(zone.slow(Vec2::new(110.0, -44.0), 0.01), Vec2::new(55.0, -22.0));
        assert_eq!(zone.slow(Vec2::new(0.0, -550.0), 0.01), Vec2::new(0.0, -50.0), "capped");
        assert_eq!(
            zone.slow(Vec2::new(0.0, 550.0), 0.01),
            Vec2::new(0.0, 275.0),
            "rising is not capped"
        );
        let still = FluidZone { drag: f32::NAN, ..zone };
        assert_eq!(
            still.slow(Vec2::new(3.0, 0.0), 0.01),
            Vec2::new(3.0, 0.0),
            "a drag that is not a number is none"
        );
    }
}
