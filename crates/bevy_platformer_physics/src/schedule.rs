//! Where and in what order the step runs: the [`PlatformerSystems`] sets, chained in the schedule
//! that [`PhysicsSchedule`] names. Every stage's plugin adds its systems to its own set here.
//!
//! | set | file | what it does |
//! | --- | --- | --- |
//! | `SyncColliders` | `step/sync.rs` | clamps `dt`; validates changed colliders and mirrors them into the broad phase |
//! | `Kinematics` | `step/kinematics.rs` | lifts move, carrying riders and pushing bodies in their way |
//! | `Integrate` | `step/integrate.rs` | semi-implicit Euler velocity: gravity, input, friction, skid, jump, clip |
//! | `BeforeMovement` | — | a hook for the game: every velocity integrated, nothing moved yet (no system of the plugin runs in it) |
//! | `Movement` | `step/movement/` | the movement pass: each body prepared (`prepare.rs`), moved (`resolve/`) and finished (`finish.rs`) |
//! | `AfterMovement` | — | a hook for the game: every body moved, no contact reported yet (no system of the plugin runs in it) |
//! | `ContactEvents` | `step/contact_events.rs` | started / ended messages and entity events, each body compared with what was last reported for it |
//!
//! Every set after `SyncColliders` is inside [`PlatformerSystems::Step`], which runs only when the
//! step has a positive length: a paused clock still syncs colliders but moves nothing.

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::{ScheduleLabel, SystemSet};
use bevy::prelude::*;

use crate::config::PhysicsStepLength;

/// The stages of one physics step, chained in this order (see the [module](self) for each).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// fn steer(mut inputs: Query<&mut MovementInput>) {
///     for mut input in &mut inputs {
///         input.horizontal = 1.0;
///     }
/// }
/// fn cap_fall(mut velocities: Query<&mut Velocity>) {
///     for mut velocity in &mut velocities {
///         velocity.0.y = velocity.0.y.max(-300.0);
///     }
/// }
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
/// app.add_systems(FixedUpdate, steer.before(PlatformerSystems::SyncColliders));
/// // Sees the velocities the step integrated; the bodies then move with what it leaves.
/// app.add_systems(FixedUpdate, cap_fall.in_set(PlatformerSystems::BeforeMovement));
/// app.update();
/// ```
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlatformerSystems {
    /// Clamp `dt`, validate and mirror changed colliders into the broad phase.
    SyncColliders,
    /// Every stage below: the part of the step that moves things, skipped when the step has no
    /// length.
    Step,
    /// Kinematic bodies move and carry their riders.
    Kinematics,
    /// Velocities from gravity, input and friction.
    Integrate,
    /// A hook for the game's systems: after `Integrate`, before the movement pass. No system of
    /// the plugin runs in it.
    BeforeMovement,
    /// The movement pass: for each body, its slope plan, its move with collision detection and
    /// response, and the confirmation of its support.
    Movement,
    /// A hook for the game's systems: every body has moved, no contact is reported yet. No system
    /// of the plugin runs in it.
    AfterMovement,
    /// Contact started / ended messages, `Grounded`.
    ContactEvents,
}

/// The schedule the physics step runs in, chosen by
/// [`PlatformerPhysicsPlugins::new`](crate::PlatformerPhysicsPlugins::new).
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

/// The schedule a stage's plugin adds its systems to: the one [`PhysicsSchedule`] names, which the
/// core plugin (added first) inserts.
pub(crate) fn physics_schedule(app: &App) -> Interned<dyn ScheduleLabel> {
    app.world()
        .get_resource::<PhysicsSchedule>()
        .map_or(FixedUpdate.intern(), |s| s.0)
}

/// Chains the sets in `schedule`, with the run condition on [`PlatformerSystems::Step`].
pub(crate) fn configure_step(app: &mut App, schedule: Interned<dyn ScheduleLabel>) {
    use PlatformerSystems::*;
    app.configure_sets(schedule, (SyncColliders, Step).chain());
    app.configure_sets(
        schedule,
        (
            Kinematics,
            Integrate,
            BeforeMovement,
            Movement,
            AfterMovement,
            ContactEvents,
        )
            .chain()
            .in_set(Step),
    );
    app.configure_sets(schedule, Step.run_if(step_is_running));
}

/// Run condition: the step has a positive length.
pub fn step_is_running(step: Res<PhysicsStepLength>) -> bool {
    step.dt > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::system::RunSystemOnce;

    #[test]
    fn a_step_runs_only_when_it_has_a_positive_length() {
        for (dt, runs) in [(0.0, false), (-0.01, false), (0.01, true)] {
            let mut world = World::new();
            world.insert_resource(PhysicsStepLength { dt });
            assert_eq!(world.run_system_once(step_is_running).unwrap(), runs, "dt {dt}");
        }
    }
}
