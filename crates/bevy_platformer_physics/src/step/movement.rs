//! The movement pass: PrepareMovement, Resolve and FinishMovement, body by body.
//!
//! Each awake dynamic body is prepared (`prepare_movement.rs`), moved (`resolve/`) and finished
//! (`finish_movement.rs`) before the next one starts. The stages' rules live in their own files;
//! this file only runs them in order. One pass instead of three keeps a body's data at hand between
//! its stages and looks it up once, which is most of a step's cost when thousands of bodies walk.
//!
//! PrepareMovement and FinishMovement read only the body itself and the static geometry (kinematic
//! bodies have already moved), so running them body by body changes nothing for them. Resolve sees
//! the dynamic bodies before it in the pass where they ended the step, and the ones after it where
//! they start it: with one pass per stage it saw the ones before it where Resolve had left them,
//! before FinishMovement's last small corrections (a slope re-sampled, feet put on the ground).

use bevy::ecs::change_detection::Tick;
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemChangeTick;
use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, ColliderProxy, StaticCandidates};
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStep};
use crate::slope::SlopeRef;
use crate::step::AwakeDynamic;
use crate::step::finish_movement::{FinishTolerances, finish_body};
use crate::step::prepare_movement::{SlopeRules, prepare_body};
use crate::step::resolve::{CandidateRules, SortedCandidates, resolve_body};

/// What the movement stages read and write of a body; the pass hands it on as a [`Body`]. (A
/// tuple query in its place, which would spare repeating the fields, costs 1.5 % more
/// instructions per body-step.)
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct MovingBody {
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
}

/// One body as the movement stages see it: its proxy, looked up once for the pass, and its
/// components. Those that every stage writes are plain references (their change ticks are set
/// once, here); the `Transform` stays a `Mut`, changed only when the body moves, so that
/// SyncColliders still mirrors a body that the pass could not move (it has no proxy yet).
pub(crate) struct Body<'w> {
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
}

/// The step's settings, as the movement stages use them.
pub(crate) struct MoveSettings {
    /// Step length, s.
    pub dt: f32,
    /// Rounding margin, px.
    pub skin: f32,
    /// Most substeps of a discrete or axis-separated move.
    pub max_substeps: u32,
    /// The slope rules of PrepareMovement.
    pub slope_rules: SlopeRules,
    /// What sorts Resolve's candidates.
    pub candidate_rules: CandidateRules,
    /// The tolerances of FinishMovement.
    pub finish_tolerances: FinishTolerances,
}

impl MoveSettings {
    fn new(config: &PhysicsConfig, dt: f32) -> Self {
        Self {
            dt,
            skin: config.skin,
            max_substeps: config.max_substeps,
            slope_rules: SlopeRules::from_config(config),
            candidate_rules: CandidateRules {
                contact_tolerance: config.contact_tolerance(),
                join_tolerance: config.join_tolerance(),
            },
            finish_tolerances: FinishTolerances::from_config(config),
        }
    }
}

/// Lists the stages fill and clear for each body, kept from one body and one step to the next.
#[derive(Default)]
pub(crate) struct MoveScratch {
    /// Colliders from a new broad-phase query.
    pub nearby: Vec<ColliderProxy>,
    /// The slopes around the body, for the slope plan.
    pub slopes: Vec<SlopeRef>,
    /// Static colliders around the move.
    pub statics: Vec<ColliderProxy>,
    /// Moving colliders around the move.
    pub moving: Vec<ColliderProxy>,
    /// The move's candidates, sorted.
    pub sorted: SortedCandidates,
}

/// The change tick of the last movement pass: every body it moved has its `Transform` and
/// `Velocity` changed at this tick, so SyncColliders can tell them from the game's own changes.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct MovedAt(pub Tick);

/// Prepares, moves and finishes every awake dynamic body, one after the other.
pub(crate) fn move_bodies(
    step: Res<PhysicsStep>,
    config: Res<PhysicsConfig>,
    mut broad_phase: ResMut<BroadPhase>,
    mut bodies: Query<MovingBody, AwakeDynamic>,
    mut scratch: Local<MoveScratch>,
    mut moved_at: ResMut<MovedAt>,
    ticks: SystemChangeTick,
) {
    moved_at.0 = ticks.this_run();
    let settings = MoveSettings::new(&config, step.dt);
    for item in &mut bodies {
        let mut body = Body {
            entity: item.entity,
            me: broad_phase.get(item.entity).copied(),
            transform: item.transform,
            collider: item.collider,
            mode: item.mode,
            velocity: item.velocity.into_inner(),
            input: item.input,
            state: item.state.into_inner(),
            candidates: item.candidates.into_inner(),
            contacts: item.contacts.into_inner(),
            sensor: item.sensor,
        };
        prepare_body(&mut body, &broad_phase, &settings, &mut scratch);
        resolve_body(&mut body, &mut broad_phase, &settings, &mut scratch);
        finish_body(&mut body, &mut broad_phase, &settings, &mut scratch);
    }
}
