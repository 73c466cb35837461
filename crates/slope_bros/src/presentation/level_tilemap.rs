//! The tiles `bevy_ecs_ldtk` spawns for a level (its tile and auto-layer layers, and the
//! `Collisions` layer of the game's levels, whose auto-layer rules pick each cell's tile from
//! `tiles.png`) are drawn as sprites from their tileset: the window shows what the LDtk editor
//! shows, and an edit saved in LDtk is what is drawn.
//!
//! Why sprites and not `bevy_ecs_tilemap`'s renderer: that renderer needs a render sub-app in
//! every app that adds `LdtkPlugin`, so the headless game and headless tests could not load a
//! level at all with it compiled in. The tile entities, their tileset index, flips, visibility and
//! opacity are `bevy_ecs_ldtk`'s; only the drawing is Bevy's sprite renderer.
//!
//! A block that a hit changes leaves the tilemap, and a sprite of its own (in
//! [`super::tiles`]) bumps, shows it used, or bursts.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::{LayerMetadata, LdtkProject, LdtkProjectHandle};
use bevy_ecs_tilemap::prelude::{
    TileColor, TileFlip, TilePos, TileStorage, TileTextureIndex, TileVisible, TilemapId, TilemapTexture,
};

use super::AppSystems;
use crate::draw_order;
use crate::gameplay::objects::blocks::BlockHit;
use crate::level::LevelInfo;
use crate::level::LevelWorld;

/// How far apart in z the layers of a level are drawn: every layer stays between
/// [`draw_order::TILES`] and the next layer of the game (`bevy_ecs_ldtk` puts layer `n` at z = n).
const LAYER_Z_SCALE: f32 = 0.01;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (place_level_world, draw_new_tiles, remove_hit_tiles)
            .chain()
            .in_set(AppSystems::Spawn)
            .before(super::tiles::update_hit_blocks),
    );
}

/// The level's layers are drawn at the tiles' depth.
fn place_level_world(mut worlds: Query<&mut Transform, Added<LevelWorld>>) {
    for mut transform in &mut worlds {
        transform.translation.z = draw_order::TILES;
        transform.scale.z = LAYER_Z_SCALE;
    }
}

/// The atlas of one tileset: its grid, from the project's tileset definition.
fn tileset_layout(project: &LdtkProject, tileset_uid: i32) -> Option<TextureAtlasLayout> {
    let tileset = project
        .json_data()
        .defs
        .tilesets
        .iter()
        .find(|t| t.uid == tileset_uid)?;
    let size = tileset.tile_grid_size;
    if size <= 0 || tileset.c_wid <= 0 || tileset.c_hei <= 0 {
        return None;
    }
    Some(TextureAtlasLayout::from_grid(
        UVec2::splat(size as u32),
        tileset.c_wid as u32,
        tileset.c_hei as u32,
        (tileset.spacing > 0).then(|| UVec2::splat(tileset.spacing as u32)),
        (tileset.padding > 0).then(|| UVec2::splat(tileset.padding as u32)),
    ))
}

/// Each new tile of a layer with a tileset becomes a sprite of its tile.
fn draw_new_tiles(
    mut commands: Commands,
    projects: Res<Assets<LdtkProject>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
    mut cached: Local<HashMap<(AssetId<LdtkProject>, i32), Handle<TextureAtlasLayout>>>,
    worlds: Query<&LdtkProjectHandle>,
    layers: Query<(&LayerMetadata, &TilemapTexture)>,
    ancestry: Query<&ChildOf>,
    tiles: Query<
        (
            Entity,
            &TilemapId,
            &TileTextureIndex,
            Option<&TileVisible>,
            Option<&TileFlip>,
            Option<&TileColor>,
        ),
        Added<TileTextureIndex>,
    >,
) {
    for (tile, layer, index, visible, flip, color) in &tiles {
        let Ok((metadata, TilemapTexture::Single(image))) = layers.get(layer.0) else {
            continue;
        };
        let Some(tileset_uid) = metadata.tileset_def_uid else {
            continue;
        };
        let Some(handle) = ancestry.iter_ancestors(tile).find_map(|e| worlds.get(e).ok()) else {
            continue;
        };
        let key = (handle.handle.id(), tileset_uid);
        let layout = match cached.get(&key) {
            Some(layout) => layout.clone(),
            None => {
                let Some(layout) = projects
                    .get(&handle.handle)
                    .and_then(|p| tileset_layout(p, tileset_uid))
                else {
                    continue;
                };
                let layout = layouts.add(layout);
                cached.insert(key, layout.clone());
                layout
            }
        };
        let flip = flip.copied().unwrap_or_default();
        let sprite = Sprite {
            flip_x: flip.x,
            flip_y: flip.y,
            color: color.map_or(Color::WHITE, |c| c.0),
            ..Sprite::from_atlas_image(
                image.clone(),
                TextureAtlas {
                    layout,
                    index: index.0 as usize,
                },
            )
        };
        let visibility = if visible.is_none_or(|v| v.0) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        commands.entity(tile).insert((sprite, visibility));
    }
}

/// A hit block leaves the tilemap: from now on its own sprite draws it (or nothing, once broken).
fn remove_hit_tiles(
    mut commands: Commands,
    mut hits: MessageReader<BlockHit>,
    info: Res<LevelInfo>,
    mut layers: Query<(&mut TileStorage, &LayerMetadata)>,
) {
    for hit in hits.read() {
        let Ok(cell) = UVec2::try_from(hit.cell) else { continue };
        if !info.cells.drawn_by_project {
            continue;
        }
        let pos = TilePos::new(cell.x, cell.y);
        for (mut storage, layer) in &mut layers {
            if layer.identifier == info.cells.layer
                && let Some(tile) = storage.checked_get(&pos)
            {
                commands.entity(tile).despawn();
                storage.remove(&pos);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy_ecs_tilemap::prelude::TilemapSize;
    use bevy_platformer_physics::TileGrid;

    use crate::harness::app::headless_app;
    use crate::input::InputSource;
    use crate::level::{BUILTIN_LEVELS, Block, LevelSource};
    use crate::paths::DataRoot;
    use crate::presentation::GameAssets;
    use crate::presentation::tiles::tile_column;

    /// The game's levels loaded through `bevy_ecs_ldtk` show, on each collision cell, the tile the
    /// game picks for it (`tile_column`), and nothing on an empty cell.
    #[test]
    fn every_collision_cell_of_the_games_levels_shows_its_tile_from_the_ldtk_tiles() {
        for (i, name) in BUILTIN_LEVELS.iter().enumerate() {
            let mut app = headless_app(DataRoot::built_from(), LevelSource::Builtin(i), None, InputSource::Idle);
            // A system added now sees every tile spawned so far as new.
            app.add_systems(Update, draw_new_tiles);
            app.update();
            let info = app.world().resource::<LevelInfo>().clone();
            let cells = &info.cells;
            assert!(cells.drawn_by_project, "{name}: its collision layer has LDtk tiles");
            let grid = app.world().get::<TileGrid>(cells.grid.unwrap()).unwrap().clone();
            let world = app.world_mut();
            let mut drawn = HashMap::new();
            let mut tiles = world.query_filtered::<(&Sprite, &GlobalTransform, &Visibility), With<TilePos>>();
            for (sprite, at, visibility) in tiles.iter(world) {
                if *visibility == Visibility::Hidden {
                    continue;
                }
                let cell = cells.cell_at(at.translation().truncate());
                let index = sprite.texture_atlas.as_ref().expect("an atlas tile").index;
                assert!(drawn.insert(cell, index).is_none(), "{name}: one tile on cell {cell}");
            }
            let mut checked = 0;
            for y in 0..cells.height as i32 {
                for x in 0..cells.width as i32 {
                    let at = IVec2::new(x, y);
                    let expected = tile_column(cells, at, grid.get(x, y)).map(|c| GameAssets::tile(info.theme, c));
                    assert_eq!(drawn.get(&at).copied(), expected, "{name}: cell {at}");
                    checked += usize::from(expected.is_some());
                }
            }
            assert!(checked > 100, "{name}: {checked} tiles drawn");
        }
    }

    /// A layer of `bevy_ecs_ldtk` with one tile at (2, 3).
    fn layer(app: &mut App, identifier: &str) -> (Entity, Entity) {
        let pos = TilePos::new(2, 3);
        let tile = app.world_mut().spawn(pos).id();
        let mut storage = TileStorage::empty(TilemapSize { x: 4, y: 4 });
        storage.set(&pos, tile);
        let metadata = LayerMetadata {
            identifier: identifier.to_string(),
            ..default()
        };
        (app.world_mut().spawn((storage, metadata)).id(), tile)
    }

    #[test]
    fn a_hit_block_leaves_the_collisions_tilemap_and_other_layers_keep_their_tiles() {
        let mut app = App::new();
        let mut info = LevelInfo::default();
        info.cells.drawn_by_project = true;
        info.cells.layer = "Collisions".to_string();
        app.insert_resource(info)
            .add_message::<BlockHit>()
            .add_systems(Update, remove_hit_tiles);
        let (collisions, hit) = layer(&mut app, "Collisions");
        let (decor, kept) = layer(&mut app, "Decor");
        app.world_mut().write_message(BlockHit {
            cell: IVec2::new(2, 3),
            block: Some(Block::Brick),
            broken: true,
        });
        // A hit outside the level (no tile there) changes nothing.
        app.world_mut().write_message(BlockHit {
            cell: IVec2::new(-1, 3),
            block: None,
            broken: false,
        });
        app.update();
        assert!(app.world().get_entity(hit).is_err(), "the hit tile is gone");
        let storage = app.world().get::<TileStorage>(collisions).unwrap();
        assert_eq!(storage.get(&TilePos::new(2, 3)), None);
        assert!(app.world().get_entity(kept).is_ok());
        let storage = app.world().get::<TileStorage>(decor).unwrap();
        assert_eq!(storage.get(&TilePos::new(2, 3)), Some(kept));
    }
}
