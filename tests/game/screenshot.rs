//! What a player sees: the real game in a window under Xvfb (software Vulkan), driven by a replay,
//! saves a screenshot; the picture must show the level's tiles, the sky and the player (its own
//! colours, as one whole sprite).
//! Feature `xvfb-tests` (needs `sudo apt-get install -y xvfb mesa-vulkan-drivers`).

use std::process::Command;

use slope_bros::masks::read_png;

/// Share of pixels whose colour is within `tolerance` of one of `colors`.
fn share_near(bytes: &[u8], colors: &[[u8; 3]], tolerance: i32) -> f64 {
    let pixels = bytes.len() / 4;
    let near = bytes
        .chunks(4)
        .filter(|p| {
            colors
                .iter()
                .any(|c| (0..3).all(|i| (i32::from(p[i]) - i32::from(c[i])).abs() <= tolerance))
        })
        .count();
    near as f64 / pixels as f64
}

/// The opaque colours of an image file.
fn palette(path: &std::path::Path, region: Option<(u32, u32, u32, u32)>) -> Vec<[u8; 3]> {
    let image = read_png(path).unwrap_or_else(|e| panic!("{e}"));
    let mut colors: Vec<[u8; 3]> = Vec::new();
    for y in 0..image.height {
        for x in 0..image.width {
            if let Some((x0, y0, w, h)) = region
                && !(x >= x0 && x < x0 + w && y >= y0 && y < y0 + h)
            {
                continue;
            }
            let i = ((y * image.width + x) * 4) as usize;
            let p = &image.bytes[i..i + 4];
            let c = [p[0], p[1], p[2]];
            if p[3] == 255 && !colors.contains(&c) {
                colors.push(c);
            }
        }
    }
    colors
}

#[test]
fn the_window_shows_the_level_and_the_player() {
    let root = platformer_tests::game::root();
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join(format!("screenshot-{}.png", std::process::id()));
    let _ = std::fs::remove_file(&shot);
    let replay = root.levels().join("replays").join("overworld.ron");
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_slope_bros_under_test"))
        .args(["--level", "overworld", "--frames", "150", "--replay"])
        .arg(&replay)
        .arg("--screenshot")
        .arg(&shot)
        .status()
        .expect("xvfb-run is installed (sudo apt-get install -y xvfb mesa-vulkan-drivers)");
    assert!(status.success(), "the game exited with {status}");
    let image = read_png(&shot).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((image.width, image.height), (1280, 720));
    let images = root.assets().join("images");
    // Overworld ground tiles (first row of tiles.png, first two columns).
    let tiles = share_near(
        &image.bytes,
        &palette(&images.join("tiles.png"), Some((0, 0, 32, 16))),
        6,
    );
    let player = share_near(
        &image.bytes,
        &palette(&images.join("player_small.png"), Some((0, 0, 16, 16))),
        6,
    );
    // The player's own colours (in no other picture of the game) must form one sprite-sized blob,
    // all of it on screen. (About 40 × 40 px at frame 150 of this replay, near the middle.)
    let others: Vec<[u8; 3]> = std::fs::read_dir(&images)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.ends_with(".png") && !name.starts_with("player_") && name != "icon.png" && name != "title.png"
        })
        .flat_map(|path| palette(&path, None))
        .collect();
    let own: Vec<[u8; 3]> = palette(&images.join("player_small.png"), None)
        .into_iter()
        .filter(|c| {
            !others
                .iter()
                .any(|o| (0..3).all(|i| (i32::from(c[i]) - i32::from(o[i])).abs() <= 8))
        })
        .collect();
    assert!(!own.is_empty(), "the player sprite has colours of its own");
    let (mut count, mut min, mut max) = (0, (u32::MAX, u32::MAX), (0, 0));
    for y in 0..image.height {
        for x in 0..image.width {
            let i = ((y * image.width + x) * 4) as usize;
            let p = &image.bytes[i..i + 3];
            if own
                .iter()
                .any(|c| (0..3).all(|k| (i32::from(p[k]) - i32::from(c[k])).abs() <= 2))
            {
                count += 1;
                min = (min.0.min(x), min.1.min(y));
                max = (max.0.max(x), max.1.max(y));
            }
        }
    }
    assert!(count >= 20, "{count} pixels of the player's own colours");
    let (width, height) = (max.0 - min.0 + 1, max.1 - min.1 + 1);
    assert!(
        width <= 160 && height <= 160,
        "the player's colours are one sprite, not scattered: {width} × {height} px at {min:?}"
    );
    assert!(
        min.0 > 0 && min.1 > 0 && max.0 < image.width - 1 && max.1 < image.height - 1,
        "the camera keeps the whole player on screen: {min:?} to {max:?}"
    );
    let sky = share_near(&image.bytes, &palette(&images.join("bg_overworld.png"), None), 6);
    assert!(tiles > 0.05, "ground tiles cover {:.1} % of the screen", tiles * 100.0);
    assert!(
        player > 0.0005,
        "the player's colours cover {:.2} % of the screen",
        player * 100.0
    );
    assert!(sky > 0.2, "the background covers {:.1} % of the screen", sky * 100.0);
    let keep = root.0.join("target").join("screenshot-overworld.png");
    let _ = std::fs::create_dir_all(keep.parent().unwrap());
    let _ = std::fs::copy(&shot, keep);
}
