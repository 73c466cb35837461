//! Interpolation between fixed steps (feature `interpolation`): what a 144 Hz display draws of a
//! body the 60 Hz physics moves, and teleports that snap instead of smearing.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;

use platformer_tests::physics::*;

/// A headless app stepping physics at 60 Hz and frames at 144 Hz, with a floor, and a body
/// walking right at 120 px/s on it (with `TransformInterpolation` if `eased`).
fn walker_at_144_hz(eased: bool) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(60.0)));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 144.0)));
    // What `App::run` does before the first frame: the easing plugin is added in `finish`.
    app.finish();
    app.cleanup();
    app.update();
    spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(10_000.0, 16.0));
    let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), CollisionMode::Continuous);
    if eased {
        app.world_mut().entity_mut(body).insert(TransformInterpolation);
    }
    walker(&mut app, body, 120.0);
    input(&mut app, body).horizontal = 1.0;
    // Up to speed.
    for _ in 0..60 {
        app.update();
    }
    (app, body)
}

/// The drawn x of `body` over `frames` frames (what `Update` and rendering see).
fn drawn_x(app: &mut App, body: Entity, frames: usize) -> Vec<f32> {
    (0..frames)
        .map(|_| {
            app.update();
            app.world().get::<Transform>(body).unwrap().translation.x
        })
        .collect()
}

#[test]
fn a_body_walking_at_constant_speed_advances_evenly_every_frame() {
    let (mut app, body) = walker_at_144_hz(true);
    let xs = drawn_x(&mut app, body, 144);
    let steps: Vec<f32> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    let per_frame = 120.0 / 144.0;
    for (frame, step) in steps.iter().enumerate() {
        assert!(
            (step - per_frame).abs() < 0.05 * per_frame,
            "frame {frame}: moved {step} px, not about {per_frame}: {steps:?}"
        );
    }
}

#[test]
fn without_interpolation_the_same_body_stutters() {
    // The baseline the test above would fail against: whole steps on some frames, none on others.
    let (mut app, body) = walker_at_144_hz(false);
    let xs = drawn_x(&mut app, body, 144);
    let still = xs.windows(2).filter(|w| w[1] == w[0]).count();
    assert!(still > 50, "{still} of 143 frames without motion");
}

#[test]
fn the_physics_sees_true_positions_not_drawn_ones() {
    let (mut eased, a) = walker_at_144_hz(true);
    let (mut plain, b) = walker_at_144_hz(false);
    for _ in 0..200 {
        eased.update();
        plain.update();
    }
    // Same steps, same true positions: the easing never feeds back into the simulation. (The
    // true position is the body's broad-phase box, what the step left.)
    assert_eq!(physics_box(&eased, a), physics_box(&plain, b));
}

/// Teleports `body` by `jump` in the fixed step, in the set `at` (relative to the physics step).
fn teleport_system(body: Entity, jump: Vec2) -> impl FnMut(Query<&mut Transform>, Local<u32>) {
    move |mut transforms, mut steps| {
        *steps += 1;
        if *steps == 30 {
            transforms.get_mut(body).unwrap().translation += jump.extend(0.0);
        }
    }
}

/// Checks over 200 frames that the body, walking at 120 px/s and teleported once by `jump` px,
/// is drawn at its walking pace on every frame but one, where it jumps the whole way at once.
fn assert_no_smear(app: &mut App, body: Entity, jump: f32, label: &str) {
    let xs = drawn_x(app, body, 200);
    let steps: Vec<f32> = xs.windows(2).map(|w| w[1] - w[0]).collect();
    let jumps: Vec<&f32> = steps.iter().filter(|s| s.abs() > 5.0).collect();
    assert_eq!(jumps.len(), 1, "{label}: one jump, not a smear over frames: {jumps:?}");
    assert!(
        (jumps[0] - jump).abs() < 5.0,
        "{label}: the jump is the teleport's {jump} px plus a frame's walk: {}",
        jumps[0]
    );
}

#[test]
fn a_teleport_in_the_fixed_step_snaps_instead_of_smearing() {
    for before_the_step in [true, false] {
        let label = if before_the_step {
            "before the step"
        } else {
            "after the step"
        };
        let (mut app, body) = walker_at_144_hz(true);
        let system = teleport_system(body, Vec2::new(500.0, 0.0));
        if before_the_step {
            app.add_systems(FixedUpdate, system.before(PlatformerSystems::SyncColliders));
        } else {
            app.add_systems(FixedUpdate, system.after(PlatformerSystems::ContactEvents));
        }
        assert_no_smear(&mut app, body, 500.0, label);
    }
}

#[test]
fn a_teleport_in_update_snaps_instead_of_smearing() {
    let (mut app, body) = walker_at_144_hz(true);
    let mut frames = 0;
    app.add_systems(Update, move |mut transforms: Query<&mut Transform>| {
        frames += 1;
        if frames == 70 {
            transforms.get_mut(body).unwrap().translation.x += 500.0;
        }
    });
    assert_no_smear(&mut app, body, 500.0, "in Update");
}
