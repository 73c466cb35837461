//! Integrate: semi-implicit Euler on velocities: gravity, input acceleration, friction and skid, the
//! jump impulse, clipping and the snap to rest (see *Velocity integration* in
//! [the physics rules](crate::physics_rules)). Positions are moved once, later, by the Resolve stage.

use bevy::prelude::*;

use crate::broad_phase::BroadPhase;
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::schedule::{PlatformerSystems, physics_schedule};
use crate::step::AwakeDynamic;

/// The new velocity of a body after `dt` seconds. `supported`: the body stood on something solid at
/// the end of the previous step (a jump needs it).
pub fn integrate_velocity(
    velocity: Vec2,
    movement: &MovementTuning,
    input: &MovementInput,
    supported: bool,
    gravity: Vec2,
    dt: f32,
) -> Vec2 {
    let mut v = velocity + gravity * movement.gravity_scale * dt;
    let intent = if input.horizontal.is_finite() {
        input.horizontal.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    if intent != 0.0 {
        let reversing = v.x != 0.0 && v.x.signum() != intent.signum();
        let rate = if reversing {
            movement.skid_deceleration
        } else {
            movement.acceleration
        };
        v.x += intent * rate * dt;
    } else {
        // Friction toward rest, never past it.
        let braking = movement.deceleration * dt;
        v.x = if v.x.abs() <= braking {
            0.0
        } else {
            v.x - v.x.signum() * braking
        };
    }
    if let Some(speed) = input.jump
        && supported
        && speed.is_finite()
    {
        v.y = speed;
    }
    v = v.clamp(-movement.max_speed.abs(), movement.max_speed.abs());
    if intent == 0.0 && v.x.abs() < movement.min_speed {
        v.x = 0.0;
    }
    v
}

/// Integrates every awake dynamic body, consumes its one-shot requests.
pub(crate) fn integrate(
    step: Res<PhysicsStepLength>,
    config: Res<PhysicsConfig>,
    broad_phase: Res<BroadPhase>,
    mut bodies: Query<
        (
            &mut Velocity,
            &MovementTuning,
            &mut MovementInput,
            &Contacts,
            &mut MovementState,
        ),
        AwakeDynamic,
    >,
) {
    for (mut velocity, movement, mut input, contacts, mut state) in &mut bodies {
        let supported = contacts.on_floor();
        state.started_on_floor = supported;
        velocity.0 = integrate_velocity(velocity.0, movement, &input, supported, config.gravity, step.dt);
        if input.drop_through {
            for contact in contacts.solid_in(ContactDirection::Down) {
                let platform = (contact.entity, contact.part);
                let one_way = broad_phase
                    .piece(contact.entity, contact.part)
                    .is_some_and(|p| p.one_way);
                if one_way && !state.dropping_through.contains(&platform) {
                    state.dropping_through.push(platform);
                }
            }
        }
        if input.jump.is_some() || input.drop_through {
            input.jump = None;
            input.drop_through = false;
        }
    }
}

/// Velocity integration ([`PlatformerSystems::Integrate`]).
pub struct IntegratePlugin;

impl Plugin for IntegratePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(physics_schedule(app), integrate.in_set(PlatformerSystems::Integrate));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 0.01;

    fn walker() -> MovementTuning {
        MovementTuning {
            acceleration: 100.0,
            deceleration: 50.0,
            skid_deceleration: 400.0,
            max_speed: Vec2::new(20.0, 500.0),
            min_speed: 1.0,
            gravity_scale: 1.0,
        }
    }

    fn input(horizontal: f32) -> MovementInput {
        MovementInput {
            horizontal,
            ..default()
        }
    }

    #[test]
    fn gravity_is_scaled_and_applied_before_the_move() {
        let mut m = walker();
        m.gravity_scale = 0.5;
        let v = integrate_velocity(Vec2::ZERO, &m, &input(0.0), false, Vec2::new(0.0, -1000.0), DT);
        assert_eq!(v, Vec2::new(0.0, -5.0));
    }

    #[test]
    fn accelerates_with_input_and_clips_at_max_speed() {
        let v = integrate_velocity(Vec2::ZERO, &walker(), &input(1.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 1.0);
        let v = integrate_velocity(Vec2::new(19.5, 0.0), &walker(), &input(1.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 20.0);
        let v = integrate_velocity(Vec2::new(0.0, -900.0), &walker(), &input(0.0), false, Vec2::ZERO, DT);
        assert_eq!(v.y, -500.0, "fall speed clipped");
    }

    #[test]
    fn friction_stops_without_reversing() {
        let v = integrate_velocity(Vec2::new(10.0, 0.0), &walker(), &input(0.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 9.5);
        let v = integrate_velocity(Vec2::new(0.3, 0.0), &walker(), &input(0.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 0.0);
        let v = integrate_velocity(Vec2::new(-1.2, 0.0), &walker(), &input(0.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 0.0, "below min speed snaps to rest");
    }

    #[test]
    fn a_speed_of_exactly_the_minimum_is_kept() {
        let coasting = MovementTuning {
            deceleration: 0.0,
            ..walker()
        };
        let v = integrate_velocity(Vec2::new(-1.0, 0.0), &coasting, &input(0.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, -1.0, "only a speed below min_speed snaps to rest");
    }

    #[test]
    fn reversing_skids_harder_than_accelerating() {
        let v = integrate_velocity(Vec2::new(10.0, 0.0), &walker(), &input(-1.0), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 6.0);
    }

    #[test]
    fn jump_needs_support() {
        let jump = MovementInput {
            jump: Some(300.0),
            ..default()
        };
        assert_eq!(
            integrate_velocity(Vec2::ZERO, &walker(), &jump, true, Vec2::ZERO, DT).y,
            300.0
        );
        assert_eq!(
            integrate_velocity(Vec2::ZERO, &walker(), &jump, false, Vec2::ZERO, DT).y,
            0.0
        );
    }

    #[test]
    fn nan_input_is_no_input() {
        let v = integrate_velocity(Vec2::new(10.0, 0.0), &walker(), &input(f32::NAN), false, Vec2::ZERO, DT);
        assert_eq!(v.x, 9.5);
    }
}
