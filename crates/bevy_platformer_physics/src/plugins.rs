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
use crate::step::contact_events::send_contact_events;
use crate::step::{integrate, kinematics, movement, step_is_running, sync};

/// All the plugin's parts. `PlatformerPhysicsPlugins::default()` steps in `FixedUpdate` at
/// [`PhysicsConfig::fixed_hz`]; [`PlatformerPhysicsPlugins::new`] takes another schedule (its clock
/// then gives `dt`, clamped to [`PhysicsConfig::max_dt`]).
pub struct PlatformerPhysicsPlugins {
    schedule: Interned<dyn ScheduleLabel>,
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
        }
    }
}

impl PluginGroup for PlatformerPhysicsPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>()
            .add(PhysicsCorePlugin {
                schedule: self.schedule,
            })
            .add(KinematicsPlugin)
            .add(IntegratePlugin)
            .add(MovementPlugin)
            .add(ContactEventsPlugin);
        #[cfg(feature = "debug-overlay")]
        let group = group.add(crate::debug_overlay::DebugOverlayPlugin);
        group
    }
}

/// The schedule the physics step runs in, chosen by [`PhysicsCorePlugin`].
#[derive(Resource, Clone, Copy, Debug)]
pub struct PhysicsSchedule(pub Interned<dyn ScheduleLabel>);

fn physics_schedule(app: &App) -> Interned<dyn ScheduleLabel> {
    app.world()
        .get_resource::<PhysicsSchedule>()
        .map_or(FixedUpdate.intern(), |s| s.0)
}

/// Configuration, types, messages, the chained [`PlatformerSystems`](crate::PlatformerSystems), the step's `dt`, collider
/// validation and the broad phase. Must come first.
pub struct PhysicsCorePlugin {
    /// Where the step runs.
    pub schedule: Interned<dyn ScheduleLabel>,
}

impl Plugin for PhysicsCorePlugin {
    fn build(&self, app: &mut App) {
        let schedule = self.schedule;
        app.insert_resource(PhysicsSchedule(schedule));
        app.init_resource::<PhysicsConfig>();
        let config = app.world().resource::<PhysicsConfig>().clone();
        if schedule == FixedUpdate.intern() {
            app.insert_resource(Time::<Fixed>::from_hz(config.fixed_hz));
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
            .register_type::<CollisionMode>()
            .register_type::<Velocity>()
            .register_type::<Movement>()
            .register_type::<MovementInput>()
            .register_type::<MovementState>()
            .register_type::<Contacts>()
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
/// slope plan (PrepareMovement, where the slope rules of `docs/physics-rules.md` plug in), its
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
        app.add_systems(physics_schedule(app), send_contact_events.in_set(ContactEvents));
    }
}
