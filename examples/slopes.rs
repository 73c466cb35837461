//! A slope playground with every shape the slope rules of the plugin's physics rules (`bevy_platformer_physics::physics_rules`) cover: floor →
//! slope → top block both ways, a V valley and a V with a flat bottom, a crest, gradients 0.25 to
//! 3, a wall on a slope, a ceiling over a climb, a one-way platform above a slope and a trigger on
//! a slope.
//!
//! Arrows or A/D walk, Space jumps, Down + Space drops through. Stand still on a slope to slide.
//! C, R and N toggle the overlay (colliders and slopes, object rects, contacts and foot samples).
//!
//! `cargo run -p platformer_examples --features windowed --example slopes`

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_examples::{FollowPlayer, Player, follow_player, player_input};

const BLOCK: f32 = 16.0;

#[derive(Component)]
struct TriggerSign;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PlatformerPhysicsPlugins::default()))
        .insert_resource(DebugOverlay {
            colliders: true,
            contacts: true,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(Update, (player_input, follow_player, show_trigger))
        .run();
}

fn block(commands: &mut Commands, min: Vec2, size: Vec2) -> Entity {
    commands
        .spawn((
            Collider::rectangle(size.x, size.y),
            Sprite::from_color(Color::srgb(0.35, 0.27, 0.2), size),
            Transform::from_translation((min + size * 0.5).extend(0.0)),
        ))
        .id()
}

fn slope(commands: &mut Commands, a: Vec2, b: Vec2) {
    commands.spawn((SlopeSegment::new(a, b), Transform::default()));
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Transform::from_xyz(0.0, 100.0, 0.0),
        FollowPlayer { above: 60.0 },
    ));
    let ground = |x0: f32, x1: f32| (Vec2::new(x0, -BLOCK), Vec2::new(x1 - x0, BLOCK));
    let mut x = -200.0;
    let (min, size) = ground(-400.0, 0.0);
    block(&mut commands, min, size);
    // Floor → slope → top block, for each gradient, then back down to the floor.
    for gradient in [0.25, 0.5, 1.0, 2.0, 3.0] {
        x += 200.0;
        let width = 64.0;
        let height = width * gradient;
        slope(&mut commands, Vec2::new(x, 0.0), Vec2::new(x + width, height));
        block(&mut commands, Vec2::new(x + width, 0.0), Vec2::new(48.0, height));
        slope(
            &mut commands,
            Vec2::new(x + width + 48.0, height),
            Vec2::new(x + 2.0 * width + 48.0, 0.0),
        );
        let (min, size) = ground(x + 2.0 * width + 48.0, x + 200.0 + 200.0);
        block(&mut commands, min, size);
    }
    // A V valley, a V with a flat bottom, a crest.
    x += 400.0;
    slope(&mut commands, Vec2::new(x, 80.0), Vec2::new(x + 160.0, 0.0));
    slope(&mut commands, Vec2::new(x + 160.0, 0.0), Vec2::new(x + 320.0, 80.0));
    x += 320.0;
    slope(&mut commands, Vec2::new(x, 80.0), Vec2::new(x + 128.0, 16.0));
    block(&mut commands, Vec2::new(x + 128.0, 0.0), Vec2::new(64.0, 16.0));
    slope(&mut commands, Vec2::new(x + 192.0, 16.0), Vec2::new(x + 320.0, 80.0));
    x += 320.0;
    slope(&mut commands, Vec2::new(x, 80.0), Vec2::new(x + 96.0, 128.0));
    slope(&mut commands, Vec2::new(x + 96.0, 128.0), Vec2::new(x + 192.0, 80.0));
    x += 192.0;
    // A wall on a slope, a ceiling over a climb, a one-way platform above a slope, a trigger.
    slope(&mut commands, Vec2::new(x, 80.0), Vec2::new(x + 320.0, 240.0));
    block(&mut commands, Vec2::new(x + 200.0, 180.0), Vec2::new(8.0, 80.0));
    block(&mut commands, Vec2::new(x + 40.0, 140.0), Vec2::new(120.0, 16.0));
    let platform = block(&mut commands, Vec2::new(x - 180.0, 150.0), Vec2::new(140.0, 6.0));
    commands.entity(platform).insert(OneWayPlatform);
    commands.spawn((
        TriggerSign,
        Sensor,
        Collider::rectangle(16.0, 32.0),
        Sprite::from_color(Color::srgba(1.0, 0.9, 0.2, 0.4), Vec2::new(16.0, 32.0)),
        Transform::from_xyz(x + 24.0, 104.0, 0.5),
    ));

    // A floor far below, so a fall off the end is not endless.
    block(&mut commands, Vec2::new(-400.0, -400.0), Vec2::new(x + 800.0, BLOCK));

    commands.spawn((
        Player { jump_speed: 430.0 },
        Dynamic,
        Collider::rectangle(12.0, 22.0),
        ObjectRect {
            size: Vec2::new(16.0, 24.0),
            offset: Vec2::new(0.0, 1.0),
        },
        Sprite::from_color(Color::srgb(0.9, 0.2, 0.2), Vec2::new(16.0, 24.0)),
        Transform::from_xyz(-100.0, 40.0, 1.0),
        MovementTuning {
            max_speed: Vec2::new(180.0, 1000.0),
            ..default()
        },
    ));
}

fn show_trigger(mut started: MessageReader<ContactStarted>, signs: Query<(), With<TriggerSign>>) {
    for event in started.read() {
        if signs.contains(event.entity) {
            info!(
                "trigger touched by {} from {:?}",
                event.other,
                event.direction.opposite()
            );
        }
    }
}
