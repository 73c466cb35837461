//! Collision layers and sensors, headless: the player meets the level and enemies, enemies meet
//! the level only, a coin is a sensor the player collects. Typed layers from `physics_layers!`.
//! `cargo run -p platformer_examples --example layers_and_sensors`

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::physics_layers;
use bevy_platformer_physics::prelude::*;

physics_layers! {
    /// What meets what.
    enum Layer {
        Level,
        Player,
        Enemy,
        Pickup,
    }
}

#[derive(Component)]
struct Coin;

#[derive(Resource, Default)]
struct Collected(u32);

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .init_resource::<Collected>()
        .add_systems(FixedUpdate, collect.after(PlatformerSystems::ContactEvents));
    app.update();
    let world = app.world_mut();
    world.spawn((
        Collider::rectangle(600.0, 16.0),
        Transform::from_xyz(0.0, -8.0, 0.0),
        CollisionLayers::from_layers(Layer::Level, [Layer::Player, Layer::Enemy]),
    ));
    let player = world
        .spawn((
            Dynamic,
            Collider::rectangle(12.0, 24.0),
            Transform::from_xyz(-100.0, 12.0, 0.0),
            CollisionLayers::from_layers(Layer::Player, [Layer::Level, Layer::Enemy, Layer::Pickup]),
        ))
        .id();
    // Two enemies walking through each other (they do not accept each other), toward the player.
    for x in [60.0, 80.0] {
        world.spawn((
            Dynamic,
            Collider::rectangle(12.0, 12.0),
            Transform::from_xyz(x, 6.0, 0.0),
            CollisionLayers::from_layers(Layer::Enemy, [Layer::Level, Layer::Player]),
            MovementInput {
                horizontal: -1.0,
                ..default()
            },
        ));
    }
    // A coin on the way: a sensor.
    world.spawn((
        Coin,
        Sensor,
        Collider::rectangle(8.0, 8.0),
        Transform::from_xyz(-60.0, 10.0, 0.0),
        CollisionLayers::from_layers(Layer::Pickup, Layer::Player),
    ));
    app.world_mut().get_mut::<MovementInput>(player).unwrap().horizontal = 1.0;
    for _ in 0..200 {
        app.update();
    }
    let collected = app.world().resource::<Collected>().0;
    let contacts = app.world().get::<Contacts>(player).unwrap();
    println!(
        "coins collected: {collected}; the player touches {} colliders",
        contacts.list.len()
    );
    assert_eq!(collected, 1);
    assert!(contacts.on_floor());
    assert!(
        contacts.on_wall(),
        "the enemies, which met each other not at all, stopped the player"
    );
}

fn collect(
    mut commands: Commands,
    mut started: MessageReader<ContactStarted>,
    coins: Query<(), With<Coin>>,
    mut collected: ResMut<Collected>,
) {
    for contact in started.read() {
        if coins.contains(contact.other) {
            commands.entity(contact.other).despawn();
            collected.0 += 1;
        }
    }
}
