//! Resolve: the move itself. Candidates come from the broad phase over the union of the start and
//! end boxes; the body's [`CollisionMode`] picks the solver:
//!
//! - `continuous.rs` — swept AABB, contacts in time order (`seeds/001` CCD);
//! - `discrete.rs` — move, then push out with the correction vector (`seeds/001` AABB, `seeds/004`);
//! - `axis_separated.rs` — x then y with flush snapping (`seeds/003`).
//!
//! Shared here: which candidates count (layers from both sides, the one-way rule on the *start*
//! box, drop-through), the push-out of overlaps present at the start (so a body that something
//! else pushed into a solid never stays inside it), and, after any solver, the resting contacts
//! (every solid the body ends flush against while pushing into it) and sensor contacts. Each solver is a pure
//! function of a [`MoveRequest`], so it can be tested and benchmarked without the ECS.

mod axis_separated;
mod continuous;
mod discrete;

use bevy::prelude::*;

pub use axis_separated::move_axis_separated;
pub use continuous::move_continuous;
pub use discrete::move_discrete;

use crate::broad_phase::{BodyKind, BroadPhase, ColliderProxy, StaticCandidates};
use crate::components::*;
use crate::geometry::{Aabb, CorrectionAccumulator, sweep_aabb};
use crate::step::movement::{Body, MoveScratch, MoveSettings};

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
    /// on them: the top-join blocks of `seeds/000` §9.
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

/// The result of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveOutcome {
    /// Displacement of the body during the step, px.
    pub delta: Vec2,
    /// Velocity after the step, px/s (components into a surface removed).
    pub velocity: Vec2,
}

/// Pushes `aabb` out of every solid it overlaps, with the accumulated correction vector of
/// `seeds/004`: fully out of static and kinematic colliders, half out of dynamic ones (the other
/// dynamic body does its own half). Removes the velocity into each surface and records contacts.
///
/// Moving bodies (dynamic, then kinematic) are handled first, statics last and measured again
/// after the first pass, so they have the final word: a body squeezed between a lift and a wall
/// ends against the wall, overlapping the lift, never inside the wall.
///
/// `blockers` are solids left out of the move (the top-join blocks) that a push must still not sink
/// the body into. `previous`: the box before the move that caused the overlaps, if known.
pub(crate) fn push_out(
    aabb: &mut Aabb,
    previous: Option<&Aabb>,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    // Most bodies overlap nothing: one look instead of a pass per kind.
    if !solids.iter().any(|s| aabb.intersects(&s.aabb, skin)) {
        return;
    }
    for kind in [BodyKind::Dynamic, BodyKind::Kinematic, BodyKind::Static] {
        // A correction can push the body into a static solid it did not overlap when the pass
        // measured (out of a wall and into the block beside it): the statics, which have the last
        // word, measure again, a few times at most.
        let passes = if kind == BodyKind::Static { 4 } else { 1 };
        for _ in 0..passes {
            if !push_out_pass(aabb, previous, velocity, solids, blockers, kind, skin, contacts) {
                break;
            }
        }
    }
}

/// One push-out with one accumulator, out of the solids of one `kind`; returns whether it moved
/// the body. Every penetration is
/// measured against the same box, before any correction, as the contact messages of `seeds/004`
/// are: the accumulator then removes what earlier pushes already did.
#[allow(clippy::too_many_arguments)]
fn push_out_pass(
    aabb: &mut Aabb,
    previous: Option<&Aabb>,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    kind: BodyKind,
    skin: f32,
    contacts: &mut Contacts,
) -> bool {
    let overlapped = *aabb;
    let mut correction = CorrectionAccumulator::default();
    for solid in solids.iter().filter(|s| s.kind == kind) {
        if !overlapped.intersects(&solid.aabb, skin) {
            continue;
        }
        let (normal, depth) = if solid.one_way {
            (Vec2::Y, solid.aabb.max.y - overlapped.min.y)
        } else {
            push_axis(&overlapped, previous, solid, solids, blockers, skin)
        };
        let share = if solid.kind == BodyKind::Dynamic { 0.5 } else { 1.0 };
        *aabb = aabb.translated(correction.push(normal * depth * share));
        remove_velocity_into(velocity, normal);
        contacts.record(Contact {
            entity: solid.entity,
            direction: ContactDirection::from_normal(normal),
            depth,
            sensor: false,
            part: solid.part,
        });
    }
    correction.total != Vec2::ZERO
}

/// The axis (0 for x, 1 for y) through which a body that was at `previous` entered `solid`: the one
/// on which it was apart (or touching) while it already overlapped on the other. `None` for a body
/// that was already inside, or came in through a corner.
fn entry_axis(previous: &Aabb, solid: &Aabb, skin: f32) -> Option<usize> {
    let before = previous.overlap(solid);
    match (before.x > skin, before.y > skin) {
        (false, true) => Some(0),
        (true, false) => Some(1),
        _ => None,
    }
}

/// How deep `body` is inside `solid`: along the axis the body entered it through, when known from
/// `previous`, else the smaller overlap (`seeds/001`). Zero when apart. A body walking into the side
/// of an overhang while its head is already above the overhang's bottom is in it by the sideways
/// overlap: standing up out of the floor does not sink it deeper.
fn penetration(body: &Aabb, previous: Option<&Aabb>, solid: &Aabb, skin: f32) -> f32 {
    let o = body.overlap(solid);
    if o.x <= 0.0 || o.y <= 0.0 {
        return 0.0;
    }
    match previous.and_then(|p| entry_axis(p, solid, skin)) {
        Some(axis) => o[axis],
        None => o.min_element(),
    }
}

/// The push out of `solid` for a body at `body`: the axis of the smaller penetration (`seeds/001`),
/// unless that push would move the body into another solid — through the internal face between two
/// cells of a floor or a wall (the "ghost collision" that stops a body at a seam), or down into the
/// platform it stands on when its head meets a block's corner — and the other axis would not.
/// `previous`, the box before the move, tells how deep the body is in those other solids.
fn push_axis(
    body: &Aabb,
    previous: Option<&Aabb>,
    solid: &ColliderProxy,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    skin: f32,
) -> (Vec2, f32) {
    let overlap = body.overlap(&solid.aabb);
    let away = body.center() - solid.aabb.center();
    let sign = |v: f32| if v >= 0.0 { 1.0 } else { -1.0 };
    let vertical = (Vec2::new(0.0, sign(away.y)), overlap.y);
    let horizontal = (Vec2::new(sign(away.x), 0.0), overlap.x);
    let (first, second) = if overlap.y <= overlap.x {
        (vertical, horizontal)
    } else {
        (horizontal, vertical)
    };
    let blocked = |(normal, depth): (Vec2, f32)| {
        internal_face(solid, normal, body, solids, skin)
            || push_deepens(body, previous, normal * depth, solid, solids, skin)
            || push_deepens(body, previous, normal * depth, solid, blockers, skin)
    };
    if blocked(first) && !blocked(second) {
        second
    } else {
        first
    }
}

/// Whether pushing `body` by `push` out of `solid` would sink it deeper into another static solid it
/// already touches (its [`penetration`] grows): the floor under a body whose head meets a block's
/// corner, the wall beside a body that falls onto a block's corner. A one-way platform only counts
/// for a downward push. A solid the body does not touch yet is left to the next measuring pass.
fn push_deepens(
    body: &Aabb,
    previous: Option<&Aabb>,
    push: Vec2,
    solid: &ColliderProxy,
    solids: &[ColliderProxy],
    skin: f32,
) -> bool {
    let moved = body.translated(push);
    solids.iter().any(|c| {
        !c.same_collider(solid)
            && c.kind == BodyKind::Static
            && !c.sensor
            && c.slope.is_none()
            && (!c.one_way || push.y < 0.0)
            && body.touches(&c.aabb, skin)
            && penetration(&moved, previous, &c.aabb, skin) > penetration(body, previous, &c.aabb, skin) + skin
    })
}

/// Whether the face of static `solid` facing `normal` is covered by another static solid where
/// `body` overlaps it: a point just outside that face, in the middle of the overlap, lies inside it.
#[inline]
pub(crate) fn internal_face(
    solid: &ColliderProxy,
    normal: Vec2,
    body: &Aabb,
    solids: &[ColliderProxy],
    skin: f32,
) -> bool {
    // Internal edges belong to the level's static geometry; a lift is never part of a wall.
    if solid.kind != BodyKind::Static {
        return false;
    }
    let b = &solid.aabb;
    let outside = 2.0 * skin.max(1e-4);
    let probe = if normal.x != 0.0 {
        let x = if normal.x > 0.0 {
            b.max.x + outside
        } else {
            b.min.x - outside
        };
        Vec2::new(x, 0.5 * (b.min.y.max(body.min.y) + b.max.y.min(body.max.y)))
    } else {
        let y = if normal.y > 0.0 {
            b.max.y + outside
        } else {
            b.min.y - outside
        };
        Vec2::new(0.5 * (b.min.x.max(body.min.x) + b.max.x.min(body.max.x)), y)
    };
    solids
        .iter()
        .any(|c| !c.same_collider(solid) && c.is_level_solid() && c.aabb.contains(probe))
}

/// Whether `aabb` overlaps a solid of the level's static geometry among `proxies` by more than a
/// rounding margin (ten skins).
pub(crate) fn overlaps_level_solid(aabb: &Aabb, proxies: &[ColliderProxy], skin: f32) -> bool {
    proxies
        .iter()
        .any(|p| p.is_level_solid() && aabb.intersects(&p.aabb, skin * 10.0))
}

/// Removes the component of `velocity` that moves into a surface with `normal`.
pub(crate) fn remove_velocity_into(velocity: &mut Vec2, normal: Vec2) {
    let into = velocity.dot(normal);
    if into < 0.0 {
        *velocity -= normal * into;
    }
}

/// Whether another static solid sits on `block`'s top at the edge where a slope joins it (a wall
/// going on up): then the block does not continue the slope's surface, and is no top join.
fn top_covered(block: &ColliderProxy, joins_on_left: bool, nearby: &[ColliderProxy]) -> bool {
    let inset = 0.01;
    let x = if joins_on_left {
        block.aabb.min.x + inset
    } else {
        block.aabb.max.x - inset
    };
    let probe = Vec2::new(x, block.aabb.max.y + inset);
    nearby
        .iter()
        .any(|c| !c.same_collider(block) && c.is_level_solid() && c.aabb.contains(probe))
}

/// Records the solids that the final box `end` rests flush against (touching on one axis within
/// `skin`, overlapping on the other) while the step's `intended` velocity pushed into them, and
/// removes that part of `velocity`. A body straddling two floor boxes, or a floor and a lift,
/// stands on both, whichever of them the solver happened to stop on.
pub(crate) fn record_resting_contacts(
    end: &Aabb,
    intended: Vec2,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    for solid in solids {
        let overlap = end.overlap(&solid.aabb);
        let normal = if overlap.y.abs() <= skin && overlap.x > skin {
            Vec2::new(0.0, (end.center().y - solid.aabb.center().y).signum())
        } else if overlap.x.abs() <= skin && overlap.y > skin {
            Vec2::new((end.center().x - solid.aabb.center().x).signum(), 0.0)
        } else {
            continue;
        };
        if (solid.one_way && normal != Vec2::Y) || intended.dot(normal) >= 0.0 {
            continue;
        }
        remove_velocity_into(velocity, normal);
        contacts.record(Contact {
            entity: solid.entity,
            direction: ContactDirection::from_normal(normal),
            depth: 0.0,
            sensor: false,
            part: solid.part,
        });
    }
}

/// Records a sensor contact for every sensor the body touched during the step: swept through it,
/// or touching it at the end.
pub(crate) fn record_sensor_contacts(request: &MoveRequest, end: &Aabb, contacts: &mut Contacts) {
    let delta = end.min - request.start.min;
    for sensor in request.sensors {
        let direction = if end.touches(&sensor.aabb, request.skin) {
            touch_direction(end, &sensor.aabb)
        } else if let Some(hit) = sweep_aabb(&request.start, delta, &sensor.aabb, request.skin) {
            ContactDirection::from_normal(hit.normal)
        } else {
            continue;
        };
        let overlap = end.overlap(&sensor.aabb);
        contacts.record(Contact {
            entity: sensor.entity,
            direction,
            depth: overlap.min_element().max(0.0),
            sensor: true,
            part: sensor.part,
        });
    }
}

/// Records a `Down` contact with each of `supports` that the final box `end` stands on: feet on
/// its top within `skin`, overlapping it horizontally.
pub(crate) fn record_supports(supports: &[ColliderProxy], end: &Aabb, skin: f32, contacts: &mut Contacts) {
    for support in supports {
        let overlap = end.overlap(&support.aabb);
        if overlap.x > skin && (end.min.y - support.aabb.max.y).abs() <= skin {
            contacts.record(Contact {
                entity: support.entity,
                direction: ContactDirection::Down,
                depth: 0.0,
                sensor: false,
                part: support.part,
            });
        }
    }
}

/// Side of `body` on which `other` lies, for two touching or overlapping boxes: the axis of the
/// smaller overlap.
pub(crate) fn touch_direction(body: &Aabb, other: &Aabb) -> ContactDirection {
    let overlap = body.overlap(other);
    let d = other.center() - body.center();
    if overlap.y <= overlap.x {
        if d.y < 0.0 {
            ContactDirection::Down
        } else {
            ContactDirection::Up
        }
    } else if d.x < 0.0 {
        ContactDirection::Left
    } else {
        ContactDirection::Right
    }
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

/// The tolerances that sort candidates.
pub(crate) struct CandidateRules {
    /// `contactTolerance`, px.
    pub contact_tolerance: f32,
    /// How close a block's top and edge must be to a slope's high end to continue it, px.
    pub join_tolerance: f32,
}

/// A body's candidates for one move, sorted into what stops it, what it only touches, and what
/// only supports it.
#[derive(Default)]
pub(crate) struct SortedCandidates {
    solids: Vec<ColliderProxy>,
    sensors: Vec<ColliderProxy>,
    supports: Vec<ColliderProxy>,
}

impl SortedCandidates {
    fn clear(&mut self) {
        self.solids.clear();
        self.sensors.clear();
        self.supports.clear();
    }

    /// Orders each list by entity and part, as the broad phase's results are.
    fn sort(&mut self) {
        for list in [&mut self.solids, &mut self.sensors, &mut self.supports] {
            list.sort_unstable_by_key(|p| (p.entity, p.part));
        }
    }

    /// Sorts `other` into its list for body `me` (or leaves it out). `statics`: the static
    /// colliders around, for the top-join rule (only needed while a slope is planned).
    fn add(
        &mut self,
        other: &ColliderProxy,
        me: &ColliderProxy,
        state: &MovementState,
        statics: &[ColliderProxy],
        rules: &CandidateRules,
    ) {
        if other.slope.is_some()
            || !me.interacts_with(other)
            || state.dropping_through.contains(&(other.entity, other.part))
        {
            return;
        }
        if let Some(slope) = state.slope
            && other.is_level_solid()
        {
            // `seeds/000` §9: the block continuing the planned slope's top is left out, so the
            // diagonal move to the clamped height does not catch its corner.
            if slope.shape.is_top_join(&other.aabb, rules.join_tolerance)
                && !top_covered(other, slope.shape.rises_right(), statics)
            {
                self.supports.push(*other);
                return;
            }
            // Blocks under the planned slope (the solid cells beneath a ramp of tiles, whose
            // corners lie on its line) are never walls for a body walking on it.
            if slope.shape.is_under(&other.aabb, rules.join_tolerance) {
                return;
            }
        }
        if other.sensor || me.sensor {
            self.sensors.push(*other);
        } else if !other.one_way || state.start_aabb.min.y >= other.aabb.max.y - rules.contact_tolerance {
            self.solids.push(*other);
        }
    }
}

/// The area whose colliders are candidates for a body moving from `start` by `delta`: the swept
/// box grown by the body's size, because a push-out can move the body that far beyond it and the
/// solids it may meet there must be candidates too.
pub(crate) fn candidate_area(start: &Aabb, delta: Vec2, contact_tolerance: f32) -> Aabb {
    let margin = start.size().max_element() + contact_tolerance;
    start.swept(delta).grown(margin)
}

/// The area whose colliders a move in `mode` looks at first. A continuous move only meets what
/// its swept box touches, so that is enough unless the body starts inside a solid (then Resolve
/// widens it to the [`candidate_area`] for the push-out); the discrete and axis-separated moves
/// push out after every substep, so they always need the whole candidate area.
pub(crate) fn first_candidate_area(mode: CollisionMode, start: &Aabb, delta: Vec2, contact_tolerance: f32) -> Aabb {
    match mode {
        CollisionMode::Continuous => start.swept(delta).grown(contact_tolerance),
        CollisionMode::Discrete | CollisionMode::AxisSeparated => candidate_area(start, delta, contact_tolerance),
    }
}

impl SortedCandidates {
    /// Sorts the colliders around `area` for body `me`: the kept statics and the moving colliders.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn gather(
        &mut self,
        area: &Aabb,
        me: &ColliderProxy,
        state: &MovementState,
        candidates: &StaticCandidates,
        broad_phase: &BroadPhase,
        statics: &mut Vec<ColliderProxy>,
        moving: &mut Vec<ColliderProxy>,
        rules: &CandidateRules,
    ) {
        self.clear();
        // The top-join rule looks at the other statics around a block: all the kept ones (or all
        // those a new query finds), not only those touching the move.
        let statics = candidates.boxes_around(broad_phase, area, me, statics);
        for other in statics.iter().filter(|p| p.aabb.meets(area)) {
            self.add(other, me, state, statics, rules);
        }
        moving.clear();
        broad_phase.query_moving_interacting(area, me, moving);
        for other in moving.iter() {
            self.add(other, me, state, &[], rules);
        }
        if !moving.is_empty() {
            self.sort();
        }
    }
}

/// Moves `body` for this step, in its [`CollisionMode`], and records its contacts.
#[inline]
pub(crate) fn resolve_body(
    body: &mut Body,
    broad_phase: &mut BroadPhase,
    settings: &MoveSettings,
    scratch: &mut MoveScratch,
) {
    let Some(me) = body.me else {
        return;
    };
    let rules = &settings.candidate_rules;
    let MoveScratch {
        statics,
        moving,
        sorted,
        ..
    } = scratch;
    let state = &*body.state;
    let start = body.collider.aabb(body.transform.translation.truncate());
    let delta = body.velocity.0 * settings.dt;
    let mut area = first_candidate_area(*body.mode, &start, delta, rules.contact_tolerance);
    sorted.gather(&area, &me, state, body.candidates, broad_phase, statics, moving, rules);
    if *body.mode == CollisionMode::Continuous && sorted.solids.iter().any(|s| start.intersects(&s.aabb, settings.skin))
    {
        // It starts inside a solid: the push-out may take it as far as its own size.
        area = candidate_area(&start, delta, rules.contact_tolerance);
        sorted.gather(&area, &me, state, body.candidates, broad_phase, statics, moving, rules);
    }
    let contacts = &mut *body.contacts;
    contacts.list.clear();
    let request = MoveRequest {
        start,
        velocity: body.velocity.0,
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
    if state.slope.is_some() && !request.solids.is_empty() {
        // Coming off a slope's end onto a block or a lift at the same height, the planned
        // velocity does not point into it: it supports the body all the same.
        record_supports(request.solids, &end, request.skin, contacts);
    }
    let moved = end.min - start.min;
    let translation = &mut body.transform.translation;
    translation.x += moved.x;
    translation.y += moved.y;
    body.velocity.0 = velocity_after;
    broad_phase.set_aabb(body.entity, body.collider.aabb(translation.truncate()));
}
