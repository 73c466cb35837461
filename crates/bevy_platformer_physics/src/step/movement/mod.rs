//! The movement pass: PrepareMovement, Resolve and FinishMovement, body by body.
//!
//! Each awake dynamic body is taken out of the solids it starts deep in (`recover.rs`), prepared
//! (`prepare.rs`), moved (`resolve/`) and finished (`finish.rs`) before the next one starts. The stages' rules live in their own files;
//! this file only runs them in order. One pass instead of three keeps a body's data at hand between
//! its stages and looks it up once, which is most of a step's cost when thousands of bodies walk.
//!
//! PrepareMovement and FinishMovement read only the body itself and the static geometry (kinematic
//! bodies have already moved), so running them body by body changes nothing for them. Resolve sees
//! the dynamic bodies before it in the pass where they ended the step, and the ones after it where
//! they start it: with one pass per stage it saw the ones before it where Resolve had left them,
//! before FinishMovement's last small corrections (a slope re-sampled, feet put on the ground).

mod body;
mod candidates;
mod finish;
mod prepare;
mod recover;
mod resolve;
mod settings;

use bevy::ecs::system::SystemChangeTick;
use bevy::prelude::*;

pub(crate) use body::MovedAt;
use body::{BodyView, MoveScratch, MovementQuery};
use finish::finish_body;
use prepare::prepare_body;
use recover::recover_body;
use resolve::resolve_body;
use settings::MoveSettings;

use crate::broad_phase::BroadPhase;
use crate::components::{BodyCollisions, Embedded};
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::schedule::{PlatformerSystems, physics_schedule};
use crate::step::AwakeDynamic;

/// Prepares, moves and finishes every awake dynamic body, one after the other.
#[allow(clippy::too_many_arguments)] // a system: its parameters are what it reads and writes
pub(crate) fn move_bodies(
    step: Res<PhysicsStepLength>,
    config: Res<PhysicsConfig>,
    mut broad_phase: ResMut<BroadPhase>,
    mut bodies: Query<MovementQuery, AwakeDynamic>,
    mut scratch: Local<MoveScratch>,
    mut moved_at: ResMut<MovedAt>,
    ticks: SystemChangeTick,
    mut commands: Commands,
    own_body_collisions: Query<(Entity, &BodyCollisions), With<crate::components::Dynamic>>,
) {
    moved_at.0 = ticks.this_run();
    let settings = MoveSettings::new(&config, step.dt);
    scratch
        .body_overlaps
        .rebuild(config.body_collisions, own_body_collisions.iter().map(|(e, c)| (e, *c)));
    for item in &mut bodies {
        let me = broad_phase.get(item.entity).copied();
        let mut body = BodyView::new(item, me);
        recover_body(&mut body, &mut broad_phase, &settings, &mut scratch);
        if body.embedded {
            continue;
        }
        // The plan and the move's velocity travel from stage to stage; the body's `Velocity` is
        // written once, with the step's result.
        let plan = prepare_body(&mut body, &broad_phase, &settings, &mut scratch);
        let moved_velocity = resolve_body(&mut body, &plan, &mut broad_phase, &settings, &mut scratch);
        finish_body(
            &mut body,
            &plan,
            moved_velocity,
            &mut broad_phase,
            &settings,
            &mut scratch,
        );
        let end = body.collider.aabb(body.transform.translation.truncate());
        body.candidates.set_moved_to(end, &broad_phase);
    }
    for (entity, embedded) in scratch.embedded.drain(..) {
        if embedded {
            let at = bodies
                .get(entity)
                .map(|b| b.transform.translation.truncate())
                .unwrap_or_default();
            log::warn!(
                "bevy_platformer_physics: body {entity} starts inside the level's solids at {at} with no free \
                 position within its own size; it stays there until moved"
            );
            commands.entity(entity).insert(Embedded);
        } else {
            commands.entity(entity).remove::<Embedded>();
        }
    }
}

/// The movement pass ([`PlatformerSystems::Movement`]): each body's slope plan (where the slope
/// rules of [the physics rules](crate::physics_rules) plug in), its move with collision detection
/// and response, and the confirmation of its support, body by body.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(physics_schedule(app), move_bodies.in_set(PlatformerSystems::Movement));
    }
}
