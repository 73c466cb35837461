//! One physics step, stage by stage. Each stage is a [`PlatformerSystems`] set, chained in
//! [`PhysicsCorePlugin`](crate::PhysicsCorePlugin) in this order, and lives in its own file:
//!
//! | set | file | what it does |
//! | --- | --- | --- |
//! | `SyncColliders` | `sync.rs` | clamps `dt`; validates changed colliders and mirrors them into the broad phase |
//! | `Kinematics` | `kinematics.rs` | lifts move, carrying riders and pushing bodies in their way |
//! | `Integrate` | `integrate.rs` | semi-implicit Euler velocity: gravity, input, friction, skid, jump, clip |
//! | `PrepareMovement` | — | an ordering point just before the movement pass (no system runs in it) |
//! | `Resolve` | `movement/` | the movement pass: each body prepared (`prepare.rs`), moved (`resolve/`) and finished (`finish.rs`) |
//! | `FinishMovement` | — | an ordering point just after the movement pass (no system runs in it) |
//! | `ContactEvents` | `contact_events.rs` | started / ended messages and entity events, each body compared with what was last reported for it |
//!
//! The three movement stages run body by body in one pass, in the `Resolve` set: each body is
//! prepared, moved and finished before the next one starts. `PrepareMovement` and `FinishMovement`
//! hold no system: they are the points where a game's own systems can run just before or just
//! after that pass (`.before(PlatformerSystems::PrepareMovement)` sees every velocity
//! Integrate set; `.after(PlatformerSystems::FinishMovement)` sees every body moved).
//!
//! Integrate only changes velocities: moving the body freely and then undoing that move would be
//! the same as never making it, so the Resolve stage starts from the position Integrate found and
//! moves once (see *The order of a step* in [the physics rules](crate::physics_rules)).

pub mod contact_events;
pub(crate) mod integrate;
pub(crate) mod kinematics;
pub(crate) mod movement;
pub(crate) mod sync;

use bevy::ecs::schedule::SystemSet;
use bevy::prelude::*;

use crate::config::PhysicsStep;

/// The stages of one physics step, chained in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlatformerSystems {
    /// Clamp `dt`, validate and mirror changed colliders into the broad phase.
    SyncColliders,
    /// Kinematic bodies move and carry their riders.
    Kinematics,
    /// Velocities from gravity, input and friction.
    Integrate,
    /// An ordering point just before the movement pass; no system of the plugin runs in it.
    PrepareMovement,
    /// The movement pass: for each body, its slope plan, its move with collision detection and
    /// response, and the confirmation of its support.
    Resolve,
    /// An ordering point just after the movement pass; no system of the plugin runs in it.
    FinishMovement,
    /// Contact started / ended messages.
    ContactEvents,
}

/// Query filter of the dynamic bodies a stage works on: not frozen, not invalid.
pub type AwakeDynamic = (
    With<crate::components::Dynamic>,
    Without<crate::components::Frozen>,
    Without<crate::components::ColliderDisabled>,
    Without<crate::components::InvalidBody>,
);

/// Run condition: the step has a positive length.
pub fn step_is_running(step: Res<PhysicsStep>) -> bool {
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
            world.insert_resource(PhysicsStep { dt });
            assert_eq!(world.run_system_once(step_is_running).unwrap(), runs, "dt {dt}");
        }
    }
}
