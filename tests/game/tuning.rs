//! Tuning files: loaded, hot-reloaded when changed, and an invalid file keeps the old values.

use std::path::PathBuf;

use slope_bros::tuning::{Tuning, TuningFile};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{}.ron", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Writes new text with a later modification time (file systems with coarse clocks).
fn rewrite(path: &PathBuf, text: &str) {
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(path, text).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(1);
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(later).unwrap();
}

#[test]
fn the_shipped_tuning_file_is_valid_and_matches_the_defaults() {
    let path = platformer_tests::game::root().assets().join("tuning.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let tuning = Tuning::from_ron(&text, &path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tuning, Tuning::default(), "assets/tuning.ron documents the defaults");
}

#[test]
fn an_invalid_file_keeps_the_old_values_and_names_the_file_and_line() {
    let path = temp_file("tuning", "(player: (walk_speed: 100.0))");
    let mut file = TuningFile::new(path.clone(), true);
    let mut tuning = Tuning::default();
    assert_eq!(file.reload_if_changed(&mut tuning), Ok(true));
    assert_eq!(tuning.player.walk_speed, 100.0, "the file's value");
    assert_eq!(
        tuning.player.run_speed,
        Tuning::default().player.run_speed,
        "missing fields take defaults"
    );

    rewrite(&path, "(player: (walk_speed: 120.0,\n  run_speed: fast))");
    let error = file.reload_if_changed(&mut tuning).unwrap_err();
    assert_eq!(error.file, path);
    assert!(error.message.contains("line 2"), "{error}");
    assert_eq!(tuning.player.walk_speed, 100.0, "the last good values stay");
    assert!(file.error.is_some(), "the problem is kept for the HUD");

    rewrite(&path, "(player: (walk_speed: 120.0))");
    assert_eq!(file.reload_if_changed(&mut tuning), Ok(true));
    assert_eq!(tuning.player.walk_speed, 120.0, "the fixed file is picked up");
    assert!(file.error.is_none());
    assert_eq!(
        file.reload_if_changed(&mut tuning),
        Ok(false),
        "unchanged files are not re-read"
    );
}

#[test]
fn values_that_would_break_the_game_are_refused() {
    for (text, field) in [
        ("(player: (small_size: (0.0, 15.0)))", "player.small_size"),
        ("(player: (jump_speed: -3.0))", "player.jump_speed"),
        ("(physics: (gravity: inf))", "physics.gravity"),
        ("(player: (wings: true))", "wings"),
    ] {
        let error = Tuning::from_ron(text, std::path::Path::new("t.ron")).unwrap_err();
        assert!(error.message.contains(field), "{text}: {error}");
    }
}
