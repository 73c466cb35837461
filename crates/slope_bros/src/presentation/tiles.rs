//! The level's tiles: for a collision layer that the project does not draw (a foreign project's;
//! the game's own levels are drawn by their LDtk tiles, [`super::level_tilemap`]), one sprite per
//! IntGrid cell by physics kind (from the theme's row of `tiles.png`); in every level, slope
//! entities as filled triangles, one-way platforms and lifts as rows of tiles; blocks bump and
//! bricks burst into debris when hit.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_platformer_physics::SlopeShape;
use bevy_platformer_physics::prelude::*;

use super::AppSystems;
use super::assets::GameAssets;
use crate::draw_order;
use crate::gameplay::blocks::BlockHit;
use crate::level::{Block, LevelCells, LevelEntity, LevelInfo, LevelSpawned, Theme};

/// The sprite of a cell.
#[derive(Component, Clone, Copy, Debug)]
pub struct TileSprite {
    /// Its cell.
    pub cell: IVec2,
    /// Seconds left of a bump.
    pub bump: f32,
}

/// The cell → sprite index of the current level.
#[derive(Resource, Default)]
pub(super) struct TileSprites(HashMap<IVec2, Entity>);

/// A falling brick fragment.
#[derive(Component, Clone, Copy, Debug)]
struct Debris {
    velocity: Vec2,
    left: f32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TileSprites>();
    app.add_systems(
        Update,
        (
            spawn_tile_sprites.run_if(on_message::<LevelSpawned>),
            dress_platforms,
            update_hit_blocks,
        )
            .chain()
            .in_set(AppSystems::Spawn),
    );
    app.add_systems(Update, (bump_tiles, fly_debris).in_set(AppSystems::Animate));
}

/// The `tiles.png` column for a cell of the game's levels; `None` for empty.
pub fn tile_column(cells: &LevelCells, at: IVec2, kind: TileCell) -> Option<usize> {
    if !cells.game_values {
        return match kind {
            TileCell::Empty => None,
            TileCell::Solid => Some(if cells.value(at + IVec2::Y) == 0 { 0 } else { 1 }),
            TileCell::OneWay => Some(3),
            TileCell::Slope45 { rises_right } => Some(if rises_right { 7 } else { 8 }),
            TileCell::SlopeHalfLow { rises_right } => Some(if rises_right { 9 } else { 11 }),
            TileCell::SlopeHalfHigh { rises_right } => Some(if rises_right { 10 } else { 12 }),
        };
    }
    if cells.value(at) == 0 {
        return None;
    }
    Some(match cells.block(at) {
        // Not drawn as tiles: hidden blocks are not there to see, lava is animated on its own.
        Some(Block::HiddenCoin | Block::HiddenOneUp | Block::Lava) => return None,
        // Grass on top; earth under more ground; a slope's foot under a slope.
        Some(Block::Ground) => match cells.block(at + IVec2::Y) {
            Some(above) if above.is_slope() => 13,
            Some(Block::Ground) => 1,
            _ => 0,
        },
        Some(Block::Stone) => 2,
        Some(Block::OneWay) => 3,
        Some(Block::Brick | Block::MultiCoin) => 4,
        Some(Block::QuestionCoin | Block::QuestionMushroom | Block::QuestionStar | Block::QuestionOneUp) => 5,
        Some(Block::Used) => 6,
        Some(Block::Slope45UpRight) => 7,
        Some(Block::Slope45UpLeft) => 8,
        Some(Block::GentleLowUpRight) => 9,
        Some(Block::GentleHighUpRight) => 10,
        Some(Block::GentleLowUpLeft) => 11,
        Some(Block::GentleHighUpLeft) => 12,
        None => 15,
    })
}

fn spawn_tile_sprites(
    mut commands: Commands,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    grids: Query<&TileGrid>,
    mut sprites: ResMut<TileSprites>,
) {
    sprites.0.clear();
    let cells = &info.cells;
    if cells.drawn_by_project {
        return;
    }
    let grid = cells.grid.and_then(|g| grids.get(g).ok());
    for y in 0..cells.height as i32 {
        for x in 0..cells.width as i32 {
            let at = IVec2::new(x, y);
            let kind = grid.map_or(TileCell::Empty, |g| g.get(x, y));
            let Some(column) = tile_column(cells, at, kind) else {
                continue;
            };
            let mut sprite = assets.tiles.sprite(GameAssets::tile(info.theme, column));
            sprite.custom_size = Some(Vec2::splat(cells.cell_size));
            let entity = commands
                .spawn((
                    sprite,
                    TileSprite { cell: at, bump: 0.0 },
                    LevelEntity,
                    Transform::from_translation(cells.cell_rect(at).center().extend(draw_order::TILES)),
                ))
                .id();
            sprites.0.insert(at, entity);
        }
    }
}

/// Slope entities, one-way platform entities and lifts get their look when they appear.
fn dress_platforms(
    mut commands: Commands,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    slopes: Query<(Entity, &SlopeSegment), Added<SlopeSegment>>,
    platforms: Query<
        (Entity, &Collider, Has<PathFollower>),
        (Or<(Added<OneWayPlatform>, Added<PathFollower>)>, Without<Sprite>),
    >,
) {
    let (fill, edge) = theme_colors(info.theme);
    for (entity, slope) in &slopes {
        let shape = SlopeShape::new(slope.start, slope.end);
        let (left, right) = (shape.left, shape.right);
        let bottom = left.y.min(right.y);
        let triangle = Triangle2d::new(
            left,
            right,
            Vec2::new(if left.y > right.y { left.x } else { right.x }, bottom),
        );
        commands.entity(entity).insert((
            Mesh2d(meshes.add(triangle)),
            MeshMaterial2d(materials.add(fill)),
            Transform::from_xyz(0.0, 0.0, draw_order::TILES),
        ));
        let length = left.distance(right);
        let angle = (right - left).to_angle();
        commands.spawn((
            LevelEntity,
            Sprite::from_color(edge, Vec2::new(length, 3.0)),
            Transform::from_translation(((left + right) / 2.0 - Vec2::Y).extend(draw_order::SLOPE_EDGE))
                .with_rotation(Quat::from_rotation_z(angle)),
        ));
    }
    for (entity, collider, lift) in &platforms {
        let column = if lift { 14 } else { 3 };
        let mut sprite = assets.tiles.sprite(GameAssets::tile(info.theme, column));
        sprite.custom_size = Some(collider.size);
        sprite.image_mode = SpriteImageMode::Tiled {
            tile_x: true,
            tile_y: false,
            stretch_value: 1.0,
        };
        commands.entity(entity).insert(sprite);
    }
}

fn theme_colors(theme: Theme) -> (Color, Color) {
    match theme {
        Theme::Overworld => (Color::srgb_u8(0x9c, 0x5a, 0x2c), Color::srgb_u8(0x4c, 0xb0, 0x3c)),
        Theme::Underground => (Color::srgb_u8(0x3a, 0x4a, 0x6a), Color::srgb_u8(0x7a, 0x8a, 0xaa)),
        Theme::Sky => (Color::srgb_u8(0xe8, 0xf0, 0xff), Color::srgb_u8(0xff, 0xff, 0xff)),
        Theme::Castle => (Color::srgb_u8(0x6a, 0x6a, 0x72), Color::srgb_u8(0x9a, 0x30, 0x30)),
    }
}

/// A hit block bumps (and shows what it became) or bursts. In a level whose project draws its
/// cells, a block gets its own sprite at its first hit (its LDtk tile is removed).
pub(super) fn update_hit_blocks(
    mut commands: Commands,
    mut hits: MessageReader<BlockHit>,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    mut sprites: ResMut<TileSprites>,
    mut tiles: Query<(&mut TileSprite, &mut Sprite)>,
) {
    let cells = &info.cells;
    for hit in hits.read() {
        let entity = sprites.0.get(&hit.cell).copied();
        if entity.is_none() && !cells.drawn_by_project {
            continue;
        }
        if hit.broken {
            if let Some(entity) = entity {
                commands.entity(entity).despawn();
            }
            sprites.0.remove(&hit.cell);
            let center = cells.cell_rect(hit.cell).center();
            for (i, velocity) in [(-60.0, 260.0), (60.0, 260.0), (-40.0, 180.0), (40.0, 180.0)]
                .into_iter()
                .enumerate()
            {
                let offset = Vec2::new(if i % 2 == 0 { -4.0 } else { 4.0 }, if i < 2 { 4.0 } else { -4.0 });
                commands.spawn((
                    LevelEntity,
                    Sprite::from_image(assets.debris.clone()),
                    Debris {
                        velocity: Vec2::new(velocity.0, velocity.1),
                        left: 1.2,
                    },
                    Transform::from_translation((center + offset).extend(draw_order::DEBRIS)),
                ));
            }
            continue;
        }
        let Some(column) = tile_column(cells, hit.cell, TileCell::Solid) else {
            continue;
        };
        let Some(entity) = entity else {
            // The block's first hit in a level drawn by its LDtk tiles: a sprite of its own.
            let mut sprite = assets.tiles.sprite(GameAssets::tile(info.theme, column));
            sprite.custom_size = Some(Vec2::splat(cells.cell_size));
            let entity = commands
                .spawn((
                    sprite,
                    TileSprite {
                        cell: hit.cell,
                        bump: 0.15,
                    },
                    LevelEntity,
                    Transform::from_translation(cells.cell_rect(hit.cell).center().extend(draw_order::TILES)),
                ))
                .id();
            sprites.0.insert(hit.cell, entity);
            continue;
        };
        if let Ok((mut tile, mut sprite)) = tiles.get_mut(entity) {
            tile.bump = 0.15;
            if let Some(atlas) = &mut sprite.texture_atlas {
                atlas.index = GameAssets::tile(info.theme, column);
            }
        }
    }
}

fn bump_tiles(time: Res<Time>, info: Res<LevelInfo>, mut tiles: Query<(&mut TileSprite, &mut Transform)>) {
    for (mut tile, mut transform) in &mut tiles {
        if tile.bump > 0.0 {
            tile.bump = (tile.bump - time.delta_secs()).max(0.0);
            let lift = (tile.bump / 0.15 * std::f32::consts::PI).sin() * 4.0;
            transform.translation.y = info.cells.cell_rect(tile.cell).center().y + lift;
        }
    }
}

fn fly_debris(time: Res<Time>, mut commands: Commands, mut debris: Query<(Entity, &mut Debris, &mut Transform)>) {
    let dt = time.delta_secs();
    for (entity, mut piece, mut transform) in &mut debris {
        piece.velocity.y -= 900.0 * dt;
        piece.left -= dt;
        transform.translation += (piece.velocity * dt).extend(0.0);
        transform.rotate_z(8.0 * dt);
        if piece.left <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use bevy_platformer_physics::ldtk::LdtkProjectFile;

    use super::*;
    use crate::app::headless_app;
    use crate::input::InputSource;
    use crate::level::{BUILTIN_LEVELS, LevelInfo, LevelSource};
    use crate::paths::DataRoot;

    /// The levels carry the game's tiles (auto-layer rules on `Collisions`, computed by
    /// `tools/make_levels.py` as LDtk computes them): the LDtk editor shows, cell by cell, the
    /// tile the game draws.
    #[test]
    fn the_levels_auto_layer_tiles_are_the_tiles_the_game_draws() {
        let root = DataRoot::built_from();
        for (i, name) in BUILTIN_LEVELS.iter().enumerate() {
            let app = headless_app(root.clone(), LevelSource::Builtin(i), None, InputSource::Idle);
            let info = app.world().resource::<LevelInfo>().clone();
            let cells = &info.cells;
            assert!(cells.game_values, "{name}: the game's blocks");
            let grid = app.world().get::<TileGrid>(cells.grid.expect("a grid")).unwrap();
            let path = root.levels().join(format!("{name}.ldtk"));
            let (project, problems) = LdtkProjectFile::load(&path).unwrap();
            assert!(problems.is_empty(), "{name}: {problems:?}");
            let layer = project.levels[0]
                .level
                .layer_instances
                .iter()
                .flatten()
                .find(|l| l.identifier == "Collisions")
                .unwrap();
            assert_eq!(
                layer.tileset_rel_path.as_deref(),
                Some("../assets/images/tiles.png"),
                "{name}"
            );
            let mut tiles = HashMap::new();
            for tile in &layer.auto_layer_tiles {
                // LDtk's cells count rows from the top; the game's from the bottom.
                let at = IVec2::new(tile.px.x / 16, cells.height as i32 - 1 - tile.px.y / 16);
                assert!(tiles.insert(at, tile.t).is_none(), "{name}: two tiles at {at}");
            }
            let mut drawn = 0;
            for y in 0..cells.height as i32 {
                for x in 0..cells.width as i32 {
                    let at = IVec2::new(x, y);
                    let expected = tile_column(cells, at, grid.get(x, y)).map(|c| GameAssets::tile(info.theme, c));
                    assert_eq!(
                        tiles.get(&at).map(|t| *t as usize),
                        expected,
                        "{name}: cell {at} ({:?})",
                        cells.block(at)
                    );
                    drawn += usize::from(expected.is_some());
                }
            }
            assert_eq!(tiles.len(), drawn, "{name}: no tile where the game draws none");
            assert!(drawn > 300, "{name}: {drawn} tiles");
        }
    }
}
