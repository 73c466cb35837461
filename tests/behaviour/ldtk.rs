//! The LDtk bridge (feature `ldtk`) on LDtk's own sample project, headless: every level loads at
//! its world position, bodies dropped at every entity come to rest, bodies walking and jumping
//! across each level never end a step inside a solid cell or fall out of the level, and bad input
//! gives one clear error per problem while the rest loads.
//!
//! `cargo test -p bevy_platformer_physics --features ldtk --test ldtk`

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_ecs_ldtk::LevelEvent;
use bevy_ecs_ldtk::LevelIid;
use bevy_ecs_ldtk::ldtk::{FieldValue, LayerInstance, LdtkJson, Level, Type};
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn data(name: &str) -> PathBuf {
    platformer_tests::data_dir().join("ldtk").join(name)
}

fn sample() -> LdtkJson {
    load_ldtk_file(data("Typical_2D_platformer_example.ldtk")).expect("the sample parses")
}

fn sample_mapping() -> LdtkPhysicsMapping {
    LdtkPhysicsMapping::load(data("sample_mapping.ron")).expect("the mapping parses")
}

/// The sample level's IntGrid layer of collisions.
fn collisions_layer(level: &Level) -> &LayerInstance {
    level
        .layer_instances
        .as_ref()
        .unwrap()
        .iter()
        .find(|l| l.identifier == "Collisions")
        .expect("the sample's levels have a Collisions layer")
}

/// The same, to damage it.
fn collisions_layer_mut(level: &mut Level) -> &mut LayerInstance {
    level
        .layer_instances
        .as_mut()
        .unwrap()
        .iter_mut()
        .find(|l| l.identifier == "Collisions")
        .expect("the sample's levels have a Collisions layer")
}

const FILE: &str = "Typical_2D_platformer_example.ldtk";

/// The physics of the first level of `project`, at its world position.
fn physics_of(file: &str, project: &LdtkJson, mapping: &LdtkPhysicsMapping) -> (LevelPhysics, Vec<LdtkPhysicsError>) {
    let level = &project.levels[0];
    level_physics(file, level, &project.defs, mapping, world_origin(level))
}
const BODY: u32 = 1 << 1;
const WORLD: u32 = 1;

/// An app with the physics of every level of the sample.
fn world_app(merge: bool) -> (App, Vec<LevelPhysics>) {
    let mut mapping = sample_mapping();
    mapping.merge_cells = merge;
    let (levels, errors) = world_physics(FILE, &sample(), &mapping);
    assert!(errors.is_empty(), "{errors:?}");
    let mut app = app();
    let mut commands = app.world_mut().commands();
    for level in &levels {
        spawn_level_physics(&mut commands, level);
    }
    app.world_mut().flush();
    (app, levels)
}

/// The lowest level bottom under `body` (the world's floor there).
fn world_floor_under(levels: &[LevelPhysics], body: &Aabb) -> f32 {
    levels
        .iter()
        .filter(|l| l.bounds.max.x > body.min.x && l.bounds.min.x < body.max.x)
        .map(|l| l.bounds.min.y)
        .fold(f32::INFINITY, f32::min)
}

/// Whether the bottom row of the grid whose bottom is at `floor` has no solid cell under `body`.
fn open_pit_under(app: &App, body: &Aabb, floor: f32) -> bool {
    let strip = Aabb::from_min_size(
        Vec2::new(body.min.x + 0.01, floor + 0.5),
        Vec2::new(body.size().x - 0.02, 1.0),
    );
    spatial_query(app)
        .overlap_area(strip, &QueryFilter::default())
        .iter()
        .filter(|hit| app.world().get::<TileGrid>(hit.entity).is_some())
        .all(|cell| cell.one_way || cell.slope.is_some())
}

/// The tile-grid pieces (entity and part) the physics world holds in `area`.
fn grid_pieces_in(app: &App, area: Aabb) -> Vec<(Entity, u32)> {
    spatial_query(app)
        .overlap_area(area, &QueryFilter::default().with_sensors())
        .iter()
        .filter(|hit| app.world().get::<TileGrid>(hit.entity).is_some())
        .map(|hit| (hit.entity, hit.part))
        .collect()
}

#[test]
fn every_level_loads_at_its_world_position() {
    let project = sample();
    let (levels, errors) = world_physics(FILE, &project, &sample_mapping());
    assert!(errors.is_empty(), "{errors:?}");
    let names: Vec<&str> = levels.iter().map(|l| l.level.as_str()).collect();
    assert_eq!(names, ["Your_typical_2D_platformer", "Top", "Bottom"]);
    // LDtk's y-down world rectangles, turned y-up.
    assert_eq!(
        levels[0].bounds,
        Aabb::from_min_size(Vec2::new(0.0, -336.0), Vec2::new(848.0, 336.0))
    );
    assert_eq!(
        levels[1].bounds,
        Aabb::from_min_size(Vec2::new(352.0, 0.0), Vec2::new(672.0, 352.0))
    );
    assert_eq!(
        levels[2].bounds,
        Aabb::from_min_size(Vec2::new(80.0, -592.0), Vec2::new(464.0, 256.0))
    );
    for (physics, level) in levels.iter().zip(&project.levels) {
        let layer = collisions_layer(level);
        let (grid_name, grid, origin) = &physics.grids[0];
        assert_eq!(grid_name, "Collisions");
        assert_eq!((grid.width() as i32, grid.height() as i32), (layer.c_wid, layer.c_hei));
        assert_eq!(
            *origin, physics.bounds.min,
            "{}: the grid covers the level",
            physics.level
        );
        // Every cell where it belongs: LDtk's row 0 is the top row.
        for (i, value) in layer.int_grid_csv.iter().enumerate() {
            let (cx, cy) = (i as i32 % layer.c_wid, i as i32 / layer.c_wid);
            let expected = if *value == 1 || *value == 3 {
                TileCell::Solid
            } else {
                TileCell::Empty
            };
            assert_eq!(
                grid.get(cx, layer.c_hei - 1 - cy),
                expected,
                "{} cell {cx},{cy}",
                physics.level
            );
        }
    }
    let player = levels[0].entities.iter().find(|e| e.identifier == "Player").unwrap();
    // px [184, 208], 24 × 24, pivot bottom-centre.
    assert_eq!(player.pivot, Vec2::new(184.0, -208.0));
    assert_eq!(
        player.rect,
        Aabb::from_min_size(Vec2::new(172.0, -208.0), Vec2::new(24.0, 24.0))
    );
}

#[test]
fn a_body_dropped_at_every_entity_comes_to_rest_and_stays() {
    for merge in [true, false] {
        let (mut app, levels) = world_app(merge);
        let mut bodies = Vec::new();
        for level in &levels {
            for placement in &level.entities {
                let size = placement.rect.size().min(Vec2::new(16.0, 32.0));
                let body = spawn_body(
                    &mut app,
                    Vec2::new(placement.pivot.x, placement.rect.min.y + 0.5),
                    size,
                    CollisionMode::Continuous,
                );
                app.world_mut()
                    .entity_mut(body)
                    .insert(CollisionLayers::new(BODY, WORLD));
                bodies.push((
                    body,
                    format!("{} {} ({})", level.level, placement.identifier, placement.iid),
                ));
            }
        }
        assert_eq!(bodies.len(), 14, "every entity of the sample");
        tick(&mut app, 200);
        let rest: Vec<Vec2> = bodies.iter().map(|(b, _)| aabb(&app, *b).min).collect();
        for (body, label) in &bodies {
            assert!(
                contacts(&app, *body).on_floor(),
                "merge {merge} {label}: on the ground after 2 s at {:?}",
                aabb(&app, *body)
            );
        }
        tick(&mut app, 100);
        for ((body, label), before) in bodies.iter().zip(&rest) {
            let now = aabb(&app, *body).min;
            assert!(
                (now - *before).length() < 1e-3,
                "merge {merge} {label}: moved from {before} to {now}"
            );
            assert!(
                solid_inside(&app, &aabb(&app, *body), 0.01).is_none(),
                "merge {merge} {label}"
            );
        }
    }
}

#[test]
fn walking_and_jumping_across_each_level_never_ends_inside_a_solid_or_below_the_level() {
    for mode in MODES {
        for merge in [true, false] {
            let (mut app, levels) = world_app(merge);
            for level in &levels {
                let start = level
                    .entities
                    .iter()
                    .find(|e| e.identifier == "Player")
                    .or_else(|| level.entities.first())
                    .unwrap();
                let body = spawn_body(
                    &mut app,
                    Vec2::new(start.pivot.x, start.rect.min.y + 0.5),
                    Vec2::new(12.0, 22.0),
                    mode,
                );
                app.world_mut()
                    .entity_mut(body)
                    .insert(CollisionLayers::new(BODY, WORLD));
                walker(&mut app, body, 150.0);
                let label = format!("{mode:?} merge {merge} {}", level.level);
                for step in 0..1200 {
                    let intent = if step < 600 { 1.0 } else { -1.0 };
                    input(&mut app, body).horizontal = intent;
                    if step % 50 == 10 {
                        input(&mut app, body).jump = Some(420.0);
                    }
                    tick(&mut app, 1);
                    let b = aabb(&app, body);
                    if let Some(solid) = solid_inside(&app, &b, 0.01) {
                        panic!("{label} step {step}: {b:?} inside {solid:?}");
                    }
                    // The ladder shafts (no colliders) lead down into the level below: a body may
                    // leave a level through its floor only into another level.
                    let floor = world_floor_under(&levels, &b);
                    if b.min.y < floor - 1e-3 {
                        // Only through an open pit: no solid cell in the bottom row under it.
                        assert!(
                            open_pit_under(&app, &b, floor),
                            "{label} step {step}: fell through the floor {b:?} (floor {floor})"
                        );
                        break;
                    }
                }
                app.world_mut().despawn(body);
            }
        }
    }
}

#[test]
fn merged_and_single_cells_walk_the_same_way_on_the_sample() {
    let run = |merge: bool| {
        let (mut app, levels) = world_app(merge);
        let player = levels[0]
            .entities
            .iter()
            .find(|e| e.identifier == "Player")
            .unwrap()
            .clone();
        let body = spawn_body(
            &mut app,
            Vec2::new(player.pivot.x, player.rect.min.y + 0.5),
            Vec2::new(12.0, 22.0),
            CollisionMode::Continuous,
        );
        walker(&mut app, body, 150.0);
        let mut path = Vec::new();
        for step in 0..800 {
            input(&mut app, body).horizontal = if (step / 150) % 2 == 0 { 1.0 } else { -1.0 };
            if step % 40 == 0 {
                input(&mut app, body).jump = Some(400.0);
            }
            tick(&mut app, 1);
            path.push(aabb(&app, body).min);
        }
        path
    };
    let (merged, single) = (run(true), run(false));
    for (step, (m, s)) in merged.iter().zip(&single).enumerate() {
        assert!((*m - *s).length() < 1e-3, "step {step}: merged {m} vs single {s}");
    }
}

#[test]
fn the_default_mapping_names_each_unmapped_value_and_loads_the_rest() {
    let project = sample();
    let (levels, errors) = world_physics(FILE, &project, &LdtkPhysicsMapping::default());
    // Values 2 (ladder) and 3 (stone) have no mapping, in each of the three levels.
    assert_eq!(errors.len(), 6, "{errors:#?}");
    for error in &errors {
        let text = error.to_string();
        assert!(text.starts_with(FILE), "{text}");
        assert_eq!(error.layer.as_deref(), Some("Collisions"));
        assert!(error.level.is_some());
        assert!(
            text.contains("IntGrid value 2 has no mapping") || text.contains("IntGrid value 3 has no mapping"),
            "{text}"
        );
    }
    let solid = levels[0].grids[0].1.clone();
    let layer = &project.levels[0].layer_instances.as_ref().unwrap()[2];
    let ones = layer.int_grid_csv.iter().filter(|v| **v == 1).count();
    let solids = (0..solid.width() as i32)
        .flat_map(|x| (0..solid.height() as i32).map(move |y| (x, y)))
        .filter(|(x, y)| solid.get(*x, *y) == TileCell::Solid)
        .count();
    assert_eq!(solids, ones, "value 1 is still solid");
}

#[test]
fn malformed_files_and_mappings_give_one_clear_error() {
    let text = std::fs::read_to_string(data("Typical_2D_platformer_example.ldtk")).unwrap();
    let truncated = &text[..text.len() / 2];
    let error = parse_ldtk(truncated, "broken.ldtk").unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("broken.ldtk: not a valid LDtk project at line"),
        "{error}"
    );
    let error = parse_ldtk("{\"levels\": 3}", "tiny.ldtk").unwrap_err();
    assert!(error.to_string().contains("tiny.ldtk"), "{error}");
    let error = load_ldtk_file(data("missing.ldtk")).unwrap_err();
    assert!(error.to_string().contains("missing.ldtk: cannot read"), "{error}");

    let error = LdtkPhysicsMapping::from_ron("(layers: {\"Collisions\": {1: Rock}})", "map.ron").unwrap_err();
    assert!(error.to_string().starts_with("map.ron: line 1, column"), "{error}");
    let error = LdtkPhysicsMapping::from_ron("(\n  layerz: {},\n)", "map.ron").unwrap_err();
    assert!(error.to_string().contains("line 2"), "{error}");
}

/// Found by the game's loader fuzzing (`tests/loader_fuzz.rs`): a layer claiming 2·10⁹ columns
/// made the bridge allocate the grid from the claimed size (936 GB) and abort.
#[test]
fn a_layer_whose_size_disagrees_with_its_values_is_left_out_with_an_error() {
    let mapping = sample_mapping();
    for (c_wid, c_hei, grid_size) in [
        (2_000_000_000, 23, 16),
        (-5, 23, 16),
        (65_536, 65_536, 16),
        (0, 0, 16),
        (-1, -1, 16),
    ] {
        let mut project = sample();
        let layer = collisions_layer_mut(&mut project.levels[0]);
        layer.c_wid = c_wid;
        layer.c_hei = c_hei;
        layer.grid_size = grid_size;
        let (physics, errors) = physics_of("huge.ldtk", &project, &mapping);
        assert!(physics.grids.is_empty(), "{c_wid} × {c_hei}: the layer is left out");
        assert!(
            errors
                .iter()
                .any(|e| e.to_string().contains("huge.ldtk") && e.to_string().contains(&format!("{c_wid} × {c_hei}"))),
            "{c_wid} × {c_hei}: {errors:?}"
        );
        assert!(!physics.entities.is_empty(), "the level's entities still load");
    }
    let mut project = sample();
    let layer = collisions_layer_mut(&mut project.levels[0]);
    layer.grid_size = 0;
    let (physics, errors) = physics_of("zero.ldtk", &project, &mapping);
    assert!(physics.grids.is_empty());
    assert!(
        errors.iter().any(|e| e.to_string().contains("gridSize is 0")),
        "{errors:?}"
    );
}

#[test]
fn a_missing_collision_layer_and_bad_entities_are_named_and_the_rest_loads() {
    let mut project = sample();
    let defs = project.defs.clone();
    let level = &mut project.levels[0];
    let origin = world_origin(level);
    let layers = level.layer_instances.as_mut().unwrap();
    // A lift without its path, a slope with a wrong field type, and a valid slope and lift.
    let entities = layers
        .iter_mut()
        .find(|l| l.layer_instance_type == Type::Entities)
        .unwrap();
    let template = entities.entity_instances[0].clone();
    let mut broken_lift = template.clone();
    broken_lift.identifier = "Lift".into();
    broken_lift.iid = "broken-lift".into();
    broken_lift.field_instances.clear();
    let mut broken_slope = template.clone();
    broken_slope.identifier = "Slope".into();
    broken_slope.iid = "broken-slope".into();
    broken_slope.field_instances[0].identifier = "rises_right".into();
    let mut slope = template.clone();
    slope.identifier = "Slope".into();
    slope.iid = "good-slope".into();
    slope.field_instances.clear();
    let mut lift = template.clone();
    lift.identifier = "Lift".into();
    lift.iid = "good-lift".into();
    lift.field_instances.truncate(1);
    lift.field_instances[0].identifier = "path".into();
    lift.field_instances[0].value = FieldValue::Points(vec![Some(IVec2::new(11, 4))]);
    entities
        .entity_instances
        .extend([broken_lift, broken_slope, slope, lift]);
    let mapping = sample_mapping();
    let (physics, errors) = level_physics(FILE, level, &defs, &mapping, origin);
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 2, "{texts:#?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("entity Lift (broken-lift)") && t.contains("missing field path")),
        "{texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("entity Slope (broken-slope)") && t.contains("rises_right should be a Bool")),
        "{texts:#?}"
    );
    assert_eq!(physics.slopes.len(), 1, "the good slope loads");
    assert_eq!(physics.lifts.len(), 1, "the good lift loads");
    assert_eq!(
        physics.lifts[0].follower.points[1],
        Vec2::new(11.5 * 16.0, -4.5 * 16.0),
        "to the centre of cell (11, 4)"
    );
    assert_eq!(physics.grids.len(), 1, "the grid still loads");

    // Without the collision layer: named, and the entities still load.
    let layers = level.layer_instances.as_mut().unwrap();
    for layer in layers.iter_mut() {
        if layer.identifier == "Collisions" {
            layer.identifier = "Renamed".into();
        }
    }
    let (physics, errors) = level_physics(FILE, level, &defs, &mapping, origin);
    assert!(
        errors.iter().any(|e| e.to_string()
            == format!(
                "{FILE}: level Your_typical_2D_platformer: no collision layer: no IntGrid layer is named Collisions"
            )),
        "{errors:#?}"
    );
    assert!(physics.grids.is_empty());
    assert_eq!(physics.slopes.len(), 1);
}

#[test]
fn despawning_a_level_leaves_no_stale_colliders() {
    let (mut app, levels) = world_app(true);
    app.add_plugins(LdtkPhysicsPlugin);
    app.add_message::<LevelEvent>();
    let main = &levels[0];
    let player = main.entities.iter().find(|e| e.identifier == "Player").unwrap().clone();
    let body = spawn_body(
        &mut app,
        Vec2::new(player.pivot.x, player.rect.min.y + 0.5),
        Vec2::new(12.0, 22.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 50);
    assert!(contacts(&app, body).on_floor());
    let world_area = levels.iter().skip(1).fold(main.bounds, |area, l| area.union(&l.bounds));
    let grids = |app: &App, area| {
        let mut entities: Vec<Entity> = grid_pieces_in(app, area).into_iter().map(|(e, _)| e).collect();
        entities.dedup();
        entities.len()
    };
    assert_eq!(grids(&app, world_area), 3);
    let main_pieces = grid_pieces_in(&app, main.bounds.grown(-1.0));
    assert!(!main_pieces.is_empty());
    app.world_mut()
        .write_message(LevelEvent::Despawned(LevelIid::new(main.iid.clone())));
    tick(&mut app, 2);
    assert_eq!(grids(&app, world_area), 2, "the level's grid is gone");
    let query = spatial_query(&app);
    assert!(
        main_pieces.iter().all(|&(e, part)| query.collider(e, part).is_none()),
        "none of its pieces is left"
    );
    let mut query = app.world_mut().query::<&LdtkLevelPhysics>();
    assert!(
        query.iter(app.world()).all(|m| m.level_iid != main.iid),
        "no entity of the level is left"
    );
    assert!(
        contacts(&app, body)
            .iter()
            .all(|c| app.world().get_entity(c.entity).is_ok())
    );
    tick(&mut app, 50);
    assert!(
        aabb(&app, body).min.y < player.rect.min.y - 50.0,
        "nothing holds the body up any more"
    );
}

/// Stands in for the PNG decoder (this crate's Bevy has none): `bevy_ecs_ldtk` spawns a level only
/// once the project's tileset pictures are loaded, and physics needs no pixels.
#[derive(Default, TypePath)]
pub(crate) struct BlankImageLoader;

impl bevy::asset::AssetLoader for BlankImageLoader {
    type Asset = Image;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        _reader: &mut dyn bevy::asset::io::Reader,
        _settings: &(),
        _load_context: &mut bevy::asset::LoadContext<'_>,
    ) -> Result<Image, std::io::Error> {
        Ok(Image::default())
    }

    fn extensions(&self) -> &[&str] {
        &["png", "gif"]
    }
}

/// `LdtkPhysicsPlugin` on the real asset pipeline: `bevy_ecs_ldtk` loads the sample project from
/// disk, spawns the selected level, and the plugin gives it physics; selecting another level
/// despawns the first level's physics and spawns the second's.
#[test]
fn the_plugin_follows_levels_that_bevy_ecs_ldtk_loads_and_spawns() {
    let mut app = crate::ldtk_projects::pipeline(
        data(""),
        FILE,
        sample_mapping(),
        bevy_ecs_ldtk::LevelSpawnBehavior::default(),
        Vec2::ZERO,
    );
    app.insert_resource(bevy_ecs_ldtk::LevelSelection::index(0));
    let handle_id = app
        .world_mut()
        .query::<&bevy_ecs_ldtk::LdtkProjectHandle>()
        .single(app.world())
        .unwrap()
        .handle
        .id();
    let project = sample();
    let level_iids: Vec<String> = project.levels.iter().map(|l| l.iid.clone()).collect();
    let physics_levels = |app: &mut App| -> Vec<String> {
        let world = app.world_mut();
        let mut levels: Vec<String> = world
            .query::<&LdtkLevelPhysics>()
            .iter(world)
            .map(|p| p.level_iid.clone())
            .collect();
        levels.sort();
        levels.dedup();
        levels
    };
    let wait_for = |app: &mut App, iid: &str| {
        for _ in 0..2000 {
            app.update();
            if physics_levels(app) == vec![iid.to_string()] {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let state = app.world().resource::<AssetServer>().get_load_state(handle_id);
        let world = app.world_mut();
        let spawned: Vec<String> = world
            .query::<&LevelIid>()
            .iter(world)
            .map(|l| l.get().clone())
            .collect();
        panic!(
            "no physics for level {iid} after loading; physics present for {:?}; project {state:?}; levels spawned {spawned:?}",
            physics_levels(app)
        );
    };
    wait_for(&mut app, &level_iids[0]);
    let world = app.world_mut();
    let grids = world.query::<(&TileGrid, &LdtkLevelPhysics)>().iter(world).count();
    assert_eq!(grids, 1, "the level's Collisions layer became one grid");
    assert!(app.world().resource::<LdtkPhysicsReport>().errors.is_empty());

    app.insert_resource(bevy_ecs_ldtk::LevelSelection::index(1));
    wait_for(&mut app, &level_iids[1]);
}

#[test]
fn the_sample_s_ladder_cells_are_one_ladder_per_run_and_a_climber_climbs_each_to_its_top() {
    let project = sample();
    let (levels, errors) = world_physics(FILE, &project, &sample_mapping());
    assert!(errors.is_empty(), "{errors:?}");
    let mut count = 0;
    for (physics, level) in levels.iter().zip(&project.levels) {
        let layer = collisions_layer(level);
        let cell = layer.grid_size as f32;
        let is_ladder = |cx: i32, cy: i32| {
            cx >= 0
                && cx < layer.c_wid
                && cy >= 0
                && cy < layer.c_hei
                && layer.int_grid_csv[(cy * layer.c_wid + cx) as usize] == 2
        };
        // LDtk's cell (cx, cy), y down, in world space.
        let centre = |cx: i32, cy: i32| {
            physics.bounds.min + Vec2::new(cx as f32 + 0.5, (layer.c_hei - 1 - cy) as f32 + 0.5) * cell
        };
        let mut cells = 0;
        for cy in 0..layer.c_hei {
            for cx in 0..layer.c_wid {
                if is_ladder(cx, cy) {
                    cells += 1;
                    let holders = physics.ladders.iter().filter(|l| l.contains(centre(cx, cy))).count();
                    assert_eq!(holders, 1, "{}: cell {cx},{cy} in one ladder", physics.level);
                }
            }
        }
        let mut covered = 0;
        for ladder in &physics.ladders {
            assert_eq!(ladder.size().x, cell, "{}: one column wide", physics.level);
            let cx = ((ladder.min.x - physics.bounds.min.x) / cell) as i32;
            let top_cy = layer.c_hei - ((ladder.max.y - physics.bounds.min.y) / cell).round() as i32;
            let rows = (ladder.size().y / cell).round() as i32;
            assert!(
                (0..rows).all(|r| is_ladder(cx, top_cy + r)),
                "{}: only ladder cells",
                physics.level
            );
            assert!(
                !is_ladder(cx, top_cy - 1) && !is_ladder(cx, top_cy + rows),
                "{}: the whole run",
                physics.level
            );
            covered += rows;
        }
        assert_eq!(covered, cells, "{}", physics.level);
        count += physics.ladders.len();
    }
    assert!(count >= 2, "the sample has ladders: {count}");

    let (mut app, levels) = world_app(true);
    let all: Vec<Aabb> = levels.iter().flat_map(|l| l.ladders.iter().copied()).collect();
    for ladder in &all {
        // A ladder that goes on in the level above is climbed to the top of the last one.
        let mut top = ladder.max.y;
        while let Some(next) = all.iter().find(|l| l.min.x == ladder.min.x && l.min.y == top) {
            top = next.max.y;
        }
        let body = spawn_body(
            &mut app,
            Vec2::new(ladder.center().x, ladder.min.y + 1.0),
            Vec2::new(12.0, 24.0),
            CollisionMode::Continuous,
        );
        app.world_mut()
            .entity_mut(body)
            .insert((Climber { speed: 100.0 }, CollisionLayers::new(BODY, WORLD)));
        for _ in 0..((top - ladder.min.y) as usize + 60) {
            input(&mut app, body).climb = 1.0;
            tick(&mut app, 1);
        }
        let feet = aabb(&app, body).min.y;
        assert!(
            (feet - top).abs() < 0.1 && contacts(&app, body).on_floor(),
            "the ladder {ladder:?}: climbed to its top at {top} and stands there, feet at {feet}"
        );
        app.world_mut().despawn(body);
    }
}
