//! The LDtk bridge on real projects of every shape (feature `ldtk`), headless: several worlds,
//! levels in their own `.ldtkl` files, 8 px and 16 px IntGrid layers, free, grid-vania and linear
//! layouts, IntGrid values mapped by identifier; and the bad input each shape can bring: a missing
//! level file, an empty world, a mapping naming what the project does not define, a newer LDtk.
//! The projects are LDtk's own samples (`tests/data/ldtk/samples/`, license table beside them).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::ldtk::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn sample(name: &str) -> PathBuf {
    platformer_tests::data_dir().join("ldtk/samples").join(name)
}

/// The mapping of a sample: `samples/<project>.physics.ron`, by the identifiers the projects give
/// their values where they give them.
fn mapping_for(project: &str) -> LdtkPhysicsMapping {
    let file = sample(&project.replace(".ldtk", ".physics.ron"));
    LdtkPhysicsMapping::load(&file).unwrap_or_else(|e| panic!("{e}"))
}

const SAMPLES: [(&str, usize); 4] = [
    ("SeparateLevelFiles.ldtk", 3),
    ("unitTest.ldtk", 7),
    ("Test_file_for_API_showing_all_features.ldtk", 4),
    ("WorldMap_Free_layout.ldtk", 12),
];

/// The project and its physics, with no problem allowed.
fn load(name: &str) -> (LdtkProjectFile, Vec<LevelPhysics>) {
    let (project, errors) = LdtkProjectFile::load(sample(name)).expect("the project loads");
    assert!(errors.is_empty(), "{name}: {errors:#?}");
    let (physics, errors) = project.physics(&mapping_for(name));
    assert!(errors.is_empty(), "{name}: {errors:#?}");
    (project, physics)
}

#[test]
fn every_level_of_every_world_of_every_sample_gets_its_physics() {
    for (name, count) in SAMPLES {
        let (project, physics) = load(name);
        assert_eq!(project.levels.len(), count, "{name}: levels");
        assert_eq!(physics.len(), count, "{name}: physics");
        for (level, physics) in project.levels.iter().zip(&physics) {
            let label = format!("{name} {}", level.level.identifier);
            assert_eq!(physics.bounds.min, level.origin, "{label}: placed at its origin");
            // Every mapped IntGrid layer of the level became a grid, at the layer's place.
            let mapped = level
                .level
                .layer_instances
                .as_ref()
                .unwrap()
                .iter()
                .filter(|l| mapping_for(name).cells_of(&l.identifier, &project.json.defs).is_some())
                .count();
            assert_eq!(physics.grids.len(), mapped, "{label}: grids");
            for (layer, grid, origin) in &physics.grids {
                let size = Vec2::new(grid.width() as f32, grid.height() as f32) * grid.cell_size;
                let grid_box = Aabb::from_min_size(*origin, size);
                assert!(
                    physics.bounds.grown(grid.cell_size).contains_box(&grid_box),
                    "{label}: grid {layer} {grid_box:?} inside the level {:?}",
                    physics.bounds
                );
            }
        }
    }
}

#[test]
fn levels_in_their_own_files_are_read_with_their_layers() {
    let (project, physics) = load("SeparateLevelFiles.ldtk");
    assert!(
        project.json.external_levels,
        "the project keeps its levels in .ldtkl files"
    );
    for (level, physics) in project.levels.iter().zip(&physics) {
        assert!(
            level.level.layer_instances.is_some(),
            "{}: layers read",
            level.level.identifier
        );
        let solid = physics.grids[0].1.clone();
        let cells = (0..solid.width() as i32)
            .flat_map(|x| (0..solid.height() as i32).map(move |y| (x, y)))
            .filter(|&(x, y)| solid.get(x, y) == TileCell::Solid)
            .count();
        assert!(cells > 0, "{}: its walls are solid", level.level.identifier);
    }
}

#[test]
fn layouts_place_levels_as_the_ldtk_editor_shows_them() {
    // Linear horizontal: side by side, left to right, tops at y = 0.
    let (project, _) = load("SeparateLevelFiles.ldtk");
    let origins: Vec<Vec2> = project.levels.iter().map(|l| l.origin).collect();
    assert_eq!(
        origins,
        vec![
            Vec2::new(0.0, -240.0),
            Vec2::new(240.0, -240.0),
            Vec2::new(480.0, -240.0)
        ]
    );
    // Linear vertical: top to bottom.
    let (project, _) = load("Test_file_for_API_showing_all_features.ldtk");
    let mut top = 0.0;
    for level in &project.levels {
        let height = level.level.px_hei as f32;
        assert_eq!(level.origin, Vec2::new(0.0, top - height), "{}", level.level.identifier);
        top -= height;
    }
    // Free and grid-vania: at LDtk's world position, y flipped; each world apart.
    for name in ["WorldMap_Free_layout.ldtk", "unitTest.ldtk"] {
        let (project, _) = load(name);
        for level in &project.levels {
            let l = &level.level;
            assert_eq!(
                level.origin,
                Vec2::new(l.world_x as f32, -((l.world_y + l.px_hei) as f32)),
                "{name} {}",
                l.identifier
            );
        }
    }
    let (project, _) = load("unitTest.ldtk");
    let worlds: Vec<Option<&str>> = project.levels.iter().map(|l| l.world.as_deref()).collect();
    assert_eq!(worlds.iter().filter(|w| **w == Some("World1")).count(), 6);
    assert_eq!(worlds.iter().filter(|w| **w == Some("World2")).count(), 1);
}

#[test]
fn eight_and_sixteen_pixel_layers_side_by_side_keep_their_cell_sizes() {
    let (project, physics) = load("unitTest.ldtk");
    let mut sizes: Vec<(String, f32)> = physics
        .iter()
        .flat_map(|p| p.grids.iter().map(|(layer, grid, _)| (layer.clone(), grid.cell_size)))
        .collect();
    sizes.sort_by(|a, b| a.0.cmp(&b.0));
    sizes.dedup();
    assert!(sizes.contains(&("IntGrid8".to_string(), 8.0)), "{sizes:?}");
    assert!(sizes.contains(&("IntGridTest".to_string(), 16.0)), "{sizes:?}");
    // Values mapped by identifier: "b" (value 2) of IntGridTest is one-way.
    let cells = mapping_for("unitTest.ldtk")
        .cells_of("IntGridTest", &project.json.defs)
        .unwrap();
    assert_eq!(cells.get(&2), Some(&CellKind::OneWay));
    assert_eq!(cells.get(&4), Some(&CellKind::Solid), "d_sorted is value 4");
}

/// Runs every sample's levels with a body dropped at every entity: each comes to rest, is
/// reported embedded, or falls out of the level (an entity in the air over no floor); none is
/// ever inside a solid cell or NaN.
#[test]
fn bodies_dropped_at_every_entity_of_every_sample_come_to_rest_or_are_reported() {
    for (name, _) in SAMPLES {
        let (_, levels) = load(name);
        let mut app = app();
        let mut commands = app.world_mut().commands();
        for level in &levels {
            spawn_level_physics(&mut commands, level);
        }
        app.world_mut().flush();
        let mut bodies = Vec::new();
        for level in &levels {
            for entity in &level.entities {
                let feet = Vec2::new(entity.rect.center().x, entity.rect.min.y + 0.5);
                let body = spawn_body(&mut app, feet, Vec2::new(10.0, 10.0), CollisionMode::Continuous);
                bodies.push((
                    body,
                    level.bounds,
                    format!("{name} {} {}", level.level, entity.identifier),
                ));
            }
        }
        if bodies.is_empty() {
            continue;
        }
        let (mut resting, mut embedded, mut fell) = (0, 0, 0);
        for step in 0..300 {
            tick(&mut app, 1);
            for (body, _, label) in &bodies {
                let b = aabb(&app, *body);
                assert!(
                    b.is_finite() && velocity(&app, *body).is_finite(),
                    "{label} step {step}: NaN"
                );
                if app.world().get::<Embedded>(*body).is_none()
                    && let Some(solid) = solid_inside(&app, &b, INSIDE_TOLERANCE)
                {
                    panic!("{label} step {step}: inside {solid:?}: {b:?}");
                }
            }
        }
        for (body, bounds, _) in &bodies {
            if app.world().get::<Embedded>(*body).is_some() {
                embedded += 1;
            } else if contacts(&app, *body).on_floor() && velocity(&app, *body).length() < 1.0 {
                resting += 1;
            } else if !bounds.grown(16.0).contains(aabb(&app, *body).center()) {
                fell += 1;
            } else {
                panic!(
                    "{name}: a body neither rests nor left its level: {:?}",
                    aabb(&app, *body)
                );
            }
        }
        println!(
            "{name}: {resting} at rest, {embedded} embedded, {fell} fell out, of {}",
            bodies.len()
        );
        assert!(resting > 0, "{name}: some come to rest");
    }
}

#[test]
fn a_missing_level_file_is_named_and_the_other_levels_load() {
    let folder = std::env::temp_dir().join(format!("ldtk-missing-{}", std::process::id()));
    let levels = folder.join("SeparateLevelFiles");
    std::fs::create_dir_all(&levels).unwrap();
    std::fs::copy(
        sample("SeparateLevelFiles.ldtk"),
        folder.join("SeparateLevelFiles.ldtk"),
    )
    .unwrap();
    for kept in ["World_Level_0.ldtkl", "World_Level_2.ldtkl"] {
        std::fs::copy(sample("SeparateLevelFiles").join(kept), levels.join(kept)).unwrap();
    }
    let (project, errors) = LdtkProjectFile::load(folder.join("SeparateLevelFiles.ldtk")).unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
    let names: Vec<&str> = project.levels.iter().map(|l| l.level.identifier.as_str()).collect();
    assert_eq!(names, vec!["World_Level_0", "World_Level_2"]);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let text = errors[0].to_string();
    assert!(
        text.contains("level World_Level_1") && text.contains("World_Level_1.ldtkl") && text.contains("cannot be read"),
        "{text}"
    );
}

/// The text of a sample, edited by `edit` on its JSON.
fn edited(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(sample(name)).unwrap()).unwrap();
    edit(&mut json);
    serde_json::to_string(&json).unwrap()
}

fn read_sample_level(relative: &str) -> Result<String, (String, String)> {
    std::fs::read_to_string(sample(relative)).map_err(|e| (relative.to_string(), e.to_string()))
}

#[test]
fn a_world_with_no_level_is_named_and_the_other_world_loads() {
    let text = edited("unitTest.ldtk", |json| {
        json["worlds"][1]["levels"] = serde_json::json!([]);
    });
    let (project, errors) = LdtkProjectFile::parse(&text, "unitTest.ldtk", read_sample_level).unwrap();
    assert_eq!(project.levels.len(), 6, "World1's levels");
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(texts, vec!["unitTest.ldtk: world World2 has no level".to_string()]);
}

#[test]
fn a_mapping_naming_an_unknown_layer_or_value_is_named_and_the_rest_maps() {
    let (project, _) = LdtkProjectFile::load(sample("WorldMap_Free_layout.ldtk")).unwrap();
    let mapping = mapping_for("WorldMap_Free_layout.ldtk")
        .with_cell("Collisions", "lava", CellKind::Solid)
        .with_cell("Colisions", 1, CellKind::Solid);
    let (physics, errors) = project.physics(&mapping);
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(texts.len(), 2, "{texts:#?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("layer Colisions") && t.contains("does not define") && t.contains("Collisions")),
        "{texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("layer Collisions") && t.contains("\"lava\"") && t.contains("walls (1)")),
        "{texts:#?}"
    );
    assert!(physics.iter().all(|p| p.grids.len() == 1), "the walls still map");
}

#[test]
fn a_project_from_a_newer_ldtk_is_named_and_still_loads() {
    let text = edited("SeparateLevelFiles.ldtk", |json| {
        json["jsonVersion"] = serde_json::json!("1.7.0");
    });
    let (project, errors) = LdtkProjectFile::parse(&text, "future.ldtk", read_sample_level).unwrap();
    assert_eq!(project.levels.len(), 3);
    let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(texts.len(), 1, "{texts:#?}");
    assert!(texts[0].starts_with("future.ldtk: ") && texts[0].contains("LDtk 1.7.0") && texts[0].contains("1.5"));
    // A file that is not LDtk at all names the newer version it claims too.
    let error =
        LdtkProjectFile::parse(r#"{"jsonVersion": "2.0", "levels": 3}"#, "far.ldtk", read_sample_level).unwrap_err();
    assert!(
        error.to_string().contains("far.ldtk") && error.to_string().contains("2.0"),
        "{error}"
    );
}

// --- Through bevy_ecs_ldtk's asset pipeline --------------------------------------------------

use bevy_ecs_ldtk::app::{LdtkEntity, LdtkEntityAppExt};
use bevy_ecs_ldtk::ldtk::{EntityInstance, LayerInstance, TilesetDefinition};
use bevy_ecs_ldtk::{LdtkSettings, LevelIid, LevelSelection, LevelSpawnBehavior};

/// A body declared as an `LdtkEntity` bundle: bevy_ecs_ldtk spawns it as a child of its layer.
#[derive(Bundle)]
struct DeclaredBody {
    dynamic: Dynamic,
    collider: Collider,
}

impl LdtkEntity for DeclaredBody {
    fn bundle_entity(
        entity: &EntityInstance,
        _: &LayerInstance,
        _: Option<&Handle<Image>>,
        _: Option<&TilesetDefinition>,
        _: &AssetServer,
        _: &mut Assets<TextureAtlasLayout>,
    ) -> Self {
        Self {
            dynamic: Dynamic,
            collider: Collider::rectangle(entity.width as f32 * 0.5, entity.height as f32),
        }
    }
}

/// A headless app loading `project` from `folder` through bevy_ecs_ldtk, with the physics and
/// the bridge; the world entity at `world_at`.
pub(crate) fn pipeline(
    folder: PathBuf,
    project: &str,
    mapping: LdtkPhysicsMapping,
    behavior: LevelSpawnBehavior,
    world_at: Vec2,
) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: folder.display().to_string(),
            ..default()
        },
        ImagePlugin::default(),
        TransformPlugin,
        bevy_ecs_ldtk::LdtkPlugin,
        PlatformerPhysicsPlugins::default().with_fixed_hz(100.0),
        LdtkPhysicsPlugin,
    ));
    app.init_asset::<TextureAtlasLayout>();
    app.register_asset_loader(crate::ldtk::BlankImageLoader);
    app.insert_resource(mapping);
    app.insert_resource(LdtkSettings {
        level_spawn_behavior: behavior,
        ..default()
    });
    let handle: Handle<bevy_ecs_ldtk::assets::LdtkProject> =
        app.world().resource::<AssetServer>().load(project.to_string());
    app.world_mut().spawn(bevy_ecs_ldtk::LdtkWorldBundle {
        ldtk_handle: handle.into(),
        transform: Transform::from_translation(world_at.extend(0.0)),
        ..default()
    });
    app
}

/// Updates `app` until the physics of level `iid` is there.
pub(crate) fn wait_for_physics(app: &mut App, iid: &str) {
    for _ in 0..2000 {
        app.update();
        let world = app.world_mut();
        if world
            .query::<&LdtkLevelPhysics>()
            .iter(world)
            .any(|p| p.level_iid == iid)
        {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("no physics for level {iid}");
}

/// The world translation of the level entity `iid` (levels and worlds are only translated).
fn level_translation(app: &mut App, iid: &str) -> Vec2 {
    let world = app.world_mut();
    let (level, _) = world
        .query::<(Entity, &LevelIid)>()
        .iter(world)
        .find(|(_, l)| l.get() == iid)
        .expect("the level entity");
    let mut at = Vec2::ZERO;
    let mut next = Some(level);
    while let Some(e) = next {
        at += world.get::<Transform>(e).unwrap().translation.truncate();
        next = world.get::<ChildOf>(e).map(ChildOf::parent);
    }
    at
}

/// The origins of level `iid`'s grids.
fn grid_origins(app: &mut App, iid: &str) -> Vec<Vec2> {
    let world = app.world_mut();
    world
        .query::<(&TileGrid, &Transform, &LdtkLevelPhysics)>()
        .iter(world)
        .filter(|(_, _, p)| p.level_iid == iid)
        .map(|(_, t, _)| t.translation.truncate())
        .collect()
}

pub(crate) const TYPICAL: &str = "Typical_2D_platformer_example.ldtk";

/// `tests/data/ldtk/`, where the typical sample and its pictures are.
pub(crate) fn data_folder() -> PathBuf {
    platformer_tests::data_dir().join("ldtk")
}

pub(crate) fn typical_mapping() -> LdtkPhysicsMapping {
    LdtkPhysicsMapping::default()
        .with_cell("Collisions", 1, CellKind::Solid)
        .with_cell("Collisions", 2, CellKind::Empty)
        .with_cell("Collisions", 3, CellKind::Solid)
}

/// A copy of the sample project `name` and its level files in a folder of its own, with an empty
/// file for each picture it names (the samples come without them; `BlankImageLoader` reads none
/// of their bytes). Returns the folder.
fn staged(name: &str) -> PathBuf {
    staged_from(&sample(""), name, "")
}

/// [`staged`] for the project `name` in `source`, in a folder named after `tag` too.
pub(crate) fn staged_from(source: &std::path::Path, name: &str, tag: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("ldtk-staged-{}-{tag}{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(source.join(name), folder.join(name)).unwrap();
    let stem = name.trim_end_matches(".ldtk");
    if source.join(stem).is_dir() {
        std::fs::create_dir_all(folder.join(stem)).unwrap();
        for file in std::fs::read_dir(source.join(stem)).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, folder.join(stem).join(file.file_name().unwrap())).unwrap();
        }
    }
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(source.join(name)).unwrap()).unwrap();
    let mut pictures: Vec<String> = json["defs"]["tilesets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["relPath"].as_str().map(str::to_string))
        .collect();
    let levels = json["levels"].as_array().unwrap().iter().chain(
        json["worlds"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|w| w["levels"].as_array().unwrap()),
    );
    pictures.extend(levels.filter_map(|l| l["bgRelPath"].as_str().map(str::to_string)));
    for picture in pictures {
        let path = folder.join(picture);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }
    folder
}

#[test]
fn physics_lines_up_with_the_level_bevy_ecs_ldtk_places_in_every_spawn_behavior() {
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    // The second level, which is not at the world's origin.
    let level = &project.levels[1].level;
    assert!(level.world_x != 0 || level.world_y != 0, "a level away from the origin");
    for behavior in [
        LevelSpawnBehavior::UseZeroTranslation,
        LevelSpawnBehavior::UseWorldTranslation {
            load_level_neighbors: false,
        },
    ] {
        for world_at in [Vec2::ZERO, Vec2::new(100.0, -50.0)] {
            let label = format!("{behavior:?}, world at {world_at}");
            let mut app = pipeline(data_folder(), TYPICAL, typical_mapping(), behavior, world_at);
            app.insert_resource(LevelSelection::iid(level.iid.clone()));
            wait_for_physics(&mut app, &level.iid);
            let expected = level_translation(&mut app, &level.iid);
            let expected_level = match behavior {
                LevelSpawnBehavior::UseZeroTranslation => world_at,
                _ => world_at + world_origin(level),
            };
            assert_eq!(expected, expected_level, "{label}: where bevy_ecs_ldtk put the level");
            assert_eq!(
                grid_origins(&mut app, &level.iid),
                vec![expected],
                "{label}: the grid is there too"
            );
            assert!(app.world().resource::<LdtkPhysicsReport>().errors.is_empty(), "{label}");
        }
    }
}

/// What a system ordered after [`LdtkPhysicsSystems`] saw in the frame a level was spawned.
#[derive(Resource, Default)]
struct SeenAfterTheBridge {
    /// Each `LevelEvent::Spawned`, with the physics entities of that level found in the same run.
    spawned: Vec<(String, usize)>,
}

fn look_after_the_bridge(
    mut events: MessageReader<bevy_ecs_ldtk::LevelEvent>,
    physics: Query<&LdtkLevelPhysics>,
    mut seen: ResMut<SeenAfterTheBridge>,
) {
    for event in events.read() {
        if let bevy_ecs_ldtk::LevelEvent::Spawned(iid) = event {
            let count = physics.iter().filter(|p| &p.level_iid == iid.get()).count();
            seen.spawned.push((iid.get().clone(), count));
        }
    }
}

#[test]
fn a_system_after_the_bridge_finds_a_level_s_physics_in_the_frame_it_is_spawned() {
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    let level = &project.levels[0].level;
    let mut app = pipeline(
        data_folder(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    app.init_resource::<SeenAfterTheBridge>()
        .add_systems(PreUpdate, look_after_the_bridge.after(LdtkPhysicsSystems));
    app.insert_resource(LevelSelection::iid(level.iid.clone()));
    update_until(&mut app, "the level is spawned", |app| {
        !app.world().resource::<SeenAfterTheBridge>().spawned.is_empty()
    });
    let expected = project.level_physics(&project.levels[0], &typical_mapping()).0;
    let entities =
        expected.grids.len() + expected.slopes.len() + expected.one_way_platforms.len() + expected.lifts.len();
    assert!(entities > 0, "the level has physics");
    assert_eq!(
        app.world().resource::<SeenAfterTheBridge>().spawned,
        vec![(level.iid.clone(), entities)],
        "every physics entity of the level, in the frame of its LevelEvent::Spawned"
    );
}

#[test]
fn a_level_of_the_second_world_in_its_own_file_gets_its_physics_through_bevy_ecs_ldtk() {
    let mapping = mapping_for("unitTest.ldtk");
    let (project, _) = LdtkProjectFile::load(sample("unitTest.ldtk")).unwrap();
    let level = project
        .levels
        .iter()
        .find(|l| l.world.as_deref() == Some("World2"))
        .unwrap();
    let iid = level.level.iid.clone();
    let mut app = pipeline(
        staged("unitTest.ldtk"),
        "unitTest.ldtk",
        mapping,
        LevelSpawnBehavior::UseWorldTranslation {
            load_level_neighbors: false,
        },
        Vec2::ZERO,
    );
    app.insert_resource(LevelSelection::iid(iid.clone()));
    wait_for_physics(&mut app, &iid);
    let origins = grid_origins(&mut app, &iid);
    let expected = project.level_physics(level, &mapping_for("unitTest.ldtk")).0;
    assert_eq!(origins.len(), expected.grids.len(), "every mapped layer of the level");
    let errors = &app.world().resource::<LdtkPhysicsReport>().errors;
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn bodies_declared_as_ldtk_entities_become_top_level_at_their_world_position() {
    for world_at in [Vec2::ZERO, Vec2::new(-300.0, 200.0)] {
        let mut app = pipeline(
            data_folder(),
            TYPICAL,
            typical_mapping(),
            LevelSpawnBehavior::UseWorldTranslation {
                load_level_neighbors: false,
            },
            world_at,
        );
        app.register_ldtk_entity::<DeclaredBody>("Player");
        app.insert_resource(LevelSelection::index(0));
        let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
        let level = &project.levels[0];
        wait_for_physics(&mut app, &level.level.iid);
        app.update();
        let world = app.world_mut();
        let bodies: Vec<(Entity, Vec2, bool)> = world
            .query_filtered::<(Entity, &Transform, Has<ChildOf>), With<Dynamic>>()
            .iter(world)
            .map(|(e, t, parent)| (e, t.translation.truncate(), parent))
            .collect();
        assert_eq!(bodies.len(), 1, "the level's one Player");
        let (body, at, has_parent) = bodies[0];
        assert!(!has_parent, "top-level");
        let player = project
            .level_physics(level, &typical_mapping())
            .0
            .entities
            .into_iter()
            .find(|e| e.identifier == "Player")
            .unwrap();
        assert!(
            (at - (player.rect.center() + world_at)).length() < 0.01,
            "at the entity's world position {} (world at {world_at}), not {at}",
            player.rect.center() + world_at
        );
        assert_eq!(
            app.world().get::<LdtkLevelEntity>(body).map(|p| p.level_iid.clone()),
            Some(level.level.iid.clone()),
            "it goes with its level"
        );
        for _ in 0..200 {
            app.update();
        }
        assert!(
            app.world().get::<Contacts>(body).unwrap().on_floor(),
            "it fell onto the level's floor: {:?}",
            app.world().get::<Transform>(body).unwrap().translation
        );
    }
}

/// How many cells of level `iid`'s grids are solid.
pub(crate) fn solid_cells(app: &mut App, iid: &str) -> usize {
    let world = app.world_mut();
    world
        .query::<(&TileGrid, &LdtkLevelPhysics)>()
        .iter(world)
        .filter(|(_, p)| p.level_iid == iid)
        .map(|(grid, _)| {
            (0..grid.width() as i32)
                .flat_map(|x| (0..grid.height() as i32).map(move |y| (x, y)))
                .filter(|&(x, y)| grid.get(x, y) == TileCell::Solid)
                .count()
        })
        .sum()
}

/// Updates `app` until `done` holds (or fails the test, with `what`).
pub(crate) fn update_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..2000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("never: {what}");
}

#[test]
fn a_mapping_file_that_changes_remakes_the_physics_of_the_spawned_levels() {
    let folder = staged_from(&data_folder(), TYPICAL, "mapping-");
    let mapping_path = folder.join("typical.physics.ron");
    std::fs::write(
        &mapping_path,
        r#"(layers: {"Collisions": {1: Solid, 2: Empty, 3: Solid}})"#,
    )
    .unwrap();
    let mut app = pipeline(
        folder.clone(),
        TYPICAL,
        LdtkPhysicsMapping::default(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    app.register_ldtk_entity::<DeclaredBody>("Player");
    let handle = app.world().resource::<AssetServer>().load("typical.physics.ron");
    app.insert_resource(LdtkPhysicsMappingFile(handle));
    app.insert_resource(LevelSelection::index(0));
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    let iid = project.levels[0].level.iid.clone();
    update_until(&mut app, "the file's mapping", |app| {
        app.world()
            .resource::<LdtkPhysicsMapping>()
            .layers
            .contains_key("Collisions")
            && solid_cells(app, &iid) > 0
    });
    let before = solid_cells(&mut app, &iid);
    let player = {
        let world = app.world_mut();
        world.query_filtered::<Entity, With<Dynamic>>().single(world).unwrap()
    };
    // The ladders (value 2) become solid too: saved, and reloaded (as Bevy's file watcher would).
    std::fs::write(
        &mapping_path,
        r#"(layers: {"Collisions": {1: Solid, 2: Solid, 3: Solid}})"#,
    )
    .unwrap();
    app.world().resource::<AssetServer>().reload("typical.physics.ron");
    update_until(&mut app, "more solid cells", |app| solid_cells(app, &iid) > before);
    assert!(app.world().get_entity(player).is_ok(), "the level's bodies stay");
    // A broken file keeps the mapping, with one error naming it.
    std::fs::write(&mapping_path, "(layers: {").unwrap();
    app.world().resource::<AssetServer>().reload("typical.physics.ron");
    update_until(&mut app, "the error", |app| {
        app.world()
            .resource::<LdtkPhysicsReport>()
            .errors
            .iter()
            .any(|e| e.to_string().contains("typical.physics.ron"))
    });
    assert!(solid_cells(&mut app, &iid) > before, "the previous mapping stays");
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_level_saved_again_in_the_editor_reloads_with_its_new_physics() {
    let folder = staged_from(&data_folder(), TYPICAL, "edit-");
    let mut app = pipeline(
        folder.clone(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    app.insert_resource(LevelSelection::index(0));
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    let iid = project.levels[0].level.iid.clone();
    update_until(&mut app, "the level's physics", |app| solid_cells(app, &iid) > 0);
    let before = solid_cells(&mut app, &iid);
    // The designer removes every wall of the first level's Collisions layer and saves.
    let path = folder.join(TYPICAL);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for layer in json["levels"][0]["layerInstances"].as_array_mut().unwrap() {
        if layer["__identifier"] == "Collisions" {
            let cells = layer["intGridCsv"].as_array_mut().unwrap();
            for (i, cell) in cells.iter_mut().enumerate() {
                if i % 2 == 0 && *cell == serde_json::json!(1) {
                    *cell = serde_json::json!(0);
                }
            }
        }
    }
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    app.world().resource::<AssetServer>().reload(TYPICAL);
    update_until(&mut app, "fewer solid cells", |app| {
        let now = solid_cells(app, &iid);
        now > 0 && now < before
    });
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn a_level_saved_again_in_its_own_file_reloads_with_its_new_physics() {
    let folder = staged("SeparateLevelFiles.ldtk");
    let mut app = pipeline(
        folder.clone(),
        "SeparateLevelFiles.ldtk",
        mapping_for("SeparateLevelFiles.ldtk"),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    let (project, _) = LdtkProjectFile::load(sample("SeparateLevelFiles.ldtk")).unwrap();
    let iid = project.levels[0].level.iid.clone();
    app.insert_resource(LevelSelection::iid(iid.clone()));
    update_until(&mut app, "the level's physics", |app| solid_cells(app, &iid) > 0);
    let before = solid_cells(&mut app, &iid);
    // The designer removes every other wall of the level and saves: only its `.ldtkl` changes.
    let relative = "SeparateLevelFiles/World_Level_0.ldtkl";
    let path = folder.join(relative);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for layer in json["layerInstances"].as_array_mut().unwrap() {
        if let Some(cells) = layer["intGridCsv"].as_array_mut() {
            for (i, cell) in cells.iter_mut().enumerate() {
                if i % 2 == 0 && *cell != serde_json::json!(0) {
                    *cell = serde_json::json!(0);
                }
            }
        }
    }
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    app.world().resource::<AssetServer>().reload(relative);
    update_until(&mut app, "fewer solid cells", |app| {
        let now = solid_cells(app, &iid);
        now > 0 && now < before
    });
    // The level entity carries the physics its grids were spawned from.
    let world = app.world_mut();
    let (physics, problems) = world
        .query::<(&LevelIid, &LevelPhysics, &LdtkLevelProblems)>()
        .iter(world)
        .find(|(level, ..)| level.get() == &iid)
        .map(|(_, physics, problems)| (physics.clone(), problems.clone()))
        .expect("the level entity's physics");
    let described: usize = physics
        .grids
        .iter()
        .map(|(_, grid, _)| {
            (0..grid.width() as i32)
                .flat_map(|x| (0..grid.height() as i32).map(move |y| (x, y)))
                .filter(|&(x, y)| grid.get(x, y) == TileCell::Solid)
                .count()
        })
        .sum();
    assert_eq!(described, solid_cells(&mut app, &iid));
    assert_eq!(problems, LdtkLevelProblems::default());
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn despawning_a_world_despawns_the_physics_of_its_levels() {
    let mut app = pipeline(
        data_folder(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    app.register_ldtk_entity::<DeclaredBody>("Player");
    app.insert_resource(LevelSelection::index(0));
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    wait_for_physics(&mut app, &project.levels[0].level.iid);
    app.update();
    let count = |app: &mut App| {
        let world = app.world_mut();
        let physics = world.query::<&LdtkLevelPhysics>().iter(world).count();
        let lifted = world.query::<&LdtkLevelEntity>().iter(world).count();
        (physics, lifted)
    };
    let (physics, lifted) = count(&mut app);
    assert!(
        physics > 0 && lifted == 1,
        "{physics} physics entities, {lifted} lifted bodies"
    );
    // The game despawns the world entity itself: bevy_ecs_ldtk sends no `LevelEvent` for that.
    let ldtk_world = world_entity(&mut app);
    app.world_mut().entity_mut(ldtk_world).despawn();
    app.update();
    assert_eq!(count(&mut app), (0, 0), "nothing of the level is left");
}

#[test]
fn a_level_bevy_ecs_ldtk_cannot_spawn_is_reported_and_the_others_spawn() {
    let folder = staged_from(&data_folder(), TYPICAL, "unspawnable-");
    let path = folder.join(TYPICAL);
    let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Three ways bevy_ecs_ldtk panics: an entity whose definition is gone, a layer naming a
    // tileset that is not defined, IntGrid values past the layer's cells.
    let broken = json["levels"][0]["identifier"].as_str().unwrap().to_string();
    for layer in json["levels"][0]["layerInstances"].as_array_mut().unwrap() {
        match layer["__identifier"].as_str().unwrap() {
            "Entities" => layer["entityInstances"][0]["defUid"] = serde_json::json!(999_999),
            "Wall_shadows" => layer["__tilesetDefUid"] = serde_json::json!(4242),
            "Collisions" => layer["intGridCsv"]
                .as_array_mut()
                .unwrap()
                .extend(std::iter::repeat_n(serde_json::json!(1), 40)),
            _ => {}
        }
    }
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    let (first, second) = (project.levels[0].level.iid.clone(), project.levels[1].level.iid.clone());
    let mut app = pipeline(
        folder.clone(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseWorldTranslation {
            load_level_neighbors: false,
        },
        Vec2::ZERO,
    );
    let ldtk_world = world_entity(&mut app);
    app.world_mut()
        .entity_mut(ldtk_world)
        .insert(bevy_ecs_ldtk::LevelSet::from_iids([first.clone(), second.clone()]));
    wait_for_physics(&mut app, &second);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(solid_cells(&mut app, &first), 0, "the broken level has no physics");
    assert!(solid_cells(&mut app, &second) > 0);
    let errors = report_lines(&app, |report| &report.errors);
    for expected in [
        "no entity definition 999999",
        "layer Wall_shadows: no tileset definition 4242",
        "layer Collisions: IntGrid value at index 1113 is outside its",
    ] {
        let found: Vec<&String> = errors.iter().filter(|e| e.contains(expected)).collect();
        assert_eq!(found.len(), 1, "once: {expected:?} in {errors:#?}");
        assert!(
            found[0].contains(TYPICAL) && found[0].contains(&format!("level {broken}")),
            "{}",
            found[0]
        );
    }
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn each_inconsistency_bevy_ecs_ldtk_would_panic_on_is_named() {
    let text = std::fs::read_to_string(data_folder().join(TYPICAL)).unwrap();
    let project = parse_ldtk(&text, TYPICAL).unwrap();
    let level = &project.levels[0];
    assert_eq!(level_spawn_problems(TYPICAL, &project.defs, level), vec![]);
    let layer = |level: &mut Level, name: &str| -> usize {
        level
            .layer_instances
            .as_ref()
            .unwrap()
            .iter()
            .position(|l| l.identifier == name)
            .unwrap()
    };
    type Edit = fn(&mut Level, usize, usize, &mut Definitions);
    let cases: [(&str, Edit, &str); 9] = [
        (
            "Entities",
            |l, e, _, _| l.layer_instances.as_mut().unwrap()[e].entity_instances[0].def_uid = -3,
            "no entity definition -3",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].layer_def_uid = -4,
            "no layer definition -4",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].tileset_def_uid = Some(-5),
            "no tileset definition -5",
        ),
        (
            "Collisions",
            |_, _, _, d| d.tilesets[0].rel_path = None,
            "has no picture",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].c_wid = 0,
            "at least one cell",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].c_hei = 2_000_000,
            "too large",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].int_grid_csv.push(1),
            "is outside its",
        ),
        (
            "Collisions",
            |l, _, c, _| l.layer_instances.as_mut().unwrap()[c].int_grid_csv[0] = 77,
            "values [77] have no definition",
        ),
        ("", |l, _, _, _| l.world_y = i32::MAX - 10, "out of range"),
    ];
    for (layer_name, edit, expected) in cases {
        let (mut level, mut defs) = (level.clone(), project.defs.clone());
        let (e, c) = (layer(&mut level, "Entities"), layer(&mut level, "Collisions"));
        edit(&mut level, e, c, &mut defs);
        let problems = level_spawn_problems(TYPICAL, &defs, &level);
        assert!(!problems.is_empty(), "{expected}: no problem found");
        let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
        for text in &texts {
            assert!(text.contains(expected), "{expected}: {text}");
            assert!(
                text.starts_with(&format!("{TYPICAL}: level {}", level.identifier)),
                "{text}"
            );
        }
        // One problem, in the layer edited (a tileset without its picture: in each layer using it).
        let in_layer = texts
            .iter()
            .filter(|t| t.contains(&format!("layer {layer_name}:")))
            .count();
        assert!(layer_name.is_empty() || in_layer == 1, "{expected}: {texts:#?}");
        assert!(
            texts.len() == 1 || expected == "has no picture",
            "{expected}: {texts:#?}"
        );
    }
}

#[test]
fn a_level_placed_at_the_edge_of_the_integers_is_placed_without_overflow() {
    let text = std::fs::read_to_string(data_folder().join(TYPICAL)).unwrap();
    let mut level = parse_ldtk(&text, TYPICAL).unwrap().levels[0].clone();
    level.world_y = i32::MAX - 10;
    level.px_hei = 100;
    let origin = world_origin(&level);
    assert_eq!(origin.y, -((i32::MAX as i64 + 90) as f32));
}

#[test]
fn a_mapped_layer_of_another_size_than_the_block_size_is_warned_about_once() {
    let (project, physics) = load("unitTest.ldtk");
    let (index, _) = physics
        .iter()
        .enumerate()
        .find(|(_, p)| p.grids.iter().any(|(layer, ..)| layer == "IntGrid8"))
        .expect("a level with the 8 px layer");
    let iid = project.levels[index].level.iid.clone();
    for block_size in [16.0, 8.0] {
        let mut app = pipeline(
            staged("unitTest.ldtk"),
            "unitTest.ldtk",
            mapping_for("unitTest.ldtk"),
            LevelSpawnBehavior::UseWorldTranslation {
                load_level_neighbors: false,
            },
            Vec2::ZERO,
        );
        app.insert_resource(PhysicsConfig {
            block_size,
            ..default()
        });
        app.insert_resource(LevelSelection::iid(iid.clone()));
        wait_for_physics(&mut app, &iid);
        let mut sizes = grid_sizes(&mut app, &iid);
        sizes.sort_by(f32::total_cmp);
        sizes.dedup();
        assert_eq!(sizes, vec![8.0, 16.0], "the level has layers of both sizes");
        // Spawned again: still one warning per layer.
        respawn_level(&mut app, &iid);
        let warnings = report_lines(&app, |report| &report.warnings);
        let other = if block_size == 16.0 { 8.0 } else { 16.0 };
        assert!(!warnings.is_empty(), "{block_size} px blocks: {warnings:#?}");
        for warning in &warnings {
            assert!(
                warning.starts_with("unitTest.ldtk: layer ")
                    && warning.contains(&format!(
                        "its cells are {other} px and PhysicsConfig::block_size is {block_size} px"
                    )),
                "{warning}"
            );
        }
        let mut layers: Vec<&String> = warnings.iter().collect();
        layers.dedup();
        assert_eq!(layers.len(), warnings.len(), "once each: {warnings:#?}");
    }
}

/// The cell sizes of level `iid`'s grids.
fn grid_sizes(app: &mut App, iid: &str) -> Vec<f32> {
    let world = app.world_mut();
    world
        .query::<(&TileGrid, &LdtkLevelPhysics)>()
        .iter(world)
        .filter(|(_, p)| p.level_iid == iid)
        .map(|(grid, _)| grid.cell_size)
        .collect()
}

#[test]
fn a_level_spawned_again_replaces_its_physics_without_touching_despawned_entities() {
    let mut app = pipeline(
        data_folder(),
        TYPICAL,
        typical_mapping(),
        LevelSpawnBehavior::UseZeroTranslation,
        Vec2::ZERO,
    );
    record_warnings();
    app.insert_resource(LevelSelection::index(0));
    let (project, _) = LdtkProjectFile::load(data_folder().join(TYPICAL)).unwrap();
    let iid = project.levels[0].level.iid.clone();
    wait_for_physics(&mut app, &iid);
    let physics_entities = |app: &mut App| {
        let world = app.world_mut();
        let mut entities: Vec<Entity> = world
            .query_filtered::<Entity, With<LdtkLevelPhysics>>()
            .iter(world)
            .collect();
        entities.sort();
        entities
    };
    let before = physics_entities(&mut app);
    // As a game's restart does.
    respawn_level(&mut app, &iid);
    let after = physics_entities(&mut app);
    assert_eq!(after.len(), before.len(), "the same physics, made again");
    assert!(after.iter().all(|e| !before.contains(e)), "from new entities");
    // Bevy warns of a command on an entity already despawned (despawning it twice, say).
    let warnings = WARNINGS.lock().unwrap();
    let twice: Vec<&String> = warnings
        .iter()
        .filter(|w| before.iter().any(|e| w.contains(&format!("ID {e} "))))
        .collect();
    assert!(twice.is_empty(), "{twice:#?}");
}

/// The warnings logged (with the `log` crate, where Bevy's command errors go) since
/// [`record_warnings`] was first called, by every test of the binary.
static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

struct WarningRecorder;

impl log::Log for WarningRecorder {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            WARNINGS.lock().unwrap().push(record.args().to_string());
        }
    }

    fn flush(&self) {}
}

/// Records every warning from now on in [`WARNINGS`].
fn record_warnings() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        log::set_logger(&WarningRecorder).expect("no other logger in the tests");
        log::set_max_level(log::LevelFilter::Warn);
    });
}

/// Asks for level `iid` to be spawned again, as a game's restart does, and lets it.
fn respawn_level(app: &mut App, iid: &str) {
    app.world_mut().write_message(RespawnLdtkLevel::new(iid));
    for _ in 0..5 {
        app.update();
    }
}

/// The app's one `bevy_ecs_ldtk` world entity.
pub(crate) fn world_entity(app: &mut App) -> Entity {
    let world = app.world_mut();
    world
        .query_filtered::<Entity, With<bevy_ecs_ldtk::LdtkProjectHandle>>()
        .single(world)
        .unwrap()
}

/// The errors or warnings (`which`) of the app's [`LdtkPhysicsReport`], as text.
pub(crate) fn report_lines(app: &App, which: impl Fn(&LdtkPhysicsReport) -> &Vec<LdtkPhysicsError>) -> Vec<String> {
    which(app.world().resource::<LdtkPhysicsReport>())
        .iter()
        .map(ToString::to_string)
        .collect()
}
