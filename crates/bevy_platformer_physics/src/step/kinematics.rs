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
//! bodies: lifts* in `docs/physics-rules.md`).

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

use crate::broad_phase::{BodyKind, BroadPhase, ColliderProxy};
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStep};
use crate::geometry::{Aabb, Axis, axis_cast};
use crate::messages::Squished;

type KinematicData = (
    Entity,
    &'static mut Transform,
    &'static Collider,
    &'static Velocity,
    Option<&'static mut PathFollower>,
    Has<OneWayPlatform>,
);
type KinematicFilter = (With<Kinematic>, Without<Dynamic>, Without<Frozen>, Without<InvalidBody>);
type BodyData = (Entity, &'static mut Transform, &'static Collider, &'static Contacts);
type BodyFilter = (With<Dynamic>, Without<Kinematic>, Without<Frozen>, Without<InvalidBody>);

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
        if c.entity == ignore
            || c.sensor
            || c.slope.is_some()
            || !mover.interacts_with(c)
            || c.kind == BodyKind::Dynamic
        {
            continue;
        }
        // A one-way platform stops only a downward move that starts at or above its top.
        if c.one_way
            && !(axis == Axis::Y && amount < 0.0 && mover.aabb.min.y >= c.aabb.max.y - config.contact_tolerance())
        {
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

/// Moves every kinematic body and the bodies it carries or pushes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn move_kinematics(
    mut commands: Commands,
    step: Res<PhysicsStep>,
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
                let (moved, blocker) = cast_through_solids(&body, axis, distance, &nearby, kinematic, &config);
                body_transform.translation[axis.index()] += moved;
                let body_after = body_collider.aabb(body_transform.translation.truncate());
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
