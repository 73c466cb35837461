//! A window with a floor, a box, a lift and a one-way platform. Arrows or A/D walk, Space jumps,
//! Down + Space drops through the one-way platform. C, R and N toggle the debug overlay.
//!
//! `cargo run -p platformer_examples --features windowed --example minimal`

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_examples::{Player, player_input};

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PlatformerPhysicsPlugins::default()))
        .insert_resource(DebugOverlay {
            colliders: true,
            contacts: true,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(Update, player_input)
        .run();
}

fn block(commands: &mut Commands, center: Vec2, size: Vec2, color: Color) -> Entity {
    commands
        .spawn((
            Collider::rectangle(size.x, size.y),
            Sprite::from_color(color, size),
            Transform::from_translation(center.extend(0.0)),
        ))
        .id()
}

fn setup(mut commands: Commands) {
    commands.spawn((Camera2d, Transform::from_xyz(0.0, 80.0, 0.0)));
    let ground = Color::srgb(0.35, 0.25, 0.2);
    block(&mut commands, Vec2::new(0.0, -8.0), Vec2::new(640.0, 16.0), ground);
    block(&mut commands, Vec2::new(-200.0, 16.0), Vec2::new(32.0, 32.0), ground);
    let one_way = block(
        &mut commands,
        Vec2::new(-60.0, 60.0),
        Vec2::new(96.0, 6.0),
        Color::srgb(0.6, 0.5, 0.3),
    );
    commands.entity(one_way).insert(OneWayPlatform);
    commands.spawn((
        Collider::rectangle(48.0, 8.0),
        Sprite::from_color(Color::srgb(0.3, 0.5, 0.8), Vec2::new(48.0, 8.0)),
        Transform::from_xyz(120.0, 4.0, 0.0),
        PathFollower::new(
            vec![Vec2::new(120.0, 4.0), Vec2::new(120.0, 140.0)],
            50.0,
            PathMode::PingPong,
        )
        .with_wait(0.8),
    ));
    commands.spawn((
        Player { jump_speed: 420.0 },
        Dynamic,
        Collider::rectangle(12.0, 22.0),
        ObjectRect {
            size: Vec2::new(16.0, 24.0),
            offset: Vec2::new(0.0, 1.0),
        },
        Sprite::from_color(Color::srgb(0.9, 0.2, 0.2), Vec2::new(16.0, 24.0)),
        Transform::from_xyz(0.0, 40.0, 1.0),
    ));
}
