//! Handles to every image and sound, loaded by the loading screen.

use bevy::prelude::*;

use crate::level::Theme;

/// A sprite sheet: one row of frames.
#[derive(Clone, Debug, Default)]
pub struct Sheet {
    /// The image.
    pub image: Handle<Image>,
    /// Its frames.
    pub layout: Handle<TextureAtlasLayout>,
    /// Frame size, px.
    pub frame: Vec2,
}

impl Sheet {
    /// A sprite showing frame `index`.
    pub fn sprite(&self, index: usize) -> Sprite {
        Sprite::from_atlas_image(
            self.image.clone(),
            TextureAtlas {
                layout: self.layout.clone(),
                index,
            },
        )
    }
}

/// Every asset of the game.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameAssets {
    /// `tiles.png`: 16 columns × 4 theme rows.
    pub tiles: Sheet,
    /// Small player, 9 frames: idle, 3 walking, jump, skid, dead, crouch, slope slide.
    pub player_small: Sheet,
    /// Big player, 9 frames.
    pub player_big: Sheet,
    /// Big player with the fire power, 9 frames.
    pub player_fire: Sheet,
    /// Fireball, 4 frames of 8 × 8.
    pub fireball: Sheet,
    /// Fire flower, 4 frames.
    pub fire_flower: Sheet,
    /// Star, 4 frames.
    pub star: Sheet,
    /// Extra-life mushroom.
    pub one_up: Handle<Image>,
    /// Spring, 3 frames: at rest, squashed, stretched.
    pub spring: Sheet,
    /// Lava, 8 frames: 4 of the surface, 4 of the body.
    pub lava: Sheet,
    /// Walker, 3 frames.
    pub walker: Sheet,
    /// Ledge walker, 3 frames.
    pub ledge_walker: Sheet,
    /// Shell enemy, 2 frames.
    pub shell_enemy: Sheet,
    /// Shell, 4 frames.
    pub shell: Sheet,
    /// Hammer thrower, 3 frames.
    pub hammer_thrower: Sheet,
    /// Hammer, 4 frames.
    pub hammer: Sheet,
    /// Coin, 4 frames.
    pub coin: Sheet,
    /// Power-up.
    pub mushroom: Handle<Image>,
    /// Flag pole, 16 × 160, the pole centred.
    pub goal: Handle<Image>,
    /// The flag that comes down the pole, 16 × 16, its right edge on the pole.
    pub flag: Handle<Image>,
    /// The little castle at the end of a level, 80 × 80, its door at the bottom centre.
    pub castle: Handle<Image>,
    /// Checkpoint, 2 frames.
    pub checkpoint: Sheet,
    /// Pipe tiles, 8 frames of 16 × 16: upright mouth and body (left, right halves), side mouth
    /// and body (top, bottom halves).
    pub pipe: Sheet,
    /// The boss, 3 frames of 32 × 32 facing left: two walking, one throwing.
    pub boss: Sheet,
    /// The axe, 2 frames: plain, glinting.
    pub axe: Sheet,
    /// A bridge plank with its chain.
    pub bridge: Handle<Image>,
    /// A brick fragment.
    pub debris: Handle<Image>,
    /// Far backgrounds per theme.
    pub backgrounds: Vec<Handle<Image>>,
    /// Near backgrounds per theme.
    pub near_backgrounds: Vec<Handle<Image>>,
    /// The logo.
    pub title: Handle<Image>,
    /// Sound effects by name, and music per theme (feature `audio`).
    #[cfg(feature = "audio")]
    pub sounds: std::collections::HashMap<&'static str, Handle<AudioSource>>,
}

impl GameAssets {
    /// Every handle, for the loading progress.
    pub fn all(&self) -> Vec<UntypedHandle> {
        let mut handles: Vec<UntypedHandle> = [
            &self.tiles,
            &self.player_small,
            &self.player_big,
            &self.player_fire,
            &self.fireball,
            &self.fire_flower,
            &self.star,
            &self.spring,
            &self.lava,
            &self.walker,
            &self.ledge_walker,
            &self.shell_enemy,
            &self.shell,
            &self.hammer_thrower,
            &self.hammer,
            &self.coin,
            &self.checkpoint,
            &self.pipe,
            &self.boss,
            &self.axe,
        ]
        .iter()
        .map(|s| s.image.clone().untyped())
        .collect();
        for image in [
            &self.mushroom,
            &self.one_up,
            &self.goal,
            &self.flag,
            &self.castle,
            &self.debris,
            &self.bridge,
            &self.title,
        ]
        .into_iter()
        .chain(&self.backgrounds)
        .chain(&self.near_backgrounds)
        {
            handles.push(image.clone().untyped());
        }
        #[cfg(feature = "audio")]
        handles.extend(self.sounds.values().map(|h| h.clone().untyped()));
        handles
    }

    /// The tile index of `column` in the theme's row.
    pub fn tile(theme: Theme, column: usize) -> usize {
        theme.index() * 16 + column
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, load_assets);
}

fn load_assets(mut commands: Commands, server: Res<AssetServer>, mut layouts: ResMut<Assets<TextureAtlasLayout>>) {
    let mut sheet = |file: &str, frame: UVec2, columns: u32, rows: u32| Sheet {
        image: server.load(format!("images/{file}")),
        layout: layouts.add(TextureAtlasLayout::from_grid(frame, columns, rows, None, None)),
        frame: frame.as_vec2(),
    };
    let mut assets = GameAssets {
        tiles: sheet("tiles.png", UVec2::splat(16), 16, 4),
        player_small: sheet("player_small.png", UVec2::new(16, 16), 9, 1),
        player_big: sheet("player_big.png", UVec2::new(16, 32), 9, 1),
        player_fire: sheet("player_fire.png", UVec2::new(16, 32), 9, 1),
        fireball: sheet("fireball.png", UVec2::new(8, 8), 4, 1),
        fire_flower: sheet("fire_flower.png", UVec2::new(16, 16), 4, 1),
        star: sheet("star.png", UVec2::new(16, 16), 4, 1),
        one_up: server.load("images/one_up.png"),
        spring: sheet("spring.png", UVec2::new(16, 16), 3, 1),
        lava: sheet("lava.png", UVec2::new(16, 16), 8, 1),
        walker: sheet("walker.png", UVec2::new(16, 16), 3, 1),
        ledge_walker: sheet("ledge_walker.png", UVec2::new(16, 16), 3, 1),
        shell_enemy: sheet("shell_enemy.png", UVec2::new(16, 24), 2, 1),
        shell: sheet("shell.png", UVec2::new(16, 16), 4, 1),
        hammer_thrower: sheet("hammer_thrower.png", UVec2::new(16, 24), 3, 1),
        hammer: sheet("hammer.png", UVec2::new(16, 16), 4, 1),
        coin: sheet("coin.png", UVec2::new(16, 16), 4, 1),
        checkpoint: sheet("checkpoint.png", UVec2::new(16, 32), 2, 1),
        pipe: sheet("pipe.png", UVec2::new(16, 16), 8, 1),
        boss: sheet("boss.png", UVec2::new(32, 32), 3, 1),
        axe: sheet("axe.png", UVec2::new(16, 16), 2, 1),
        bridge: server.load("images/bridge.png"),
        mushroom: server.load("images/mushroom.png"),
        goal: server.load("images/goal.png"),
        flag: server.load("images/flag.png"),
        castle: server.load("images/castle_small.png"),
        debris: server.load("images/block_debris.png"),
        backgrounds: Vec::new(),
        near_backgrounds: Vec::new(),
        title: server.load("images/title.png"),
        #[cfg(feature = "audio")]
        sounds: Default::default(),
    };
    for theme in ["overworld", "underground", "sky", "castle"] {
        assets.backgrounds.push(server.load(format!("images/bg_{theme}.png")));
        assets
            .near_backgrounds
            .push(server.load(format!("images/bg_near_{theme}.png")));
    }
    #[cfg(feature = "audio")]
    {
        for name in super::audio::SOUNDS {
            assets.sounds.insert(name, server.load(format!("audio/{name}.wav")));
        }
    }
    commands.insert_resource(assets);
}
