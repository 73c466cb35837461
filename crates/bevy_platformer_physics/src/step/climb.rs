//! Climbing ladders, at the start of the Integrate stage: which [`Climber`]s climb which
//! [`Ladder`] this step (section 23 of [the physics rules](crate::physics_rules)). Integrate then
//! moves a climbing body by its climb input instead of gravity.

use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::geometry::Aabb;
use crate::step::AwakeDynamic;

/// Where a body is against one ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LadderReach {
    /// Its centre is above the ladder's width and its box overlaps the ladder's.
    Inside,
    /// Its centre is above the ladder's width and its feet are on the ladder's top.
    OnTop,
}

/// Where `body` is against the ladder whose box is `ladder`, with feet within `tolerance` of the
/// top counting as on it; `None` when it cannot climb it.
pub(crate) fn ladder_reach(body: &Aabb, ladder: &Aabb, tolerance: f32) -> Option<LadderReach> {
    let centre = body.center().x;
    if centre < ladder.min.x || centre > ladder.max.x {
        return None;
    }
    if (body.min.y - ladder.max.y).abs() <= tolerance {
        Some(LadderReach::OnTop)
    } else if body.min.y < ladder.max.y && body.max.y > ladder.min.y {
        Some(LadderReach::Inside)
    } else {
        None
    }
}

/// Of the ladders in reach (sorted by entity), the one that counts: the first the body is inside
/// of, else the first it is on top of. (A ladder stacked on another, as where a ladder goes on into
/// the level above, is climbed past the seam, not stopped at as a top.)
pub(crate) fn nearest_reach(reaches: impl Iterator<Item = (Entity, LadderReach)>) -> Option<(Entity, LadderReach)> {
    let mut best = None;
    for (entity, reach) in reaches {
        match (best, reach) {
            (None, _) | (Some((_, LadderReach::OnTop)), LadderReach::Inside) => best = Some((entity, reach)),
            _ => {}
        }
    }
    best
}

/// The ladder a body climbs this step: `current` (the one it climbed, if any) and the ladder it
/// can reach (`reach`), given its climb input `climb` and whether it asked to drop.
pub(crate) fn next_ladder(
    current: Option<Entity>,
    reach: Option<(Entity, LadderReach)>,
    climb: f32,
    drop: bool,
) -> Option<Entity> {
    let (ladder, reach) = reach?;
    if drop {
        return None;
    }
    match (current, reach) {
        // At the top a climb ends, and the body stands there; it starts again only downwards.
        (Some(_), LadderReach::OnTop) if climb >= 0.0 => None,
        (Some(_), _) => Some(ladder),
        (None, LadderReach::Inside) if climb != 0.0 => Some(ladder),
        (None, LadderReach::OnTop) if climb < 0.0 => Some(ladder),
        (None, _) => None,
    }
}

/// What the climbing rule reads and writes of a body.
type ClimbingBody = (
    &'static Transform,
    &'static Collider,
    &'static MovementInput,
    &'static mut Velocity,
    &'static Climber,
    &'static mut ClimbState,
    &'static mut MovementState,
);

/// Decides which ladder each [`Climber`] climbs this step. While it climbs, the tops of the ladders
/// in its reach do not hold it (they are in the body's drop-through list, so it climbs down through
/// them); a climb that ends any way but a drop takes them out again, so the body stands on the top it reached. A
/// body leaving a ladder starts from no vertical speed.
pub(crate) fn climb_ladders(
    config: Res<PhysicsConfig>,
    broad_phase: Res<BroadPhase>,
    ladders: Query<(), With<Ladder>>,
    step: Res<PhysicsStepLength>,
    mut climbers: Query<ClimbingBody, AwakeDynamic>,
    mut nearby: Local<Vec<ColliderProxy>>,
    mut in_reach: Local<Vec<(Entity, LadderReach, f32)>>,
) {
    let tolerance = config.contact_tolerance();
    for (transform, collider, input, mut velocity, climber, mut climb, mut state) in &mut climbers {
        let body = collider.aabb(transform.translation.truncate());
        broad_phase.query(&body.grown(tolerance), &mut nearby);
        // The ladders in reach, each with its centre line, sorted by entity as the query is.
        in_reach.clear();
        in_reach.extend(
            nearby
                .iter()
                .filter(|p| p.part == 0 && ladders.contains(p.entity))
                .filter_map(|p| ladder_reach(&body, &p.aabb, tolerance).map(|r| (p.entity, r, p.aabb.center().x))),
        );
        let reach = nearest_reach(in_reach.iter().map(|&(entity, reach, _)| (entity, reach)));
        let centre_line = reach.and_then(|(ladder, _)| in_reach.iter().find(|r| r.0 == ladder).map(|r| r.2));
        let next = next_ladder(climb.ladder, reach, input.climb_intent(), input.drop_through);
        if climb.ladder.is_some() && next.is_none() {
            // Leaving the ladders keeps none of the climb's speed (it would hop past the top).
            velocity.0.y = 0.0;
            if !input.drop_through {
                state.dropping_through.retain(|&(entity, _)| !ladders.contains(entity));
            }
        }
        if next.is_some() {
            // Every ladder in reach, not only the one climbed: climbing down from one ladder onto
            // the one under it (a ladder going on in the level below) passes that one's top too.
            for &(ladder, _, _) in in_reach.iter() {
                if !state.dropping_through.contains(&(ladder, 0)) {
                    state.dropping_through.push((ladder, 0));
                }
            }
        }
        let to_centre = match centre_line {
            Some(x) if next.is_some() && step.dt > 0.0 => {
                ((x - body.center().x) / step.dt).clamp(-climber.speed.abs(), climber.speed.abs())
            }
            _ => 0.0,
        };
        if climb.ladder != next || climb.to_centre != to_centre {
            climb.ladder = next;
            climb.to_centre = to_centre;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder() -> Aabb {
        Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(16.0, 64.0))
    }

    fn body_at(x: f32, feet: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x - 6.0, feet), Vec2::new(12.0, 24.0))
    }

    #[test]
    fn a_body_reaches_a_ladder_by_its_centre_inside_or_on_its_top() {
        assert_eq!(
            ladder_reach(&body_at(8.0, 0.0), &ladder(), 0.5),
            Some(LadderReach::Inside)
        );
        assert_eq!(
            ladder_reach(&body_at(8.0, 64.3), &ladder(), 0.5),
            Some(LadderReach::OnTop)
        );
        assert_eq!(ladder_reach(&body_at(8.0, 65.0), &ladder(), 0.5), None, "above the top");
        assert_eq!(
            ladder_reach(&body_at(17.0, 0.0), &ladder(), 0.5),
            None,
            "centre beside it"
        );
        assert_eq!(
            ladder_reach(&body_at(8.0, -24.0), &ladder(), 0.5),
            None,
            "below it, touching"
        );
    }

    #[test]
    fn a_ladder_the_body_is_inside_of_counts_before_one_it_is_on_top_of() {
        let (low, high) = (Entity::from_raw_u32(1).unwrap(), Entity::from_raw_u32(2).unwrap());
        let stacked = [(low, LadderReach::OnTop), (high, LadderReach::Inside)];
        assert_eq!(nearest_reach(stacked.into_iter()), Some((high, LadderReach::Inside)));
        let side_by_side = [(low, LadderReach::Inside), (high, LadderReach::Inside)];
        assert_eq!(
            nearest_reach(side_by_side.into_iter()),
            Some((low, LadderReach::Inside)),
            "first by entity"
        );
        assert_eq!(
            nearest_reach([(high, LadderReach::OnTop)].into_iter()),
            Some((high, LadderReach::OnTop))
        );
        assert_eq!(nearest_reach(std::iter::empty()), None);
    }

    #[test]
    fn a_climb_starts_by_input_and_ends_at_the_top_or_by_a_drop() {
        let l = Entity::from_raw_u32(7).unwrap();
        let inside = Some((l, LadderReach::Inside));
        let on_top = Some((l, LadderReach::OnTop));
        assert_eq!(next_ladder(None, inside, 0.0, false), None, "no input: no climb");
        assert_eq!(next_ladder(None, inside, 1.0, false), Some(l));
        assert_eq!(next_ladder(None, inside, -1.0, false), Some(l));
        assert_eq!(next_ladder(None, on_top, 1.0, false), None, "nothing above the top");
        assert_eq!(next_ladder(None, on_top, -1.0, false), Some(l), "down from the top");
        assert_eq!(next_ladder(Some(l), inside, 0.0, false), Some(l), "hangs without input");
        assert_eq!(next_ladder(Some(l), on_top, 1.0, false), None, "reached the top");
        assert_eq!(next_ladder(Some(l), on_top, 0.0, false), None, "stopped at the top");
        assert_eq!(
            next_ladder(Some(l), on_top, -1.0, false),
            Some(l),
            "going down past the top"
        );
        assert_eq!(next_ladder(Some(l), inside, 1.0, true), None, "dropped");
        assert_eq!(next_ladder(Some(l), None, 1.0, false), None, "left it");
    }
}
