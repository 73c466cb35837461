//! Debug overlay: the plugin's collider outlines (C), object rects (R) and contacts with slope foot
//! samples (N). The game gives its pictures an [`ObjectRect`] so R shows them beside the colliders.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::gameplay::enemies::hammer::Hammer;
use crate::gameplay::objects::items::{Coin, PowerUp};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, add_object_rects);
}

fn add_object_rects(
    mut commands: Commands,
    objects: Query<Entity, (Or<(Added<Hammer>, Added<Coin>, Added<PowerUp>)>, Without<ObjectRect>)>,
) {
    for entity in &objects {
        commands.entity(entity).insert(ObjectRect {
            size: Vec2::splat(16.0),
            offset: Vec2::ZERO,
        });
    }
}
