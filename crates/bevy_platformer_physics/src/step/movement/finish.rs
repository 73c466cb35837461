//! FinishMovement: after the move, the planned slope support is confirmed or dropped, and the state
//! of the body is made that of a body standing (or not) on it (sections 10–14 of
//! [the physics rules](crate::physics_rules), which the section numbers below refer to):
//! 1. the speed factor comes off by dividing the resulting velocity, which keeps a wall's reduction;
//!    the passive slide comes off completely (section 11);
//! 2. a platform above the slope wins: a body that should have come down but was stopped higher
//!    keeps that position and drops the slope (section 10);
//! 3. a ceiling during a climb blocks both components: back to the start, velocity zero (section
//!    10);
//! 4. the surface is sampled again at the x actually reached (a wall may have shortened the move),
//!    and a confirmed support zeroes the vertical velocity and is recorded as a `Down` contact of
//!    depth 0 (sections 12–14);
//! 5. without a confirmed support, the temporary slope velocity does not survive the step: the body
//!    gets back the vertical velocity Integrate gave it, so walking off the top of a ramp never
//!    launches it;
//! 6. a body stopped or sent back where its feet are still on the planned slope keeps standing on
//!    it, unless something else holds it up (the platform above wins); a walking body whose feet
//!    end on a slope that the plan could not take (it was partly under it) stands on that slope.
//!    Either way it is never airborne for a step while on the ground.
//!
//! It also keeps the drop-through bookkeeping: a one-way platform the body dropped through is solid
//! for it again once the body no longer touches it. ContactEvents runs after this stage, so a
//! support recorded again is never reported as ended.

use bevy::prelude::*;

use super::body::{BodyView, MoveScratch};
use super::candidates::{gather_slopes, overlaps_level_solid};
use super::prepare::SlopePlan;
use super::settings::{FinishTolerances, MoveSettings};
use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::*;
use crate::geometry::Aabb;
use crate::geometry::SlopeShape;

/// The outcome of the finish rules for one body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlopeFinish {
    /// Final translation.
    pub position: Vec2,
    /// Final velocity, px/s.
    pub velocity: Vec2,
    /// The confirmed slope support, if any.
    pub support: Option<SlopeRef>,
}

/// Where the Resolve stage left a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResolvedMove {
    /// Translation after the move.
    pub position: Vec2,
    /// Velocity after the move, px/s.
    pub velocity: Vec2,
    /// The move recorded a solid contact above.
    pub ceiling: bool,
    /// The move recorded a solid contact below (a platform, a block).
    pub floor: bool,
}

/// Applies the finish rules (sections 10–13 of [the physics rules](crate::physics_rules)) to a body that moved from
/// `state.start` as `plan` meant and `resolved` says.
/// `slope_alive`: the planned slope still exists.
pub fn finish_slope_movement(
    state: &MovementState,
    plan: &SlopePlan,
    collider: &Collider,
    resolved: ResolvedMove,
    slope_alive: bool,
    tolerances: &FinishTolerances,
    dt: f32,
) -> SlopeFinish {
    let ResolvedMove {
        position,
        velocity,
        ceiling,
        floor,
    } = resolved;
    let mut finish = SlopeFinish {
        position,
        velocity,
        support: None,
    };
    // Section 11: remove the factor from the *resulting* velocity (so a wall's reduction stays);
    // remove a slide completely.
    finish.velocity.x = if plan.sliding {
        0.0
    } else if plan.speed_factor == 1.0 {
        // Off slopes (most bodies): the same value without a division's latency.
        velocity.x
    } else {
        velocity.x / plan.speed_factor
    };
    let Some(slope) = plan.slope.filter(|_| slope_alive) else {
        return finish;
    };
    let end = collider.aabb(position);
    let resolved_vel_y = (position.y - state.start.y) / dt;
    // Section 10: a platform above the slope wins (stopped higher than planned): aligning the
    // feet to the slope would move them through it.
    if resolved_vel_y > plan.planned_vel_y + tolerances.velocity || end.min.y > plan.planned_feet_y + tolerances.contact
    {
        if !floor {
            keep_standing(&mut finish, slope, collider, tolerances);
        }
        return finish;
    }
    // Section 10: a ceiling during a climb blocks both components (x alone would advance into the
    // slope); the move already happened, so the position goes back to the start too.
    if plan.planned_vel_y > 0.0 && (ceiling || end.min.y < plan.planned_feet_y - tolerances.climb) {
        finish.position = state.start;
        finish.velocity = Vec2::ZERO;
        if !floor {
            keep_standing(&mut finish, slope, collider, tolerances);
        }
        return finish;
    }
    if slope.shape.overlaps_x(&end) {
        // Section 12: sample again at the x reached; section 13: a body standing on it does not
        // move vertically.
        finish.position.y += slope.shape.surface_y(&end) - end.min.y;
        finish.velocity.y = 0.0;
        finish.support = Some(slope);
    } else {
        // Left the slope: the planned vertical velocity was only for this step.
        finish.velocity.y = state.integrated_vel_y;
    }
    finish
}

/// A move that the finish rules stop or undo drops the planned support and aligns nothing to it;
/// but a body that nothing else holds up and whose feet are still on that slope's surface where
/// it ended (it was stopped where it stood: under a ceiling, against a wall) stands on it, and is
/// not airborne for a step. Its support is recorded and its feet put exactly on the surface (a
/// move within the contact tolerance); a downward velocity into the slope is removed. (A platform
/// that holds it up wins over the slope: see *After the move* in [the physics rules](crate::physics_rules).)
pub fn keep_standing(finish: &mut SlopeFinish, slope: SlopeRef, collider: &Collider, tolerances: &FinishTolerances) {
    if finish.support.is_some() || finish.velocity.y > 0.0 {
        return;
    }
    if let Some(gap) = feet_gap(&slope.shape, &collider.aabb(finish.position), tolerances.contact) {
        finish.position.y += gap;
        finish.support = Some(slope);
        finish.velocity.y = 0.0;
    }
}

/// How far the feet of `body` must move up (down if negative) to stand exactly on the slope
/// `shape`, if the body is over it and its feet are within `reach` of the surface.
fn feet_gap(shape: &SlopeShape, body: &Aabb, reach: f32) -> Option<f32> {
    let gap = shape.surface_y(body) - body.min.y;
    (shape.overlaps_x(body) && gap.abs() <= reach).then_some(gap)
}

/// A surface under a body's feet, found by [`ground_under`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The collider.
    pub entity: Entity,
    /// Its piece (0 for an ordinary collider).
    pub part: u32,
    /// The slope, if it is one.
    pub slope: Option<SlopeRef>,
    /// How far the feet must move up (down if negative) to stand exactly on it, px.
    pub gap: f32,
}

/// The highest static surface that the feet of `body` are on, within the contact tolerance: the
/// top of a solid box or a one-way platform (not one in `dropping_through`), or a slope's surface
/// under the body. Only a surface the body can move onto counts: none if the move would put it
/// into a solid. `for_each_near(area, f)` calls `f` with each static collider touching `area`.
pub fn ground_under(
    body: &Aabb,
    dropping_through: &[(Entity, u32)],
    tolerances: &FinishTolerances,
    skin: f32,
    mut for_each_near: impl FnMut(&Aabb, &mut dyn FnMut(&ColliderProxy)),
) -> Option<Ground> {
    let reach = tolerances.contact;
    let area = Aabb {
        min: Vec2::new(body.min.x, body.min.y - reach),
        max: Vec2::new(body.max.x, body.max.y + reach),
    };
    let mut best: Option<Ground> = None;
    let mut blocked = false;
    let mut solids_in_reach: [Option<Aabb>; 8] = [None; 8];
    let mut solid_count = 0;
    for_each_near(&area, &mut |p| {
        if p.sensor || dropping_through.contains(&(p.entity, p.part)) {
            return;
        }
        let (gap, slope) = match p.slope_shape() {
            Some(shape) => match feet_gap(&shape, body, reach) {
                Some(gap) => (
                    gap,
                    Some(SlopeRef {
                        entity: p.entity,
                        part: p.part,
                        shape,
                    }),
                ),
                None => return,
            },
            None => {
                if p.is_level_solid() {
                    if solid_count < solids_in_reach.len() {
                        solids_in_reach[solid_count] = Some(p.aabb);
                        solid_count += 1;
                    } else {
                        blocked = true;
                    }
                }
                if body.overlap(&p.aabb).x <= skin {
                    return;
                }
                (p.aabb.max.y - body.min.y, None)
            }
        };
        if gap.abs() <= reach && best.is_none_or(|b| gap > b.gap) {
            best = Some(Ground {
                entity: p.entity,
                part: p.part,
                slope,
                gap,
            });
        }
    });
    let ground = best?;
    let moved = body.translated(Vec2::new(0.0, ground.gap));
    let into_solid = solids_in_reach[..solid_count]
        .iter()
        .flatten()
        .any(|solid| moved.intersects(solid, skin));
    (!blocked && !into_solid).then_some(ground)
}

/// The highest of `slopes` that a body went under during its move: its feet were on or above the
/// surface at the start (within `tolerance`, the planner's first rule) and are under it at the
/// end, where it still overlaps the slope. Returns the slope and how far up the feet go onto it.
pub(crate) fn slope_passed(slopes: &[SlopeRef], start: &Aabb, end: &Aabb, tolerance: f32) -> Option<(SlopeRef, f32)> {
    slopes
        .iter()
        .filter(|s| s.shape.overlaps_x(end) && start.min.y >= s.shape.surface_y(start) - tolerance)
        .map(|s| (*s, s.shape.surface_y(end) - end.min.y))
        .filter(|(_, gap)| *gap > 0.0)
        .max_by(|a, b| (a.1).total_cmp(&b.1))
}

/// Confirms or drops `body`'s planned slope support, puts a walking body's feet on the ground
/// under them, and forgets drop-through platforms that the body has left.
#[inline]
pub(crate) fn finish_body(
    body: &mut BodyView,
    plan: &SlopePlan,
    moved_velocity: Vec2,
    broad_phase: &mut BroadPhase,
    settings: &MoveSettings,
    scratch: &mut MoveScratch,
) {
    let tolerances = &settings.finish_tolerances;
    let skin = settings.skin;
    let entity = body.entity;
    let collider = body.collider;
    let candidates = &*body.candidates;
    let nearby = &mut scratch.nearby;
    let position = body.transform.translation.truncate();
    let resolved = ResolvedMove {
        position,
        velocity: moved_velocity,
        ceiling: body.contacts.on_ceiling(),
        floor: body.contacts.on_floor(),
    };
    let state = &mut *body.state;
    // The planned slope was found this step: it is still there unless static geometry changed.
    let slope_alive = plan
        .slope
        .is_some_and(|s| candidates.is_current(broad_phase) || broad_phase.piece(s.entity, s.part).is_some());
    let mut finish = finish_slope_movement(state, plan, collider, resolved, slope_alive, tolerances, settings.dt);
    // The re-sample of section 12 does not sweep against the other obstacles (tight corners are
    // left to specific checks, section 17): if it would put the body inside a solid (a ceiling
    // over a descent that pushed it down), the move is undone, as a blocked climb is.
    if finish.position != position
        && let Some(me) = &body.me
        && {
            let end = collider.aabb(finish.position);
            overlaps_level_solid(&end, candidates.boxes_around(broad_phase, &end, me, nearby), skin)
        }
    {
        finish.position = state.start;
        finish.velocity = Vec2::ZERO;
        finish.support = None;
    }
    // A body coming down that a wall or a ceiling stopped short or pushed down, or that a push-out
    // moved: the plan judged its landing at the x it meant to reach, and where it ended its feet
    // can be under a slope it was above. It lands on the highest such slope, as the plan would
    // have (section 6); where a solid leaves no room for that, the move is undone, as a blocked
    // climb is (section 10). A confirmed support is among those slopes: a higher one wins over it.
    if finish.velocity.y <= 0.0
        && state.integrated_vel_y <= 0.0
        && !body.sensor
        && let Some(me) = &body.me
    {
        let end = collider.aabb(finish.position);
        let moved = state.start_aabb.union(&end);
        // A push-out can take the body beyond the area whose slopes the plan looked at.
        if !scratch.slopes_area.contains_box(&moved) {
            let area = moved.grown(tolerances.contact);
            gather_slopes(candidates, broad_phase, &area, me, nearby, &mut scratch.slopes);
        }
        if let Some((slope, gap)) = slope_passed(&scratch.slopes, &state.start_aabb, &end, tolerances.contact) {
            let landed = collider.aabb(finish.position + Vec2::new(0.0, gap));
            if overlaps_level_solid(&landed, candidates.boxes_around(broad_phase, &landed, me, nearby), skin) {
                finish.position = state.start;
                finish.velocity = Vec2::ZERO;
            } else {
                finish.position.y += gap;
                finish.velocity.y = 0.0;
                finish.support = Some(slope);
            }
        }
    }
    // A walking body is never airborne for a step while its feet are on the ground: a move
    // that the rules stopped or undid, or one that ended a hair above a surface, still stands
    // on what is under the feet (see `ground_under`).
    let mut ground = None;
    if finish.support.is_none()
        && state.started_on_floor
        && finish.velocity.y <= 0.0
        && !resolved.floor
        && let Some(me) = &body.me
    {
        ground = ground_under(
            &collider.aabb(finish.position),
            &state.dropping_through,
            tolerances,
            skin,
            |area, f| candidates.for_each_touching(broad_phase, area, me, nearby, f),
        );
        if let Some(ground) = ground {
            finish.position.y += ground.gap;
            finish.velocity.y = 0.0;
            finish.support = ground.slope;
        }
    }
    body.velocity.0 = finish.velocity;
    if finish.position != position {
        let translation = &mut body.transform.translation;
        translation.x = finish.position.x;
        translation.y = finish.position.y;
        broad_phase.set_aabb(entity, collider.aabb(finish.position));
    }
    let contacts = &mut *body.contacts;
    if let Some(ground) = ground.filter(|g| g.slope.is_none()) {
        // It stands on it now, whatever side the solver met it on.
        match contacts
            .list
            .iter_mut()
            .find(|c| (c.entity, c.part) == (ground.entity, ground.part))
        {
            Some(contact) => contact.direction = ContactDirection::Down,
            None => contacts.record(Contact {
                entity: ground.entity,
                direction: ContactDirection::Down,
                depth: 0.0,
                sensor: false,
                part: ground.part,
            }),
        }
    }
    if let Some(wall) = plan.steep_wall {
        // Section 4: a slope too steep to climb is a wall on the side it rises to.
        contacts.record(Contact {
            entity: wall.entity,
            direction: if wall.shape.rises_right() {
                ContactDirection::Right
            } else {
                ContactDirection::Left
            },
            depth: 0.0,
            sensor: false,
            part: wall.part,
        });
    }
    if let Some(slope) = finish.support {
        // Section 14: the slope took no part in the solver, so its contact is recorded here.
        contacts.record(Contact {
            entity: slope.entity,
            direction: ContactDirection::Down,
            depth: 0.0,
            sensor: false,
            part: slope.part,
        });
    }
    // What the step was, for games: the slope it ends on, and whether it was a passive slide.
    state.supporting_slope = finish.support;
    state.passive_slide = plan.sliding;

    if !state.dropping_through.is_empty() {
        let body_box = collider.aabb(finish.position);
        state.dropping_through.retain(|&(platform, part)| {
            broad_phase
                .piece(platform, part)
                .is_some_and(|p| p.aabb.touches(&body_box, skin))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PhysicsConfig;
    use crate::geometry::SlopeShape;

    const DT: f32 = 0.01;

    fn tolerances() -> FinishTolerances {
        FinishTolerances::from_config(&PhysicsConfig::default())
    }

    fn climbing_state() -> (MovementState, SlopePlan, Collider) {
        let collider = Collider::rectangle(16.0, 16.0);
        let shape = SlopeShape::new(Vec2::ZERO, Vec2::new(320.0, 160.0));
        let state = MovementState {
            start: Vec2::new(92.0, 58.0),
            integrated_vel_y: -9.6,
            ..default()
        };
        let plan = SlopePlan {
            velocity: Vec2::new(32.0, 16.0),
            slope: Some(SlopeRef {
                entity: Entity::from_raw_u32(1).unwrap(),
                part: 0,
                shape,
            }),
            speed_factor: 2.0 / 3.0,
            sliding: false,
            planned_vel_y: 16.0,
            planned_feet_y: 50.16,
            steep_wall: None,
        };
        (state, plan, collider)
    }

    fn resolved(position: Vec2, velocity: Vec2, ceiling: bool) -> ResolvedMove {
        ResolvedMove {
            position,
            velocity,
            ceiling,
            floor: false,
        }
    }

    #[test]
    fn confirmed_support_zeroes_vy_and_divides_the_factor_out() {
        let (state, plan, collider) = climbing_state();
        let end = resolved(Vec2::new(92.32, 58.16), Vec2::new(32.0, 16.0), false);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert!(finish.support.is_some());
        assert_eq!(finish.velocity.y, 0.0);
        assert!((finish.velocity.x - 48.0).abs() < 1e-4);
    }

    #[test]
    fn a_ceiling_during_a_climb_restores_the_start() {
        let (mut state, plan, collider) = climbing_state();
        // Feet 2 px above the slope at the start (a jump's end): nothing to stand on there.
        state.start.y = 60.0;
        let end = resolved(Vec2::new(92.32, 58.1), Vec2::new(32.0, 0.0), true);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert_eq!(finish.position, state.start);
        assert_eq!(finish.velocity, Vec2::ZERO);
        assert_eq!(finish.support, None);
    }

    #[test]
    fn a_body_squeezed_under_a_ceiling_on_the_slope_still_stands_on_it() {
        let (mut state, plan, collider) = climbing_state();
        state.start_aabb = collider.aabb(state.start);
        let end = resolved(Vec2::new(92.32, 58.1), Vec2::new(32.0, 0.0), true);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert_eq!(finish.position, state.start, "blocked: back to the start");
        assert_eq!(finish.velocity, Vec2::ZERO);
        assert_eq!(
            finish.support, plan.slope,
            "but not airborne: its feet are on the slope"
        );
    }

    #[test]
    fn stopped_above_the_plan_drops_the_slope() {
        let (state, mut plan, collider) = climbing_state();
        plan.planned_vel_y = -16.0;
        plan.planned_feet_y = 49.84;
        // A platform held it 1 px higher than planned.
        let end = resolved(Vec2::new(91.68, 58.84), Vec2::new(-48.0, 0.0), false);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert_eq!(finish.support, None);
        assert_eq!(finish.position, end.position, "the position from the collisions stays");
    }

    #[test]
    fn a_wall_shortened_climb_is_sampled_again_at_the_x_reached() {
        let (state, plan, collider) = climbing_state();
        // The wall stopped x at the start, y went up as planned: the feet float 0.16 px.
        let end = resolved(Vec2::new(92.0, 58.16), Vec2::new(0.0, 16.0), false);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert!(
            (finish.position.y - 58.0).abs() < 1e-4,
            "back on the surface: {}",
            finish.position.y
        );
        assert_eq!(finish.velocity, Vec2::ZERO);
    }

    #[test]
    fn leaving_the_slope_gives_back_the_integrated_vertical_velocity() {
        let (state, mut plan, collider) = climbing_state();
        plan.slope = Some(SlopeRef {
            entity: Entity::from_raw_u32(1).unwrap(),
            part: 0,
            shape: SlopeShape::new(Vec2::ZERO, Vec2::new(80.0, 40.0)),
        });
        let end = resolved(Vec2::new(92.32, 58.16), Vec2::new(32.0, 16.0), false);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &tolerances(), DT);
        assert_eq!(finish.support, None);
        assert_eq!(finish.velocity.y, -9.6, "no launch off the top");
    }

    /// Tolerances and a step length that are exact in binary, so that a move can end exactly on
    /// a tolerance's boundary.
    const EXACT: FinishTolerances = FinishTolerances {
        contact: 0.5,
        velocity: 4.0,
        climb: 1.0,
    };
    const EXACT_DT: f32 = 0.125;

    /// A 16 × 16 body at (100, 62), its feet (54) on a slope of gradient 0.5 rising right (the
    /// surface is sampled under the right foot, x = 108), planned to move `planned_vel_y` along it.
    fn on_the_slope(planned_vel_y: f32, planned_feet_y: f32) -> (MovementState, SlopePlan, Collider) {
        let collider = Collider::rectangle(16.0, 16.0);
        let state = MovementState {
            start: Vec2::new(100.0, 62.0),
            start_aabb: collider.aabb(Vec2::new(100.0, 62.0)),
            integrated_vel_y: -9.6,
            ..default()
        };
        let plan = SlopePlan {
            slope: Some(SlopeRef {
                entity: Entity::from_raw_u32(1).unwrap(),
                part: 0,
                shape: SlopeShape::new(Vec2::ZERO, Vec2::new(320.0, 160.0)),
            }),
            planned_vel_y,
            planned_feet_y,
            ..SlopePlan::unplanned(&state.start_aabb, Vec2::new(0.0, planned_vel_y))
        };
        (state, plan, collider)
    }

    #[test]
    fn a_body_kept_standing_loses_its_fall_into_the_slope_and_a_rising_one_is_left_alone() {
        // The feet 0.25 px over the surface (within the contact tolerance).
        let (_, plan, collider) = on_the_slope(0.0, 54.0);
        let slope = plan.slope.unwrap();
        let mut falling = SlopeFinish {
            position: Vec2::new(100.0, 62.25),
            velocity: Vec2::new(0.0, -50.0),
            support: None,
        };
        keep_standing(&mut falling, slope, &collider, &EXACT);
        assert_eq!(falling.support, Some(slope));
        assert_eq!(falling.position, Vec2::new(100.0, 62.0), "feet on the surface");
        assert_eq!(falling.velocity, Vec2::ZERO);
        // Moving up (a jump): it leaves the slope.
        let mut rising = SlopeFinish {
            position: Vec2::new(100.0, 62.25),
            velocity: Vec2::new(0.0, 50.0),
            support: None,
        };
        keep_standing(&mut rising, slope, &collider, &EXACT);
        assert_eq!(rising.support, None);
        assert_eq!(rising.position, Vec2::new(100.0, 62.25));
    }

    #[test]
    fn a_descent_exactly_the_velocity_tolerance_slower_than_planned_still_lands_on_the_slope() {
        // Planned 2 px down in the step (−16 px/s), 4 px left, onto the surface at 52. A floor is
        // touched too (a block at the slope's foot), so a platform that "wins" would drop the
        // slope.
        let (state, plan, collider) = on_the_slope(-16.0, 52.0);
        for (end_y, lands) in [(60.5, true), (60.625, false)] {
            // At 60.5 the resolved velocity is −12 px/s, exactly the tolerance above the plan,
            // and the feet are exactly the contact tolerance above it: not stopped higher. At
            // 60.625 (−11 px/s) something held the body up.
            let end = ResolvedMove {
                floor: true,
                ..resolved(Vec2::new(96.0, end_y), Vec2::new(-32.0, -12.0), false)
            };
            let finish = finish_slope_movement(&state, &plan, &collider, end, true, &EXACT, EXACT_DT);
            assert_eq!(finish.support.is_some(), lands, "{end_y}");
            let want_y = if lands { 60.0 } else { end_y };
            assert_eq!(finish.position, Vec2::new(96.0, want_y), "{end_y}");
        }
    }

    #[test]
    fn a_move_planned_with_no_vertical_velocity_is_not_a_climb_a_ceiling_would_send_back() {
        // Half a pixel right, touching a ceiling: only a climb goes back to the start.
        let (state, plan, collider) = on_the_slope(0.0, 54.0);
        let end = resolved(Vec2::new(100.5, 62.0), Vec2::new(4.0, 0.0), true);
        let finish = finish_slope_movement(&state, &plan, &collider, end, true, &EXACT, EXACT_DT);
        assert_eq!(finish.position, Vec2::new(100.5, 62.25), "on the surface where it went");
        assert_eq!(finish.velocity, Vec2::new(4.0, 0.0));
        assert!(finish.support.is_some());
    }

    #[test]
    fn a_climb_that_ends_exactly_the_climb_tolerance_low_is_not_blocked() {
        // Planned 2 px up (16 px/s) and 4 px right, onto the surface at 56.
        let (state, plan, collider) = on_the_slope(16.0, 56.0);
        for (end_y, blocked) in [(63.0, false), (62.875, true)] {
            let end = resolved(Vec2::new(104.0, end_y), Vec2::new(32.0, 8.0), false);
            let finish = finish_slope_movement(&state, &plan, &collider, end, true, &EXACT, EXACT_DT);
            let want = if blocked { state.start } else { Vec2::new(104.0, 64.0) };
            assert_eq!(finish.position, want, "{end_y}");
        }
    }

    fn ground_among(body: &Aabb, proxies: &[ColliderProxy]) -> Option<Ground> {
        ground_under(body, &[], &tolerances(), 1e-3, |area, f| {
            for p in proxies.iter().filter(|p| p.aabb.meets(area)) {
                f(p);
            }
        })
    }

    #[test]
    fn of_two_surfaces_under_the_feet_the_higher_is_the_ground_whichever_comes_first() {
        // Feet at y = 10: one top 0.05 under them, one 0.1 under them.
        let body = Aabb::from_min_size(Vec2::new(0.0, 10.0), Vec2::new(12.0, 24.0));
        let high = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(-16.0, 0.0), Vec2::new(16.05, 9.95)));
        let low = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(6.0, 0.0), Vec2::new(16.0, 9.9)));
        for order in [[high, low], [low, high]] {
            let ground = ground_among(&body, &order).expect("ground");
            assert_eq!(ground.entity, high.entity, "{order:?}");
            assert!((ground.gap + 0.05).abs() < 1e-4, "{ground:?}");
        }
    }

    #[test]
    fn of_two_surfaces_as_high_as_each_other_the_first_listed_is_the_ground() {
        // Feet at y = 10, two tops 0.1 under them: the first found is kept.
        let body = Aabb::from_min_size(Vec2::new(0.0, 10.0), Vec2::new(12.0, 24.0));
        let left = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(-16.0, 0.0), Vec2::new(22.0, 9.9)));
        let right = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(6.0, 0.0), Vec2::new(16.0, 9.9)));
        for order in [[left, right], [right, left]] {
            let ground = ground_among(&body, &order).expect("ground");
            assert_eq!(ground.entity, order[0].entity, "{order:?}");
        }
    }

    #[test]
    fn feet_that_end_exactly_on_a_slope_did_not_pass_under_it() {
        // Gradient 0.5 rising right: under a 16 px box from x = 92 the surface is at 54.
        let slope = SlopeRef {
            entity: Entity::from_raw_u32(1).unwrap(),
            part: 0,
            shape: SlopeShape::new(Vec2::ZERO, Vec2::new(320.0, 160.0)),
        };
        let start = Aabb::from_min_size(Vec2::new(92.0, 60.0), Vec2::splat(16.0));
        let on = Aabb::from_min_size(Vec2::new(92.0, 54.0), Vec2::splat(16.0));
        assert_eq!(slope_passed(&[slope], &start, &on, 0.16), None);
        let under = Aabb::from_min_size(Vec2::new(92.0, 53.75), Vec2::splat(16.0));
        assert_eq!(slope_passed(&[slope], &start, &under, 0.16), Some((slope, 0.25)));
    }

    #[test]
    fn a_step_up_onto_a_surface_that_would_put_the_head_into_a_ceiling_is_no_ground() {
        // A top 0.1 px above the feet (within the contact tolerance) and a ceiling 0.05 px above
        // the head: standing on the top would put the head 0.05 px into the ceiling.
        let body = Aabb::from_min_size(Vec2::new(0.0, 10.0), Vec2::new(12.0, 24.0));
        let floor = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(-16.0, 0.0), Vec2::new(40.0, 10.1)));
        let ceiling = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(-16.0, 34.05), Vec2::new(40.0, 16.0)));
        assert!(ground_among(&body, &[floor]).is_some(), "without the ceiling");
        assert_eq!(ground_among(&body, &[floor, ceiling]), None);
    }

    #[test]
    fn more_level_solids_in_reach_than_can_be_checked_give_no_ground() {
        // Nine 1 px blocks under the feet: the ground is refused rather than some of them
        // left unchecked.
        let body = Aabb::from_min_size(Vec2::new(0.0, 10.0), Vec2::new(12.0, 24.0));
        let blocks: Vec<_> = (0..9)
            .map(|i| {
                ColliderProxy::static_box(
                    i + 1,
                    Aabb::from_min_size(Vec2::new(i as f32 + 1.0, 0.0), Vec2::new(1.0, 10.0)),
                )
            })
            .collect();
        assert_eq!(ground_among(&body, &blocks[..9]), None);
        // Eight are checked: the feet stand on them.
        assert!(ground_among(&body, &blocks[..8]).is_some_and(|g| g.gap == 0.0));
    }
}
