//! The plugin's configuration resource.

use bevy::prelude::*;

use crate::components::BodyCollisions;

/// Global physics settings. Distances are pixels; the slope tolerances and speeds are given in
/// blocks and scaled by [`block_size`](Self::block_size), so a game with other tile sizes keeps the
/// same behaviour (see *Tolerances and default numbers* in [the physics rules](crate::physics_rules)).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// // An 8 px tile game with floaty gravity: insert the config before (or after) the plugins.
/// app.insert_resource(PhysicsConfig {
///     gravity: Vec2::new(0.0, -400.0),
///     block_size: 8.0,
///     ..default()
/// });
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
/// let config = app.world().resource::<PhysicsConfig>();
/// assert_eq!(config.contact_tolerance(), 0.08, "tolerances scale with the block size");
/// ```
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Resource, Debug, Default)]
pub struct PhysicsConfig {
    /// Gravity acceleration, px/s² (y up: negative y falls). Default 60 blocks/s² downward.
    pub gravity: Vec2,
    /// Size of one block (tile) in pixels; the tolerances below are multiplied by it.
    pub block_size: f32,
    /// Longest step simulated at once, in seconds. A longer `dt` (after a pause, in a variable
    /// schedule) is clamped to it, so nothing jumps through the world.
    pub max_dt: f32,
    /// Contact tolerance in blocks (default 0.01): feet this close to a surface stand on it (keeping
    /// support, the one-way start check).
    pub contact_tolerance_blocks: f32,
    /// Velocity tolerance in blocks/s (default 0.01): planned against resolved vertical velocity.
    pub velocity_tolerance_blocks: f32,
    /// Climb tolerance in blocks (default 0.0001): recognising a blocked climb.
    pub climb_tolerance_blocks: f32,
    /// Join tolerance in blocks (default 0.001): coinciding tops and edges at a slope's top join.
    pub join_tolerance_blocks: f32,
    /// Passive slide speed along a slope per unit of gradient, in blocks/s (default 5).
    pub slide_speed_blocks: f32,
    /// Gradient above which the passive slide stops getting faster (default 2).
    pub slide_gradient_cap: f32,
    /// Uphill release deceleration per `(1 + s)`, in blocks/s² (default 60).
    pub uphill_release_blocks: f32,
    /// Rounding margin in pixels: boxes closer than this count as touching, not overlapping.
    pub skin: f32,
    /// Side of a broad-phase cell, in pixels.
    pub broad_phase_cell_size: f32,
    /// Most substeps one body takes in one step (axis-separated and discrete modes).
    pub max_substeps: u32,
    /// Whether dynamic bodies block one another ([`BodyCollisions::Block`], the default) or pass
    /// through one another, for bodies without a [`BodyCollisions`] of their own.
    pub body_collisions: BodyCollisions,
}

impl Default for PhysicsConfig {
    fn default() -> Self {
        Self {
            gravity: Vec2::new(0.0, -960.0),
            block_size: 16.0,
            max_dt: 1.0 / 30.0,
            contact_tolerance_blocks: 0.01,
            velocity_tolerance_blocks: 0.01,
            climb_tolerance_blocks: 0.0001,
            join_tolerance_blocks: 0.001,
            slide_speed_blocks: 5.0,
            slide_gradient_cap: 2.0,
            uphill_release_blocks: 60.0,
            skin: 1e-3,
            broad_phase_cell_size: 64.0,
            max_substeps: 32,
            body_collisions: BodyCollisions::Block,
        }
    }
}

impl PhysicsConfig {
    /// Contact tolerance in pixels.
    pub fn contact_tolerance(&self) -> f32 {
        self.contact_tolerance_blocks * self.block_size
    }

    /// Velocity tolerance in px/s.
    pub fn velocity_tolerance(&self) -> f32 {
        self.velocity_tolerance_blocks * self.block_size
    }

    /// Climb tolerance in pixels.
    pub fn climb_tolerance(&self) -> f32 {
        self.climb_tolerance_blocks * self.block_size
    }

    /// Join tolerance in pixels.
    pub fn join_tolerance(&self) -> f32 {
        self.join_tolerance_blocks * self.block_size
    }
}

/// The length of the current physics step, in seconds, after clamping to
/// [`PhysicsConfig::max_dt`]. Zero (or less in the source clock) means the step does nothing.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// app.update();
/// // The length of the latest step: the fixed rate's, clamped to `max_dt`.
/// assert_eq!(app.world().resource::<PhysicsStepLength>().dt, 0.01);
/// ```
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Resource, Debug, Default)]
pub struct PhysicsStepLength {
    /// Seconds simulated by this step.
    pub dt: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_scale_with_block_size() {
        let config = PhysicsConfig {
            block_size: 32.0,
            ..default()
        };
        assert_eq!(config.contact_tolerance(), 0.32);
        assert_eq!(config.join_tolerance(), 0.032);
        assert!((PhysicsConfig::default().climb_tolerance() - 0.0016).abs() < 1e-7);
    }
}
