//! Lava cells, drawn as sprites over the level (its tiles leave them empty): the surface where
//! the cell above is not lava, the body under it, both animated.

use bevy::prelude::*;

use super::AppSystems;
use super::assets::GameAssets;
use crate::draw_order;
use crate::level::{Block, LevelEntity, LevelInfo, LevelSpawned};

/// A lava cell's sprite: `surface` or body.
#[derive(Component, Clone, Copy, Debug)]
struct LavaSprite {
    surface: bool,
}

/// Seconds per frame of the lava's animation.
const LAVA_FRAME: f32 = 0.2;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        spawn_lava.run_if(on_message::<LevelSpawned>).in_set(AppSystems::Spawn),
    );
    app.add_systems(Update, animate_lava.in_set(AppSystems::Animate));
}

fn spawn_lava(mut commands: Commands, assets: Res<GameAssets>, info: Res<LevelInfo>) {
    let cells = &info.cells;
    for y in 0..cells.height as i32 {
        for x in 0..cells.width as i32 {
            let at = IVec2::new(x, y);
            if cells.block(at) != Some(Block::Lava) {
                continue;
            }
            let surface = cells.block(at + IVec2::Y) != Some(Block::Lava);
            let mut sprite = assets.lava.sprite(if surface { 0 } else { 4 });
            sprite.custom_size = Some(Vec2::splat(cells.cell_size));
            commands.spawn((
                sprite,
                LavaSprite { surface },
                LevelEntity,
                Transform::from_translation(cells.cell_rect(at).center().extend(draw_order::LAVA)),
            ));
        }
    }
}

fn animate_lava(time: Res<Time>, mut sprites: Query<(&LavaSprite, &mut Sprite)>) {
    let frame = (time.elapsed_secs() / LAVA_FRAME) as usize % 4;
    for (lava, mut sprite) in &mut sprites {
        if let Some(atlas) = &mut sprite.texture_atlas {
            atlas.index = frame + if lava.surface { 0 } else { 4 };
        }
    }
}
