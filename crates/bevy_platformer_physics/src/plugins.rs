//! The plugin group and its sub-plugins, one per stage. The stages are chained in one place,
//! [`PhysicsCorePlugin`]; every other plugin only adds its systems to its own set.

use bevy::app::{PluginGroup, PluginGroupBuilder};
use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::broad_phase::BroadPhase;
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStep};
use crate::messages::{ContactEnded, ContactStarted, Squished};
use crate::step::PlatformerSystems::*;
use crate::step::contact_events::{mark_grounded, send_contact_events};
use crate::step::{integrate, kinematics, movement, step_is_running, sync};

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

/// The schedule the physics step runs in, chosen by [`PhysicsCorePlugin`].
///
/// # Example
///
/// ```
/// use bevy::ecs::schedule::ScheduleLabel;
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
/// use bevy_platformer_physics::PhysicsSchedule;
///
/// // A turn-based game steps the physics once per frame, in `Update`.
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::new(Update)));
/// assert_eq!(app.world().resource::<PhysicsSchedule>().0, Update.intern());
/// ```
#[derive(Resource, Clone, Copy, Debug)]
pub struct PhysicsSchedule(pub Interned<dyn ScheduleLabel>);

pub(crate) fn physics_schedule(app: &App) -> Interned<dyn ScheduleLabel> {
    app.world()
        .get_resource::<PhysicsSchedule>()
        .map_or(FixedUpdate.intern(), |s| s.0)
}

/// Configuration, types, messages, the chained [`PlatformerSystems`](crate::PlatformerSystems), the step's `dt`, collider
/// validation and the broad phase. Must come first.
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
            .init_resource::<PhysicsStep>()
            .add_message::<ContactStarted>()
            .add_message::<ContactEnded>()
            .add_message::<Squished>()
            .register_type::<PhysicsConfig>()
            .register_type::<PhysicsStep>()
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
            .register_type::<Movement>()
            .register_type::<MovementInput>()
            .register_type::<MovementState>()
            .register_type::<Contacts>()
            .register_type::<Grounded>()
            .register_type::<PathFollower>()
            .register_type::<crate::slope::SlopeSegment>()
            .register_type::<crate::tile_grid::TileGrid>();
        app.configure_sets(
            schedule,
            (
                SyncColliders,
                Kinematics,
                Integrate,
                PrepareMovement,
                Resolve,
                FinishMovement,
                ContactEvents,
            )
                .chain(),
        );
        app.configure_sets(
            schedule,
            (
                Kinematics,
                Integrate,
                PrepareMovement,
                Resolve,
                FinishMovement,
                ContactEvents,
            )
                .run_if(step_is_running),
        );
        app.add_systems(
            schedule,
            (
                sync::update_step_dt,
                sync::sync_colliders,
                sync::sync_slopes,
                sync::sync_grids,
            )
                .chain()
                .in_set(SyncColliders),
        );
        app.init_resource::<sync::MarkedColliders>();
        app.init_resource::<movement::MovedAt>();
        app.add_observer(sync::on_collider_removed);
        app.add_observer(sync::on_collider_disabled);
        app.add_observer(sync::on_collider_enabled);
        app.add_observer(sync::on_marker_added);
    }
}

/// Lifts and other kinematic bodies ([`PlatformerSystems::Kinematics`](crate::PlatformerSystems::Kinematics)).
pub struct KinematicsPlugin;

impl Plugin for KinematicsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(physics_schedule(app), kinematics::move_kinematics.in_set(Kinematics));
    }
}

/// Velocity integration ([`PlatformerSystems::Integrate`](crate::PlatformerSystems::Integrate)).
pub struct IntegratePlugin;

impl Plugin for IntegratePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(physics_schedule(app), integrate::integrate.in_set(Integrate));
    }
}

/// The movement pass ([`PlatformerSystems::Resolve`](crate::PlatformerSystems::Resolve)): each body's
/// slope plan (PrepareMovement, where the slope rules of [the physics rules](crate::physics_rules) plug in), its
/// move with collision detection and response, and the confirmation of its support
/// (FinishMovement), body by body.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(physics_schedule(app), movement::move_bodies.in_set(Resolve));
    }
}

/// Contact started / ended messages ([`PlatformerSystems::ContactEvents`](crate::PlatformerSystems::ContactEvents)).
pub struct ContactEventsPlugin;

impl Plugin for ContactEventsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            physics_schedule(app),
            (send_contact_events, mark_grounded).chain().in_set(ContactEvents),
        );
    }
}
