//! Checks the physics of an LDtk project, headless: loads it through the bridge, prints each
//! level's grids, slopes, platforms, lifts and entities and every problem found, then drops a body
//! at every entity and prints where it comes to rest.
//!
//! ```sh
//! cargo run -p platformer_examples --example ldtk -- [project.ldtk] [mapping.ron]
//! ```
//! Without arguments it checks LDtk's sample project with its mapping (the repository's
//! `tests/data/ldtk/`).

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::ldtk::{LdtkPhysicsMapping, LdtkProjectFile, spawn_level_physics};
use bevy_platformer_physics::prelude::*;

fn main() -> ExitCode {
    // The repository's test data, beside this package (where cargo says it is as this runs).
    let package =
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), PathBuf::from);
    let data = package.join("../tests/data/ldtk");
    let mut args = std::env::args().skip(1);
    let project_path = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| data.join("Typical_2D_platformer_example.ldtk"));
    let mapping = match args.next() {
        Some(path) => LdtkPhysicsMapping::load(path),
        None if project_path.starts_with(&data) => LdtkPhysicsMapping::load(data.join("sample_mapping.ron")),
        None => Ok(LdtkPhysicsMapping::default()),
    };
    let ((project, mut errors), mapping) = match (LdtkProjectFile::load(&project_path), mapping) {
        (Ok(project), Ok(mapping)) => (project, mapping),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (levels, more) = project.physics(&mapping);
    errors.extend(more);
    for level in &levels {
        println!("level {} at {:?}", level.level, level.bounds);
        for (layer, grid, origin) in &level.grids {
            println!(
                "  grid {layer}: {} × {} cells of {} px at {origin}",
                grid.width(),
                grid.height(),
                grid.cell_size
            );
        }
        println!(
            "  {} slopes, {} one-way platforms, {} lifts, {} entities",
            level.slopes.len(),
            level.one_way_platforms.len(),
            level.lifts.len(),
            level.entities.len()
        );
    }
    for error in &errors {
        println!("problem: {error}");
    }

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    let mut commands = app.world_mut().commands();
    for level in &levels {
        spawn_level_physics(&mut commands, level);
    }
    app.world_mut().flush();
    let mut bodies = Vec::new();
    for level in &levels {
        for entity in &level.entities {
            let size = entity.rect.size().min(Vec2::new(16.0, 32.0));
            let body = app
                .world_mut()
                .spawn((
                    Dynamic,
                    Collider::rectangle(size.x, size.y),
                    CollisionLayers::new(2, 1),
                    Transform::from_xyz(entity.pivot.x, entity.rect.min.y + 0.5 + size.y * 0.5, 0.0),
                ))
                .id();
            bodies.push((body, format!("{} {}", level.level, entity.identifier), entity.pivot));
        }
    }
    for _ in 0..200 {
        app.update();
    }
    for (body, name, start) in bodies {
        let world = app.world();
        let position = world.get::<Transform>(body).unwrap().translation.truncate();
        let grounded = world.get::<Contacts>(body).unwrap().on_floor();
        println!("{name:40} placed at {start:>16} rests at {position:>16} on the ground: {grounded}");
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}
