//! Unit tests of the alpha masks and their overlap.

use super::*;

/// RGBA8 bytes of a `width`×`height` image whose pixel `(x, y)` has alpha `alpha(x, y)`.
fn rgba(width: u32, height: u32, alpha: impl Fn(u32, u32) -> u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    for y in 0..height {
        for x in 0..width {
            bytes.extend_from_slice(&[200, 100, 50, alpha(x, y)]);
        }
    }
    bytes
}

#[test]
fn from_rgba8_reads_alpha_row_zero_on_top() {
    // Only the top-left and bottom-right pixels are opaque.
    let bytes = rgba(3, 2, |x, y| if (x, y) == (0, 0) || (x, y) == (2, 1) { 255 } else { 0 });
    let mask = AlphaMask::from_rgba8(3, 2, &bytes, AlphaMask::ANY_ALPHA_THRESHOLD).unwrap();
    assert_eq!(mask.size(), UVec2::new(3, 2));
    assert!(mask.is_opaque(0, 0));
    assert!(mask.is_opaque(2, 1));
    assert!(!mask.is_opaque(2, 0));
    assert!(!mask.is_opaque(0, 1));
    assert_eq!(mask.opaque_count(), 2);
    // Outside the mask is transparent, not a panic.
    assert!(!mask.is_opaque(3, 0));
    assert!(!mask.is_opaque(0, 2));
    assert!(!mask.is_opaque(u32::MAX, u32::MAX));
}

#[test]
fn threshold_is_strictly_greater() {
    let bytes = rgba(4, 1, |x, _| [0, 1, 128, 255][x as usize]);
    // The basic rule: any alpha other than zero is opaque.
    let seed = AlphaMask::from_rgba8(4, 1, &bytes, AlphaMask::ANY_ALPHA_THRESHOLD).unwrap();
    assert_eq!(
        (0..4).map(|x| seed.is_opaque(x, 0)).collect::<Vec<_>>(),
        [false, true, true, true]
    );
    let half = AlphaMask::from_rgba8(4, 1, &bytes, 128).unwrap();
    assert_eq!(
        (0..4).map(|x| half.is_opaque(x, 0)).collect::<Vec<_>>(),
        [false, false, false, true]
    );
    let max = AlphaMask::from_rgba8(4, 1, &bytes, 255).unwrap();
    assert_eq!(max.opaque_count(), 0);
    // Colour channels do not matter, only alpha.
    let colour_only = [255, 255, 255, 0];
    assert_eq!(AlphaMask::from_rgba8(1, 1, &colour_only, 0).unwrap().opaque_count(), 0);
}

#[test]
fn bad_sizes_are_errors() {
    assert_eq!(
        AlphaMask::from_rgba8(0, 4, &[], 0),
        Err(PixelMaskError::ZeroSize { width: 0, height: 4 })
    );
    assert_eq!(
        AlphaMask::from_rgba8(4, 0, &[], 0),
        Err(PixelMaskError::ZeroSize { width: 4, height: 0 })
    );
    assert_eq!(
        AlphaMask::from_rgba8(2, 2, &[0; 15], 0),
        Err(PixelMaskError::LengthMismatch {
            expected: 16,
            actual: 15
        })
    );
    assert_eq!(
        AlphaMask::from_rgba8(2, 2, &[0; 17], 0),
        Err(PixelMaskError::LengthMismatch {
            expected: 16,
            actual: 17
        })
    );
    // RGB bytes (3 a pixel) are not RGBA8.
    assert!(matches!(
        AlphaMask::from_rgba8(2, 2, &[0; 12], 0),
        Err(PixelMaskError::LengthMismatch { .. })
    ));
    assert_eq!(
        AlphaMask::from_fn(0, 0, |_, _| true),
        Err(PixelMaskError::ZeroSize { width: 0, height: 0 })
    );
    // width * height * 4 does not fit a usize, even on 64-bit targets.
    assert_eq!(
        AlphaMask::from_rgba8(u32::MAX, u32::MAX, &[], 0),
        Err(PixelMaskError::TooLarge {
            width: u32::MAX,
            height: u32::MAX
        })
    );
    // Every error explains itself.
    let error = AlphaMask::from_rgba8(2, 2, &[0; 15], 0).unwrap_err();
    assert!(error.to_string().contains("15"), "{error}");
}

#[test]
fn region_cuts_one_frame_of_a_sheet() {
    // A 6x4 sheet of two 3x4 frames; frame 1 has its opaque pixel at its (1, 2).
    let bytes = rgba(6, 4, |x, y| if (x, y) == (4, 2) || (x, y) == (0, 0) { 255 } else { 0 });
    let frame0 = AlphaMask::from_rgba8_region(6, 4, &bytes, URect::new(0, 0, 3, 4), 0).unwrap();
    let frame1 = AlphaMask::from_rgba8_region(6, 4, &bytes, URect::new(3, 0, 6, 4), 0).unwrap();
    assert_eq!(frame1.size(), UVec2::new(3, 4));
    assert!(frame0.is_opaque(0, 0));
    assert_eq!(frame0.opaque_count(), 1);
    assert!(frame1.is_opaque(1, 2));
    assert_eq!(frame1.opaque_count(), 1);
    // A region in the middle, vertically too.
    let middle = AlphaMask::from_rgba8_region(6, 4, &bytes, URect::new(4, 1, 5, 3), 0).unwrap();
    assert_eq!(middle.size(), UVec2::new(1, 2));
    assert!(middle.is_opaque(0, 1));
    assert!(!middle.is_opaque(0, 0));
    // The whole sheet as a region is the same as from_rgba8.
    assert_eq!(
        AlphaMask::from_rgba8_region(6, 4, &bytes, URect::new(0, 0, 6, 4), 0),
        AlphaMask::from_rgba8(6, 4, &bytes, 0)
    );
}

#[test]
fn bad_regions_are_errors() {
    let bytes = rgba(6, 4, |_, _| 255);
    for region in [
        URect::new(4, 0, 7, 4),
        URect::new(0, 2, 3, 5),
        URect::new(0, 0, u32::MAX, 1),
        // Inverted.
        URect {
            min: UVec2::new(3, 0),
            max: UVec2::new(1, 4),
        },
        URect {
            min: UVec2::new(0, 3),
            max: UVec2::new(2, 1),
        },
    ] {
        assert!(
            matches!(
                AlphaMask::from_rgba8_region(6, 4, &bytes, region, 0),
                Err(PixelMaskError::RegionOutOfBounds { .. })
            ),
            "{region:?}"
        );
    }
    assert_eq!(
        AlphaMask::from_rgba8_region(6, 4, &bytes, URect::new(2, 1, 2, 3), 0),
        Err(PixelMaskError::ZeroSize { width: 0, height: 2 })
    );
    // The sheet's own length is checked before the region.
    assert!(matches!(
        AlphaMask::from_rgba8_region(6, 4, &bytes[1..], URect::new(0, 0, 1, 1), 0),
        Err(PixelMaskError::LengthMismatch { .. })
    ));
}

#[test]
fn from_rows_and_its_errors() {
    let mask = AlphaMask::from_rows(&["#..", "..#"]).unwrap();
    assert_eq!(mask.size(), UVec2::new(3, 2));
    assert!(mask.is_opaque(0, 0) && mask.is_opaque(2, 1));
    assert_eq!(mask.opaque_count(), 2);
    assert_eq!(
        AlphaMask::from_rows(&["##", "#"]),
        Err(PixelMaskError::RaggedRows {
            row: 1,
            expected: 2,
            actual: 1
        })
    );
    assert_eq!(
        AlphaMask::from_rows(&["#x"]),
        Err(PixelMaskError::UnknownChar {
            row: 0,
            column: 1,
            found: 'x'
        })
    );
    assert!(matches!(
        AlphaMask::from_rows(&[]),
        Err(PixelMaskError::ZeroSize { .. })
    ));
    assert!(matches!(
        AlphaMask::from_rows(&[""]),
        Err(PixelMaskError::ZeroSize { .. })
    ));
}

#[test]
fn flips_mirror_the_pixels() {
    let mask = AlphaMask::from_rows(&["##.", "#..", "#.#"]).unwrap();
    let x = mask.flipped_x();
    assert_eq!(x, AlphaMask::from_rows(&[".##", "..#", "#.#"]).unwrap());
    let y = mask.flipped_y();
    assert_eq!(y, AlphaMask::from_rows(&["#.#", "#..", "##."]).unwrap());
    assert_eq!(x.flipped_x(), mask);
    assert_eq!(y.flipped_y(), mask);
    // Across word boundaries: a 130-wide mask with one pixel at column 0 ends up at 129.
    let wide = AlphaMask::from_fn(130, 1, |x, _| x == 0 || x == 64).unwrap();
    let flipped = wide.flipped_x();
    assert!(flipped.is_opaque(129, 0) && flipped.is_opaque(65, 0));
    assert_eq!(flipped.opaque_count(), 2);
}

#[test]
fn wide_rows_keep_their_bits_and_zero_padding() {
    let mask = AlphaMask::from_fn(130, 3, |x, y| (x + y) % 3 == 0).unwrap();
    for y in 0..3 {
        for x in 0..130 {
            assert_eq!(mask.is_opaque(x, y), (x + y) % 3 == 0, "({x}, {y})");
        }
    }
    // 3 words a row; the 62 bits past column 129 are zero.
    assert_eq!(mask.bits.len(), 9);
    for row in mask.bits.chunks(3) {
        assert_eq!(row[2] >> 2, 0);
    }
}

#[test]
fn bits_at_shifts_across_words() {
    let row = [0x8000_0000_0000_0001_u64, 0b101];
    assert_eq!(bits_at(&row, 0), row[0]);
    assert_eq!(bits_at(&row, 63), 0b1011);
    assert_eq!(bits_at(&row, 64), 0b101);
    assert_eq!(bits_at(&row, 66), 1);
    assert_eq!(bits_at(&row, 200), 0);
}

#[test]
fn intersection_is_half_open_and_filters_inverted_rectangles() {
    let a = AlphaMask::from_fn(4, 3, |_, _| true).unwrap();
    let b = AlphaMask::from_fn(2, 2, |_, _| true).unwrap();
    assert_eq!(intersection(&a, IVec2::ZERO, &b, IVec2::new(3, 2)), Some((3, 2, 4, 3)));
    // Touching on the right edge / the top edge: nothing.
    assert_eq!(intersection(&a, IVec2::ZERO, &b, IVec2::new(4, 0)), None);
    assert_eq!(intersection(&a, IVec2::ZERO, &b, IVec2::new(0, 3)), None);
    assert_eq!(intersection(&a, IVec2::ZERO, &b, IVec2::new(-2, 0)), None);
    // Far apart at the ends of the i32 range does not overflow.
    assert_eq!(intersection(&a, IVec2::MAX, &b, IVec2::MIN), None);
    assert_eq!(
        intersection(&a, IVec2::MAX, &b, IVec2::MAX),
        Some((
            i64::from(i32::MAX),
            i64::from(i32::MAX),
            i64::from(i32::MAX) + 2,
            i64::from(i32::MAX) + 2
        ))
    );
}

#[test]
fn snap_truncates_toward_zero() {
    assert_eq!(snap_to_pixel(Vec2::new(1.9, 0.1)), IVec2::new(1, 0));
    assert_eq!(snap_to_pixel(Vec2::new(-1.9, -0.5)), IVec2::new(-1, 0));
    assert_eq!(
        snap_to_pixel(Vec2::new(f32::NAN, f32::INFINITY)),
        IVec2::new(0, i32::MAX)
    );
}

#[test]
fn min_from_center_is_the_seeds_get_rectangle() {
    let even = AlphaMask::from_fn(4, 6, |_, _| true).unwrap();
    let odd = AlphaMask::from_fn(5, 3, |_, _| true).unwrap();
    assert_eq!(even.min_from_center(Vec2::new(10.7, 20.2)), IVec2::new(8, 17));
    assert_eq!(odd.min_from_center(Vec2::new(10.7, 20.2)), IVec2::new(8, 19));
    assert_eq!(odd.min_from_center(Vec2::new(-0.7, -3.9)), IVec2::new(-2, -4));
}
