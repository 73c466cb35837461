//! Which colliders a body's move looks at, and how they are sorted: what stops it, what it only
//! touches, and what only supports it (the block continuing a slope's top).

use bevy::prelude::*;

use super::settings::{BodyOverlaps, CandidateRules};
use crate::broad_phase::{BroadPhase, ColliderProxy, StaticCandidates};
use crate::components::SlopeRef;
use crate::components::*;
use crate::geometry::Aabb;

/// Whether `aabb` overlaps a solid of the level's static geometry among `proxies` by more than a
/// rounding margin (ten skins).
pub(crate) fn overlaps_level_solid(aabb: &Aabb, proxies: &[ColliderProxy], skin: f32) -> bool {
    proxies
        .iter()
        .any(|p| p.is_level_solid() && aabb.intersects(&p.aabb, skin * 10.0))
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

/// Puts the slopes around `area` that `me` interacts with into `slopes`, in order.
pub(crate) fn gather_slopes(
    candidates: &StaticCandidates,
    broad_phase: &BroadPhase,
    area: &Aabb,
    me: &ColliderProxy,
    nearby: &mut Vec<ColliderProxy>,
    slopes: &mut Vec<SlopeRef>,
) {
    slopes.clear();
    candidates.for_each_slope_touching(broad_phase, area, me, nearby, |p, shape| {
        slopes.push(SlopeRef {
            entity: p.entity,
            part: p.part,
            shape,
        });
    });
}

/// A body's candidates for one move, sorted into what stops it, what it only touches, and what
/// only supports it.
#[derive(Default)]
pub(crate) struct SortedCandidates {
    pub(crate) solids: Vec<ColliderProxy>,
    pub(crate) sensors: Vec<ColliderProxy>,
    pub(crate) supports: Vec<ColliderProxy>,
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
    #[allow(clippy::too_many_arguments)] // called per candidate: plain arguments, no bundle to build
    fn add(
        &mut self,
        other: &ColliderProxy,
        me: &ColliderProxy,
        state: &MovementState,
        planned_slope: Option<&SlopeRef>,
        statics: &[ColliderProxy],
        rules: &CandidateRules,
        overlaps: &BodyOverlaps,
    ) {
        // Slopes are the slope rules' (sections 1 and 3–14); a sensor slope is only touched.
        if (other.slope.is_some() && !other.sensor)
            || !me.interacts_with(other)
            || state.dropping_through.contains(&(other.entity, other.part))
        {
            return;
        }
        if let Some(slope) = planned_slope
            && other.is_level_solid()
        {
            // The block continuing the planned slope's top is left out, so the diagonal move to the
            // clamped height does not catch its corner (see *The top join of a slope with a block*
            // in the physics rules (`docs/physics-rules.md`)).
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
        let passes = other.kind == BodyKind::Dynamic && overlaps.pass(me.entity, other.entity);
        if other.sensor || me.sensor || passes {
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
        planned_slope: Option<&SlopeRef>,
        candidates: &StaticCandidates,
        broad_phase: &BroadPhase,
        statics: &mut Vec<ColliderProxy>,
        moving: &mut Vec<ColliderProxy>,
        rules: &CandidateRules,
        overlaps: &BodyOverlaps,
    ) {
        self.clear();
        // The top-join rule looks at the other statics around a block: all the kept ones (or all
        // those a new query finds), not only those touching the move.
        let statics = candidates.boxes_around(broad_phase, area, me, statics);
        for other in statics.iter().filter(|p| p.aabb.meets(area)) {
            self.add(other, me, state, planned_slope, statics, rules, overlaps);
        }
        moving.clear();
        broad_phase.query_moving_interacting(area, me, moving);
        for other in moving.iter() {
            self.add(other, me, state, planned_slope, &[], rules, overlaps);
        }
        if !moving.is_empty() {
            self.sort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
    }

    #[test]
    fn a_block_is_covered_only_by_a_solid_on_its_top_at_the_edge_the_slope_joins() {
        // A block away from the origin, and a wall cell standing on its top at each edge in turn.
        let joined = block(1, Vec2::new(100.0, 40.0), Vec2::new(48.0, 16.0));
        let on_left = block(2, Vec2::new(100.0, 56.0), Vec2::new(16.0, 16.0));
        let on_right = block(3, Vec2::new(132.0, 56.0), Vec2::new(16.0, 16.0));
        // A slope rising right joins the block's left edge; one rising left, its right edge.
        assert!(top_covered(&joined, true, &[joined, on_left]));
        assert!(!top_covered(&joined, true, &[joined, on_right]));
        assert!(top_covered(&joined, false, &[joined, on_right]));
        assert!(!top_covered(&joined, false, &[joined, on_left]));
        // Nothing on top, or the block itself: uncovered.
        assert!(!top_covered(&joined, true, &[joined]));
        assert!(!top_covered(&joined, false, &[joined]));
        // A cell beside the block (not on its top) covers nothing.
        let beside = block(4, Vec2::new(148.0, 40.0), Vec2::new(16.0, 32.0));
        assert!(!top_covered(&joined, false, &[joined, beside]));
    }

    #[test]
    fn a_box_overlaps_a_level_solid_only_by_more_than_ten_skins() {
        let skin = 1e-3;
        let solid = block(1, Vec2::new(100.0, 40.0), Vec2::new(16.0, 16.0));
        let at_depth = |depth: f32| Aabb::from_min_size(Vec2::new(116.0 - depth, 40.0), Vec2::new(12.0, 16.0));
        // Rounding: a few skins in is touching, not inside.
        assert!(!overlaps_level_solid(&at_depth(5.0 * skin), &[solid], skin));
        assert!(overlaps_level_solid(&at_depth(20.0 * skin), &[solid], skin));
        // Only the level's static solids count.
        let one_way = ColliderProxy { one_way: true, ..solid };
        let sensor = ColliderProxy { sensor: true, ..solid };
        assert!(!overlaps_level_solid(&at_depth(4.0), &[one_way, sensor], skin));
    }

    #[test]
    fn the_candidate_area_reaches_a_push_out_of_the_bodys_larger_side_and_the_tolerance_beyond() {
        // A 12 x 24 body, a tolerance of 0.25 px: a solid whose face is 24.2 px left of the swept
        // box is a candidate, one 24.3 px away is not.
        let start = Aabb::from_min_size(Vec2::new(100.0, 40.0), Vec2::new(12.0, 24.0));
        let delta = Vec2::new(5.0, -3.0);
        let area = candidate_area(&start, delta, 0.25);
        let left_at = |gap: f32| Aabb::from_min_size(Vec2::new(100.0 - gap - 16.0, 40.0), Vec2::splat(16.0));
        assert!(left_at(24.2).meets(&area));
        assert!(!left_at(24.3).meets(&area));
        // On the other sides too.
        let swept = start.swept(delta);
        assert!(Aabb::from_min_size(Vec2::new(swept.max.x + 24.2, 40.0), Vec2::ONE).meets(&area));
        assert!(Aabb::from_min_size(Vec2::new(100.0, swept.max.y + 24.2), Vec2::ONE).meets(&area));
        assert!(Aabb::from_min_size(Vec2::new(100.0, swept.min.y - 25.2), Vec2::ONE).meets(&area));
    }

    #[test]
    fn a_bodys_candidates_are_in_entity_order_whether_static_or_moving() {
        // A static floor and a lift under a body, at the same height: ties between them (which
        // one a move meets first) go to the first listed, so the lists must not depend on which
        // is static.
        let floor = block(100, Vec2::new(0.0, -16.0), Vec2::new(48.0, 16.0));
        let lift = ColliderProxy {
            kind: BodyKind::Kinematic,
            ..block(200, Vec2::new(48.0, -16.0), Vec2::new(32.0, 16.0))
        };
        let sensor = ColliderProxy {
            sensor: true,
            ..block(150, Vec2::new(40.0, 0.0), Vec2::splat(16.0))
        };
        let moving_sensor = ColliderProxy {
            kind: BodyKind::Kinematic,
            sensor: true,
            ..block(250, Vec2::new(40.0, 8.0), Vec2::splat(16.0))
        };
        let mut broad_phase = BroadPhase::new(64.0);
        for proxy in [floor, lift, sensor, moving_sensor] {
            broad_phase.upsert(proxy);
        }
        let me = ColliderProxy {
            kind: BodyKind::Dynamic,
            ..block(300, Vec2::new(40.0, 0.0), Vec2::new(12.0, 24.0))
        };
        let rules = CandidateRules {
            contact_tolerance: 0.25,
            join_tolerance: 0.25,
        };
        let mut sorted = SortedCandidates::default();
        sorted.gather(
            &me.aabb.grown(1.0),
            &me,
            &MovementState::default(),
            None,
            &StaticCandidates::default(),
            &broad_phase,
            &mut Vec::new(),
            &mut Vec::new(),
            &rules,
            &BodyOverlaps::default(),
        );
        let entities = |list: &[ColliderProxy]| list.iter().map(|p| p.entity).collect::<Vec<_>>();
        let in_order = |mut list: Vec<Entity>| {
            list.sort();
            list
        };
        let solids = in_order(vec![floor.entity, lift.entity]);
        let sensors = in_order(vec![sensor.entity, moving_sensor.entity]);
        // (Entities order by their bits, not their index: the moving one comes first here, so
        // the statics-then-moving order of the gathering is not the answer by chance.)
        assert_eq!((solids[0], sensors[0]), (lift.entity, moving_sensor.entity));
        assert_eq!(entities(&sorted.solids), solids);
        assert_eq!(entities(&sorted.sensors), sensors);
    }
}
