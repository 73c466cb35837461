//! The plugin group: the core plugin (configuration, types, messages, the chained sets), then one
//! plugin per stage, each beside the stage it runs (`step/`), adding its systems to its own set.

use bevy::app::{PluginGroup, PluginGroupBuilder};
use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, StaticCandidates};
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::messages::{ContactEnded, ContactStarted, EnteredFluid, LeftFluid, Squished};
use crate::schedule::{PhysicsSchedule, configure_step};
use crate::step::contact_events::ContactEventsPlugin;
use crate::step::integrate::IntegratePlugin;
use crate::step::kinematics::KinematicsPlugin;
use crate::step::movement::{MovedAt, MovementPlugin};
use crate::step::sync::SyncCollidersPlugin;

/// All the plugin's parts. `PlatformerPhysicsPlugins::default()` steps in `FixedUpdate` at the
/// app's own fixed rate (`Time<Fixed>`, which the plugin leaves alone unless
/// [`with_fixed_hz`](Self::with_fixed_hz) asks it to set it); [`PlatformerPhysicsPlugins::new`]
/// takes another schedule (its clock then gives `dt`, clamped to [`PhysicsConfig::max_dt`]).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins(MinimalPlugins);
/// // The app's fixed clock is the app's: 60 Hz here, and the plugin keeps it.
/// app.insert_resource(Time::<Fixed>::from_hz(60.0));
/// app.add_plugins(PlatformerPhysicsPlugins::default());
/// # use std::time::Duration;
/// assert_eq!(app.world().resource::<Time<Fixed>>().timestep(), Duration::from_secs_f64(1.0 / 60.0));
///
/// // Or let the plugin set it.
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// assert_eq!(app.world().resource::<Time<Fixed>>().timestep(), Duration::from_secs_f64(0.01));
/// ```
pub struct PlatformerPhysicsPlugins {
    schedule: Interned<dyn ScheduleLabel>,
    fixed_hz: Option<f64>,
}

impl Default for PlatformerPhysicsPlugins {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl PlatformerPhysicsPlugins {
    /// Runs the physics step in `schedule`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            fixed_hz: None,
        }
    }

    /// Sets the app's fixed clock (`Time<Fixed>`) to `hz` steps per second when the plugins are
    /// added. Without it the app's own rate (Bevy's default is 64 Hz) is used as it is.
    pub fn with_fixed_hz(mut self, hz: f64) -> Self {
        self.fixed_hz = Some(hz);
        self
    }
}

impl PluginGroup for PlatformerPhysicsPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>()
            .add(PhysicsCorePlugin {
                schedule: self.schedule,
                fixed_hz: self.fixed_hz,
            })
            .add(SyncCollidersPlugin)
            .add(KinematicsPlugin)
            .add(IntegratePlugin)
            .add(MovementPlugin)
            .add(ContactEventsPlugin);
        #[cfg(feature = "interpolation")]
        let group = group.add(crate::interpolation::PhysicsInterpolationPlugin::default());
        #[cfg(feature = "debug-overlay")]
        let group = group.add(crate::debug_overlay::DebugOverlayPlugin);
        group
    }
}

/// Configuration, types, messages, the broad phase and the chained
/// [`PlatformerSystems`](crate::PlatformerSystems) sets. Must come first.
pub struct PhysicsCorePlugin {
    /// Where the step runs.
    pub schedule: Interned<dyn ScheduleLabel>,
    /// The rate to give `Time<Fixed>`, if the app's own is not to be kept.
    pub fixed_hz: Option<f64>,
}

impl Plugin for PhysicsCorePlugin {
    fn build(&self, app: &mut App) {
        let schedule = self.schedule;
        app.insert_resource(PhysicsSchedule(schedule));
        app.init_resource::<PhysicsConfig>();
        let config = app.world().resource::<PhysicsConfig>().clone();
        if let Some(hz) = self.fixed_hz {
            app.insert_resource(Time::<Fixed>::from_hz(hz));
        }
        app.insert_resource(BroadPhase::new(config.broad_phase_cell_size))
            .init_resource::<PhysicsStepLength>()
            .add_message::<ContactStarted>()
            .add_message::<ContactEnded>()
            .add_message::<Squished>()
            .add_message::<EnteredFluid>()
            .add_message::<LeftFluid>()
            .register_type::<PhysicsConfig>()
            .register_type::<PhysicsStepLength>()
            .register_type::<Collider>()
            .register_type::<CollisionLayers>()
            .register_type::<OneWayPlatform>()
            .register_type::<Sensor>()
            .register_type::<InvalidBody>()
            .register_type::<Embedded>()
            .register_type::<Dynamic>()
            .register_type::<Kinematic>()
            .register_type::<Frozen>()
            .register_type::<ColliderDisabled>()
            .register_type::<BodyCollisions>()
            .register_type::<CollisionMode>()
            .register_type::<Velocity>()
            .register_type::<MovementTuning>()
            .register_type::<JumpTuning>()
            .register_type::<JumpState>()
            .register_type::<WallJumpTuning>()
            .register_type::<LiftMomentum>()
            .register_type::<LiftRide>()
            .register_type::<FluidZone>()
            .register_type::<InFluid>()
            .register_type::<Ladder>()
            .register_type::<Climber>()
            .register_type::<ClimbState>()
            .register_type::<MaxClimbableGradient>()
            .register_type::<MovementInput>()
            .register_type::<MovementState>()
            .register_type::<Contacts>()
            .register_type::<Grounded>()
            .register_type::<PathFollower>()
            .register_type::<crate::components::SlopeSegment>()
            .register_type::<crate::tile_grid::TileGrid>();
        // The movement pass's cache of each body's static neighbours: the plugin's own.
        app.register_required_components::<Dynamic, StaticCandidates>();
        // Written by the movement pass, read by SyncColliders to tell its moves from the game's.
        app.init_resource::<MovedAt>();
        configure_step(app, schedule);
    }
}
