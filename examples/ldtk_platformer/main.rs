//! bevy_ecs_ldtk's platformer example on bevy_platformer_physics, in a window: A/D walk, W/S climb,
//! Space jumps, P prints the inventory, R starts the level again; C shows the colliders, N the
//! contacts (the plugin's debug overlay, which the `windowed` feature turns on).
//!
//! ```sh
//! cargo run -p platformer_examples --features windowed --example ldtk_platformer
//! ```
//! The game is `platformer_examples::ldtk_platformer` (it also runs headless); this file adds the
//! window, the drawing and the camera.

mod camera;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_examples::ldtk_platformer::{Chest, Enemy, LdtkPlatformerPlugin, Player, Pumpkins};

fn main() {
    // The sample project and its images, in the repository's test data beside this package.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/ldtk");
    App::new()
        .add_plugins(
            DefaultPlugins
                .set(AssetPlugin {
                    file_path: data.to_string(),
                    ..default()
                })
                .set(ImagePlugin::default_nearest()),
        )
        .add_plugins(LdtkPlatformerPlugin)
        // R restarts the level here: the overlay's object rectangles move to O.
        .add_systems(Startup, |mut overlay: ResMut<DebugOverlay>| {
            overlay.keys.object_rects = KeyCode::KeyO
        })
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
        })
        .add_systems(Update, (draw_bodies, camera::fit_inside_current_level))
        .run();
}

/// Gives the game's bodies a look: the sample's sprites are not part of the repository, so each
/// kind is a rectangle of its own colour, the size of its collider.
/// A body not drawn yet: its collider and which kind it is (player, enemy, chest, pumpkins).
type Undrawn = (
    Entity,
    Option<&'static Collider>,
    Has<Player>,
    Has<Enemy>,
    Has<Chest>,
    Has<Pumpkins>,
);

fn draw_bodies(mut commands: Commands, new: Query<Undrawn, Without<Sprite>>) {
    for (entity, collider, player, enemy, chest, pumpkins) in &new {
        let color = match (player, enemy, chest, pumpkins) {
            (true, ..) => Color::srgb(0.95, 0.85, 0.3),
            (_, true, ..) => Color::srgb(0.85, 0.2, 0.25),
            (_, _, true, _) => Color::srgb(0.6, 0.4, 0.2),
            (.., true) => Color::srgb(0.95, 0.5, 0.1),
            _ => continue,
        };
        let size = collider.map_or(Vec2::new(48.0, 16.0), |c| c.size);
        commands.entity(entity).insert(Sprite::from_color(color, size));
    }
}
