//! Two parallax layers per theme behind the level: a far one that barely moves and a near one.

use bevy::prelude::*;

use super::AppSystems;
use super::assets::GameAssets;
use super::camera::GameCamera;
use crate::draw_order;
use crate::level::{LevelEntity, LevelInfo, LevelSpawned};

/// One copy of a background image; three side by side make an endless band.
#[derive(Component, Clone, Copy, Debug)]
struct Parallax {
    /// 0 moves with the camera (infinitely far), 1 with the level.
    factor: f32,
    /// Which of the three copies.
    copy: i32,
}

/// Width of the background images, px.
const WIDTH: f32 = 512.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        spawn_backgrounds
            .run_if(on_message::<LevelSpawned>)
            .in_set(AppSystems::Spawn),
    );
    app.add_systems(Update, scroll_backgrounds.after(AppSystems::Camera));
}

fn spawn_backgrounds(mut commands: Commands, assets: Res<GameAssets>, info: Res<LevelInfo>) {
    let theme = info.theme.index();
    for (image, factor, z) in [
        (&assets.backgrounds[theme], 0.15, draw_order::FAR_BACKGROUND),
        (&assets.near_backgrounds[theme], 0.45, draw_order::NEAR_BACKGROUND),
    ] {
        for copy in 0..3 {
            commands.spawn((
                LevelEntity,
                Sprite::from_image(image.clone()),
                Parallax { factor, copy },
                Transform::from_xyz(0.0, 0.0, z),
            ));
        }
    }
}

fn scroll_backgrounds(
    cameras: Query<&Transform, With<GameCamera>>,
    mut layers: Query<(&Parallax, &mut Transform), Without<GameCamera>>,
) {
    let Some(camera) = cameras.iter().next() else { return };
    let view = camera.translation.truncate();
    for (layer, mut transform) in &mut layers {
        let scrolled = view.x * layer.factor;
        let first = view.x - scrolled.rem_euclid(WIDTH) - WIDTH / 2.0;
        transform.translation.x = first + layer.copy as f32 * WIDTH;
        transform.translation.y = view.y;
    }
}
