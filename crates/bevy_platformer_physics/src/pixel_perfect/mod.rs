//! Pixel-perfect overlap of two sprites' opaque pixels (see *Pixel-perfect overlap* in
//! [the physics rules](crate::physics_rules)).
//!
//! Pure functions on plain data: nothing here is a system, a component or an asset, and nothing
//! needs the renderer, so a headless game (a server, a test) can use it as well as a windowed one.
//! Build an [`AlphaMask`] once per sprite frame (from the RGBA8 bytes of an image, or one frame of
//! a sprite sheet), keep it next to the sprite, and ask [`masks_overlap`] whenever two sprites'
//! boxes meet, typically for the pairs the physics already reports in contact (hitboxes, pickups,
//! bullets against an irregular enemy).
//!
//! # Units and frames
//!
//! One pixel of the image is one world unit (the game draws at 1:1) and world y points **up**, as
//! everywhere in this crate. A mask is placed by the world position of the **bottom-left corner**
//! of its drawn image, `min`; it then covers the world pixels `[min.x, min.x + width)` ×
//! `[min.y, min.y + height)`. Images are stored top row first, so mask pixel `(col, row)` (row 0 =
//! the top row, as in [`AlphaMask::is_opaque`]) is the world pixel
//! `(min.x + col, min.y + height - 1 - row)`.
//!
//! # The rules
//!
//! 1. Two objects collide when one pixel of each is at the **same screen position** and both have
//!    an alpha channel **different from zero**: only overlaps of non-transparent pixels count.
//!    Here a pixel is opaque when its alpha is *greater than* the threshold given to
//!    [`AlphaMask::from_rgba8`]; [`AlphaMask::ANY_ALPHA_THRESHOLD`] (0) is exactly "alpha ≠ 0".
//!    A higher threshold ignores faint anti-aliased edges.
//! 2. The pixels compared are only those of the **intersection rectangle** of the two images'
//!    rectangles: with y down (screen rows), `top = max(tops)`, `bottom = min(bottoms)`,
//!    `left = max(lefts)`, `right = min(rights)`. In y up the same rectangle is
//!    `bottom = max(bottoms)`, `top = min(tops)`, `left = max(lefts)`, `right = min(rights)`.
//! 3. The scan is **half-open** (`for y in top..bottom`, `for x in left..right`): a rectangle's
//!    right and far edges are not part of it, so two images that merely touch (one's right edge on
//!    the other's left edge) share no pixel and never collide.
//! 4. When the rectangles do not overlap, the "intersection" comes out **inverted** (left ≥ right
//!    or top ≥ bottom) and a pixel loop over it would run zero times: a cheap filter, made here an
//!    explicit bounding-box reject before any pixel is read.
//! 5. A point's colour is read at `(x - rect.left) + (y - rect.top) * rect.width`: row-major, rows
//!    counted from the image's top, the rectangle being exactly the texture's size (1:1). Here the
//!    row is counted from the top of the image too, which in y up is `min.y + height - 1 - y`.
//! 6. The first pair of opaque pixels found ends the search with `true`; a scan that finds none
//!    returns `false`. ([`overlap_pixels`] instead counts them all, for tests and debugging.)
//! 7. A sprite's rectangle comes from its position with `(int)position` — the fraction is
//!    **truncated toward zero**, as C#'s cast does — and, for a position at the sprite's centre,
//!    `(int)position - size / 2` with integer division ([`AlphaMask::min_from_center`]). In y up the
//!    same formula gives the bottom edge. [`masks_overlap`] and [`overlap_pixels`] take fractional
//!    world positions and apply this truncation ([`snap_to_pixel`]); note that toward zero is not
//!    `floor` for negative coordinates (-0.5 snaps to 0, not -1). A game whose renderer snaps
//!    differently snaps itself and calls [`masks_overlap_px`] with whole pixels.
//!
//! A mask is not meant to be tested against itself: the test compares pixels of two *different*
//! objects, and skipping the self-pair is the caller's job.
//!
//! # Why the bounding box first
//!
//! Almost every pair a game asks about is far apart, and the box test costs four comparisons, while
//! the pixel test costs one step per row of the overlap. Only the intersection rectangle is ever
//! read, so two large sprites that overlap by a corner cost only that corner.
//!
//! Each mask row is stored as bits in `u64` words, so the pixel test compares 64 pixels at once: per
//! row of the intersection, the two rows' bits are shifted into line and `AND`ed word by word. It
//! is exact, not an approximation: the answer is that of a pixel-by-pixel loop, which the tests
//! check against a naive per-pixel reference.

use core::fmt;

use bevy::prelude::*;

const WORD_BITS: u32 = u64::BITS;

/// Which pixels of one image (or one frame of a sprite sheet) are opaque, one bit per pixel.
///
/// Row 0 is the image's **top** row, as images are stored; placed in the world by its bottom-left
/// corner (see the [module docs](crate::pixel_perfect)). Always at least 1×1. Build it with
/// [`from_rgba8`](Self::from_rgba8), [`from_rgba8_region`](Self::from_rgba8_region),
/// [`from_fn`](Self::from_fn) or [`from_rows`](Self::from_rows).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Debug, PartialEq)]
pub struct AlphaMask {
    width: u32,
    height: u32,
    /// `height` rows of `width.div_ceil(64)` words; bit `i` of word `j` is column `64 * j + i`. The
    /// bits past `width` in a row's last word are always zero.
    bits: Vec<u64>,
}

/// Why an [`AlphaMask`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PixelMaskError {
    /// The image (or the region cut from it) has no pixel.
    ZeroSize {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// The image is too large to be addressed on this machine.
    TooLarge {
        /// Width asked for.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// The RGBA8 bytes are not `width * height * 4` long.
    LengthMismatch {
        /// `width * height * 4`.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// A region is not inside its sheet, or its `max` is before its `min`.
    RegionOutOfBounds {
        /// The region asked for (`min` inclusive, `max` exclusive).
        region: URect,
        /// The sheet's width.
        sheet_width: u32,
        /// The sheet's height.
        sheet_height: u32,
    },
    /// [`AlphaMask::from_rows`]: a row's length differs from the first row's.
    RaggedRows {
        /// The row (0 = top).
        row: usize,
        /// The first row's length, in characters.
        expected: usize,
        /// This row's length.
        actual: usize,
    },
    /// [`AlphaMask::from_rows`]: a character that is neither `#` nor `.`.
    UnknownChar {
        /// The row (0 = top).
        row: usize,
        /// The column.
        column: usize,
        /// The character found.
        found: char,
    },
}

impl fmt::Display for PixelMaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroSize { width, height } => write!(f, "alpha mask of {width}x{height} pixels has no pixel"),
            Self::TooLarge { width, height } => write!(f, "alpha mask of {width}x{height} pixels is too large"),
            Self::LengthMismatch { expected, actual } => {
                write!(
                    f,
                    "RGBA8 data is {actual} bytes long, expected width * height * 4 = {expected}"
                )
            }
            Self::RegionOutOfBounds {
                region,
                sheet_width,
                sheet_height,
            } => write!(
                f,
                "region {}..{} x {}..{} is not inside the {sheet_width}x{sheet_height} sheet",
                region.min.x, region.max.x, region.min.y, region.max.y
            ),
            Self::RaggedRows { row, expected, actual } => {
                write!(f, "row {row} has {actual} pixels, the first row has {expected}")
            }
            Self::UnknownChar { row, column, found } => {
                write!(
                    f,
                    "unknown pixel {found:?} at row {row}, column {column} (expected '#' or '.')"
                )
            }
        }
    }
}

impl core::error::Error for PixelMaskError {}

fn words_per_row(width: u32) -> usize {
    width.div_ceil(WORD_BITS) as usize
}

/// Checks a mask size: not empty, and its words and RGBA8 bytes addressable.
fn check_size(width: u32, height: u32) -> Result<usize, PixelMaskError> {
    if width == 0 || height == 0 {
        return Err(PixelMaskError::ZeroSize { width, height });
    }
    let too_large = PixelMaskError::TooLarge { width, height };
    (width as usize)
        .checked_mul(height as usize)
        .and_then(|pixels| pixels.checked_mul(4))
        .ok_or(too_large)
}

impl AlphaMask {
    /// The basic rule: a pixel is opaque when its alpha is not zero.
    pub const ANY_ALPHA_THRESHOLD: u8 = 0;

    /// A mask whose pixel `(x, y)` (row 0 = top) is opaque when `opaque(x, y)`; the size must
    /// already have been checked.
    fn build(width: u32, height: u32, mut opaque: impl FnMut(u32, u32) -> bool) -> Self {
        let stride = words_per_row(width);
        let mut bits = vec![0; stride * height as usize];
        for (y, row) in (0..height).zip(bits.chunks_exact_mut(stride)) {
            for x in 0..width {
                if opaque(x, y) {
                    row[(x / WORD_BITS) as usize] |= 1 << (x % WORD_BITS);
                }
            }
        }
        Self { width, height, bits }
    }

    /// A mask whose pixel `(x, y)` (row 0 = top) is opaque when `opaque(x, y)`.
    pub fn from_fn(width: u32, height: u32, opaque: impl FnMut(u32, u32) -> bool) -> Result<Self, PixelMaskError> {
        check_size(width, height)?;
        Ok(Self::build(width, height, opaque))
    }

    /// A mask from a whole image's RGBA8 bytes (4 bytes a pixel, rows top first, as `Image::data`
    /// of an `Rgba8UnormSrgb` texture): a pixel is opaque when its alpha is **greater than**
    /// `alpha_threshold`. [`ANY_ALPHA_THRESHOLD`](Self::ANY_ALPHA_THRESHOLD) (0) is the basic
    /// rule, "alpha ≠ 0".
    ///
    /// Errors (never panics) when the size is zero or `rgba.len() != width * height * 4`.
    pub fn from_rgba8(width: u32, height: u32, rgba: &[u8], alpha_threshold: u8) -> Result<Self, PixelMaskError> {
        let region = URect::new(0, 0, width, height);
        Self::from_rgba8_region(width, height, rgba, region, alpha_threshold)
    }

    /// A mask from one frame of a sprite sheet: `region` is the frame's rectangle in the sheet's
    /// pixels, `min` inclusive and `max` exclusive, y down from the sheet's top (the convention of
    /// `TextureAtlasLayout::textures`, so an atlas entry can be passed as is). Opaque as in
    /// [`from_rgba8`](Self::from_rgba8).
    ///
    /// Errors (never panics) when the sheet's size is zero, `rgba.len()` is not
    /// `sheet_width * sheet_height * 4`, the region is empty, or it is not inside the sheet.
    pub fn from_rgba8_region(
        sheet_width: u32,
        sheet_height: u32,
        rgba: &[u8],
        region: URect,
        alpha_threshold: u8,
    ) -> Result<Self, PixelMaskError> {
        let expected = check_size(sheet_width, sheet_height)?;
        if rgba.len() != expected {
            return Err(PixelMaskError::LengthMismatch {
                expected,
                actual: rgba.len(),
            });
        }
        let out_of_bounds = PixelMaskError::RegionOutOfBounds {
            region,
            sheet_width,
            sheet_height,
        };
        if region.max.x > sheet_width || region.max.y > sheet_height {
            return Err(out_of_bounds);
        }
        let (Some(width), Some(height)) = (
            region.max.x.checked_sub(region.min.x),
            region.max.y.checked_sub(region.min.y),
        ) else {
            return Err(out_of_bounds);
        };
        check_size(width, height)?;
        let sheet_row = sheet_width as usize * 4;
        let (x0, y0) = (region.min.x as usize, region.min.y as usize);
        Ok(Self::build(width, height, |x, y| {
            rgba[(y0 + y as usize) * sheet_row + (x0 + x as usize) * 4 + 3] > alpha_threshold
        }))
    }

    /// A mask drawn as text, top row first: `#` opaque, `.` transparent. Handy in tests.
    ///
    /// ```
    /// # use bevy_platformer_physics::pixel_perfect::AlphaMask;
    /// let ring = AlphaMask::from_rows(&["###", "#.#", "###"]).unwrap();
    /// assert!(!ring.is_opaque(1, 1));
    /// assert_eq!(ring.opaque_count(), 8);
    /// ```
    pub fn from_rows(rows: &[&str]) -> Result<Self, PixelMaskError> {
        let width = rows.first().map_or(0, |row| row.chars().count());
        let mut opaque = Vec::with_capacity(width * rows.len());
        for (row, text) in rows.iter().enumerate() {
            let actual = text.chars().count();
            if actual != width {
                return Err(PixelMaskError::RaggedRows {
                    row,
                    expected: width,
                    actual,
                });
            }
            for (column, found) in text.chars().enumerate() {
                opaque.push(match found {
                    '#' => true,
                    '.' => false,
                    _ => return Err(PixelMaskError::UnknownChar { row, column, found }),
                });
            }
        }
        let width = u32::try_from(width).unwrap_or(u32::MAX);
        let height = u32::try_from(rows.len()).unwrap_or(u32::MAX);
        Self::from_fn(width, height, |x, y| opaque[y as usize * width as usize + x as usize])
    }

    /// Width in pixels (≥ 1).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels (≥ 1).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Width and height in pixels.
    pub fn size(&self) -> UVec2 {
        UVec2::new(self.width, self.height)
    }

    fn row(&self, y: usize) -> &[u64] {
        let stride = words_per_row(self.width);
        &self.bits[y * stride..(y + 1) * stride]
    }

    /// Whether pixel `(x, y)` is opaque; row 0 is the image's **top** row. `false` outside the mask.
    pub fn is_opaque(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height && self.row(y as usize)[(x / WORD_BITS) as usize] >> (x % WORD_BITS) & 1 == 1
    }

    /// How many pixels are opaque (saturating at `u32::MAX`).
    pub fn opaque_count(&self) -> u32 {
        let count: u64 = self.bits.iter().map(|word| u64::from(word.count_ones())).sum();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// The mask mirrored left to right, for a sprite drawn facing the other way.
    pub fn flipped_x(&self) -> Self {
        let last = self.width - 1;
        Self::build(self.width, self.height, |x, y| self.is_opaque(last - x, y))
    }

    /// The mask mirrored top to bottom, for a sprite drawn upside down.
    pub fn flipped_y(&self) -> Self {
        let last = self.height - 1;
        Self::build(self.width, self.height, |x, y| self.is_opaque(x, last - y))
    }

    /// The bottom-left corner, in whole world pixels, of this mask drawn **centred** on `center`:
    /// `(int)center - size / 2`, with the centre truncated toward zero and the size halved by integer
    /// division. Pass it to [`masks_overlap_px`].
    pub fn min_from_center(&self, center: Vec2) -> IVec2 {
        let half = IVec2::new((self.width / 2) as i32, (self.height / 2) as i32);
        snap_to_pixel(center).saturating_sub(half)
    }
}

/// A world position snapped to a whole pixel as an integer cast does, `(int)position`: the
/// fraction is truncated **toward zero** (so 1.9 → 1 and -1.9 → -1, not -2). Total: out-of-range
/// values saturate and NaN gives 0 (the overlap functions treat non-finite positions as nowhere).
pub fn snap_to_pixel(position: Vec2) -> IVec2 {
    IVec2::new(position.x as i32, position.y as i32)
}

/// The two masks' overlap in world pixels, as `(left, bottom, right, top)` (half-open), or `None`
/// when their boxes do not overlap (touching edges included): the inverted-rectangle filter.
fn intersection(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2) -> Option<(i64, i64, i64, i64)> {
    let (ax, ay, bx, by) = (
        i64::from(a_min.x),
        i64::from(a_min.y),
        i64::from(b_min.x),
        i64::from(b_min.y),
    );
    let left = ax.max(bx);
    let right = (ax + i64::from(a.width)).min(bx + i64::from(b.width));
    let bottom = ay.max(by);
    let top = (ay + i64::from(a.height)).min(by + i64::from(b.height));
    (left < right && bottom < top).then_some((left, bottom, right, top))
}

/// 64 bits of a row starting at column `start`; columns past the row's end read as 0.
fn bits_at(row: &[u64], start: usize) -> u64 {
    let word = start / WORD_BITS as usize;
    let shift = start % WORD_BITS as usize;
    let low = row.get(word).map_or(0, |w| w >> shift);
    if shift == 0 {
        low
    } else {
        low | row.get(word + 1).map_or(0, |w| w << (WORD_BITS as usize - shift))
    }
}

/// Walks the intersection rectangle row by row (image top first), 64 pixels at a time, calling
/// `visit` with the `AND` of both masks' bits; stops and returns `true` as soon as `visit` does.
fn scan(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2, mut visit: impl FnMut(u64) -> bool) -> bool {
    let Some((left, bottom, right, top)) = intersection(a, a_min, b, b_min) else {
        return false;
    };
    // Everything below is non-negative and within the masks: the intersection is inside both.
    let columns = (right - left) as usize;
    let a_column = (left - i64::from(a_min.x)) as usize;
    let b_column = (left - i64::from(b_min.x)) as usize;
    let a_top = i64::from(a_min.y) + i64::from(a.height);
    let b_top = i64::from(b_min.y) + i64::from(b.height);
    let chunks = columns.div_ceil(WORD_BITS as usize);
    // World row `y` is image row `top_edge - 1 - y` (row 0 = top).
    for y in (bottom..top).rev() {
        let row_a = a.row((a_top - 1 - y) as usize);
        let row_b = b.row((b_top - 1 - y) as usize);
        for chunk in 0..chunks {
            let offset = chunk * WORD_BITS as usize;
            // Past the intersection's right edge one of the two rows has ended (`right` is the
            // nearer right edge), and a row reads as zero past its end: no tail mask is needed.
            let both = bits_at(row_a, a_column + offset) & bits_at(row_b, b_column + offset);
            if visit(both) {
                return true;
            }
        }
    }
    false
}

/// Whether two masks drawn with their bottom-left corners at whole world pixels `a_min` and
/// `b_min` (y up) have an opaque pixel at the same place. Boxes that do not overlap (touching
/// included) are rejected before any pixel is read.
pub fn masks_overlap_px(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2) -> bool {
    scan(a, a_min, b, b_min, |both| both != 0)
}

/// How many world pixels are opaque in both masks (saturating at `u32::MAX`): 0 exactly when
/// [`masks_overlap_px`] is `false`. For tests and debugging; it reads the whole intersection.
pub fn overlap_pixels_px(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2) -> u32 {
    let mut count = 0u32;
    scan(a, a_min, b, b_min, |both| {
        count = count.saturating_add(both.count_ones());
        false
    });
    count
}

/// Whether two masks drawn with their bottom-left corners at world positions `a_min` and `b_min`
/// (pixels, y up) have an opaque pixel at the same place. Fractional positions are snapped by
/// truncating toward zero ([`snap_to_pixel`]); a non-finite position never overlaps.
///
/// ```
/// # use bevy::math::Vec2;
/// # use bevy_platformer_physics::pixel_perfect::{AlphaMask, masks_overlap};
/// let ring = AlphaMask::from_rows(&["###", "#.#", "###"]).unwrap();
/// let dot = AlphaMask::from_rows(&["#"]).unwrap();
/// assert!(!masks_overlap(&ring, Vec2::ZERO, &dot, Vec2::new(1.0, 1.0))); // in the hole
/// assert!(masks_overlap(&ring, Vec2::ZERO, &dot, Vec2::new(2.0, 1.0))); // on the ring
/// ```
pub fn masks_overlap(a: &AlphaMask, a_min: Vec2, b: &AlphaMask, b_min: Vec2) -> bool {
    a_min.is_finite() && b_min.is_finite() && masks_overlap_px(a, snap_to_pixel(a_min), b, snap_to_pixel(b_min))
}

/// [`overlap_pixels_px`] at world positions snapped as in [`masks_overlap`]; 0 for a non-finite
/// position.
pub fn overlap_pixels(a: &AlphaMask, a_min: Vec2, b: &AlphaMask, b_min: Vec2) -> u32 {
    if a_min.is_finite() && b_min.is_finite() {
        overlap_pixels_px(a, snap_to_pixel(a_min), b, snap_to_pixel(b_min))
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
