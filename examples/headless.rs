//! Headless: a body falls onto a floor, walks onto a lift, and rides it. Prints the trajectory.
//! No window, no GPU: `cargo run -p platformer_examples --example headless`.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::prelude::*;

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)))
        // One fixed physics step per update, independent of the wall clock.
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();

    let world = app.world_mut();
    world.spawn((Collider::rectangle(200.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)));
    let mut path = PathFollower::new(
        vec![Vec2::new(124.0, -4.0), Vec2::new(124.0, 96.0)],
        40.0,
        PathMode::PingPong,
    )
    .with_wait(1.0);
    // Wait at the bottom until the player has walked on.
    path.wait_left = 1.5;
    let lift = world
        .spawn((
            Collider::rectangle(48.0, 8.0),
            Transform::from_xyz(124.0, -4.0, 0.0),
            path,
        ))
        .id();
    let player = world
        .spawn((
            Dynamic,
            Collider::rectangle(12.0, 24.0),
            Transform::from_xyz(60.0, 40.0, 0.0),
        ))
        .id();

    println!("step      x        y      vx      vy  on_floor  on_lift");
    for step in 0..=400 {
        // Walk right for a second, then stand still on the lift.
        app.world_mut().get_mut::<MovementInput>(player).unwrap().horizontal = if step < 45 { 1.0 } else { 0.0 };
        app.update();
        if step % 20 == 0 {
            let world = app.world();
            let position = world.get::<Transform>(player).unwrap().translation;
            let velocity = world.get::<Velocity>(player).unwrap().0;
            let contacts = world.get::<Contacts>(player).unwrap();
            println!(
                "{step:4} {:8.2} {:8.2} {:7.1} {:7.1}  {:8} {:8}",
                position.x,
                position.y,
                velocity.x,
                velocity.y,
                contacts.on_floor(),
                contacts.with(lift).is_some()
            );
        }
    }
}
