//! Pixel-perfect overlap (section 25 of [the physics rules](bevy_platformer_physics::physics_rules)): two sprites collide only where an
//! opaque pixel of each is at the same world pixel. Masks are placed by their bottom-left corner,
//! y up, row 0 = top row.
//!
//! Every "no collision" case is paired with a one-pixel move that makes it a collision, so a test
//! cannot pass by always answering `false`.

use bevy::prelude::*;
use bevy_platformer_physics::pixel_perfect::{
    AlphaMask, masks_overlap, masks_overlap_px, overlap_pixels, overlap_pixels_px, snap_to_pixel,
};
use platformer_tests::physics::Rng;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

fn mask(rows: &[&str]) -> AlphaMask {
    AlphaMask::from_rows(rows).unwrap()
}

fn solid(width: u32, height: u32) -> AlphaMask {
    AlphaMask::from_fn(width, height, |_, _| true).unwrap()
}

/// Whether the two masks' boxes overlap (half-open), independently of the crate.
fn boxes_overlap(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2) -> bool {
    let a_max = a_min + a.size().as_ivec2();
    let b_max = b_min + b.size().as_ivec2();
    a_min.x < b_max.x && b_min.x < a_max.x && a_min.y < b_max.y && b_min.y < a_max.y
}

/// The naive reference: for every opaque pixel of `a`, find the world pixel it is drawn on and
/// look up `b`'s pixel there. No rectangles, no bits.
fn reference_count(a: &AlphaMask, a_min: IVec2, b: &AlphaMask, b_min: IVec2) -> u32 {
    let mut count = 0;
    for row in 0..a.height() {
        for col in 0..a.width() {
            if !a.is_opaque(col, row) {
                continue;
            }
            let world_x = i64::from(a_min.x) + i64::from(col);
            let world_y = i64::from(a_min.y) + i64::from(a.height()) - 1 - i64::from(row);
            let b_col = world_x - i64::from(b_min.x);
            let b_row = i64::from(b_min.y) + i64::from(b.height()) - 1 - world_y;
            if let (Ok(b_col), Ok(b_row)) = (u32::try_from(b_col), u32::try_from(b_row))
                && b.is_opaque(b_col, b_row)
            {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn dot_in_the_hole_of_a_ring_does_not_collide() {
    let ring = mask(&["#####", "#...#", "#...#", "#...#", "#####"]);
    let dot = mask(&["#"]);
    let ring_at = IVec2::new(10, 20);
    // The hole is columns 1..4, rows 1..4: world x 11..14, y 21..24.
    for y in 21..24 {
        for x in 11..14 {
            let dot_at = IVec2::new(x, y);
            assert!(boxes_overlap(&ring, ring_at, &dot, dot_at));
            assert!(!masks_overlap_px(&ring, ring_at, &dot, dot_at), "dot at {dot_at}");
            assert!(
                !masks_overlap_px(&dot, dot_at, &ring, ring_at),
                "dot at {dot_at} (swapped)"
            );
        }
    }
    // On the ring itself: every border pixel is a collision.
    for (x, y) in [(10, 20), (14, 24), (12, 20), (12, 24), (10, 22), (14, 22)] {
        assert!(
            masks_overlap_px(&ring, ring_at, &dot, IVec2::new(x, y)),
            "dot at ({x}, {y})"
        );
    }
    // A bigger solid block in the hole, also without touching the ring.
    let block = solid(3, 3);
    assert!(!masks_overlap_px(&ring, ring_at, &block, IVec2::new(11, 21)));
    assert!(masks_overlap_px(&ring, ring_at, &block, IVec2::new(12, 21)));
}

#[test]
fn interlocking_l_shapes_do_not_collide() {
    // An L (vertical bar on the left, foot at the bottom) and a Γ (bar on the right, arm on top)
    // nested into each other: their boxes overlap on a 3x3 area, their pixels never meet.
    let l = mask(&["#...", "#...", "#...", "####"]);
    let gamma = mask(&["###", "..#", "..#"]);
    let l_at = IVec2::new(0, 0);
    // Γ's box covers world x 1..4, y 1..4: inside the L's corner.
    let gamma_at = IVec2::new(1, 1);
    assert!(boxes_overlap(&l, l_at, &gamma, gamma_at));
    assert!(!masks_overlap_px(&l, l_at, &gamma, gamma_at));
    assert_eq!(overlap_pixels_px(&l, l_at, &gamma, gamma_at), 0);
    // One pixel left, the Γ's arm hits the L's bar.
    assert!(masks_overlap_px(&l, l_at, &gamma, IVec2::new(0, 1)));
    assert_eq!(overlap_pixels_px(&l, l_at, &gamma, IVec2::new(0, 1)), 1);
    // One pixel down, the Γ's bar hits the L's foot.
    assert!(masks_overlap_px(&l, l_at, &gamma, IVec2::new(1, 0)));
}

#[test]
fn one_shared_opaque_pixel_is_a_collision() {
    let a = mask(&["...", "...", "..#"]);
    let b = mask(&["#..", "...", "..."]);
    // a's bottom-right pixel is world (2, 0); b's top-left is b_min + (0, 2).
    let b_at = IVec2::new(2, -2);
    assert!(masks_overlap_px(&a, IVec2::ZERO, &b, b_at));
    assert!(masks_overlap_px(&b, b_at, &a, IVec2::ZERO));
    assert_eq!(overlap_pixels_px(&a, IVec2::ZERO, &b, b_at), 1);
    // Any neighbouring offset misses it.
    for step in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y] {
        assert!(!masks_overlap_px(&a, IVec2::ZERO, &b, b_at + step), "offset {step}");
    }
}

#[test]
fn transparent_pixels_never_collide() {
    let clear = AlphaMask::from_rgba8(4, 4, &[255, 255, 255, 0].repeat(16), AlphaMask::ANY_ALPHA_THRESHOLD).unwrap();
    let faint = AlphaMask::from_rgba8(4, 4, &[0, 0, 0, 1].repeat(16), AlphaMask::ANY_ALPHA_THRESHOLD).unwrap();
    let block = solid(4, 4);
    assert!(!masks_overlap_px(&clear, IVec2::ZERO, &block, IVec2::ZERO));
    // With the basic threshold, alpha 1 is not zero, so it counts.
    assert!(masks_overlap_px(&faint, IVec2::ZERO, &block, IVec2::ZERO));
    assert_eq!(overlap_pixels_px(&faint, IVec2::ZERO, &block, IVec2::ZERO), 16);
}

#[test]
fn touching_edges_do_not_collide() {
    let a = solid(4, 3);
    let b = solid(2, 5);
    // Right of a, left of a, above a, below a, and the corners: touching, no shared pixel.
    for b_at in [
        IVec2::new(4, 0),
        IVec2::new(-2, 0),
        IVec2::new(0, 3),
        IVec2::new(0, -5),
        IVec2::new(4, 3),
        IVec2::new(-2, -5),
    ] {
        assert!(!masks_overlap_px(&a, IVec2::ZERO, &b, b_at), "b at {b_at}");
        assert!(!masks_overlap(&a, Vec2::ZERO, &b, b_at.as_vec2()), "b at {b_at}");
        // One pixel closer, they share a column or a row of pixels.
        let closer = b_at - b_at.signum();
        assert!(masks_overlap_px(&a, IVec2::ZERO, &b, closer), "b at {closer}");
    }
}

#[test]
fn rows_count_from_the_top_of_the_image_in_a_y_up_world() {
    // Only the image's top row is opaque.
    let cap = mask(&["####", "....", "...."]);
    let dot = mask(&["#"]);
    // Drawn at y 0..3 (y up), its top row is world y 2.
    assert!(masks_overlap_px(&cap, IVec2::ZERO, &dot, IVec2::new(1, 2)));
    assert!(!masks_overlap_px(&cap, IVec2::ZERO, &dot, IVec2::new(1, 0)));
    assert!(!masks_overlap_px(&cap, IVec2::ZERO, &dot, IVec2::new(1, 1)));
    // A box standing on the ground touches only its bottom row.
    let feet = mask(&["....", "....", "#..#"]);
    let ground = solid(10, 1);
    assert!(masks_overlap_px(&feet, IVec2::new(3, 0), &ground, IVec2::ZERO));
    assert!(!masks_overlap_px(&cap, IVec2::new(3, 0), &ground, IVec2::ZERO));
    assert_eq!(overlap_pixels_px(&feet, IVec2::new(3, 0), &ground, IVec2::ZERO), 2);
}

#[test]
fn fractional_positions_truncate_like_the_seed() {
    let dot = mask(&["#"]);
    let block = solid(2, 2);
    // Block on world pixels x 10..12, y 0..2. A dot at x 12.9 is pixel 12: outside.
    assert!(!masks_overlap(&block, Vec2::new(10.0, 0.0), &dot, Vec2::new(12.9, 0.5)));
    // At x 11.99 it is pixel 11: inside.
    assert!(masks_overlap(&block, Vec2::new(10.0, 0.0), &dot, Vec2::new(11.99, 0.5)));
    // The block at x 10.9 is still drawn from pixel 10, so pixel 12 is still outside.
    assert!(!masks_overlap(&block, Vec2::new(10.9, 0.0), &dot, Vec2::new(12.0, 0.0)));
    assert!(masks_overlap(&block, Vec2::new(11.0, 0.0), &dot, Vec2::new(12.0, 0.0)));
    // Same vertically: y 1.9 is row 1 (inside), y 2.0 is row 2 (outside).
    assert!(masks_overlap(&block, Vec2::new(10.0, 0.0), &dot, Vec2::new(10.0, 1.9)));
    assert!(!masks_overlap(&block, Vec2::new(10.0, 0.0), &dot, Vec2::new(10.0, 2.0)));
    assert_eq!(
        overlap_pixels(&block, Vec2::new(10.5, 0.5), &block, Vec2::new(11.5, 1.7)),
        1
    );
}

#[test]
fn fractional_negative_positions_truncate_toward_zero() {
    // An (int) cast truncates toward zero, so -0.5 snaps to 0 (floor would give -1).
    assert_eq!(snap_to_pixel(Vec2::new(-0.5, -1.5)), IVec2::new(0, -1));
    let dot = mask(&["#"]);
    assert!(masks_overlap(&dot, Vec2::new(-0.5, -0.5), &dot, Vec2::ZERO));
    assert!(!masks_overlap(&dot, Vec2::new(-1.0, -0.5), &dot, Vec2::ZERO));
    assert!(masks_overlap(&dot, Vec2::new(-1.5, -2.9), &dot, Vec2::new(-1.0, -2.0)));
}

#[test]
fn centred_positions_use_the_seeds_get_rectangle() {
    let a = solid(4, 4);
    let dot = mask(&["#"]);
    // Centred at (10.6, 10.6): (int) gives 10, minus 4 / 2: pixels 8..12 on both axes.
    let a_min = a.min_from_center(Vec2::new(10.6, 10.6));
    assert_eq!(a_min, IVec2::new(8, 8));
    assert!(masks_overlap_px(&a, a_min, &dot, IVec2::new(8, 11)));
    assert!(masks_overlap_px(&a, a_min, &dot, IVec2::new(11, 8)));
    assert!(!masks_overlap_px(&a, a_min, &dot, IVec2::new(12, 8)));
    assert!(!masks_overlap_px(&a, a_min, &dot, IVec2::new(7, 8)));
    assert!(!masks_overlap_px(&a, a_min, &dot, IVec2::new(8, 12)));
}

#[test]
fn flipped_mask_collides_on_the_other_side() {
    // A sprite with an arm sticking out to the right on its top row.
    let right = mask(&["####", "#...", "#..."]);
    let left = right.flipped_x();
    assert_eq!(left, mask(&["####", "...#", "...#"]));
    let dot = mask(&["#"]);
    // The dot at world (3, 0): the bottom-right pixel, empty facing right, solid facing left.
    assert!(!masks_overlap_px(&right, IVec2::ZERO, &dot, IVec2::new(3, 0)));
    assert!(masks_overlap_px(&left, IVec2::ZERO, &dot, IVec2::new(3, 0)));
    assert!(masks_overlap_px(&right, IVec2::ZERO, &dot, IVec2::new(0, 0)));
    assert!(!masks_overlap_px(&left, IVec2::ZERO, &dot, IVec2::new(0, 0)));
    // Flipping both sprites and mirroring their placement gives the same answers.
    let other = mask(&["#.", "##"]);
    for x in -3..5 {
        for y in -2..4 {
            let at = IVec2::new(x, y);
            let mirrored = IVec2::new(-x - other.width() as i32, y);
            let width = right.width() as i32;
            assert_eq!(
                masks_overlap_px(&right, IVec2::ZERO, &other, at),
                masks_overlap_px(&left, IVec2::new(-width, 0), &other.flipped_x(), mirrored),
                "at {at}"
            );
        }
    }
}

#[test]
fn wide_masks_compare_across_word_boundaries() {
    // 200 px wide rows span 4 words; single opaque columns sit either side of each boundary.
    for column in [0u32, 1, 62, 63, 64, 65, 127, 128, 129, 191, 192, 199] {
        let bar = AlphaMask::from_fn(200, 3, |x, _| x == column).unwrap();
        let column = column as i32;
        let wide = solid(150, 2);
        // `wide` slides along; it covers the bar's column for offsets column-149 ..= column.
        for offset in [
            -200,
            -150,
            column - 150,
            column - 149,
            column - 64,
            column - 63,
            column,
            column + 1,
        ] {
            let at = IVec2::new(offset, 1);
            let expected = (column - 149..=column).contains(&offset);
            assert_eq!(
                masks_overlap_px(&bar, IVec2::ZERO, &wide, at),
                expected,
                "column {column}, offset {offset}"
            );
            assert_eq!(
                overlap_pixels_px(&bar, IVec2::ZERO, &wide, at),
                if expected { 2 } else { 0 }
            );
        }
    }
    // Two wide combs, offset so only one pixel of 300-wide rows lines up.
    let evens = AlphaMask::from_fn(300, 1, |x, _| x % 97 == 5).unwrap();
    let odds = AlphaMask::from_fn(300, 1, |x, _| x % 89 == 3).unwrap();
    for shift in -299..300 {
        let at = IVec2::new(shift, 0);
        assert_eq!(
            overlap_pixels_px(&evens, IVec2::ZERO, &odds, at),
            reference_count(&evens, IVec2::ZERO, &odds, at),
            "shift {shift}"
        );
    }
}

#[test]
fn negative_world_coordinates() {
    let ring = mask(&["###", "#.#", "###"]);
    let dot = mask(&["#"]);
    let ring_at = IVec2::new(-1000, -500);
    assert!(!masks_overlap_px(&ring, ring_at, &dot, IVec2::new(-999, -499)));
    assert!(masks_overlap_px(&ring, ring_at, &dot, IVec2::new(-998, -499)));
    assert!(masks_overlap_px(&ring, ring_at, &dot, IVec2::new(-1000, -498)));
    assert!(!masks_overlap_px(&ring, ring_at, &dot, IVec2::new(-1001, -498)));
    assert!(!masks_overlap_px(&ring, ring_at, &dot, IVec2::new(-1000, -497)));
    // Straddling the origin.
    let block = solid(4, 4);
    assert_eq!(
        overlap_pixels_px(&block, IVec2::new(-2, -2), &block, IVec2::new(-1, 1)),
        3
    );
    assert!(masks_overlap(
        &ring,
        Vec2::new(-1000.0, -500.0),
        &dot,
        Vec2::new(-998.0, -499.0)
    ));
}

#[test]
fn extreme_and_non_finite_positions_never_panic() {
    let a = solid(70, 3);
    assert!(!masks_overlap_px(&a, IVec2::MAX, &a, IVec2::MIN));
    assert!(masks_overlap_px(&a, IVec2::MAX, &a, IVec2::MAX));
    assert!(masks_overlap_px(&a, IVec2::MIN, &a, IVec2::MIN));
    assert_eq!(
        overlap_pixels_px(&a, IVec2::MAX, &a, IVec2::MAX - IVec2::new(1, 0)),
        69 * 3
    );
    assert!(!masks_overlap(&a, Vec2::new(f32::NAN, 0.0), &a, Vec2::ZERO));
    assert!(!masks_overlap(&a, Vec2::ZERO, &a, Vec2::new(0.0, f32::INFINITY)));
    assert_eq!(overlap_pixels(&a, Vec2::splat(f32::NAN), &a, Vec2::splat(f32::NAN)), 0);
    assert!(masks_overlap(&a, Vec2::splat(1e30), &a, Vec2::splat(1e30)));
}

#[test]
fn from_rgba8_masks_collide_as_drawn() {
    // An RGBA8 image 3x2: top row opaque red, bottom row transparent.
    let mut bytes = Vec::new();
    for y in 0..2 {
        for _ in 0..3 {
            bytes.extend_from_slice(&[255, 0, 0, if y == 0 { 255 } else { 0 }]);
        }
    }
    let sprite = AlphaMask::from_rgba8(3, 2, &bytes, AlphaMask::ANY_ALPHA_THRESHOLD).unwrap();
    let dot = mask(&["#"]);
    assert!(masks_overlap_px(&sprite, IVec2::ZERO, &dot, IVec2::new(2, 1)));
    assert!(!masks_overlap_px(&sprite, IVec2::ZERO, &dot, IVec2::new(2, 0)));
}

fn random_mask(rng: &mut Rng, max_width: u32, max_height: u32, density_percent: u32) -> AlphaMask {
    let width = 1 + rng.below(max_width);
    let height = 1 + rng.below(max_height);
    AlphaMask::from_fn(width, height, |_, _| rng.below(100) < density_percent).unwrap()
}

#[test]
fn matches_the_naive_reference_on_every_offset() {
    let mut rng = Rng(2);
    // Offsets where the boxes overlap but no opaque pixels do, and where pixels do.
    let (mut box_only, mut hits) = (0, 0);
    for case in 0..60 {
        // Sparse masks, so that "no collision" is common, and some wider than a word.
        let (max_width, density) = if case % 3 == 0 { (140, 3) } else { (12, 15) };
        let a = random_mask(&mut rng, max_width, 9, density);
        let b = random_mask(&mut rng, max_width, 9, density);
        let a_at = IVec2::new(rng.below(21) as i32 - 10, rng.below(21) as i32 - 10);
        let (aw, ah, bw, bh) = (a.width() as i32, a.height() as i32, b.width() as i32, b.height() as i32);
        // Every offset from "b entirely left/below a, touching" to "entirely right/above, touching".
        for dy in -bh..=ah {
            for dx in -bw..=aw {
                let b_at = a_at + IVec2::new(dx, dy);
                let expected = reference_count(&a, a_at, &b, b_at);
                assert_eq!(
                    overlap_pixels_px(&a, a_at, &b, b_at),
                    expected,
                    "case {case}, b at {b_at}"
                );
                assert_eq!(
                    masks_overlap_px(&a, a_at, &b, b_at),
                    expected > 0,
                    "case {case}, b at {b_at}"
                );
                assert_eq!(
                    masks_overlap_px(&b, b_at, &a, a_at),
                    expected > 0,
                    "case {case}, swapped"
                );
                if expected > 0 {
                    hits += 1;
                } else if boxes_overlap(&a, a_at, &b, b_at) {
                    box_only += 1;
                }
            }
        }
    }
    assert!(box_only > 100 && hits > 100, "{box_only} box-only offsets, {hits} hits");
}

#[test]
fn proptest_fast_overlap_matches_the_reference() {
    let mask_strategy = (1u32..150, 1u32..10).prop_flat_map(|(width, height)| {
        proptest::collection::vec(any::<u8>(), (width * height) as usize).prop_map(move |alpha| {
            // About one pixel in four opaque.
            AlphaMask::from_fn(width, height, |x, y| alpha[(y * width + x) as usize] < 64).unwrap()
        })
    });
    let offset = (-160i32..160, -12i32..12);
    let config = Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    runner
        .run(
            &(
                mask_strategy.clone(),
                mask_strategy,
                offset,
                -0.99f32..0.99,
                -0.99f32..0.99,
            ),
            |(a, b, (dx, dy), fx, fy)| {
                let a_at = IVec2::new(-7, 3);
                let b_at = a_at + IVec2::new(dx, dy);
                let expected = reference_count(&a, a_at, &b, b_at);
                prop_assert_eq!(overlap_pixels_px(&a, a_at, &b, b_at), expected);
                prop_assert_eq!(masks_overlap_px(&a, a_at, &b, b_at), expected > 0);
                prop_assert_eq!(masks_overlap_px(&b, b_at, &a, a_at), expected > 0);
                // Fractional world positions: the same as the truncated whole pixels.
                let (a_world, b_world) = (a_at.as_vec2() + Vec2::new(fx, fy), b_at.as_vec2() + Vec2::new(fy, fx));
                let snapped = reference_count(&a, snap_to_pixel(a_world), &b, snap_to_pixel(b_world));
                prop_assert_eq!(masks_overlap(&a, a_world, &b, b_world), snapped > 0);
                prop_assert_eq!(overlap_pixels(&a, a_world, &b, b_world), snapped);
                Ok(())
            },
        )
        .unwrap();
}
