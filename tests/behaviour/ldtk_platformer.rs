//! bevy_ecs_ldtk's platformer example ported to this plugin (`platformer_examples::ldtk_platformer`),
//! played headless on the LDtk sample with scripted keys: the player walks (jumping over what is in
//! its way), climbs a ladder to its top and stands there, climbs down and up again, walks on to the
//! next ladder and climbs it into the level above (the selection follows it, and it keeps moving),
//! then climbs back down into the first level; a mob patrols and turns at both ends of its patrol;
//! R starts the player over.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_ecs_ldtk::LevelSelection;
use bevy_platformer_physics::ldtk::LevelPhysics;
use bevy_platformer_physics::prelude::*;
use platformer_examples::ldtk_platformer::{Enemy, Inventory, LdtkPlatformerPlugin, Player, STEPS_PER_SECOND};

use crate::ldtk::BlankImageLoader;
use crate::ldtk_projects::data_folder;

/// The example's app on the sample, one physics step per update.
fn platformer() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: data_folder().display().to_string(),
            ..default()
        },
        ImagePlugin::default(),
        TransformPlugin,
        LdtkPlatformerPlugin,
    ));
    app.init_asset::<TextureAtlasLayout>();
    app.register_asset_loader(BlankImageLoader);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / STEPS_PER_SECOND,
    )));
    app
}

/// The keys held down this frame (the others are up); a key held now and not the frame before
/// was just pressed.
fn frame(app: &mut App, held: &[KeyCode]) {
    press(app, held);
    if app.world().contains_resource::<PitMob>() {
        watch(app);
    }
}

fn press(app: &mut App, held: &[KeyCode]) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.clear();
    let up: Vec<KeyCode> = keys.get_pressed().filter(|k| !held.contains(k)).copied().collect();
    for key in up {
        keys.release(key);
    }
    for key in held {
        keys.press(*key);
    }
    app.update();
}

fn player(app: &mut App) -> Entity {
    let world = app.world_mut();
    world
        .query_filtered::<Entity, With<Player>>()
        .single(world)
        .expect("one player")
}

fn player_box(app: &mut App) -> bevy_platformer_physics::geometry::Aabb {
    let body = player(app);
    aabb_of(app, body)
}

fn aabb_of(app: &App, entity: Entity) -> bevy_platformer_physics::geometry::Aabb {
    let world = app.world();
    world
        .get::<Collider>(entity)
        .unwrap()
        .aabb(world.get::<Transform>(entity).unwrap().translation.truncate())
}

fn on_floor(app: &mut App) -> bool {
    let body = player(app);
    app.world().get::<Contacts>(body).unwrap().on_floor()
}

fn climbing(app: &mut App) -> bool {
    let body = player(app);
    app.world().get::<ClimbState>(body).unwrap().climbing()
}

/// The identifier of the level the selection names.
fn selected_level(app: &mut App) -> String {
    let selection = app.world().resource::<LevelSelection>().clone();
    let world = app.world_mut();
    let levels: Vec<LevelPhysics> = world.query::<&LevelPhysics>().iter(world).cloned().collect();
    match selection {
        LevelSelection::Iid(iid) => levels
            .iter()
            .find(|l| &l.iid == iid.get())
            .map_or_else(|| format!("unspawned {iid}"), |l| l.level.clone()),
        other => format!("{other:?}"),
    }
}

/// Each mob's centre.
fn mobs(app: &mut App) -> Vec<(Entity, Vec2)> {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &Transform), With<Enemy>>()
        .iter(world)
        .map(|(e, t)| (e, t.translation.truncate()))
        .collect()
}

/// Holds D (and jumps over a wall or a mob in the way) until the player's centre is past `x`;
/// then stops.
fn walk_right_to(app: &mut App, x: f32, what: &str) {
    let mut last = player_box(app).center().x;
    for _ in 0..1200 {
        let body = player_box(app);
        if body.center().x >= x {
            frame(app, &[]);
            return;
        }
        let stuck = body.center().x - last < 0.5;
        let mob_ahead = mobs(app).iter().any(|(_, m)| {
            m.x > body.center().x && m.x - body.center().x < 28.0 && (m.y - body.center().y).abs() < 20.0
        });
        last = body.center().x;
        let jump = on_floor(app) && (stuck || mob_ahead);
        frame(
            app,
            if jump {
                &[KeyCode::KeyD, KeyCode::Space]
            } else {
                &[KeyCode::KeyD]
            },
        );
    }
    panic!("never walked to x = {x} ({what}): at {:?}", player_box(app));
}

/// The pit's mob, and its x at every frame so far.
#[derive(Resource)]
struct PitMob(Entity, Vec<f32>);

/// Records where the pit's mob is.
fn watch(app: &mut App) {
    let mob = app.world().resource::<PitMob>().0;
    let x = app.world().get::<Transform>(mob).unwrap().translation.x;
    app.world_mut().resource_mut::<PitMob>().1.push(x);
}

/// Holds `key` until `done`, at most `frames` frames.
fn hold_until(app: &mut App, key: KeyCode, frames: usize, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..frames {
        frame(app, &[key]);
        if done(app) {
            return;
        }
    }
    panic!("never: {what}; the player is at {:?}", player_box(app));
}

#[test]
fn the_ported_platformer_walks_jumps_climbs_changes_level_and_its_mobs_patrol() {
    let mut app = platformer();
    for _ in 0..2000 {
        app.update();
        let world = app.world_mut();
        if world.query_filtered::<(), With<Player>>().iter(world).count() == 1 && mobs(&mut app).len() >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let start = player_box(&mut app);
    assert_eq!(
        start.center(),
        Vec2::new(184.0, -196.0),
        "at the sample's Player entity"
    );
    let body = player(&mut app);
    assert_eq!(
        app.world().get::<Inventory>(body),
        Some(&Inventory(vec!["Knife".to_string(), "Boots".to_string()])),
        "the Player entity's items"
    );
    frame(&mut app, &[]);
    assert_eq!(selected_level(&mut app), "Your_typical_2D_platformer");

    // The mob in the pit right of the start patrols from x = 264 to the cell (26, 17): watch it
    // turn while the player plays.
    let pit_mob = mobs(&mut app)
        .into_iter()
        .min_by(|a, b| {
            (a.1 - Vec2::new(264.0, -278.0))
                .length()
                .total_cmp(&(b.1 - Vec2::new(264.0, -278.0)).length())
        })
        .unwrap()
        .0;
    app.insert_resource(PitMob(pit_mob, Vec::new()));

    // Walk right off the start block into the pit, to the ladder at x 400..416.
    walk_right_to(&mut app, 406.0, "the pit's ladder");
    assert!(
        (player_box(&mut app).min.y + 288.0).abs() < 0.1 && on_floor(&mut app),
        "on the pit's floor: {:?}",
        player_box(&mut app)
    );

    // Climb it to its top (y = -144) and stand there.
    hold_until(&mut app, KeyCode::KeyW, 300, "climbing starts", climbing);
    let mut last = player_box(&mut app).min.y;
    hold_until(&mut app, KeyCode::KeyW, 300, "the ladder's top", |app| {
        if !climbing(app) {
            return true;
        }
        let feet = player_box(app).min.y;
        assert!(feet >= last - 1e-3, "climbing up never goes down: {last} to {feet}");
        last = feet;
        false
    });
    for _ in 0..30 {
        frame(&mut app, &[]);
    }
    assert!(
        (player_box(&mut app).min.y + 144.0).abs() < 0.1 && on_floor(&mut app) && !climbing(&mut app),
        "stands on the ladder's top: {:?}",
        player_box(&mut app)
    );

    // Down through the top and back up.
    hold_until(&mut app, KeyCode::KeyS, 120, "climbed down a way", |app| {
        player_box(app).min.y < -200.0
    });
    assert!(climbing(&mut app), "on the ladder");
    hold_until(&mut app, KeyCode::KeyW, 300, "back at the top", |app| !climbing(app));
    for _ in 0..30 {
        frame(&mut app, &[]);
    }
    assert!((player_box(&mut app).min.y + 144.0).abs() < 0.1, "on the top again");

    // Right, over the mob on this floor and up the step, to the ladder at x 704..720.
    walk_right_to(&mut app, 710.0, "the ladder to the level above");
    for _ in 0..30 {
        frame(&mut app, &[]);
    }

    // Up into the level above: the selection follows the player.
    hold_until(&mut app, KeyCode::KeyW, 400, "the level above is selected", |app| {
        selected_level(app) == "Top"
    });
    hold_until(
        &mut app,
        KeyCode::KeyW,
        100,
        "standing at the top of the ladder",
        |app| !climbing(app),
    );
    for _ in 0..20 {
        frame(&mut app, &[]);
    }
    assert!(
        (player_box(&mut app).min.y - 16.0).abs() < 0.1 && on_floor(&mut app),
        "{:?}",
        player_box(&mut app)
    );
    // It keeps moving in the new level.
    let x = player_box(&mut app).center().x;
    for _ in 0..10 {
        frame(&mut app, &[KeyCode::KeyD]);
    }
    assert!(
        player_box(&mut app).center().x > x + 20.0,
        "walks on in the level above"
    );
    assert_eq!(selected_level(&mut app), "Top");
    for _ in 0..10 {
        frame(&mut app, &[KeyCode::KeyA]);
    }
    assert!((player_box(&mut app).center().x - x).abs() < 8.0);
    hold_until(&mut app, KeyCode::KeyS, 400, "back in the first level", |app| {
        selected_level(app) == "Your_typical_2D_platformer"
    });

    // The pit's mob went back and forth between its two ends the whole time.
    let mob_x = app.world().resource::<PitMob>().1.clone();
    let turns = mob_x.windows(3).filter(|w| (w[1] - w[0]) * (w[2] - w[1]) < 0.0).count();
    let (low, high) = mob_x
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), x| (l.min(*x), h.max(*x)));
    assert!(turns >= 2, "turned {turns} times over {} frames", mob_x.len());
    assert!(
        (low - 264.0).abs() < 1.0 && (high - 424.0).abs() < 1.0,
        "patrolled {low}..{high}"
    );

    // R: the level is made again (its mobs too) and the player starts over.
    app.world_mut().remove_resource::<PitMob>();
    frame(&mut app, &[KeyCode::KeyR]);
    frame(&mut app, &[]);
    assert_eq!(
        player_box(&mut app).center(),
        start.center(),
        "R starts the player over"
    );
}
