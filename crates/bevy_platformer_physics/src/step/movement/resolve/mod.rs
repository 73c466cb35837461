//! Resolve: the move itself. Candidates come from the broad phase over the union of the start and
//! end boxes; the body's [`CollisionMode`] picks the solver:
//!
//! - `continuous.rs` — swept AABB, contacts in time order (section 19 of [the physics rules](crate::physics_rules));
//! - `discrete.rs` — move, then push out with the accumulated correction vector (section 20);
//! - `axis_separated.rs` — x then y with flush snapping, the tile method (section 21).
//!
//! Shared here: which candidates count (layers from both sides, the one-way rule on the *start*
//! box, drop-through), the push-out of overlaps present at the start (so a body that something
//! else pushed into a solid never stays inside it), and, after any solver, the resting contacts
//! (every solid the body ends flush against while pushing into it) and sensor contacts. Each solver is a pure
//! function of a [`MoveRequest`], so it can be tested and benchmarked without the ECS.
mod axis_separated;
mod contacts;
mod continuous;
mod discrete;
mod push_out;
mod request;

pub use axis_separated::move_axis_separated;
pub use continuous::move_continuous;
pub use discrete::move_discrete;
pub use request::{MoveOutcome, MoveRequest};

use contacts::{record_resting_contacts, record_sensor_contacts, record_supports};

use bevy::math::Vec2;

use super::body::{BodyView, MoveScratch};
use super::candidates::{candidate_area, first_candidate_area};
use super::prepare::SlopePlan;
use super::settings::MoveSettings;
use crate::broad_phase::BroadPhase;
use crate::components::*;

/// Moves `body` for this step as `plan` says, in its [`CollisionMode`], and records its
/// contacts. Returns the velocity after the move (what the solids left of the plan's).
#[inline]
pub(crate) fn resolve_body(
    body: &mut BodyView,
    plan: &SlopePlan,
    broad_phase: &mut BroadPhase,
    settings: &MoveSettings,
    scratch: &mut MoveScratch,
) -> Vec2 {
    let Some(me) = body.me else {
        return plan.velocity;
    };
    let rules = &settings.candidate_rules;
    let MoveScratch {
        statics,
        moving,
        sorted,
        body_overlaps,
        ..
    } = scratch;
    let start = body.collider.aabb(body.transform.translation.truncate());
    let delta = plan.velocity * settings.dt;
    let mut area = first_candidate_area(*body.mode, &start, delta, rules.contact_tolerance);
    sorted.gather(
        &area,
        &me,
        body.state,
        plan.slope.as_ref(),
        body.candidates,
        broad_phase,
        statics,
        moving,
        rules,
        body_overlaps,
    );
    // It starts a little inside a solid (something pushed it there; a deeper start was recovered
    // before the plan): the push-out may take it as far as its own size. (The other modes' first
    // area is already that wide.)
    if *body.mode == CollisionMode::Continuous && sorted.solids.iter().any(|s| start.intersects(&s.aabb, settings.skin))
    {
        area = candidate_area(&start, delta, rules.contact_tolerance);
        sorted.gather(
            &area,
            &me,
            body.state,
            plan.slope.as_ref(),
            body.candidates,
            broad_phase,
            statics,
            moving,
            rules,
            body_overlaps,
        );
    }
    let contacts = &mut *body.contacts;
    let request = MoveRequest {
        start,
        velocity: plan.velocity,
        dt: settings.dt,
        solids: &sorted.solids,
        sensors: &sorted.sensors,
        supports: &sorted.supports,
        skin: settings.skin,
        max_substeps: settings.max_substeps,
        bounds: area,
    };
    let outcome = match body.mode {
        CollisionMode::Continuous => move_continuous(&request, contacts),
        CollisionMode::Discrete => move_discrete(&request, contacts),
        CollisionMode::AxisSeparated => move_axis_separated(&request, contacts),
    };
    let end = start.translated(outcome.delta);
    let mut velocity_after = outcome.velocity;
    // (Each list is checked first: most bodies have no sensor, no support, often no solid.)
    if !request.solids.is_empty() {
        record_resting_contacts(
            &end,
            request.velocity,
            &mut velocity_after,
            request.solids,
            request.skin,
            contacts,
        );
    }
    if !request.sensors.is_empty() {
        record_sensor_contacts(&request, &end, contacts);
    }
    if !request.supports.is_empty() {
        record_supports(request.supports, &end, request.skin, contacts);
    }
    if plan.slope.is_some() && !request.solids.is_empty() {
        // Coming off a slope's end onto a block or a lift at the same height, the planned
        // velocity does not point into it: it supports the body all the same.
        record_supports(request.solids, &end, request.skin, contacts);
    }
    let moved = end.min - start.min;
    let translation = &mut body.transform.translation;
    translation.x += moved.x;
    translation.y += moved.y;
    broad_phase.set_aabb(body.entity, body.collider.aabb(translation.truncate()));
    velocity_after
}
