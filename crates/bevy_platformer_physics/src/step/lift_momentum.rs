//! What a body keeps of a lift's velocity ([`LiftMomentum`]): the lifts' velocities in this step are
//! measured around their move, and a body that stood on a lift in the latest step and stands on none
//! now takes the kept part of it; one that lands on a lift loses the lift's horizontal velocity from
//! its own (see *Kinematic bodies: lifts* in [the physics rules](crate::physics_rules)).

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

use crate::components::*;
use crate::config::PhysicsStepLength;
use crate::step::AwakeDynamic;

/// Where each kinematic body was before this step's move (only while a body keeps lift momentum).
#[derive(Resource, Default)]
pub(crate) struct LiftStarts(EntityHashMap<Vec2>);

type Lifts = (With<Kinematic>, Without<Dynamic>);

/// Notes where the kinematic bodies start the step.
pub(crate) fn note_lift_starts(
    mut starts: ResMut<LiftStarts>,
    keepers: Query<(), (With<LiftMomentum>, AwakeDynamic)>,
    lifts: Query<(Entity, &Transform), Lifts>,
) {
    starts.0.clear();
    if keepers.is_empty() {
        return;
    }
    starts
        .0
        .extend(lifts.iter().map(|(entity, at)| (entity, at.translation.truncate())));
}

/// `v` without the part of a lift's horizontal velocity `lift_x` pointing its way (never past zero).
fn without_lift_x(v: Vec2, lift_x: f32) -> Vec2 {
    if v.x * lift_x > 0.0 {
        Vec2::new(v.x.signum() * (v.x.abs() - lift_x.abs()).max(0.0), v.y)
    } else {
        v
    }
}

/// Gives a body that left its lift the kept part of the lift's velocity; takes the lift's velocity
/// off one that landed on a lift; remembers the ride.
pub(crate) fn keep_lift_momentum(
    step: Res<PhysicsStepLength>,
    starts: Res<LiftStarts>,
    lifts: Query<&Transform, Lifts>,
    mut bodies: Query<(&LiftMomentum, &mut LiftRide, &Contacts, &mut Velocity), AwakeDynamic>,
) {
    for (momentum, mut ride, contacts, mut velocity) in &mut bodies {
        let lift_velocity = |lift: Entity| {
            let (Ok(at), Some(start)) = (lifts.get(lift), starts.0.get(&lift)) else {
                return Vec2::ZERO;
            };
            let v = (at.translation.truncate() - *start) / step.dt;
            if v.is_finite() { v } else { Vec2::ZERO }
        };
        let now = contacts
            .solid_in(ContactDirection::Down)
            .find(|c| lifts.contains(c.entity))
            .map(|c| (c.entity, lift_velocity(c.entity)));
        match (ride.lift, now) {
            (Some(_), None) => velocity.0 += momentum.kept(ride.velocity),
            (before, Some((lift, v))) if before != Some(lift) && *momentum != LiftMomentum::None => {
                velocity.0 = without_lift_x(velocity.0, v.x);
            }
            _ => {}
        }
        *ride = LiftRide {
            lift: now.map(|(lift, _)| lift),
            velocity: now.map_or(Vec2::ZERO, |(_, v)| v),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_takes_off_the_lift_s_horizontal_velocity_only_where_it_points_the_same_way() {
        assert_eq!(without_lift_x(Vec2::new(80.0, -5.0), 60.0), Vec2::new(20.0, -5.0));
        assert_eq!(
            without_lift_x(Vec2::new(40.0, 0.0), 60.0),
            Vec2::ZERO,
            "never past zero"
        );
        assert_eq!(without_lift_x(Vec2::new(-40.0, 0.0), 60.0), Vec2::new(-40.0, 0.0));
        assert_eq!(without_lift_x(Vec2::new(-80.0, 0.0), -60.0), Vec2::new(-20.0, 0.0));
    }

    #[test]
    fn the_kept_part_is_as_configured() {
        let lift = Vec2::new(30.0, 40.0);
        assert_eq!(LiftMomentum::None.kept(lift), Vec2::ZERO);
        assert_eq!(LiftMomentum::Horizontal.kept(lift), Vec2::new(30.0, 0.0));
        assert_eq!(LiftMomentum::Full.kept(lift), lift);
    }
}
