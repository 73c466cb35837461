//! The physics glue: what the plugin needs to know of the sample project. The original's
//! `walls.rs` (merging IntGrid walls into rectangles), `ground_detection.rs` (sensors under the
//! player) and `colliders.rs` (a bundle per entity) are this file: the LDtk bridge builds the walls
//! and ladders from the mapping, `Contacts` says when a body stands on something, and each entity's
//! box is one line below.

use bevy::prelude::*;
use bevy_platformer_physics::ldtk::{CellKind, LdtkPhysicsMapping};
use bevy_platformer_physics::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(PhysicsConfig {
        gravity: Vec2::new(0.0, -2000.0),
        ..default()
    })
    // The sample's "Collisions" layer: 1 dirt and 3 stone are walls, 2 ladders.
    .insert_resource(
        LdtkPhysicsMapping::default()
            .with_cell("Collisions", 1, CellKind::Solid)
            .with_cell("Collisions", 2, CellKind::Ladder)
            .with_cell("Collisions", 3, CellKind::Solid),
    );
}

/// The collider of an entity of the sample, by identifier: centred over its feet (the bottom of
/// its LDtk rectangle) for the player and chests, on the middle of its rectangle for the mobs.
pub(super) fn body_size(identifier: &str) -> Vec2 {
    match identifier {
        "Player" => Vec2::new(12.0, 24.0),
        "Mob" => Vec2::new(10.0, 10.0),
        "Chest" => Vec2::new(16.0, 16.0),
        _ => Vec2::splat(16.0),
    }
}
