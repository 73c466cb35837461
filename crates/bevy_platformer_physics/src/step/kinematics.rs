//! Kinematics: kinematic bodies (lifts) move first, by their path or their velocity, and take the
//! dynamic bodies with them.
//!
//! Each kinematic moves along x, then along y (as Celeste's solids do). For each axis move:
//! - a dynamic body that the kinematic now overlaps is *pushed* out along the motion;
//! - otherwise a *rider* — a body whose latest contacts have it standing on this kinematic
//!   (a `Down` contact) — is *carried* by the exact displacement.
//!
//! Pushed and carried bodies move with an axis cast against the solids around them, so they are
//! never moved into a wall, floor or ceiling. A push that a solid blocks sends [`Squished`]; the body
//! stays flush against the solid. A one-way kinematic (a one-way lift) only pushes upward bodies
//! whose feet were at or above its top, so it never drags bodies up from below.
//!
//! Carrying means a rider need not switch to discrete resolution while riding: it is already flush
//! on the lift when its own move starts, which is what such a switch would achieve (see *Kinematic
//! bodies: lifts* in [the physics rules](crate::physics_rules)).

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::geometry::{Aabb, Axis, axis_cast};
use crate::messages::Squished;
use crate::schedule::{PlatformerSystems, physics_schedule};

type KinematicData = (
    Entity,
    &'static mut Transform,
    &'static Collider,
    &'static Velocity,
    Option<&'static mut PathFollower>,
    Has<OneWayPlatform>,
);
type KinematicFilter = (
    With<Kinematic>,
    Without<Dynamic>,
    Without<Frozen>,
    Without<InvalidBody>,
    Without<ColliderDisabled>,
);
type BodyData = (Entity, &'static mut Transform, &'static Collider, &'static Contacts);
type BodyFilter = (
    With<Dynamic>,
    Without<Kinematic>,
    Without<Frozen>,
    Without<InvalidBody>,
    Without<ColliderDisabled>,
);

/// How far a box can move along `axis` by `amount` through the solids in `candidates`, ignoring
/// `ignore` (the pusher) and the box's own entity. Returns the distance travelled (signed) and the
/// solid that stopped it.
pub(crate) fn cast_through_solids(
    mover: &ColliderProxy,
    axis: Axis,
    amount: f32,
    candidates: &[ColliderProxy],
    ignore: Entity,
    config: &PhysicsConfig,
) -> (f32, Option<Entity>) {
    let mut allowed = amount.abs();
    let mut blocker = None;
    for c in candidates {
        if c.entity == ignore || c.sensor || !mover.interacts_with(c) || c.kind == BodyKind::Dynamic {
            continue;
        }
        // A slope is a floor for a body over it that is pushed or carried down: its feet stop on
        // the surface. (Moved sideways, a body climbs it: see `climb_slopes`; moved up from
        // under one, it passes, as a jump does.)
        if let Some(shape) = c.slope_shape() {
            if axis == Axis::Y && amount < 0.0 && shape.overlaps_x(&mover.aabb) {
                let gap = mover.aabb.min.y - shape.surface_y(&mover.aabb);
                if gap >= -config.contact_tolerance() && gap.max(0.0) < allowed {
                    allowed = gap.max(0.0);
                    blocker = Some(c.entity);
                }
            }
            continue;
        }
        // A one-way platform stops only a downward move that starts at or above its top.
        if c.one_way
            && !(axis == Axis::Y && amount < 0.0 && mover.aabb.min.y >= c.aabb.max.y - config.contact_tolerance())
        {
            continue;
        }
        // A body already inside a solid (placed there, or pushed there by another lift) is not
        // pushed deeper into it, which would take it through to the far side: it stays.
        let i = axis.index();
        if mover.aabb.overlap(&c.aabb).min_element() > config.skin
            && (c.aabb.center()[i] - mover.aabb.center()[i]) * amount > 0.0
        {
            allowed = 0.0;
            blocker = Some(c.entity);
            continue;
        }
        if let Some(distance) = axis_cast(&mover.aabb, axis, amount, &c.aabb, config.skin)
            && distance < allowed
        {
            allowed = distance;
            blocker = Some(c.entity);
        }
    }
    (allowed.copysign(amount), blocker)
}

/// How far up a body pushed or carried sideways from `body.aabb` to `after` climbs to stay on the
/// surface of the slopes it was on or above, as walking would (left under the surface, it would
/// fall through the slope): 0 when it went under none; the slope when a solid leaves no room to
/// climb it.
fn slope_climb(
    body: &ColliderProxy,
    after: &Aabb,
    broad_phase: &BroadPhase,
    nearby: &mut Vec<ColliderProxy>,
    config: &PhysicsConfig,
) -> Result<f32, Entity> {
    let before = &body.aabb;
    let tolerance = config.contact_tolerance();
    broad_phase.query(&before.union(after), nearby);
    let Some((slope, climb)) = nearby
        .iter()
        .filter(|p| p.kind == BodyKind::Static && !p.sensor && body.interacts_with(p))
        .filter_map(|p| p.slope_shape().map(|shape| (p.entity, shape)))
        .filter(|(_, shape)| shape.overlaps_x(after) && before.min.y >= shape.surface_y(before) - tolerance)
        .map(|(entity, shape)| (entity, shape.surface_y(after) - after.min.y))
        .filter(|(_, climb)| *climb > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
    else {
        return Ok(0.0);
    };
    let climbed = after.translated(Vec2::new(0.0, climb));
    broad_phase.query(&climbed.union(after), nearby);
    let blocked = nearby
        .iter()
        .any(|p| p.entity != body.entity && p.is_solid_obstacle() && climbed.intersects(&p.aabb, config.skin));
    if blocked { Err(slope) } else { Ok(climb) }
}

/// Moves every kinematic body and the bodies it carries or pushes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn move_kinematics(
    mut commands: Commands,
    step: Res<PhysicsStepLength>,
    config: Res<PhysicsConfig>,
    mut broad_phase: ResMut<BroadPhase>,
    mut kinematics: Query<KinematicData, KinematicFilter>,
    mut bodies: Query<BodyData, BodyFilter>,
    mut squished: MessageWriter<Squished>,
    mut riders: Local<EntityHashMap<Vec<Entity>>>,
    mut nearby: Local<Vec<ColliderProxy>>,
    mut touched: Local<Vec<ColliderProxy>>,
) {
    let dt = step.dt;
    riders.values_mut().for_each(Vec::clear);
    // Without kinematic bodies there is nobody to look for riders for.
    if kinematics.is_empty() {
        return;
    }
    for (entity, _, _, contacts) in &bodies {
        if let Some(support) = contacts
            .solid_in(ContactDirection::Down)
            .find(|c| broad_phase.get(c.entity).is_some_and(|p| p.kind == BodyKind::Kinematic))
        {
            riders.entry(support.entity).or_default().push(entity);
        }
    }
    for (kinematic, mut transform, collider, velocity, path, one_way) in &mut kinematics {
        let start = transform.translation.truncate();
        let target = match path {
            Some(mut path) => path.advance(start, dt),
            None => start + velocity.0 * dt,
        };
        let displacement = target - start;
        if displacement == Vec2::ZERO || !displacement.is_finite() {
            continue;
        }
        let no_riders = Vec::new();
        let its_riders = riders.get(&kinematic).unwrap_or(&no_riders);
        let mut position = start;
        for axis in [Axis::X, Axis::Y] {
            let amount = displacement[axis.index()];
            if amount == 0.0 {
                continue;
            }
            let before = collider.aabb(position);
            position[axis.index()] += amount;
            let after = collider.aabb(position);
            broad_phase.set_aabb(kinematic, after);
            let Some(pusher) = broad_phase.get(kinematic).copied() else {
                continue;
            };
            broad_phase.query(&before.union(&after).grown(config.skin), &mut nearby);
            touched.clear();
            touched.extend(
                nearby
                    .iter()
                    .filter(|p| p.kind == BodyKind::Dynamic && !p.sensor && pusher.interacts_with(p)),
            );
            for &body in touched.iter() {
                let pushes = after.intersects(&body.aabb, config.skin)
                    && (!one_way
                        || (axis == Axis::Y
                            && amount > 0.0
                            && body.aabb.min.y >= before.max.y - config.contact_tolerance()));
                let distance = if pushes {
                    push_distance(&body.aabb, &after, axis, amount)
                } else if its_riders.contains(&body.entity) {
                    amount
                } else {
                    continue;
                };
                let Ok((_, mut body_transform, body_collider, _)) = bodies.get_mut(body.entity) else {
                    continue;
                };
                let area = body
                    .aabb
                    .union(&body.aabb.translated(axis.unit() * distance))
                    .grown(config.skin);
                broad_phase.query(&area, &mut nearby);
                let (mut moved, mut blocker) = cast_through_solids(&body, axis, distance, &nearby, kinematic, &config);
                let unmoved = body_transform.translation;
                body_transform.translation[axis.index()] += moved;
                let mut body_after = body_collider.aabb(body_transform.translation.truncate());
                if axis == Axis::X {
                    match slope_climb(&body, &body_after, &broad_phase, &mut nearby, &config) {
                        Ok(climb) => {
                            body_transform.translation.y += climb;
                            body_after = body_after.translated(Vec2::new(0.0, climb));
                        }
                        // No room to climb the slope it is pushed into: it stays.
                        Err(slope) => {
                            body_transform.translation = unmoved;
                            body_after = body_collider.aabb(unmoved.truncate());
                            moved = 0.0;
                            blocker = Some(slope);
                        }
                    }
                }
                broad_phase.set_aabb(body.entity, body_after);
                // Held back by a solid while the kinematic moved on into it: squeezed.
                if let Some(against) = blocker
                    && (distance - moved).abs() > config.skin
                    && body_after.intersects(&after, config.skin)
                {
                    let event = Squished {
                        entity: body.entity,
                        by: kinematic,
                        against,
                    };
                    squished.write(event);
                    commands.trigger(event);
                }
            }
        }
        transform.translation.x = position.x;
        transform.translation.y = position.y;
    }
}

/// The move along `axis` that takes `body` out of the pusher's box `pusher` moving by `amount`.
fn push_distance(body: &Aabb, pusher: &Aabb, axis: Axis, amount: f32) -> f32 {
    let i = axis.index();
    if amount > 0.0 {
        pusher.max[i] - body.min[i]
    } else {
        pusher.min[i] - body.max[i]
    }
}

/// Lifts and other kinematic bodies ([`PlatformerSystems::Kinematics`]).
pub struct KinematicsPlugin;

impl Plugin for KinematicsPlugin {
    fn build(&self, app: &mut App) {
        use super::lift_momentum::{LiftStarts, keep_lift_momentum, note_lift_starts};
        let schedule = physics_schedule(app);
        app.init_resource::<LiftStarts>().add_systems(
            schedule,
            (note_lift_starts, move_kinematics, keep_lift_momentum)
                .chain()
                .in_set(PlatformerSystems::Kinematics),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::SlopeRise;

    fn entity(index: u32) -> Entity {
        Entity::from_raw_u32(index).unwrap()
    }

    /// Asserts that a push went `distance` (signed) and was stopped by `by`.
    fn assert_stopped(result: (f32, Option<Entity>), distance: f32, by: Entity) {
        let (moved, blocker) = result;
        assert!((moved - distance).abs() < 1e-4, "{moved}");
        assert_eq!(blocker, Some(by));
    }

    fn dynamic(index: u32, min: Vec2, size: Vec2) -> ColliderProxy {
        ColliderProxy {
            kind: BodyKind::Dynamic,
            ..ColliderProxy::static_box(index, Aabb::from_min_size(min, size))
        }
    }

    #[test]
    fn a_body_sunk_into_the_lift_carrying_it_is_not_held_back_by_that_lift() {
        let config = PhysicsConfig::default();
        // A rider 0.5 px into its lift (more than the skin), left of the lift's centre, carried
        // right: the lift is behind it in the move's direction only by its centre, and it is the
        // pusher, so it never blocks.
        let lift = ColliderProxy {
            kind: BodyKind::Kinematic,
            ..ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(64.0, 16.0)))
        };
        let rider = dynamic(1, Vec2::new(4.0, 15.5), Vec2::new(12.0, 24.0));
        assert_eq!(
            cast_through_solids(&rider, Axis::X, 5.0, &[lift], lift.entity, &config),
            (5.0, None)
        );
        // Any other solid it is that deep in, ahead of its centre, holds it.
        let block = ColliderProxy::static_box(3, lift.aabb);
        assert_eq!(
            cast_through_solids(&rider, Axis::X, 5.0, &[block], lift.entity, &config),
            (0.0, Some(block.entity))
        );
    }

    #[test]
    fn of_two_slopes_that_stop_a_push_at_the_same_height_the_first_listed_is_named() {
        let config = PhysicsConfig::default();
        let rect = Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(64.0, 32.0));
        let slope = |index: u32| ColliderProxy {
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(index, rect)
        };
        // Feet 4 px over both copies of the same slope (the surface under the right foot, x = 20,
        // is at 10), pushed down 10 px.
        let body = dynamic(1, Vec2::new(8.0, 14.0), Vec2::new(12.0, 24.0));
        for (first, second) in [(slope(5), slope(6)), (slope(6), slope(5))] {
            let result = cast_through_solids(&body, Axis::Y, -10.0, &[first, second], entity(9), &config);
            assert_stopped(result, -4.0, first.entity);
        }
    }

    #[test]
    fn a_zero_push_is_held_back_by_nothing() {
        let config = PhysicsConfig::default();
        let body = dynamic(1, Vec2::new(0.0, 0.0), Vec2::new(12.0, 24.0));
        // Deep in a block whose centre is on its right: a push to the right would be held; no push
        // at all is not.
        let block = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(6.0, 0.0), Vec2::new(16.0, 16.0)));
        for axis in [Axis::X, Axis::Y] {
            assert_eq!(
                cast_through_solids(&body, axis, 0.0, &[block], entity(9), &config),
                (0.0, None),
                "{axis:?}"
            );
        }
        assert_eq!(
            cast_through_solids(&body, Axis::X, 1.0, &[block], entity(9), &config),
            (0.0, Some(block.entity))
        );
    }

    #[test]
    fn a_slope_stops_only_a_downward_push_of_a_body_over_it() {
        let config = PhysicsConfig::default();
        let slope = ColliderProxy {
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(64.0, 32.0)))
        };
        // Feet 4 px over the surface (10 under the right foot, x = 20).
        let body = dynamic(1, Vec2::new(8.0, 14.0), Vec2::new(12.0, 24.0));
        let result = cast_through_solids(&body, Axis::Y, -10.0, &[slope], entity(9), &config);
        assert_stopped(result, -4.0, slope.entity);
        // Up or sideways, a slope never stops a push (sideways the body climbs it afterwards).
        for (axis, amount) in [(Axis::Y, 10.0), (Axis::X, 10.0), (Axis::X, -10.0)] {
            assert_eq!(
                cast_through_solids(&body, axis, amount, &[slope], entity(9), &config),
                (amount, None),
                "{axis:?} {amount}"
            );
        }
    }

    #[test]
    fn a_one_way_platform_stops_only_a_downward_push_that_starts_at_or_above_its_top() {
        let config = PhysicsConfig::default();
        // Top at y = 108.
        let platform = ColliderProxy {
            one_way: true,
            ..ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::new(0.0, 100.0), Vec2::new(64.0, 8.0)))
        };
        let above = dynamic(1, Vec2::new(8.0, 112.0), Vec2::new(12.0, 24.0));
        let result = cast_through_solids(&above, Axis::Y, -10.0, &[platform], entity(9), &config);
        assert_stopped(result, -4.0, platform.entity);
        // From below, up through it.
        let below = dynamic(1, Vec2::new(8.0, 76.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            cast_through_solids(&below, Axis::Y, 10.0, &[platform], entity(9), &config),
            (10.0, None)
        );
        // From the side, feet a little under its top (within the contact tolerance): through it.
        let beside = dynamic(1, Vec2::new(-12.0, 107.9), Vec2::new(12.0, 24.0));
        assert_eq!(
            cast_through_solids(&beside, Axis::X, 10.0, &[platform], entity(9), &config),
            (10.0, None)
        );
    }

    #[test]
    fn a_body_resting_a_skin_deep_in_a_floor_is_pushed_along_it() {
        let config = PhysicsConfig::default();
        // Feet exactly a skin under the floor's top (a rounding margin: resting on it), the
        // floor's centre ahead of the body's: pushed right, it slides along the floor.
        let floor = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(0.0, -16.0), Vec2::new(64.0, 16.0)));
        let body = dynamic(1, Vec2::new(20.0, -config.skin), Vec2::new(12.0, 24.0));
        assert_eq!(body.aabb.overlap(&floor.aabb).y, config.skin);
        assert_eq!(
            cast_through_solids(&body, Axis::X, 5.0, &[floor], entity(9), &config),
            (5.0, None)
        );
    }

    #[test]
    fn a_body_standing_on_a_one_way_platform_is_not_pushed_down_through_it() {
        let config = PhysicsConfig::default();
        // Top at y = 108, the feet on it: a downward push (a lift above, a rider carried down)
        // stops at once.
        let platform = ColliderProxy {
            one_way: true,
            ..ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::new(0.0, 100.0), Vec2::new(64.0, 8.0)))
        };
        let on = dynamic(1, Vec2::new(8.0, 108.0), Vec2::new(12.0, 24.0));
        let result = cast_through_solids(&on, Axis::Y, -10.0, &[platform], entity(9), &config);
        assert_stopped(result, 0.0, platform.entity);
    }

    #[test]
    fn of_two_solids_that_stop_a_push_at_the_same_distance_the_first_listed_is_named() {
        let config = PhysicsConfig::default();
        // Two floor blocks side by side, the body over their seam, 4 px up, pushed down 10 px.
        let left = ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::ZERO, Vec2::splat(16.0)));
        let right = ColliderProxy::static_box(6, Aabb::from_min_size(Vec2::new(16.0, 0.0), Vec2::splat(16.0)));
        let body = dynamic(1, Vec2::new(10.0, 20.0), Vec2::new(12.0, 24.0));
        for (first, second) in [(left, right), (right, left)] {
            let result = cast_through_solids(&body, Axis::Y, -10.0, &[first, second], entity(9), &config);
            assert_stopped(result, -4.0, first.entity);
        }
    }

    /// A broad phase holding `proxies`.
    fn broad_phase_of(proxies: &[ColliderProxy]) -> BroadPhase {
        let mut broad_phase = BroadPhase::new(64.0);
        for &p in proxies {
            broad_phase.upsert(p);
        }
        broad_phase
    }

    #[test]
    fn a_body_pushed_sideways_under_a_slope_is_not_lifted_onto_it() {
        let config = PhysicsConfig::default();
        // A ramp from (0, 0) to (160, 80), the body under its surface (26 px up at its right
        // foot): it came up through it, as a jump does, and stands on the ground below.
        let ramp = ColliderProxy {
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::ZERO, Vec2::new(160.0, 80.0)))
        };
        let broad_phase = broad_phase_of(&[ramp]);
        let body = dynamic(1, Vec2::new(40.0, 0.0), Vec2::new(12.0, 24.0));
        let after = body.aabb.translated(Vec2::new(5.0, 0.0));
        let climb = slope_climb(&body, &after, &broad_phase, &mut Vec::new(), &config);
        assert_eq!(climb, Ok(0.0));
    }

    #[test]
    fn a_body_whose_feet_end_exactly_on_a_slope_climbs_nothing_and_is_not_held_back() {
        let config = PhysicsConfig::default();
        // Gradient 0.5 rising right: the surface under the right foot at x = 32 is at 16, where
        // the body, carried 4 px right, ends. It is sunk 0.5 px into the lift carrying it, so a
        // climb (of 0 px) would find the lift in the way.
        let ramp = ColliderProxy {
            slope: Some(SlopeRise::Right),
            ..ColliderProxy::static_box(5, Aabb::from_min_size(Vec2::ZERO, Vec2::new(160.0, 80.0)))
        };
        let lift = ColliderProxy {
            kind: BodyKind::Kinematic,
            ..ColliderProxy::static_box(6, Aabb::from_min_size(Vec2::new(10.0, 0.0), Vec2::new(32.0, 16.5)))
        };
        let broad_phase = broad_phase_of(&[ramp, lift]);
        let body = dynamic(1, Vec2::new(16.0, 16.0), Vec2::new(12.0, 24.0));
        let after = body.aabb.translated(Vec2::new(4.0, 0.0));
        assert_eq!(ramp.slope_shape().unwrap().surface_y(&after), 16.0);
        let climb = slope_climb(&body, &after, &broad_phase, &mut Vec::new(), &config);
        assert_eq!(climb, Ok(0.0));
    }

    #[test]
    fn a_body_centred_in_a_solid_on_the_push_axis_is_pushed_on() {
        let config = PhysicsConfig::default();
        // Either way leads out of the block, so neither way is deeper into it.
        let block = ColliderProxy::static_box(2, Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(32.0, 32.0)));
        let body = dynamic(1, Vec2::new(10.0, 4.0), Vec2::new(12.0, 24.0));
        for amount in [5.0, -5.0] {
            assert_eq!(
                cast_through_solids(&body, Axis::X, amount, &[block], entity(9), &config),
                (amount, None)
            );
        }
    }
}
