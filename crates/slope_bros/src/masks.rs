//! Alpha masks of the sprites that take part in pixel-perfect tests, read from the same PNG files
//! the renderer draws (decoded here, so that headless runs have them too).

use std::path::Path;

use bevy::prelude::*;
use bevy_platformer_physics::pixel_perfect::AlphaMask;

/// Alpha above this is opaque: the basic rule, any alpha but 0.
pub const ALPHA_THRESHOLD: u8 = AlphaMask::ANY_ALPHA_THRESHOLD;

/// The masks, `None` where an image could not be read (the box test then decides, and the error
/// was logged).
#[derive(Resource, Clone, Debug, Default)]
pub struct SpriteMasks {
    /// The four spin frames of the hammer.
    pub hammer: Vec<AlphaMask>,
    /// The small player's idle frame facing right.
    pub player_small: Option<AlphaMask>,
    /// The same facing left.
    pub player_small_left: Option<AlphaMask>,
    /// The big player's idle frame facing right.
    pub player_big: Option<AlphaMask>,
    /// The same facing left.
    pub player_big_left: Option<AlphaMask>,
}

/// An RGBA8 image.
pub struct Rgba8 {
    /// Width, px.
    pub width: u32,
    /// Height, px.
    pub height: u32,
    /// Row-major RGBA bytes, top row first.
    pub bytes: Vec<u8>,
}

/// Decodes a PNG file to RGBA8; the error names the file.
pub fn read_png(path: &Path) -> Result<Rgba8, String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(
        png::Transformations::EXPAND | png::Transformations::ALPHA | png::Transformations::STRIP_16,
    );
    let mut reader = decoder.read_info().map_err(|e| fail(&e))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| fail(&"the image is too large"))?;
    let mut bytes = vec![0; size];
    let info = reader.next_frame(&mut bytes).map_err(|e| fail(&e))?;
    bytes.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => bytes,
        png::ColorType::GrayscaleAlpha => bytes.chunks(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        other => return Err(fail(&format!("unsupported colour type {other:?} after expansion"))),
    };
    Ok(Rgba8 {
        width: info.width,
        height: info.height,
        bytes: rgba,
    })
}

fn frames(path: &Path, frame: UVec2, count: u32) -> Result<Vec<AlphaMask>, String> {
    let image = read_png(path)?;
    (0..count)
        .map(|i| {
            AlphaMask::from_rgba8_region(
                image.width,
                image.height,
                &image.bytes,
                URect::new(i * frame.x, 0, (i + 1) * frame.x, frame.y),
                ALPHA_THRESHOLD,
            )
            .map_err(|e| format!("{}: frame {i}: {e}", path.display()))
        })
        .collect()
}

/// The first frame of a player sheet, facing right and left.
fn facing_both_ways(path: &Path, height: u32) -> (Option<AlphaMask>, Option<AlphaMask>) {
    match frames(path, UVec2::new(16, height), 1) {
        Ok(mut f) => {
            let mask = f.remove(0);
            (Some(mask.clone()), Some(mask.flipped_x()))
        }
        Err(e) => {
            error!("{e}; the player is hit by its box");
            (None, None)
        }
    }
}

impl SpriteMasks {
    /// Reads the masks from `assets/images/`; problems are logged and leave a mask out.
    pub fn load(images: &Path) -> Self {
        let mut masks = SpriteMasks::default();
        match frames(&images.join("hammer.png"), UVec2::new(16, 16), 4) {
            Ok(hammer) => masks.hammer = hammer,
            Err(e) => error!("{e}; hammers hit by their box"),
        }
        (masks.player_small, masks.player_small_left) = facing_both_ways(&images.join("player_small.png"), 16);
        (masks.player_big, masks.player_big_left) = facing_both_ways(&images.join("player_big.png"), 32);
        masks
    }
}
