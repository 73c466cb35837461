//! Your own controller, headless: a body driven by writing its `Velocity` before the step. The
//! plugin's own controller (`MovementTuning`) is switched off but for gravity; the plugin still moves
//! the body through the level: it climbs a slope at the slope's speed factor, stops at a wall,
//! and writes back the velocity it ended with.
//! `cargo run -p platformer_examples --example custom_controller`

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;

/// A dash controller: full speed at once, and a 0.1 s dash every half second on the ground.
#[derive(Component)]
struct Dasher {
    speed: f32,
    dash_speed: f32,
    clock: f32,
}

fn dash(time: Res<Time>, mut bodies: Query<(&mut Dasher, &mut Velocity, &Contacts)>) {
    for (mut dasher, mut velocity, contacts) in &mut bodies {
        dasher.clock = (dasher.clock + time.delta_secs()) % 0.5;
        // What the game sets: the horizontal speed it wants this step (gravity stays the
        // plugin's, so v.y is left alone).
        velocity.x = if dasher.clock < 0.1 && contacts.on_floor() {
            dasher.dash_speed
        } else {
            dasher.speed
        };
    }
}

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .add_systems(FixedUpdate, dash.before(PlatformerSystems::SyncColliders));
    app.update();
    let world = app.world_mut();
    world.spawn((Collider::rectangle(800.0, 16.0), Transform::from_xyz(200.0, -8.0, 0.0)));
    world.spawn((
        SlopeSegment::new(Vec2::new(100.0, 0.0), Vec2::new(228.0, 64.0)),
        Transform::default(),
    ));
    // A block continuing the slope's top up to the wall.
    world.spawn((Collider::rectangle(164.0, 64.0), Transform::from_xyz(310.0, 32.0, 0.0)));
    world.spawn((Collider::rectangle(16.0, 200.0), Transform::from_xyz(400.0, 100.0, 0.0)));
    let body = world
        .spawn((
            Dynamic,
            Collider::rectangle(12.0, 24.0),
            Transform::from_xyz(0.0, 12.0, 0.0),
            Dasher {
                speed: 100.0,
                dash_speed: 400.0,
                clock: 0.0,
            },
            // The plugin's controller off: no acceleration or friction toward an input, the
            // speed clipped only far above what the dasher sets.
            MovementTuning {
                acceleration: 0.0,
                deceleration: 0.0,
                skid_deceleration: 0.0,
                max_speed: Vec2::new(1000.0, 1000.0),
                ..default()
            },
        ))
        .id();
    println!("step      x      y     vx  on_floor on_wall");
    for step in 0..=600 {
        app.update();
        let world = app.world();
        let p = world.get::<Transform>(body).unwrap().translation;
        let v = world.get::<Velocity>(body).unwrap().0;
        let contacts = world.get::<Contacts>(body).unwrap();
        if step % 50 == 0 {
            println!(
                "{step:4} {:6.1} {:6.1} {:6.1} {:8} {:7}",
                p.x,
                p.y,
                v.x,
                contacts.on_floor(),
                contacts.on_wall()
            );
        }
    }
    let world = app.world();
    let p = world.get::<Transform>(body).unwrap().translation;
    let contacts = world.get::<Contacts>(body).unwrap();
    assert!((p.x - (392.0 - 6.0)).abs() < 0.01, "stopped against the wall: {}", p.x);
    assert!((p.y - 76.0).abs() < 0.01, "on the block at the slope's top: {}", p.y);
    assert!(contacts.on_wall() && contacts.on_floor());
}
