//! What a solver is asked (one body's move for one step) and what it answers.

use bevy::prelude::*;

use super::push_out::push_out;
use crate::broad_phase::ColliderProxy;
use crate::components::Contacts;
use crate::geometry::Aabb;

/// One body's move for one step, as the solvers see it.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// Box at the start of the move.
    pub start: Aabb,
    /// Velocity for this step, px/s.
    pub velocity: Vec2,
    /// Step length, s.
    pub dt: f32,
    /// Colliders that can stop or push the body (one-way ones already filtered by the start box).
    pub solids: &'a [ColliderProxy],
    /// Colliders it only interacts with.
    pub sensors: &'a [ColliderProxy],
    /// Solids left out of this step's collisions that still support the body if it ends standing
    /// on them: the top-join blocks (see *The top join of a slope with a block* in
    /// [the physics rules](crate::physics_rules)).
    pub supports: &'a [ColliderProxy],
    /// Rounding margin, px.
    pub skin: f32,
    /// Most substeps allowed.
    pub max_substeps: u32,
    /// The area whose colliders are in `solids`, `sensors` and `supports`: where the move's
    /// result can be checked. A push-out that takes the body out of it is not trusted.
    pub bounds: Aabb,
}

impl MoveRequest<'_> {
    /// [`push_out`] of `aabb` from this request's solids (its supports only block). `previous`:
    /// the box before the move that caused the overlaps, if known; how deep the body is in each
    /// solid is then measured through the face it entered by.
    pub(crate) fn push_out(
        &self,
        previous: Option<&Aabb>,
        aabb: &mut Aabb,
        velocity: &mut Vec2,
        contacts: &mut Contacts,
    ) {
        push_out(
            aabb,
            previous,
            velocity,
            self.solids,
            self.supports,
            self.skin,
            contacts,
        );
    }
}

#[cfg(test)]
impl<'a> MoveRequest<'a> {
    /// A 60 Hz move among `solids` alone (no sensors, no supports), skin 0.001 px, whose bounds
    /// are 64 px around the swept box: the solvers' unit tests.
    pub(crate) fn among(start: Aabb, velocity: Vec2, solids: &'a [ColliderProxy]) -> Self {
        Self {
            start,
            velocity,
            dt: 1.0 / 60.0,
            solids,
            sensors: &[],
            supports: &[],
            skin: 1e-3,
            max_substeps: 8,
            bounds: start.swept(velocity / 60.0).grown(64.0),
        }
    }
}

/// The result of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveOutcome {
    /// Displacement of the body during the step, px.
    pub delta: Vec2,
    /// Velocity after the step, px/s (components into a surface removed).
    pub velocity: Vec2,
}

/// How many substeps a move of `delta` needs so that no substep is longer than the smallest box
/// dimension in the way (the body's own or a solid's): then an overlap test cannot miss a thin wall.
pub(crate) fn substep_count(delta: Vec2, start: &Aabb, solids: &[ColliderProxy], max_substeps: u32) -> u32 {
    let smallest = solids
        .iter()
        .map(|s| s.aabb.size().min_element())
        .fold(start.size().min_element(), f32::min)
        .max(1e-3);
    let steps = (delta.abs().max_element() / smallest).ceil();
    if steps.is_finite() {
        (steps as u32).clamp(1, max_substeps.max(1))
    } else {
        1
    }
}
