//! The game's LDtk levels against LDtk's official JSON schema (LDtk 1.5.3, JSON Schema draft-07,
//! `levels/schema/JSON_SCHEMA.json`), checked with the `boon` validator. The validator is shown
//! to accept LDtk's own sample projects and to reject broken copies of a level, naming where.
//!
//! Paths: the repository root is `DataRoot::built_from` (two levels above `crates/slope_bros`).

use std::fs;
use std::path::{Path, PathBuf};

use boon::{Compiler, SchemaIndex, Schemas, ValidationError};
use serde_json::{Value, json};

/// A violation: where in the document, and what.
struct Violation {
    path: String,
    message: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The LDtk schema, compiled (draft-07).
struct Validator {
    schemas: Schemas,
    index: SchemaIndex,
}

/// The draft-07 validator of `schema`.
fn validator(schema: &Value) -> Validator {
    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    compiler.set_default_draft(boon::Draft::V7);
    let url = "file:///levels/schema/JSON_SCHEMA.json";
    compiler
        .add_resource(url, schema.clone())
        .unwrap_or_else(|e| panic!("the LDtk schema: {e}"));
    let index = compiler
        .compile(url, &mut schemas)
        .unwrap_or_else(|e| panic!("the LDtk schema does not compile: {e}"));
    Validator { schemas, index }
}

/// Every violation of `document`: each error of the validator's tree, with where it is.
fn violations(validator: &Validator, document: &Value) -> Vec<Violation> {
    fn walk(error: &ValidationError, out: &mut Vec<Violation>) {
        out.push(Violation {
            path: error.instance_location.to_string(),
            message: error.kind.to_string(),
        });
        for cause in &error.causes {
            walk(cause, out);
        }
    }
    let mut out = Vec::new();
    if let Err(error) = validator.schemas.validate(document, validator.index) {
        walk(&error, &mut out);
    }
    out
}

// ------------------------------------------------------------------------------------------------
// Files
// ------------------------------------------------------------------------------------------------

use slope_bros::level::BUILTIN_LEVELS as LEVEL_NAMES;

/// The themes the game draws (`Theme` in `level/mod.rs`).
const THEMES: [&str; 4] = ["overworld", "underground", "sky", "castle"];
/// The IntGrid values of hidden blocks (`levels/README.md`).
const HIDDEN_COIN: u64 = 16;
const HIDDEN_EXTRA_LIFE: u64 = 17;

fn repo_root() -> PathBuf {
    platformer_tests::game::root().0
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

fn schema() -> Value {
    read_json(&repo_root().join("levels/schema/JSON_SCHEMA.json"))
}

/// Every `levels/*.ldtk`, sorted.
fn level_files() -> Vec<PathBuf> {
    let dir = repo_root().join("levels");
    let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry of levels/").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ldtk"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// "<file>: N violation(s):" and the first violations, or None when the document is valid.
fn report(validator: &Validator, file: &str, document: &Value) -> Option<String> {
    let violations = violations(validator, document);
    if violations.is_empty() {
        return None;
    }
    let first: Vec<String> = violations.iter().take(10).map(|v| format!("  {v}")).collect();
    Some(format!(
        "{file}: {} schema violation(s), first:\n{}",
        violations.len(),
        first.join("\n")
    ))
}

// ------------------------------------------------------------------------------------------------
// Tests
// ------------------------------------------------------------------------------------------------

#[test]
fn generated_levels_match_the_schema() {
    let schema = schema();
    let validator = validator(&schema);
    let files = level_files();
    let names: Vec<String> = files.iter().map(|f| file_name(f)).collect();
    for name in LEVEL_NAMES {
        assert!(
            names.contains(&format!("{name}.ldtk")),
            "levels/{name}.ldtk is missing (run python3 tools/make_levels.py); found {names:?}"
        );
    }
    let failures: Vec<String> = files
        .iter()
        .filter_map(|file| report(&validator, &format!("levels/{}", file_name(file)), &read_json(file)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ldtk_sample_project_matches_the_schema() {
    let schema = schema();
    let validator = validator(&schema);
    let relative = "tests/data/ldtk/Typical_2D_platformer_example.ldtk";
    let sample = read_json(&repo_root().join(relative));
    if let Some(failure) = report(&validator, relative, &sample) {
        panic!("{failure}");
    }
}

/// A copy of `document` changed by `edit`.
fn edited(document: &Value, edit: impl FnOnce(&mut Value)) -> Value {
    let mut copy = document.clone();
    edit(&mut copy);
    copy
}

fn at<'a>(document: &'a mut Value, pointer: &str) -> &'a mut Value {
    document
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("the level has no {pointer}"))
}

#[test]
fn broken_copies_of_a_level_are_rejected_with_the_path() {
    let schema = schema();
    let validator = validator(&schema);
    let level = read_json(&repo_root().join("levels/overworld.ldtk"));
    let unbroken = violations(&validator, &level);
    assert!(
        unbroken.is_empty(),
        "the unbroken level must be valid: {}",
        unbroken.len()
    );

    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "pxWid as a string",
            edited(&level, |d| *at(d, "/levels/0/pxWid") = json!("3744")),
            "/levels/0/pxWid",
            "want integer",
        ),
        (
            "pxWid with a fraction",
            edited(&level, |d| *at(d, "/levels/0/pxWid") = json!(3744.5)),
            "/levels/0/pxWid",
            "want integer",
        ),
        (
            "a layer without __identifier",
            edited(&level, |d| {
                at(d, "/levels/0/layerInstances/1")
                    .as_object_mut()
                    .expect("a layer instance is an object")
                    .remove("__identifier");
            }),
            "/levels/0/layerInstances/1",
            "__identifier",
        ),
        (
            "an unknown level property",
            edited(&level, |d| {
                at(d, "/levels/0")
                    .as_object_mut()
                    .expect("a level is an object")
                    .insert("pxDepth".into(), json!(1));
            }),
            "/levels/0",
            "pxDepth",
        ),
        (
            "a world layout outside the enum",
            edited(&level, |d| *at(d, "/worldLayout") = json!("Diagonal")),
            "/worldLayout",
            "value must be one of",
        ),
        (
            "an entity tile that is neither null nor a TilesetRect",
            edited(&level, |d| {
                *at(d, "/levels/0/layerInstances/0/entityInstances/0/__tile") = json!(5)
            }),
            "/levels/0/layerInstances/0/entityInstances/0/__tile",
            "oneOf",
        ),
        (
            "a fractional IntGrid value",
            edited(&level, |d| {
                *at(d, "/levels/0/layerInstances/1/intGridCsv/0") = json!(1.5)
            }),
            "/levels/0/layerInstances/1/intGridCsv/0",
            "want integer",
        ),
        (
            "a null iid deep in the table of contents",
            edited(&level, |d| {
                *at(d, "/toc/0/instancesData/0/iids/entityIid") = Value::Null
            }),
            "/toc/0/instancesData/0/iids/entityIid",
            "want string",
        ),
        (
            "layerInstances as an object",
            edited(&level, |d| *at(d, "/levels/0/layerInstances") = json!({})),
            "/levels/0/layerInstances",
            "want null or array",
        ),
    ];
    let mut failures = Vec::new();
    for (what, broken, path, message) in &cases {
        let violations = violations(&validator, broken);
        let named = violations
            .iter()
            .any(|v| v.path == *path && v.message.contains(*message));
        if !named {
            failures.push(format!(
                "{what}: expected a violation at {path} mentioning {message:?}, got {:?}",
                violations.iter().map(ToString::to_string).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "broken levels not rejected as expected:\n{}",
        failures.join("\n")
    );
}

/// The conventions the game relies on, beyond the schema. A project's first level is the level
/// the game starts (one Player, a Goal, a known theme, at least one secret); every further level is a bonus room,
/// entered only through pipes (a Pipe, no Player). Every pipe that leads somewhere leads to a
/// level of the same project and to a pipe of that level.
#[test]
fn levels_have_the_layers_a_player_and_a_goal() {
    let mut failures = Vec::new();
    for name in LEVEL_NAMES {
        let file = format!("levels/{name}.ldtk");
        let project = read_json(&repo_root().join(&file));
        let levels = project["levels"].as_array().map(Vec::as_slice).unwrap_or_default();
        if levels.is_empty() {
            failures.push(format!("{file}: no level"));
        }
        let entities = |level: &Value, identifier: &str| -> Vec<Value> {
            level["layerInstances"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|l| l["entityInstances"].as_array())
                .flatten()
                .filter(|e| e["__identifier"] == identifier)
                .cloned()
                .collect()
        };
        let field = |entity: &Value, field: &str| -> Option<String> {
            entity["fieldInstances"]
                .as_array()?
                .iter()
                .find(|f| f["__identifier"] == field)?["__value"]
                .as_str()
                .map(str::to_string)
        };
        for (index, level) in levels.iter().enumerate() {
            let id = level["identifier"].as_str().unwrap_or("?");
            let layers: Vec<&str> = level["layerInstances"]
                .as_array()
                .map(|layers| layers.iter().filter_map(|l| l["__identifier"].as_str()).collect())
                .unwrap_or_default();
            if layers != ["Entities", "Collisions"] {
                failures.push(format!(
                    "{file}: level {id}: layers {layers:?}, expected [\"Entities\", \"Collisions\"]"
                ));
            }
            let theme = level["fieldInstances"]
                .as_array()
                .and_then(|fields| fields.iter().find(|f| f["__identifier"] == "theme"))
                .and_then(|f| f["__value"].as_str());
            if !theme.is_some_and(|t| THEMES.contains(&t)) {
                failures.push(format!(
                    "{file}: level {id}: theme {theme:?}, expected one of {THEMES:?}"
                ));
            }
            let all_layers = level["layerInstances"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            for layer in all_layers {
                if layer["__type"] == "IntGrid" {
                    let cells = layer["intGridCsv"].as_array().map_or(0, Vec::len);
                    let expected = layer["__cWid"].as_u64().unwrap_or(0) * layer["__cHei"].as_u64().unwrap_or(0);
                    if layer["__gridSize"] != 16 || cells as u64 != expected || expected == 0 {
                        failures.push(format!(
                            "{file}: level {id}: IntGrid layer {}: grid {}, {cells} cells for {expected}",
                            layer["__identifier"], layer["__gridSize"]
                        ));
                    }
                }
            }
            // A secret: a hidden block (IntGrid 16 or 17) or a pipe to a bonus room.
            let hidden_blocks = all_layers
                .iter()
                .filter(|l| l["__type"] == "IntGrid")
                .filter_map(|l| l["intGridCsv"].as_array())
                .flatten()
                .filter(|v| matches!(v.as_u64(), Some(HIDDEN_COIN | HIDDEN_EXTRA_LIFE)))
                .count();
            let pipes_to_rooms = entities(level, "Pipe")
                .iter()
                .filter(|p| field(p, "to_level").is_some_and(|l| !l.is_empty()))
                .count();
            if index == 0 && hidden_blocks + pipes_to_rooms == 0 {
                failures.push(format!(
                    "{file}: level {id}: no secret (a hidden block or a pipe to a room)"
                ));
            }
            let players = entities(level, "Player").len();
            let pipes = entities(level, "Pipe");
            if index == 0 {
                if players != 1 {
                    failures.push(format!(
                        "{file}: level {id}: {players} Player entities, expected exactly one"
                    ));
                }
                if entities(level, "Goal").is_empty() {
                    failures.push(format!("{file}: level {id}: no Goal entity"));
                }
            } else {
                if players != 0 {
                    failures.push(format!(
                        "{file}: room {id}: {players} Player entities; a room is entered through its pipes"
                    ));
                }
                if pipes.is_empty() {
                    failures.push(format!("{file}: room {id}: no Pipe, so no way in"));
                }
            }
            for pipe in &pipes {
                let Some(to_level) = field(pipe, "to_level").filter(|l| !l.is_empty()) else {
                    continue;
                };
                let to_pipe = field(pipe, "to_pipe").unwrap_or_default();
                let target = levels.iter().find(|l| l["identifier"] == to_level.as_str());
                let arrives = target.is_some_and(|target| {
                    entities(target, "Pipe")
                        .iter()
                        .any(|p| field(p, "name").as_deref() == Some(to_pipe.as_str()))
                });
                if !arrives {
                    failures.push(format!(
                        "{file}: level {id}: a pipe leads to {to_level:?} pipe {to_pipe:?}, which {file} does not have"
                    ));
                }
            }
        }
        let main_pipes = levels.first().map_or(0, |l| entities(l, "Pipe").len());
        if levels.len() > 1 && main_pipes == 0 {
            failures.push(format!("{file}: rooms but no pipe in the level leading to them"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
