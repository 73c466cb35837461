//! Loader fuzzing: damaged LDtk projects (loaded as the game loads them, through `bevy_ecs_ldtk`), tuning files, physics mappings and replays give a clear
//! error that names the file (or load what can be loaded) — never a panic, a hang or a runaway
//! allocation. Mutations are random but seeded, so a failure reproduces; set
//! `SLOPE_BROS_FUZZ_CASES` for a longer run.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use bevy_platformer_physics::ldtk::{LdtkPhysicsMapping, level_physics, parse_ldtk, world_origin};
use serde_json::Value;
use slope_bros::harness::app::headless_app;
use slope_bros::input::InputSource;
use slope_bros::input::replay::Replay;
use slope_bros::level::{LevelInfo, LevelLoadError, LevelSource};
use slope_bros::tuning::Tuning;

/// The autopilot's seeded random source, in `usize`.
struct Rng(slope_bros::harness::autopilot::Rng);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
}

fn cases() -> usize {
    std::env::var("SLOPE_BROS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

/// Text damaged the ways files get damaged: cut short, a byte changed, a span lost or doubled.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(5) {
            0 => bytes.truncate(at),
            1 => bytes[at] = b"{}[]:,\"0123456789-.etrufanl \n"[rng.below(29)],
            2 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                let span = bytes[at..end].to_vec();
                bytes.splice(at..at, span);
            }
            _ => bytes.insert(at, b"\"9e99-1"[rng.below(7)]),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Valid JSON with wrong values of the right type: integers made huge, negative or zero, floats
/// huge, lists emptied. Long arrays (IntGrid values) are left alone so that the
/// header fields get their share.
fn mutate_values(value: &mut Value, rng: &mut Rng) {
    match value {
        Value::Number(n) if rng.below(12) == 0 => {
            *value = if n.is_i64() || n.is_u64() {
                Value::from([-1_i64, 0, 2_000_000_000, -2_000_000_000, 65_536][rng.below(5)])
            } else {
                Value::from([1e300, -1.0, 0.0][rng.below(3)])
            };
        }
        Value::Array(items) if items.len() <= 100 => {
            // Pairs ([x, y]) have a fixed length; longer lists may be empty.
            if items.len() > 2 && rng.below(20) == 0 {
                items.clear();
            }
            for item in items {
                mutate_values(item, rng);
            }
        }
        Value::Object(map) => {
            for (_, item) in map.iter_mut() {
                mutate_values(item, rng);
            }
        }
        _ => {}
    }
}

fn must_not_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("{what} panicked"))
}

fn levels() -> Vec<PathBuf> {
    let root = platformer_tests::game::root();
    ["overworld", "underground", "sky", "castle"]
        .iter()
        .map(|l| root.levels().join(format!("{l}.ldtk")))
        .collect()
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Loads a damaged project the way the game does, through `bevy_ecs_ldtk`: it plays, or an error
/// names the file; every problem found names it too.
fn load_damaged_project(text: &str, name: &str, case: usize) {
    let path = write_temp(&format!("fuzz-{name}-{case}.ldtk"), text);
    let mapping = platformer_tests::game::root().levels().join("mapping.ron");
    let source = LevelSource::File {
        path: path.clone(),
        mapping: Some(mapping),
    };
    let shown = path.display().to_string();
    let mut app = must_not_panic(&format!("{name} case {case}: loading"), || {
        headless_app(platformer_tests::game::root(), source, None, InputSource::Idle)
    });
    let world = app.world();
    match &world.resource::<LevelLoadError>().0 {
        Some(e) => assert!(e.contains(&shown), "{name} case {case}: {e}"),
        None => {
            for problem in &world.resource::<LevelInfo>().problems {
                assert!(
                    problem.contains(&shown),
                    "{name} case {case}: a problem that does not name the file: {problem}"
                );
            }
            must_not_panic(&format!("{name} case {case}: playing"), || {
                for _ in 0..10 {
                    app.update();
                }
            });
        }
    }
    let _ = std::fs::remove_file(path);
}

#[test]
fn damaged_ldtk_text_is_an_error_naming_the_file() {
    let mut rng = Rng(slope_bros::harness::autopilot::Rng(0x1d7c));
    for path in levels() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        for case in 0..cases() / 4 {
            let damaged = mutate(&text, &mut rng);
            let parsed = must_not_panic(&format!("{name} case {case}: parse"), || {
                parse_ldtk(&damaged, "damaged.ldtk")
            });
            if let Err(e) = &parsed {
                assert!(e.to_string().contains("damaged.ldtk"), "{e}");
            }
            if case % 4 == 0 {
                load_damaged_project(&damaged, &name, case);
            }
        }
    }
}

#[test]
fn ldtk_values_out_of_range_never_panic_or_run_away() {
    let mut rng = Rng(slope_bros::harness::autopilot::Rng(0xbeef));
    let mapping = LdtkPhysicsMapping::load(platformer_tests::game::root().levels().join("mapping.ron")).unwrap();
    for path in levels() {
        let text = std::fs::read_to_string(&path).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        for case in 0..cases() / 4 {
            let mut damaged = json.clone();
            mutate_values(&mut damaged, &mut rng);
            let damaged = serde_json::to_string(&damaged).unwrap();
            let Ok(project) = parse_ldtk(&damaged, "values.ldtk") else {
                continue;
            };
            for level in &project.levels {
                let (_, errors) = must_not_panic(&format!("{name} case {case}: level_physics"), || {
                    level_physics("values.ldtk", level, &project.defs, &mapping, world_origin(level))
                });
                for e in errors {
                    assert!(e.to_string().contains("values.ldtk"), "{e}");
                }
            }
            if case % 3 == 0 {
                load_damaged_project(&damaged, &format!("{name}-values"), case);
            }
        }
    }
}

fn fuzz_ron<T>(file: &Path, parse: impl Fn(&str, &Path) -> Result<T, String>, seed: u64) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut rng = Rng(slope_bros::harness::autopilot::Rng(seed));
    for case in 0..cases() * 4 {
        let damaged = mutate(&text, &mut rng);
        let result = must_not_panic(&format!("{} case {case}", file.display()), || parse(&damaged, file));
        if let Err(e) = result {
            assert!(e.contains(&file.display().to_string()), "case {case}: {e}");
            assert!(
                e.contains("line") || e.contains("run") || e.contains("must"),
                "case {case}: {e}"
            );
        }
    }
}

#[test]
fn damaged_tuning_files_are_errors_naming_file_and_line() {
    let file = platformer_tests::game::root().assets().join("tuning.ron");
    fuzz_ron(&file, |t, f| Tuning::from_ron(t, f).map_err(|e| e.to_string()), 7);
}

#[test]
fn damaged_replays_are_errors_naming_file_and_line() {
    let file = platformer_tests::game::root()
        .levels()
        .join("replays")
        .join("overworld.ron");
    fuzz_ron(&file, |t, f| Replay::from_ron(t, f).map_err(|e| e.to_string()), 11);
}

#[test]
fn damaged_physics_mappings_are_errors_naming_file_and_line() {
    let file = platformer_tests::game::root().levels().join("mapping.ron");
    fuzz_ron(
        &file,
        |t, f| {
            LdtkPhysicsMapping::from_ron(t, &f.display().to_string())
                .map(|_| ())
                .map_err(|e| e.to_string())
        },
        13,
    );
}
