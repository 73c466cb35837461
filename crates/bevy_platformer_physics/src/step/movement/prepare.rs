//! PrepareMovement: where the step starts, and the slope plan (sections 3–8 of
//! [the physics rules](crate::physics_rules), which the section numbers below refer to).
//!
//! Integrate has already set the velocity. Here, starting from the body's box at the start of the
//! step (`start_box` below; `next` is the candidate box for the end of the step):
//! 1. a body moving up (a jump) is never re-attached to a slope (section 3);
//! 2. the current support `current_support`: a slope under the body, feet within the contact tolerance
//!    (section 3);
//! 3. on it: the uphill release, the speed factor, the passive slide (section 4);
//! 4. the candidate box `next` follows the current slope (section 5);
//! 5. the arrival surface: the highest one reached among the slopes under `next`, approached from
//!    above or kept (section 6); a passive slide that would have to climb stops in the valley;
//! 6. leaving an end keeps the current slope's clamped height (section 7);
//! 7. the height change becomes the step's temporary vertical velocity (section 8).
//!
//! The slope found is only a candidate: FinishMovement confirms or drops it after the move.

use bevy::prelude::*;

use super::body::{BodyView, MoveScratch};
use super::candidates::{first_candidate_area, gather_slopes};
use super::settings::{MoveSettings, SlopeRules};
use crate::broad_phase::BroadPhase;
use crate::components::SlopeRef;
use crate::geometry::Aabb;

/// How many steps ahead of a moving body the statics are kept (at most one broad-phase cell on
/// each axis): a walking body queries the broad phase about once per this many steps, and keeps a
/// list only a little longer.
const LEAD_STEPS: f32 = 16.0;

/// Room kept around the area a body's move needs when its static candidates are queried, px: the
/// plan may change the move a little without a new query.
const KEPT_ROOM: f32 = 4.0;

/// What the planner decided for one body and one step. It lives for the movement pass of that
/// body only: the move uses its velocity, FinishMovement confirms or drops its slope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlopePlan {
    /// The velocity to move with this step (factor, slide and slope-following vertical velocity
    /// applied), px/s.
    pub velocity: Vec2,
    /// The planned support: a candidate that FinishMovement confirms or drops.
    pub slope: Option<SlopeRef>,
    /// The horizontal speed factor applied (1 off slopes), divided out after the move.
    pub speed_factor: f32,
    /// The horizontal motion is the passive slide, removed completely after the move.
    pub sliding: bool,
    /// Planned vertical velocity that follows the slope, px/s (the integrated one without a plan).
    pub planned_vel_y: f32,
    /// Planned height of the feet at the end of the step, px.
    pub planned_feet_y: f32,
    /// A slope steeper than the body may climb that stopped its walk (a wall to it).
    pub steep_wall: Option<SlopeRef>,
}

impl SlopePlan {
    /// The plan of a body the slope rules leave alone: it moves with `velocity` from `start_box`.
    pub(crate) fn unplanned(start_box: &Aabb, velocity: Vec2) -> Self {
        Self {
            velocity,
            slope: None,
            speed_factor: 1.0,
            sliding: false,
            planned_vel_y: velocity.y,
            planned_feet_y: start_box.min.y,
            steep_wall: None,
        }
    }
}

/// Plans a step of a body whose box is `start_box`, moving with `velocity` (after Integrate), with
/// horizontal input `intent`, among the slopes `slopes` (sorted: the first valid current support
/// wins), for a step of `dt` seconds. Slopes steeper than `max_gradient` are walls to its walk
/// (section 4).
pub fn plan_slope_movement(
    start_box: &Aabb,
    velocity: Vec2,
    intent: f32,
    slopes: &[SlopeRef],
    rules: &SlopeRules,
    max_gradient: f32,
    dt: f32,
) -> SlopePlan {
    let mut plan = SlopePlan::unplanned(start_box, velocity);
    // Section 3: moving up is a jump (the slope's own vertical velocity is zeroed after every
    // confirmed contact), never a climb: no re-attaching, and the triangle can be crossed from below.
    if velocity.y > 0.0 || dt <= 0.0 {
        return plan;
    }
    let tolerance = rules.contact_tolerance;
    let current_support = slopes
        .iter()
        .find(|r| r.shape.overlaps_x(start_box) && (start_box.min.y - r.shape.surface_y(start_box)).abs() <= tolerance)
        .copied();

    // Section 4: speed factor from the actual velocity (not the input), uphill release, passive
    // slide.
    let mut v = velocity;
    if let Some(SlopeRef { shape: slope, .. }) = current_support {
        // Too steep to climb: no walking up it, and the body slides down whatever it asks.
        let too_steep = slope.gradient() > max_gradient;
        if too_steep && slope.is_uphill(v.x) {
            v.x = 0.0;
        }
        if intent == 0.0 && slope.is_uphill(v.x) {
            let braking = rules.uphill_release * (1.0 + slope.gradient()) * dt;
            v.x = if v.x.abs() <= braking {
                0.0
            } else {
                v.x - v.x.signum() * braking
            };
        }
        plan.speed_factor = slope.speed_factor(v.x);
        if (intent == 0.0 || too_steep) && v.x == 0.0 {
            v.x = slope.slide_velocity_x(rules.slide_speed, rules.slide_gradient_cap);
            plan.sliding = true;
        }
    }
    v.x *= plan.speed_factor;
    let mut next = start_box.translated(v * dt);

    // Section 5: follow the current slope before looking for the next one (gravity alone would
    // leave a body walking downhill floating above it).
    if let Some(SlopeRef { shape: slope, .. }) = current_support {
        next = next.translated(Vec2::new(0.0, slope.surface_y(&next) - next.min.y));
    }

    // Section 6: the highest surface reached, approached from above or kept. A slope too steep
    // for the body that its walk would climb is a wall (section 4): the body stays where it is.
    let arrival = |next: &Aabb| {
        let mut arrival_surface_y = f32::NEG_INFINITY;
        let mut chosen = None;
        let mut steep_wall = None;
        for &candidate in slopes {
            let slope = candidate.shape;
            if !slope.overlaps_x(next) {
                continue;
            }
            let start_surface = slope.surface_y(start_box);
            let next_surface = slope.surface_y(next);
            let on_surface = (start_box.min.y - start_surface).abs() <= tolerance;
            if start_box.min.y >= start_surface - tolerance
                && (next.min.y <= next_surface || on_surface)
                && next_surface > arrival_surface_y
            {
                if on_surface && slope.gradient() > max_gradient && next_surface > start_box.min.y + tolerance {
                    steep_wall.get_or_insert(candidate);
                    continue;
                }
                arrival_surface_y = next_surface;
                chosen = Some(candidate);
            }
        }
        (arrival_surface_y, chosen, steep_wall)
    };
    let (mut arrival_surface_y, mut chosen, steep_wall) = arrival(&next);
    if steep_wall.is_some() {
        v.x = 0.0;
        next = *start_box;
        (arrival_surface_y, chosen, _) = arrival(&next);
        plan.steep_wall = steep_wall;
    }
    // In a valley a passive slide that would have to climb stops instead of changing slope and
    // reversing every step.
    // It keeps the support it stands on: the highest surface under it where it is (with the
    // tolerance, `current_support` may be the lower side of the valley, and sampling that one would
    // sink the body into the other side).
    if plan.sliding && chosen.is_some() && arrival_surface_y > start_box.min.y {
        v.x = 0.0;
        next = *start_box;
        chosen = None;
        arrival_surface_y = f32::NEG_INFINITY;
        for &candidate in slopes {
            let surface = candidate.shape.surface_y(start_box);
            if candidate.shape.overlaps_x(start_box)
                && (start_box.min.y - surface).abs() <= tolerance
                && surface > arrival_surface_y
            {
                arrival_surface_y = surface;
                chosen = Some(candidate);
            }
        }
    }
    // Section 7: leaving an end keeps the clamped height of the current slope.
    if chosen.is_none()
        && let Some(current) = current_support
    {
        chosen = Some(current);
        arrival_surface_y = current.shape.surface_y(&next);
    }
    // Section 8: the height change as this step's vertical velocity, so the ordinary solvers move
    // the body along the slope.
    if let Some(support) = chosen {
        v.y = (arrival_surface_y - start_box.min.y) / dt;
        plan.slope = Some(support);
        plan.planned_vel_y = v.y;
        plan.planned_feet_y = arrival_surface_y;
    }
    plan.velocity = v;
    plan
}

/// Records the start of `body`'s move, keeps the static colliders around it, and plans its slope
/// movement.
#[inline]
pub(crate) fn prepare_body(
    body: &mut BodyView,
    broad_phase: &BroadPhase,
    settings: &MoveSettings,
    scratch: &mut MoveScratch,
) -> SlopePlan {
    let rules = &settings.slope_rules;
    let dt = settings.dt;
    let start = body.transform.translation.truncate();
    let start_box = body.collider.aabb(start);
    let v = body.velocity.0;
    let state = &mut *body.state;
    // Where the last step took it: on a slope the climb comes from the plan, not from `v`.
    let last_move = start - state.start;
    state.start = start;
    state.start_aabb = start_box;
    state.integrated_vel_y = v.y;
    let unplanned = SlopePlan::unplanned(&start_box, v);
    // FinishMovement reads the slopes gathered here, and where they were looked for.
    scratch.slopes.clear();
    scratch.slopes_area = start_box;
    let Some(me) = &body.me else {
        body.candidates.clear();
        return unplanned;
    };
    // The statics around Resolve's area, with room for the plan to change the move and for the
    // next steps' moves: most steps need no query at all. (A fast body's lead is capped at a cell
    // on each axis: its kept list would grow with its speed.)
    let delta = v * dt;
    let planned =
        first_candidate_area(*body.mode, &start_box, delta, rules.contact_tolerance).grown(delta.abs().max_element());
    let max_lead = Vec2::splat(broad_phase.cell_size());
    let heading = Vec2::select(last_move.abs().cmpgt(delta.abs()), last_move, delta);
    let lead = (heading * LEAD_STEPS).clamp(-max_lead, max_lead);
    let candidates = &mut *body.candidates;
    let covered = candidates.cover(broad_phase, &planned, KEPT_ROOM, lead, me, &mut scratch.nearby);
    // Interaction-only bodies stand on nothing; most bodies have no slope around.
    if body.sensor {
        return unplanned;
    }
    if covered && !candidates.has_slopes() {
        scratch.slopes_area = planned;
        return unplanned;
    }
    let area = start_box.swept(delta).grown(rules.contact_tolerance);
    let slopes = &mut scratch.slopes;
    gather_slopes(candidates, broad_phase, &area, me, &mut scratch.nearby, slopes);
    scratch.slopes_area = area;
    if slopes.is_empty() {
        return unplanned;
    }
    let intent = if body.input.horizontal.is_finite() {
        body.input.horizontal
    } else {
        0.0
    };
    let mut plan = plan_slope_movement(&start_box, v, intent, slopes, rules, body.max_gradient, dt);
    // Downhill, the speed factor makes the planned move up to (1 + gradient) times longer than the
    // velocity's: the slopes that only the longer move reaches (the far side of a steep valley)
    // must be candidates too, or the body is planned straight through them.
    let reached = start_box.swept(plan.velocity * dt).grown(rules.contact_tolerance);
    if !(area.contains(reached.min) && area.contains(reached.max)) {
        let wider = area.union(&reached);
        let before = slopes.len();
        // Looked up, not kept: keeping it re-queried the broad phase on most downhill steps.
        gather_slopes(candidates, broad_phase, &wider, me, &mut scratch.nearby, slopes);
        scratch.slopes_area = wider;
        if slopes.len() != before {
            plan = plan_slope_movement(&start_box, v, intent, slopes, rules, body.max_gradient, dt);
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::super::settings::MoveSettings;
    use super::*;
    use crate::broad_phase::ColliderProxy;
    use crate::config::PhysicsConfig;
    use crate::geometry::SlopeShape;

    const DT: f32 = 0.01;

    fn rules() -> SlopeRules {
        SlopeRules::from_config(&PhysicsConfig::default())
    }

    fn slope(a: Vec2, b: Vec2, index: u32) -> SlopeRef {
        SlopeRef {
            entity: Entity::from_raw_u32(index).unwrap(),
            part: 0,
            shape: SlopeShape::new(a, b),
        }
    }

    /// A 16 × 16 box whose bottom-left corner is at (x, y).
    fn body(x: f32, y: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::splat(16.0))
    }

    #[test]
    fn a_jump_is_never_re_attached() {
        let s = [slope(Vec2::ZERO, Vec2::new(320.0, 160.0), 1)];
        let plan = plan_slope_movement(
            &body(84.0, 50.0),
            Vec2::new(48.0, 10.0),
            1.0,
            &s,
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope, None);
        assert_eq!(plan.velocity, Vec2::new(48.0, 10.0));
    }

    #[test]
    fn worked_example_in_pixels() {
        let s = [slope(Vec2::ZERO, Vec2::new(320.0, 160.0), 1)];
        let plan = plan_slope_movement(
            &body(84.0, 50.0),
            Vec2::new(48.0, -9.6),
            1.0,
            &s,
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope, Some(s[0]));
        assert!((plan.velocity.x - 32.0).abs() < 1e-4);
        assert!((plan.velocity.y - 16.0).abs() < 1e-3, "{}", plan.velocity.y);
        assert!((plan.planned_feet_y - 50.16).abs() < 1e-4);
    }

    #[test]
    fn a_body_without_vertical_velocity_follows_the_slope_too() {
        // No gravity (or exactly none this step): not moving up, so not a jump.
        let s = [slope(Vec2::ZERO, Vec2::new(320.0, 160.0), 1)];
        let plan = plan_slope_movement(
            &body(84.0, 50.0),
            Vec2::new(48.0, 0.0),
            1.0,
            &s,
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope, Some(s[0]));
        assert!((plan.planned_feet_y - 50.16).abs() < 1e-4, "{}", plan.planned_feet_y);
    }

    #[test]
    fn of_two_slopes_with_the_same_surface_the_first_listed_is_planned() {
        let first = slope(Vec2::ZERO, Vec2::new(320.0, 160.0), 1);
        let copy = slope(Vec2::ZERO, Vec2::new(320.0, 160.0), 2);
        for slopes in [[first, copy], [copy, first]] {
            let plan = plan_slope_movement(
                &body(84.0, 50.0),
                Vec2::new(48.0, -9.6),
                1.0,
                &slopes,
                &rules(),
                f32::INFINITY,
                DT,
            );
            assert_eq!(plan.slope, Some(slopes[0]));
        }
    }

    #[test]
    fn leaving_the_high_end_keeps_the_clamped_height() {
        let s = [slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 1)];
        // Right foot at 159.9: feet at 79.95; the step takes it past the end.
        let start_box = body(143.9, 79.95);
        let plan = plan_slope_movement(&start_box, Vec2::new(100.0, -9.6), 1.0, &s, &rules(), f32::INFINITY, DT);
        assert_eq!(plan.planned_feet_y, 80.0, "the end's height, not beyond");
    }

    #[test]
    fn a_falling_body_lands_on_the_highest_surface_reached() {
        let low = slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 1);
        let high = slope(Vec2::new(0.0, 100.0), Vec2::new(160.0, 20.0), 2);
        let start_box = body(72.0, 70.0);
        // Falling 40 px this step, to 30: it reaches both surfaces, the falling one's at 64 under
        // the left foot and the rising one's at 44 under the right foot. The higher one wins,
        // whichever is listed first.
        for slopes in [[low, high], [high, low]] {
            let plan = plan_slope_movement(
                &start_box,
                Vec2::new(0.0, -4000.0),
                0.0,
                &slopes,
                &rules(),
                f32::INFINITY,
                DT,
            );
            assert_eq!(plan.slope.map(|r| r.entity), Some(high.entity));
            assert!((plan.planned_feet_y - 64.0).abs() < 1e-4);
        }
        // Falling only to 50, it reaches the high one alone: the same answer, for the other reason.
        let plan = plan_slope_movement(
            &start_box,
            Vec2::new(0.0, -2000.0),
            0.0,
            &[low, high],
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope.map(|r| r.entity), Some(high.entity));
        // Falling to 30 past a lower surface alone, it lands on that one.
        let plan = plan_slope_movement(
            &start_box,
            Vec2::new(0.0, -4000.0),
            0.0,
            &[low],
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope.map(|r| r.entity), Some(low.entity));
        assert!((plan.planned_feet_y - 44.0).abs() < 1e-4);
    }

    #[test]
    fn a_slide_stopped_in_a_valley_stands_on_the_higher_side_where_it_is() {
        // A V-valley of gradient 0.5 each side, bottom at (0, 0), and a slope overhead. The body's
        // feet are on the left side; the right side is 0.05 px lower under its right foot, within
        // the contact tolerance, and listed first, so it is the current support.
        let left = slope(Vec2::new(-160.0, 80.0), Vec2::ZERO, 1);
        let right = slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 2);
        let overhead = slope(Vec2::new(-160.0, 200.0), Vec2::new(160.0, 220.0), 3);
        let rules = rules();
        assert!(0.05 < rules.contact_tolerance);
        let start_box = body(-8.05, 4.025);
        for slopes in [[right, left, overhead], [overhead, right, left]] {
            // No input, no speed: the passive slide down the right side would climb the left one.
            let plan = plan_slope_movement(
                &start_box,
                Vec2::new(0.0, -9.6),
                0.0,
                &slopes,
                &rules,
                f32::INFINITY,
                DT,
            );
            assert_eq!(plan.velocity.x, 0.0, "stopped");
            assert_eq!(plan.slope.map(|r| r.entity), Some(left.entity), "{slopes:?}");
            assert!(
                (plan.planned_feet_y - 4.025).abs() < 1e-4,
                "where it stands, not sunk onto the lower side: {}",
                plan.planned_feet_y
            );
            assert!(plan.velocity.y.abs() < 0.01, "{}", plan.velocity.y);
        }
    }

    #[test]
    fn of_two_equally_high_sides_a_slide_stopped_in_a_valley_stands_on_the_first_listed() {
        // The valley above, with the left side listed twice (two colliders, one surface).
        let left = slope(Vec2::new(-160.0, 80.0), Vec2::ZERO, 1);
        let copy = slope(Vec2::new(-160.0, 80.0), Vec2::ZERO, 4);
        let right = slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 2);
        let start_box = body(-8.05, 4.025);
        for slopes in [[right, left, copy], [right, copy, left]] {
            let plan = plan_slope_movement(
                &start_box,
                Vec2::new(0.0, -9.6),
                0.0,
                &slopes,
                &rules(),
                f32::INFINITY,
                DT,
            );
            assert_eq!(plan.velocity.x, 0.0, "stopped");
            assert_eq!(plan.slope.map(|r| r.entity), Some(slopes[1].entity), "{slopes:?}");
        }
    }

    #[test]
    fn a_passive_slide_that_keeps_its_height_is_not_stopped_as_in_a_valley() {
        // A body straddling a slope's high end, its right foot (where a slope rising right is
        // sampled) past the end: its feet stay at the end's height while it slides the first
        // pixels. That is not a climb: it slides on.
        let s = [slope(Vec2::ZERO, Vec2::new(64.0, 32.0), 1)];
        let plan = plan_slope_movement(
            &body(56.0, 32.0),
            Vec2::new(0.0, -9.6),
            0.0,
            &s,
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert!(plan.sliding);
        assert!(plan.velocity.x < 0.0, "downhill, to the left: {}", plan.velocity.x);
        assert_eq!(plan.slope, Some(s[0]));
        assert_eq!(plan.planned_feet_y, 32.0);
    }

    #[test]
    fn walking_down_into_a_valley_lands_on_the_far_side_where_it_is_higher() {
        // A V-valley of gradient 0.5, bottom at (0, 0). Feet on the left side at x = −20 (10 px
        // up), walking right fast: 15 px this step with the downhill factor. Where the step ends,
        // the far side's surface under the right foot (x = 11, 5.5) is above the near side's
        // under the left foot (x = −5, 2.5): the body lands on the far side.
        let near = slope(Vec2::new(-160.0, 80.0), Vec2::ZERO, 1);
        let far = slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 2);
        let plan = plan_slope_movement(
            &body(-20.0, 10.0),
            Vec2::new(1000.0, -9.6),
            1.0,
            &[near, far],
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope.map(|r| r.entity), Some(far.entity));
        assert!((plan.planned_feet_y - 5.5).abs() < 1e-4, "{}", plan.planned_feet_y);
    }

    #[test]
    fn walking_off_a_slopes_low_end_onto_a_steeper_slope_below_follows_the_steeper_one() {
        // A bend: gradient 0.5 down to (0, 32), then gradient 1 on down. Feet on both surfaces
        // (0.05 px over the steeper one's end, within the contact tolerance), the first slope the
        // current support. A step of 1.5 px leaves the first slope: the body follows the second
        // (its surface at x = 1.4 is 30.6) rather than floating on at the first's end height.
        let gentle = slope(Vec2::new(-64.0, 64.0), Vec2::new(0.0, 32.0), 1);
        let steep = slope(Vec2::new(0.0, 32.0), Vec2::new(32.0, 0.0), 2);
        let plan = plan_slope_movement(
            &body(-0.1, 32.05),
            Vec2::new(100.0, -9.6),
            1.0,
            &[gentle, steep],
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope.map(|r| r.entity), Some(steep.entity));
        assert!((plan.planned_feet_y - 30.6).abs() < 1e-4, "{}", plan.planned_feet_y);
    }

    #[test]
    fn the_plan_of_a_fast_body_entering_a_steep_valley_sees_the_far_side() {
        use crate::geometry::SlopeRise;

        // A V-valley of gradient 3 each side, bottom at (0, 0). A 12 × 24 body, feet on the near
        // side at x = −17 (51 px up), walking right at 300 px/s: the downhill factor (4) makes its
        // move 12 px, four times what its velocity sweeps, and that move reaches the far side,
        // which is then higher under its right foot (21 at x = 7) than the near side under its
        // left foot (15 at x = −5). The plan must have looked for slopes along that longer move.
        let config = PhysicsConfig::default();
        let settings = MoveSettings::new(&config, DT);
        let near = ColliderProxy {
            slope: Some(SlopeRise::Left),
            ..ColliderProxy::static_box(
                101,
                Aabb::from_min_size(Vec2::new(-160.0, 0.0), Vec2::new(160.0, 480.0)),
            )
        };
        let far = ColliderProxy {
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(102, Aabb::from_min_size(Vec2::ZERO, Vec2::new(160.0, 480.0)))
        };
        // (Entity indices apart from the world's own, which the body takes.)
        let mut broad_phase = BroadPhase::new(64.0);
        broad_phase.upsert(near);
        broad_phase.upsert(far);
        let position = Vec2::new(-11.0, 63.0);
        // Falling slowly, the planned move leaves the velocity's box downward and to the right;
        // falling fast (40 px this step), only to the right.
        for fall in [-9.6, -4000.0] {
            plan_into_the_valley(position, fall, far.entity, &broad_phase, &settings);
        }
    }

    fn plan_into_the_valley(position: Vec2, fall: f32, far: Entity, broad_phase: &BroadPhase, settings: &MoveSettings) {
        use super::super::body::{MoveScratch, MovementQuery};
        use crate::broad_phase::StaticCandidates;
        use crate::components::*;

        let mut world = World::new();
        let entity = world
            .spawn((
                Transform::from_translation(position.extend(0.0)),
                Collider::rectangle(12.0, 24.0),
                CollisionMode::Continuous,
                Velocity(Vec2::new(300.0, fall)),
                MovementInput {
                    horizontal: 1.0,
                    ..default()
                },
                MovementState {
                    start: position,
                    ..default()
                },
                StaticCandidates::default(),
                Contacts::default(),
            ))
            .id();
        let mut query = world.query::<MovementQuery>();
        let item = query.get_mut(&mut world, entity).unwrap();
        let me = ColliderProxy {
            entity,
            kind: BodyKind::Dynamic,
            ..ColliderProxy::static_box(0, Aabb::from_min_size(Vec2::new(-17.0, 51.0), Vec2::new(12.0, 24.0)))
        };
        let mut body = BodyView::new(item, Some(me));
        let plan = prepare_body(&mut body, broad_phase, settings, &mut MoveScratch::default());
        assert_eq!(plan.slope.map(|s| s.entity), Some(far), "{fall}");
        assert!((plan.planned_feet_y - 21.0).abs() < 1e-3, "{}", plan.planned_feet_y);
    }

    #[test]
    fn crossing_a_slope_from_below_is_not_a_landing() {
        let s = [slope(Vec2::ZERO, Vec2::new(160.0, 80.0), 1)];
        // Feet 10 px below the surface, falling: came from below, no support.
        let plan = plan_slope_movement(
            &body(72.0, 34.0),
            Vec2::new(0.0, -100.0),
            0.0,
            &s,
            &rules(),
            f32::INFINITY,
            DT,
        );
        assert_eq!(plan.slope, None);
    }
}
