//! Ladders (vines, ropes): zones a body climbs by input, without gravity.

use bevy::prelude::*;

use super::OneWayPlatform;

/// A ladder: its collider's box is a zone a body with [`Climber`] climbs, and, like a
/// [`OneWayPlatform`] (which it requires), its top holds up the bodies that walk onto it from
/// above, climbing or not. A body climbs it once its centre is above the ladder's width and it asks
/// to ([`MovementInput::climb`](crate::MovementInput::climb)): up from inside the ladder, down
/// from inside or from standing on its top. Climbing, it moves up and down by input at
/// [`Climber::speed`] without gravity, and sideways as it walks (without sideways input it is drawn
/// to the ladder's centre line at up to that speed, so it fits the shaft the ladder climbs); it stops at the top (and stands on
/// it), when it leaves the ladder's box, jumps (a climbing body may always jump), or asks to drop
/// ([`MovementInput::drop_through`](crate::MovementInput::drop_through): it falls).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// # let mut world = World::new();
/// // A ladder 16 px wide and 96 px tall, standing on the floor at y = 0.
/// world.spawn((Ladder, Collider::rectangle(16.0, 96.0), Transform::from_xyz(40.0, 48.0, 0.0)));
/// // A body that climbs at 90 px/s: up while `MovementInput::climb` is 1, down while it is -1.
/// world.spawn((Dynamic, Collider::rectangle(12.0, 24.0), Climber { speed: 90.0 }));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(OneWayPlatform)]
pub struct Ladder;

/// A body that climbs [`Ladder`]s, at `speed` px/s up and down. Its state is [`ClimbState`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(ClimbState)]
pub struct Climber {
    /// Climbing speed, px/s.
    pub speed: f32,
}

impl Default for Climber {
    fn default() -> Self {
        Self { speed: 100.0 }
    }
}

/// The ladder a [`Climber`] is on, if it climbs one; written at the start of each step's Integrate
/// stage (a game reads it to animate the climb).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct ClimbState {
    /// The ladder climbed.
    pub ladder: Option<Entity>,
    /// The horizontal speed that takes the body's centre onto the ladder's centre line this step
    /// (at most [`Climber::speed`]), px/s: a climber without sideways input moves with it.
    pub to_centre: f32,
}

impl ClimbState {
    /// Whether the body climbs a ladder.
    pub fn climbing(&self) -> bool {
        self.ladder.is_some()
    }
}
