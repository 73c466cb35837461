//! Helpers of the game's end-to-end tests: small LDtk levels written from ASCII rows (entities
//! copied from the real levels, so they are what the editor writes), a headless app on them that
//! steps once per `update()`, and readers of the player and enemies.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use bevy::prelude::*;
use serde_json::{Value, json};
use slope_bros::gameplay::enemies::Enemy;
use slope_bros::gameplay::player::{Form, Player};
use slope_bros::harness::app::headless_app_starting_as;
use slope_bros::input::InputSource;
use slope_bros::input::replay::{Replay, ReplayCursor};
use slope_bros::level::LevelSource;
use slope_bros::paths::DataRoot;

/// The repository root, which holds the game's `assets/` and `levels/`.
pub fn root() -> DataRoot {
    DataRoot(crate::repository_root())
}

fn template_entity(identifier: &str) -> Value {
    for level in ["overworld", "underground", "sky", "castle"] {
        let path = root().levels().join(format!("{level}.ldtk"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let project: Value = serde_json::from_str(&text).expect("the game's levels are JSON");
        for layer in project["levels"][0]["layerInstances"].as_array().into_iter().flatten() {
            for entity in layer["entityInstances"].as_array().into_iter().flatten() {
                if entity["__identifier"] == identifier {
                    return entity.clone();
                }
            }
        }
    }
    from_definition(identifier)
}

/// An instance of `identifier` made from its definition in the game's projects (for an object
/// no level uses yet), with every field at its default value.
fn from_definition(identifier: &str) -> Value {
    let path = root().levels().join("overworld.ldtk");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let project: Value = serde_json::from_str(&text).expect("the game's levels are JSON");
    let definition = project["defs"]["entities"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["identifier"] == identifier)
        .unwrap_or_else(|| panic!("{identifier} is neither in the game's levels nor in their definitions"));
    let fields: Vec<Value> = definition["fieldDefs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            json!({
                "__identifier": f["identifier"], "__type": f["__type"], "__value": f["defaultOverride"]["params"][0],
                "__tile": null, "defUid": f["uid"], "realEditorValues": [],
            })
        })
        .collect();
    json!({
        "__identifier": identifier, "__grid": [0, 0],
        "__pivot": [definition["pivotX"], definition["pivotY"]], "__tags": definition["tags"],
        "__tile": null, "__smartColor": definition["color"], "iid": "", "width": definition["width"],
        "height": definition["height"], "defUid": definition["uid"], "px": [0, 0],
        "fieldInstances": fields, "__worldX": 0, "__worldY": 0,
    })
}

/// An entity to place beside the ones drawn in the rows.
pub struct Placed {
    /// Identifier (`Lift`, `Walker`, ...).
    pub identifier: &'static str,
    /// Top-left cell, y down as in the rows.
    pub cell: IVec2,
    /// Size in cells.
    pub cells: IVec2,
    /// Field values to set (`__value`).
    pub fields: Vec<(&'static str, Value)>,
}

static NEXT_LEVEL: AtomicU32 = AtomicU32::new(0);

/// What a map character stands for, from `levels/alphabet.json` (the alphabet of the game's own
/// level sources).
enum MapChar {
    /// An IntGrid value of the `Collisions` layer.
    Cell(i32),
    /// A one-cell entity with its Bool fields.
    Entity(String, Vec<(String, bool)>),
}

/// The map alphabet, read from `levels/alphabet.json`.
fn alphabet() -> Vec<(char, MapChar)> {
    let path = root().levels().join("alphabet.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let char_of = |v: &Value| {
        v["char"]
            .as_str()
            .and_then(|c| c.chars().next())
            .expect("one character")
    };
    let mut out = Vec::new();
    for value in json["int_grid"].as_array().expect("int_grid") {
        out.push((
            char_of(value),
            MapChar::Cell(value["value"].as_i64().expect("value") as i32),
        ));
    }
    for entity in json["entities"].as_array().expect("entities") {
        let fields = entity["fields"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.as_bool().expect("Bool field")))
            .collect();
        let identifier = entity["identifier"].as_str().expect("identifier").to_string();
        out.push((char_of(entity), MapChar::Entity(identifier, fields)));
    }
    out
}

/// Writes an LDtk project with one level drawn by `rows` in the alphabet of the game's level
/// sources (`levels/alphabet.json`: `.` air, `#` ground, `S` stone, `=` one-way, `B` brick, `?`
/// coin block, `M` mushroom block, `U` used block, `/` `\` 45° slopes, `r` `R` gentle slope rising
/// right low/high, `l` `L` rising left low/high; `P` player, `w` walker, `W` ledge walker, `k`
/// shell enemy, `H` hammer thrower, `o` coin, `G` goal, `C` checkpoint) and `extra` entities.
pub fn write_level(name: &str, rows: &[&str], extra: &[Placed]) -> PathBuf {
    write_project(name, &[("Overworld", rows, extra)])
}

/// Writes an LDtk project with several levels, each `(identifier, rows, extra)` as in
/// [`write_level`]: the first is the one the game plays, the others (bonus rooms) lie below it in
/// the world, each 64 px under the one before.
pub fn write_project(name: &str, levels: &[(&str, &[&str], &[Placed])]) -> PathBuf {
    let path = root().levels().join("overworld.ldtk");
    let mut project: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let template = project["levels"][0].clone();
    let mut made = Vec::new();
    let mut world_y = 0i64;
    for (index, (identifier, rows, extra)) in levels.iter().enumerate() {
        let mut level = template.clone();
        fill_level(name, &mut level, rows, extra, index * 1000);
        level["identifier"] = json!(identifier);
        level["iid"] = json!(format!("00000000-0000-4000-9000-{index:012}"));
        level["uid"] = json!(1000 + index);
        let height = level["pxHei"].as_i64().unwrap();
        // LDtk's y points down: the first level's bottom edge is at world y = 0.
        if index == 0 {
            world_y = -height;
        }
        level["worldY"] = json!(world_y);
        world_y += height + 64;
        for (n, layer) in level["layerInstances"].as_array_mut().unwrap().iter_mut().enumerate() {
            layer["levelId"] = json!(1000 + index);
            layer["iid"] = json!(format!("00000000-0000-4000-a000-{:012}", index * 10 + n));
        }
        made.push(level);
    }
    project["levels"] = json!(made);
    let dir = std::env::temp_dir().join("slope_bros_tests");
    std::fs::create_dir_all(&dir).unwrap();
    let n = NEXT_LEVEL.fetch_add(1, Ordering::Relaxed);
    let out = dir.join(format!("{name}-{}-{n}.ldtk", std::process::id()));
    std::fs::write(&out, serde_json::to_string(&project).unwrap()).unwrap();
    out
}

/// Draws `rows` and `extra` into `level` (a copy of a real level).
fn fill_level(name: &str, level: &mut Value, rows: &[&str], extra: &[Placed], first_iid: usize) {
    let (width, height) = (rows.iter().map(|r| r.len()).max().unwrap_or(1), rows.len());
    let alphabet = alphabet();
    let mut csv = vec![0; width * height];
    let mut entities = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match alphabet.iter().find(|(ch, _)| *ch == c).map(|(_, meaning)| meaning) {
                Some(MapChar::Cell(value)) => csv[y * width + x] = *value,
                Some(MapChar::Entity(identifier, fields)) => {
                    let fields: Vec<(&str, Value)> = fields.iter().map(|(k, v)| (k.as_str(), json!(v))).collect();
                    let entity = entity(
                        identifier,
                        IVec2::new(x as i32, y as i32),
                        IVec2::ONE,
                        &fields,
                        first_iid + entities.len(),
                    );
                    entities.push(entity);
                }
                None => assert_eq!(c, '.', "{name}: {c:?} is not in levels/alphabet.json"),
            }
        }
    }
    for placed in extra {
        entities.push(entity(
            placed.identifier,
            placed.cell,
            placed.cells,
            &placed.fields,
            first_iid + entities.len(),
        ));
    }
    level["pxWid"] = json!(width * 16);
    level["pxHei"] = json!(height * 16);
    level["worldX"] = json!(0);
    for layer in level["layerInstances"].as_array_mut().unwrap() {
        layer["__cWid"] = json!(width);
        layer["__cHei"] = json!(height);
        if layer["__identifier"] == "Collisions" {
            layer["intGridCsv"] = json!(csv);
            layer["autoLayerTiles"] = json!([]);
        } else {
            layer["entityInstances"] = json!(entities);
        }
    }
}

fn entity(identifier: &str, cell: IVec2, cells: IVec2, fields: &[(&str, Value)], n: usize) -> Value {
    let mut e = template_entity(identifier);
    let (w, h) = (cells.x * 16, cells.y * 16);
    let pivot = [
        e["__pivot"][0].as_f64().unwrap_or(0.0),
        e["__pivot"][1].as_f64().unwrap_or(0.0),
    ];
    let (def_w, def_h) = (e["width"].as_i64().unwrap_or(16), e["height"].as_i64().unwrap_or(16));
    // Fixed-size entities keep their size; their pivot goes where the letter is (feet on the
    // cell's bottom for characters).
    let resizable = ["Lift", "OneWayPlatform", "Slope", "FallingLift", "Pipe", "Bridge"].contains(&identifier);
    let (w, h) = if resizable {
        (w as i64, h as i64)
    } else {
        (def_w, def_h)
    };
    let px = if resizable {
        [
            cell.x as f64 * 16.0 + pivot[0] * w as f64,
            cell.y as f64 * 16.0 + pivot[1] * h as f64,
        ]
    } else {
        [cell.x as f64 * 16.0 + 8.0, cell.y as f64 * 16.0 + pivot[1] * 16.0]
    };
    e["px"] = json!([px[0] as i64, px[1] as i64]);
    e["__worldX"] = e["px"][0].clone();
    e["__worldY"] = e["px"][1].clone();
    e["__grid"] = json!([cell.x, cell.y]);
    e["width"] = json!(w);
    e["height"] = json!(h);
    e["iid"] = json!(format!("00000000-0000-4000-8000-{n:012}"));
    for (name, value) in fields {
        let instances = e["fieldInstances"].as_array_mut().expect("fieldInstances");
        let field = instances
            .iter_mut()
            .find(|f| f["__identifier"] == *name)
            .unwrap_or_else(|| panic!("{identifier} has no field {name}"));
        field["__value"] = value.clone();
    }
    e
}

/// A headless game on `path` (with the game's physics mapping), driven by `replay`.
pub fn app_on(path: PathBuf, replay: Replay) -> App {
    app_on_starting_as(path, replay, Form::Small)
}

/// [`app_on`] with a new game that starts in `form` (as `--power-up` starts it).
pub fn app_on_starting_as(path: PathBuf, replay: Replay, form: Form) -> App {
    let source = LevelSource::File {
        path,
        mapping: Some(root().levels().join("mapping.ron")),
    };
    let input = InputSource::Replay(ReplayCursor::new(&replay));
    headless_app_starting_as(root(), source, None, input, form)
}

/// Runs `n` fixed steps.
pub fn tick(app: &mut App, n: u32) {
    for _ in 0..n {
        app.update();
    }
}

/// The player and its transform.
pub fn player(app: &mut App) -> (Player, Transform) {
    let world = app.world_mut();
    let mut query = world.query::<(&Player, &Transform)>();
    let (player, transform) = query.single(world).expect("one player");
    (player.clone(), *transform)
}

/// The player's feet.
pub fn player_feet(app: &mut App) -> Vec2 {
    let world = app.world_mut();
    let mut query = world.query_filtered::<(&Transform, &bevy_platformer_physics::Collider), With<Player>>();
    let (transform, collider) = query.single(world).expect("one player");
    transform.translation.truncate() - Vec2::Y * collider.size.y / 2.0
}

/// Every enemy: entity, enemy, centre.
pub fn enemies(app: &mut App) -> Vec<(Entity, Enemy, Vec2)> {
    let world = app.world_mut();
    let mut query = world.query::<(Entity, &Enemy, &Transform)>();
    query
        .iter(world)
        .map(|(e, enemy, t)| (e, enemy.clone(), t.translation.truncate()))
        .collect()
}

/// Runs `n` fixed steps and counts the enemies knocked out during them (a knocked-out enemy
/// falls out of the level and is gone within a second, so it is noted each step).
pub fn knocked_out_during(app: &mut App, n: u32) -> usize {
    let mut seen: Vec<Entity> = Vec::new();
    for _ in 0..n {
        app.update();
        let world = app.world_mut();
        let mut query = world.query_filtered::<Entity, With<slope_bros::gameplay::enemies::KnockedOut>>();
        for entity in query.iter(world) {
            if !seen.contains(&entity) {
                seen.push(entity);
            }
        }
    }
    seen.len()
}

/// A level with a block of `block` three cells above the player's head (column 4, row 2 from the
/// top), walled in.
pub fn block_level(name: &str, block: char) -> PathBuf {
    let row = format!("S...{block}....S");
    write_level(
        name,
        &[
            "S........S",
            "S........S",
            &row,
            "S........S",
            "S........S",
            "S...P....S",
            "##########",
        ],
        &[],
    )
}
