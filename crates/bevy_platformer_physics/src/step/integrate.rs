//! Integrate: semi-implicit Euler on velocities: gravity, input acceleration, friction and skid, the
//! jump impulse, clipping and the snap to rest (see *Velocity integration* in
//! [the physics rules](crate::physics_rules)). Positions are moved once, later, by the Resolve stage.

use bevy::prelude::*;

use crate::broad_phase::BroadPhase;
use crate::components::*;
use crate::config::{PhysicsConfig, PhysicsStepLength};
use crate::messages::{EnteredFluid, LeftFluid};
use crate::schedule::{PlatformerSystems, physics_schedule};
use crate::step::AwakeDynamic;
use crate::step::climb::climb_ladders;

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
    let intent = input.horizontal_intent();
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

/// The jump a body with [`JumpTuning`] asks for this step (the one asked now, or one buffered
/// within [`JumpTuning::jump_buffer`]), and whether it may jump: supported, or within
/// [`JumpTuning::coyote_time`] of its last support without having jumped since. Updates `state`.
pub(crate) fn forgiving_jump(
    tuning: &JumpTuning,
    state: &mut JumpState,
    input: &MovementInput,
    supported: bool,
    dt: f32,
) -> (Option<f32>, bool) {
    if supported {
        state.unsupported_for = 0.0;
        state.jumped = false;
    } else {
        state.unsupported_for += dt;
    }
    // A buffered jump ages; one asked now replaces it.
    state.buffered = match (input.jump.filter(|s| s.is_finite()), state.buffered) {
        (Some(speed), _) => Some((speed, 0.0)),
        (None, Some((speed, age))) if age + dt <= tuning.jump_buffer + f32::EPSILON => Some((speed, age + dt)),
        (None, _) => None,
    };
    let coyote = !state.jumped && state.unsupported_for <= tuning.coyote_time + f32::EPSILON;
    (state.buffered.map(|(speed, _)| speed), supported || coyote)
}

/// `v` with its rise cut by [`JumpTuning::release_cut`] when the jump button was released while the
/// body rises from its own jump.
fn cut_released_jump(tuning: &JumpTuning, state: &JumpState, input: &MovementInput, v: Vec2) -> Vec2 {
    if input.jump_released && state.jumped && v.y > 0.0 {
        Vec2::new(v.x, v.y * tuning.release_cut.clamp(0.0, 1.0))
    } else {
        v
    }
}

/// The direction away from the wall a body pressed against in the latest step (+1: the wall is on
/// its left), if it touched walls on one side only.
fn away_from_wall(contacts: &Contacts) -> Option<f32> {
    let left = contacts.solid_in(ContactDirection::Left).next().is_some();
    let right = contacts.solid_in(ContactDirection::Right).next().is_some();
    match (left, right) {
        (true, false) => Some(1.0),
        (false, true) => Some(-1.0),
        _ => None,
    }
}

/// The fluid zone a body's latest contacts touch (the first listed), if any.
pub(crate) fn fluid_of<'a>(contacts: &Contacts, zones: &'a Query<&FluidZone>) -> Option<(Entity, &'a FluidZone)> {
    contacts
        .iter()
        .filter(|c| c.sensor)
        .find_map(|c| zones.get(c.entity).ok().map(|zone| (c.entity, zone)))
}

/// Marks the bodies in a fluid zone ([`InFluid`]) and says when one enters or leaves one.
pub(crate) fn follow_fluids(
    mut commands: Commands,
    zones: Query<&FluidZone>,
    bodies: Query<(Entity, &Contacts, Option<&InFluid>), AwakeDynamic>,
    in_fluid: Query<(), With<InFluid>>,
    mut entered: MessageWriter<EnteredFluid>,
    mut left: MessageWriter<LeftFluid>,
) {
    if zones.is_empty() && in_fluid.is_empty() {
        return;
    }
    for (entity, contacts, was) in &bodies {
        let now = fluid_of(contacts, &zones).map(|(zone, _)| zone);
        let before = was.map(|f| f.0);
        if now == before {
            continue;
        }
        if let Some(zone) = before {
            let event = LeftFluid { entity, zone };
            left.write(event);
            commands.trigger(event);
        }
        match now {
            Some(zone) => {
                commands.entity(entity).insert(InFluid(zone));
                let event = EnteredFluid { entity, zone };
                entered.write(event);
                commands.trigger(event);
            }
            None => {
                commands.entity(entity).remove::<InFluid>();
            }
        }
    }
}

/// What Integrate reads and writes of a body.
type IntegratedBody = (
    &'static mut Velocity,
    &'static MovementTuning,
    &'static mut MovementInput,
    &'static Contacts,
    &'static mut MovementState,
    Option<(&'static JumpTuning, &'static mut JumpState)>,
    Option<&'static WallJumpTuning>,
    Option<(&'static Climber, &'static mut ClimbState)>,
);

/// Integrates every awake dynamic body, consumes its one-shot requests.
pub(crate) fn integrate(
    step: Res<PhysicsStepLength>,
    config: Res<PhysicsConfig>,
    broad_phase: Res<BroadPhase>,
    mut bodies: Query<IntegratedBody, AwakeDynamic>,
    zones: Query<&FluidZone>,
) {
    let no_zones = zones.is_empty();
    for (mut velocity, movement, mut input, contacts, mut state, mut jump, wall_jump, mut climb) in &mut bodies {
        let supported = contacts.on_floor();
        state.started_on_floor = supported;
        let (asked, may_jump) = match jump.as_mut() {
            Some((tuning, jump_state)) => forgiving_jump(tuning, jump_state, &input, supported, step.dt),
            None => (input.jump, supported),
        };
        let asked_input = MovementInput { jump: asked, ..*input };
        let climbing = climb
            .as_ref()
            .filter(|(_, c)| c.climbing())
            .map(|(climber, c)| (climber.speed, c.to_centre));
        let fluid = if no_zones { None } else { fluid_of(contacts, &zones) };
        let mut v = match fluid {
            None if climbing.is_some() => {
                // On a ladder: no gravity, and a climbing body may always jump off.
                let no_gravity = MovementTuning {
                    gravity_scale: 0.0,
                    ..*movement
                };
                integrate_velocity(velocity.0, &no_gravity, &asked_input, true, config.gravity, step.dt)
            }
            None => integrate_velocity(velocity.0, movement, &asked_input, may_jump, config.gravity, step.dt),
            Some((_, zone)) => {
                let in_fluid = MovementTuning {
                    gravity_scale: movement.gravity_scale * zone.gravity_scale,
                    ..*movement
                };
                let v = integrate_velocity(velocity.0, &in_fluid, &asked_input, may_jump, config.gravity, step.dt);
                zone.slow(v, step.dt)
            }
        };
        let wants_jump = asked.is_some_and(f32::is_finite);
        let mut jumped = wants_jump && (may_jump || climbing.is_some());
        if let Some((speed, to_centre)) = climbing {
            if jumped {
                // A jump ends the climb; the ladder's top holds the body again.
                if let Some((_, climb)) = climb.as_mut()
                    && let Some(ladder) = climb.ladder.take()
                {
                    state.dropping_through.retain(|&(entity, _)| entity != ladder);
                }
            } else {
                v.y = input.climb_intent() * speed;
                if input.horizontal_intent() == 0.0 {
                    v.x = to_centre;
                }
            }
        }
        // Lazily: most bodies have no `WallJumpTuning`, and the contacts are not read for them.
        let on_wall = wall_jump
            .filter(|_| !supported)
            .and_then(|tuning| away_from_wall(contacts).map(|away| (tuning, away)));
        if let Some((tuning, away)) = on_wall {
            if wants_jump && !jumped {
                let max = movement.max_speed.abs();
                v = Vec2::new(away * tuning.jump.x, tuning.jump.y).clamp(-max, max);
                jumped = true;
            } else if v.y < -tuning.max_slide_speed.abs() {
                v.y = -tuning.max_slide_speed.abs();
            }
        }
        if let Some((tuning, mut jump_state)) = jump {
            if jumped {
                jump_state.jumped = true;
                jump_state.buffered = None;
            }
            v = cut_released_jump(tuning, &jump_state, &input, v);
        }
        velocity.0 = v;
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
        if input.jump.is_some() || input.drop_through || input.jump_released {
            input.jump = None;
            input.drop_through = false;
            input.jump_released = false;
        }
    }
}

/// Velocity integration ([`PlatformerSystems::Integrate`]).
pub struct IntegratePlugin;

impl Plugin for IntegratePlugin {
    fn build(&self, app: &mut App) {
        let schedule = physics_schedule(app);
        app.add_systems(
            schedule,
            (climb_ladders.before(integrate), integrate, follow_fluids).in_set(PlatformerSystems::Integrate),
        );
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

    fn asking(jump: Option<f32>) -> MovementInput {
        MovementInput { jump, ..default() }
    }

    #[test]
    fn coyote_time_counts_from_the_last_supported_step_and_gives_one_jump() {
        let tuning = JumpTuning {
            coyote_time: 0.05,
            ..default()
        };
        let mut state = JumpState::default();
        assert_eq!(
            forgiving_jump(&tuning, &mut state, &asking(None), true, DT),
            (None, true)
        );
        for _ in 0..5 {
            let (_, may) = forgiving_jump(&tuning, &mut state, &asking(None), false, DT);
            assert!(may, "within {} s", state.unsupported_for);
        }
        let (_, may) = forgiving_jump(&tuning, &mut state, &asking(None), false, DT);
        assert!(!may, "past it: {} s", state.unsupported_for);
        let mut state = JumpState::default();
        forgiving_jump(&tuning, &mut state, &asking(None), true, DT);
        state.jumped = true;
        let (_, may) = forgiving_jump(&tuning, &mut state, &asking(Some(1.0)), false, DT);
        assert!(!may, "jumped already");
    }

    #[test]
    fn a_buffered_jump_waits_its_time_and_a_new_one_replaces_it() {
        let tuning = JumpTuning {
            jump_buffer: 0.03,
            coyote_time: 0.0,
            ..default()
        };
        let mut state = JumpState {
            jumped: true,
            ..default()
        };
        assert_eq!(
            forgiving_jump(&tuning, &mut state, &asking(Some(5.0)), false, DT),
            (Some(5.0), false)
        );
        for _ in 0..3 {
            assert_eq!(
                forgiving_jump(&tuning, &mut state, &asking(None), false, DT).0,
                Some(5.0)
            );
        }
        assert_eq!(
            forgiving_jump(&tuning, &mut state, &asking(None), false, DT).0,
            None,
            "expired"
        );
        forgiving_jump(&tuning, &mut state, &asking(Some(5.0)), false, DT);
        assert_eq!(
            forgiving_jump(&tuning, &mut state, &asking(Some(7.0)), true, DT),
            (Some(7.0), true)
        );
        assert_eq!(
            forgiving_jump(&tuning, &mut state, &asking(Some(f32::NAN)), true, DT).0,
            Some(7.0),
            "a speed that is not a number is no request"
        );
    }
}
