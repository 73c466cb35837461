//! The step's settings as the movement stages read them: the step length, the rounding margin and
//! each stage's tolerances, from [`PhysicsConfig`] once per pass.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

use crate::components::BodyCollisions;
use crate::config::PhysicsConfig;

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
    pub(crate) fn new(config: &PhysicsConfig, dt: f32) -> Self {
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

/// The slope rules' numbers, in pixels and seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlopeRules {
    /// Feet within this distance of a surface stand on it, px (the contact tolerance).
    pub contact_tolerance: f32,
    /// Passive slide speed along the surface per unit of gradient, px/s (5 blocks/s).
    pub slide_speed: f32,
    /// Gradient above which the slide speed stops growing (2).
    pub slide_gradient_cap: f32,
    /// Extra deceleration per `(1 + s)` when moving uphill without input, px/s² (60 blocks/s²).
    pub uphill_release: f32,
}

impl SlopeRules {
    /// The rules for `config`'s block size and tolerances.
    pub fn from_config(config: &PhysicsConfig) -> Self {
        Self {
            contact_tolerance: config.contact_tolerance(),
            slide_speed: config.slide_speed_blocks * config.block_size,
            slide_gradient_cap: config.slide_gradient_cap,
            uphill_release: config.uphill_release_blocks * config.block_size,
        }
    }
}

/// The tolerances that sort candidates.
pub(crate) struct CandidateRules {
    /// The contact tolerance, px: a one-way platform is solid for feet that start this close to
    /// its top or above it.
    pub contact_tolerance: f32,
    /// How close a block's top and edge must be to a slope's high end to continue it, px.
    pub join_tolerance: f32,
}

/// The tolerances the finish rules compare with, in pixels and px/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinishTolerances {
    /// The contact tolerance, px: feet this close to a surface are on it; feet ending higher than
    /// planned by more than this were held up by something else.
    pub contact: f32,
    /// The velocity tolerance, px/s: a resolved vertical velocity above the planned one by more
    /// than this means the body was stopped before coming down.
    pub velocity: f32,
    /// The climb tolerance, px: feet ending lower than planned by more than this on a climb mean
    /// the climb was blocked.
    pub climb: f32,
}

impl FinishTolerances {
    /// The tolerances of `config`.
    pub fn from_config(config: &PhysicsConfig) -> Self {
        Self {
            contact: config.contact_tolerance(),
            velocity: config.velocity_tolerance(),
            climb: config.climb_tolerance(),
        }
    }
}

/// Which pairs of dynamic bodies pass through each other (see [`BodyCollisions`]): the default of
/// [`PhysicsConfig::body_collisions`] and the bodies whose own choice differs from it.
#[derive(Default)]
pub(crate) struct BodyOverlaps {
    /// Bodies without a choice of their own overlap.
    by_default: bool,
    /// The bodies whose own choice is not the default.
    exceptions: EntityHashSet,
}

impl BodyOverlaps {
    /// Rebuilds the set for this step from the default and the bodies' own choices.
    pub(crate) fn rebuild(&mut self, default: BodyCollisions, own: impl Iterator<Item = (Entity, BodyCollisions)>) {
        self.by_default = default == BodyCollisions::Overlap;
        self.exceptions.clear();
        self.exceptions.extend(
            own.filter(|&(_, c)| (c == BodyCollisions::Overlap) != self.by_default)
                .map(|(e, _)| e),
        );
    }

    /// Whether the dynamic bodies `a` and `b` pass through each other: unless both block.
    #[inline]
    pub(crate) fn pass(&self, a: Entity, b: Entity) -> bool {
        if self.exceptions.is_empty() {
            return self.by_default;
        }
        self.overlaps(a) || self.overlaps(b)
    }

    fn overlaps(&self, body: Entity) -> bool {
        self.by_default != self.exceptions.contains(&body)
    }
}
