//! The level's tiles: for a collision layer that the project does not draw (a foreign project's;
//! the game's own levels are drawn by their LDtk tiles, [`super::level_tilemap`]), one sprite per
//! IntGrid cell by physics kind (from the theme's row of `tiles.png`); in every level, slope
//! entities drawn texel column by texel column from the ground tiles, one-way platforms and lifts
//! as rows of tiles; blocks bump and bricks burst into debris when hit.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_platformer_physics::SlopeShape;
use bevy_platformer_physics::prelude::*;

use super::AppSystems;
use super::assets::GameAssets;
use crate::draw_order;
use crate::gameplay::objects::blocks::BlockHit;
use crate::level::{Block, LevelCells, LevelEntity, LevelInfo, LevelSpawned};

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
    slopes: Query<&SlopeSegment, Added<SlopeSegment>>,
    platforms: Query<
        (Entity, &Collider, Has<PathFollower>),
        (Or<(Added<OneWayPlatform>, Added<PathFollower>)>, Without<Sprite>),
    >,
) {
    let cells = &info.cells;
    let texel = cells.cell_size / TILE_TEXELS as f32;
    // The ground under a slope's foot loses its grass: the slope's earth goes on down into it.
    let grass_below = |point: Vec2| {
        let cell = cells.cell_at(point);
        if cells.game_values {
            cells.block(cell) == Some(Block::Ground)
        } else {
            cells.value(cell) != 0
        }
    };
    for slope in &slopes {
        let shape = SlopeShape::new(slope.start, slope.end);
        for piece in slope_pieces(shape, cells.origin, texel, grass_below) {
            let mut sprite = assets.tiles.sprite(GameAssets::tile(info.theme, piece.tile_column));
            // Within the tile's frame: the atlas offsets the rect by the frame's corner.
            let corner = UVec2::new(piece.texel_x, piece.texel_y);
            sprite.rect = Some(Rect::from_corners(
                corner.as_vec2(),
                (corner + UVec2::new(1, piece.texels)).as_vec2(),
            ));
            let height = piece.texels as f32 * texel;
            sprite.custom_size = Some(Vec2::new(texel, height));
            commands.spawn((
                LevelEntity,
                sprite,
                Transform::from_xyz(piece.left + texel / 2.0, piece.top - height / 2.0, draw_order::SLOPES),
            ));
        }
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

/// Texels along a side of a tile of `tiles.png`.
const TILE_TEXELS: u32 = 16;
/// Texels of a ground tile's grassy band (the rest is earth).
const GRASS_TEXELS: i32 = 8;

/// A vertical strip, one texel wide, of a slope's picture: texels of one column of a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SlopePiece {
    /// World x of its left side.
    left: f32,
    /// World y of its top.
    top: f32,
    /// Its height, texels.
    texels: u32,
    /// The `tiles.png` column of the tile it shows: 0 (grass over earth) or 1 (earth).
    tile_column: usize,
    /// The texel column and first texel row it shows of that tile.
    texel_x: u32,
    texel_y: u32,
}

/// A slope drawn as the level's tiles draw a slope: each texel column under the segment shows
/// the ground tile's grass from the surface down, then earth to the bottom of the slope's
/// triangle (and on over the grass of ground below, where `grass_below` says there is some).
/// Texels line up with the level's tiles (`origin`), so the slope's earth continues theirs.
fn slope_pieces(shape: SlopeShape, origin: Vec2, texel: f32, grass_below: impl Fn(Vec2) -> bool) -> Vec<SlopePiece> {
    let mut pieces = Vec::new();
    if texel.is_nan() || texel <= 0.0 || shape.right.x <= shape.left.x {
        return pieces;
    }
    let bottom = shape.left.y.min(shape.right.y);
    let boundary = |y: f32| ((y - origin.y) / texel).round() as i32;
    let first = ((shape.left.x - origin.x) / texel).floor() as i32;
    let last = ((shape.right.x - origin.x) / texel).ceil() as i32;
    for column in first..last {
        let left = origin.x + column as f32 * texel;
        let center = left + texel / 2.0;
        if center < shape.left.x || center > shape.right.x {
            continue;
        }
        let along = (center - shape.left.x) / (shape.right.x - shape.left.x);
        let top = boundary(shape.left.y.lerp(shape.right.y, along));
        let mut floor = boundary(bottom);
        if grass_below(Vec2::new(center, bottom - texel / 2.0)) {
            floor -= GRASS_TEXELS;
        }
        let texel_x = column.rem_euclid(TILE_TEXELS as i32) as u32;
        let mut piece = |at: i32, texels: i32, tile_column: usize, texel_y: i32| {
            pieces.push(SlopePiece {
                left,
                top: origin.y + at as f32 * texel,
                texels: texels as u32,
                tile_column,
                texel_x,
                texel_y: texel_y as u32,
            })
        };
        let band = (top - floor).min(TILE_TEXELS as i32);
        if band <= 0 {
            continue;
        }
        piece(top, band, 0, 0);
        let mut at = top - band;
        while at > floor {
            // The earth tile's row at this height, as the level's tiles have it there.
            let row = (-at).rem_euclid(TILE_TEXELS as i32);
            let texels = (TILE_TEXELS as i32 - row).min(at - floor);
            piece(at, texels, 1, row);
            at -= texels;
        }
    }
    pieces
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
    use crate::harness::app::headless_app;
    use crate::input::InputSource;
    use crate::level::{BUILTIN_LEVELS, LevelInfo, LevelSource};
    use crate::paths::DataRoot;

    /// Each texel column of a slope entity, as a column of the ground tiles: grass from the
    /// surface (snapped to texels) down, then earth, to the triangle's foot; nothing missing,
    /// nothing twice.
    #[test]
    fn a_slope_is_drawn_column_by_column_from_its_surface_to_its_foot() {
        // Rises 1 in 4 over four tiles of 16 px, one texel per px, away from the tiles' origin.
        let origin = Vec2::new(-32.0, -48.0);
        let shape = SlopeShape::new(Vec2::new(64.0, 16.0), Vec2::new(0.0, 0.0));
        let pieces = slope_pieces(shape, origin, 1.0, |_| false);
        let mut columns: Vec<Vec<SlopePiece>> = Vec::new();
        for piece in pieces {
            match columns.last_mut() {
                Some(column) if column[0].left == piece.left => column.push(piece),
                _ => columns.push(vec![piece]),
            }
        }
        // The columns at 0 and 1 (surfaces 0.125 and 0.375) have no texel to draw.
        assert_eq!(columns.len(), 62);
        for column in &columns {
            let left = column[0].left;
            let surface = ((left + 0.5) / 4.0).round();
            assert_eq!(column[0].top, surface, "column at {left}");
            assert_eq!((column[0].tile_column, column[0].texel_y), (0, 0), "grass at the top");
            assert_eq!(column[0].texel_x, (left - origin.x) as u32 % 16);
            let mut y = column[0].top;
            for (i, piece) in column.iter().enumerate() {
                assert_eq!(piece.top, y, "column at {left}: no gap, no overlap");
                assert!(piece.texel_y + piece.texels <= 16, "{piece:?} stays in its tile");
                if i > 0 {
                    assert_eq!(piece.tile_column, 1, "earth under the grass");
                }
                y -= piece.texels as f32;
            }
            assert_eq!(y, 0.0, "column at {left} reaches the foot");
        }
        assert_eq!(columns.last().unwrap()[0].top, 16.0);
    }

    /// The earth of a slope continues the level's ground tiles: each texel row shows the row the
    /// tiles show at that height, and where ground is under the foot, the slope's earth covers
    /// its grass.
    #[test]
    fn a_slopes_earth_lines_up_with_the_tiles_and_covers_the_grass_under_its_foot() {
        let shape = SlopeShape::new(Vec2::new(0.0, 16.0), Vec2::new(32.0, 48.0));
        let pieces = slope_pieces(shape, Vec2::ZERO, 1.0, |point| point.y < 16.0);
        let column: Vec<_> = pieces.iter().filter(|p| p.left == 30.0).collect();
        // Surface at 46.5, rounded to 47; 16 texels of the grass tile, then earth.
        let top = column[0].top;
        assert_eq!(top, 47.0);
        let earth: Vec<_> = column[1..].iter().map(|p| (p.top, p.texel_y, p.texels)).collect();
        // 31 → 16 is rows 1..16 of the cell 16..32; 16 → 8 is rows 0..8 of the ground cell's top.
        assert_eq!(earth, vec![(31.0, 1, 15), (16.0, 0, 8)]);
        // Half-size texels: the same rows, in half the space.
        let pieces = slope_pieces(shape, Vec2::ZERO, 0.5, |_| false);
        let at_cell_top: Vec<_> = pieces.iter().filter(|p| p.tile_column == 1 && p.top == 32.0).collect();
        assert!(!at_cell_top.is_empty());
        assert!(at_cell_top.iter().all(|p| p.texel_y == 0), "{at_cell_top:?}");
    }

    /// A slope without width, or tiles without size, draws nothing (and no NaN reaches a sprite).
    #[test]
    fn a_slope_without_width_draws_nothing() {
        let upright = SlopeShape::new(Vec2::new(5.0, 0.0), Vec2::new(5.0, 40.0));
        assert!(slope_pieces(upright, Vec2::ZERO, 1.0, |_| true).is_empty());
        let shape = SlopeShape::new(Vec2::ZERO, Vec2::splat(16.0));
        assert!(slope_pieces(shape, Vec2::ZERO, 0.0, |_| true).is_empty());
        assert!(slope_pieces(shape, Vec2::ZERO, f32::NAN, |_| true).is_empty());
    }

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
