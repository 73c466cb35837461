//! One body as the movement stages see it, and the lists they share from one body to the next.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;

use super::candidates::SortedCandidates;
use super::settings::BodyOverlaps;
use crate::broad_phase::{ColliderProxy, StaticCandidates};
use crate::components::SlopeRef;
use crate::components::*;
use crate::geometry::Aabb;

/// What the movement stages read and write of a body; the pass hands it on as a [`BodyView`]. (A
/// tuple query in its place, which would spare repeating the fields, costs 1.5 % more
/// instructions per body-step.)
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct MovementQuery {
    pub entity: Entity,
    pub transform: &'static mut Transform,
    pub collider: &'static Collider,
    pub mode: &'static CollisionMode,
    pub velocity: &'static mut Velocity,
    pub input: &'static MovementInput,
    pub state: &'static mut MovementState,
    pub candidates: &'static mut StaticCandidates,
    pub contacts: &'static mut Contacts,
    pub sensor: Has<Sensor>,
    pub embedded: Has<Embedded>,
    pub max_gradient: Option<&'static MaxClimbableGradient>,
}

/// One body as the movement stages see it: its proxy, looked up once for the pass, and its
/// components. Those that every stage writes are plain references (their change ticks are set
/// once, here); the `Transform` stays a `Mut`, changed only when the body moves, so that
/// SyncColliders still mirrors a body that the pass could not move (it has no proxy yet).
pub(crate) struct BodyView<'w> {
    pub entity: Entity,
    /// The body's broad-phase proxy at the start of the pass (its box is not kept up to date:
    /// the stages read only its identity and flags). `None` for a body not mirrored yet.
    pub me: Option<ColliderProxy>,
    pub transform: Mut<'w, Transform>,
    pub collider: &'w Collider,
    pub mode: &'w CollisionMode,
    pub velocity: &'w mut Velocity,
    pub input: &'w MovementInput,
    pub state: &'w mut MovementState,
    pub candidates: &'w mut StaticCandidates,
    pub contacts: &'w mut Contacts,
    pub sensor: bool,
    /// It is marked [`Embedded`]: found deep in the solids with no way out.
    pub embedded: bool,
    /// The steepest slope it may walk up ([`MaxClimbableGradient`]; infinite without it).
    pub max_gradient: f32,
}

impl<'w> BodyView<'w> {
    /// The body of a [`MovementQuery`] query item, with its proxy `me` (see [`BodyView::me`]).
    #[inline]
    pub(crate) fn new(item: MovementQueryItem<'w, '_>, me: Option<ColliderProxy>) -> Self {
        Self {
            entity: item.entity,
            me,
            transform: item.transform,
            collider: item.collider,
            mode: item.mode,
            velocity: item.velocity.into_inner(),
            input: item.input,
            state: item.state.into_inner(),
            candidates: item.candidates.into_inner(),
            contacts: item.contacts.into_inner(),
            sensor: item.sensor,
            embedded: item.embedded,
            max_gradient: item.max_gradient.map_or(f32::INFINITY, |m| m.0),
        }
    }
}

/// Lists the stages fill and clear for each body, kept from one body and one step to the next.
#[derive(Default)]
pub(crate) struct MoveScratch {
    /// Colliders from a new broad-phase query.
    pub nearby: Vec<ColliderProxy>,
    /// The slopes around the body, for the slope plan and its confirmation.
    pub slopes: Vec<SlopeRef>,
    /// The area whose slopes are in `slopes`.
    pub slopes_area: Aabb,
    /// Static colliders around the move.
    pub statics: Vec<ColliderProxy>,
    /// Moving colliders around the move.
    pub moving: Vec<ColliderProxy>,
    /// The move's candidates, sorted.
    pub sorted: SortedCandidates,
    /// Bodies that became embedded (`true`) or stopped being so (`false`) in this pass.
    pub embedded: Vec<(Entity, bool)>,
    /// Which dynamic bodies pass through each other this step.
    pub body_overlaps: BodyOverlaps,
}

/// The change tick of the last movement pass: every body it moved has its `Transform` and
/// `Velocity` changed at this tick, so SyncColliders can tell them from the game's own changes.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct MovedAt(pub Tick);
