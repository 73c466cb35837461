//! Interpolation, headless: a body walks at 120 px/s, physics steps at 60 Hz, frames come at
//! 144 Hz. Prints what each frame would draw with `TransformInterpolation` and without it: even
//! steps against whole steps and standstills.
//! `cargo run -p platformer_examples --example interpolation`

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(60.0)))
        // The two walkers share the floor and pass through each other.
        .insert_resource(PhysicsConfig {
            body_collisions: BodyCollisions::Overlap,
            ..default()
        })
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 144.0)));
    // What `App::run` does before the first frame.
    app.finish();
    app.cleanup();
    app.update();
    let world = app.world_mut();
    world.spawn((Collider::rectangle(4000.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)));
    let walker = |eased: bool, world: &mut World| {
        let mut body = world.spawn((
            Dynamic,
            Collider::rectangle(12.0, 24.0),
            Transform::from_xyz(0.0, 12.0, 0.0),
            MovementTuning {
                acceleration: 1.0e6,
                max_speed: Vec2::new(120.0, 1000.0),
                ..default()
            },
            MovementInput {
                horizontal: 1.0,
                ..default()
            },
        ));
        if eased {
            body.insert(TransformInterpolation);
        }
        body.id()
    };
    let eased = walker(true, world);
    let plain = walker(false, world);
    for _ in 0..30 {
        app.update();
    }
    println!("frame   eased x (step)   plain x (step)");
    let x = |app: &App, e| app.world().get::<Transform>(e).unwrap().translation.x;
    let (mut last_eased, mut last_plain) = (x(&app, eased), x(&app, plain));
    let mut still = 0;
    for frame in 0..24 {
        app.update();
        let (e, p) = (x(&app, eased), x(&app, plain));
        println!(
            "{frame:5} {e:9.2} ({:4.2}) {p:10.2} ({:4.2})",
            e - last_eased,
            p - last_plain
        );
        assert!((e - last_eased - 120.0 / 144.0).abs() < 0.05, "eased: even steps");
        still += usize::from(p == last_plain);
        (last_eased, last_plain) = (e, p);
    }
    assert!(still > 5, "plain: frames with no motion at all");
}
