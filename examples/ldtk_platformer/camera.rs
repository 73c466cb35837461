//! The camera: fitted inside the level the player is in, following it along the level's long side
//! (the original's rule, on the levels' physics bounds).

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_platformer_physics::ldtk::LevelPhysics;
use platformer_examples::ldtk_platformer::{Player, player_level};

const ASPECT_RATIO: f32 = 16.0 / 9.0;

pub fn fit_inside_current_level(
    mut cameras: Query<(&mut Projection, &mut Transform), Without<Player>>,
    players: Query<&Transform, With<Player>>,
    levels: Query<&LevelPhysics>,
) {
    let (Ok(player), Ok((mut projection, mut camera))) = (players.single(), cameras.single_mut()) else {
        return;
    };
    let Projection::Orthographic(projection) = &mut *projection else {
        return;
    };
    let at = player.translation.truncate();
    let Some(level) = player_level(levels.iter(), at) else {
        return;
    };
    let (origin, size) = (level.bounds.min, level.bounds.size());
    projection.viewport_origin = Vec2::ZERO;
    let (width, height) = if size.x / size.y > ASPECT_RATIO {
        // Wider than the screen: as high as the level, following the player sideways.
        let height = (size.y / 9.0).round() * 9.0;
        (height * ASPECT_RATIO, height)
    } else {
        let width = (size.x / 16.0).round() * 16.0;
        (width, width / ASPECT_RATIO)
    };
    projection.scaling_mode = ScalingMode::Fixed { width, height };
    let corner = (at - origin - Vec2::new(width, height) * 0.5)
        .clamp(Vec2::ZERO, (size - Vec2::new(width, height)).max(Vec2::ZERO));
    camera.translation.x = origin.x + corner.x;
    camera.translation.y = origin.y + corner.y;
}
