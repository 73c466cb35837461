//! The debug overlay (feature `debug-overlay`): keys toggle its layers, and it draws one box per
//! collider and a line per contact. Run with `cargo test -p bevy_platformer_physics --features
//! debug-overlay --test debug_overlay`.

use bevy::gizmos::GizmoPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::debug_overlay::{DebugOverlayShapes, OverlayShape};
use bevy_platformer_physics::prelude::*;

fn overlay_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        bevy::asset::AssetPlugin::default(),
        GizmoPlugin,
        PlatformerPhysicsPlugins::default().with_fixed_hz(100.0),
    ));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    // bevy_gizmos' skinned-mesh bounds system wants mesh assets, which the renderer usually adds.
    app.init_asset::<bevy::mesh::Mesh>();
    app.init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>();
    app.init_resource::<ButtonInput<KeyCode>>();
    app.update();
    app
}

fn press(app: &mut App, key: KeyCode) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release_all();
    keys.clear();
    keys.press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release_all();
    keys.clear();
}

fn shapes(app: &App) -> Vec<OverlayShape> {
    app.world().resource::<DebugOverlayShapes>().0.clone()
}

#[test]
fn keys_toggle_the_layers_and_rebinding_works() {
    let mut app = overlay_app();
    assert_eq!(
        *app.world().resource::<DebugOverlay>(),
        DebugOverlay::default(),
        "starts hidden"
    );
    press(&mut app, KeyCode::KeyC);
    assert!(app.world().resource::<DebugOverlay>().colliders);
    press(&mut app, KeyCode::KeyR);
    assert!(app.world().resource::<DebugOverlay>().object_rects);
    press(&mut app, KeyCode::KeyN);
    assert!(app.world().resource::<DebugOverlay>().contacts);
    press(&mut app, KeyCode::KeyC);
    assert!(!app.world().resource::<DebugOverlay>().colliders);
    app.world_mut().resource_mut::<DebugOverlay>().keys.colliders = KeyCode::F1;
    press(&mut app, KeyCode::KeyC);
    assert!(!app.world().resource::<DebugOverlay>().colliders, "old key unbound");
    press(&mut app, KeyCode::F1);
    assert!(app.world().resource::<DebugOverlay>().colliders, "new key works");
}

#[test]
fn draws_colliders_only_when_enabled() {
    let mut app = overlay_app();
    app.world_mut()
        .spawn((Collider::rectangle(100.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)));
    app.world_mut().spawn((
        Dynamic,
        Collider::rectangle(12.0, 24.0),
        Transform::from_xyz(0.0, 12.0, 0.0),
    ));
    app.update();
    assert!(shapes(&app).is_empty(), "hidden: nothing drawn");
    app.world_mut().resource_mut::<DebugOverlay>().colliders = true;
    app.update();
    let drawn = shapes(&app);
    assert_eq!(drawn.len(), 2, "one box per collider: {drawn:?}");
    assert!(
        drawn
            .iter()
            .any(|s| matches!(s, OverlayShape::Rect { size, .. } if *size == Vec2::new(100.0, 16.0)))
    );
    app.world_mut().resource_mut::<DebugOverlay>().contacts = true;
    app.update();
    let lines: Vec<_> = shapes(&app)
        .into_iter()
        .filter(|s| matches!(s, OverlayShape::Line { .. }))
        .collect();
    assert_eq!(lines.len(), 1, "the body's floor contact: {lines:?}");
    let OverlayShape::Line { from, to, .. } = lines[0] else {
        unreachable!()
    };
    assert!(
        from.y.abs() < 1e-3 && to.y > from.y,
        "an upward normal at the feet: {from} -> {to}"
    );
}

#[test]
fn a_headless_app_without_gizmos_still_collects_the_shapes() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.insert_resource(DebugOverlay {
        colliders: true,
        ..default()
    });
    app.world_mut()
        .spawn((Collider::rectangle(10.0, 10.0), Transform::default()));
    app.update();
    app.update();
    assert_eq!(shapes(&app).len(), 1);
}

#[test]
fn slopes_and_their_foot_samples_are_drawn() {
    let mut app = overlay_app();
    app.world_mut().spawn((
        SlopeSegment::new(Vec2::ZERO, Vec2::new(160.0, 80.0)),
        Transform::default(),
    ));
    let body = app
        .world_mut()
        .spawn((
            Dynamic,
            Collider::rectangle(12.0, 24.0),
            Transform::from_xyz(74.0, 52.0, 0.0),
        ))
        .id();
    app.insert_resource(DebugOverlay {
        colliders: true,
        contacts: true,
        ..default()
    });
    for _ in 0..10 {
        app.update();
    }
    let drawn = shapes(&app);
    let slope_line = OverlayShape::Line {
        from: Vec2::ZERO,
        to: Vec2::new(160.0, 80.0),
        color: bevy::color::palettes::css::LIGHT_GRAY.into(),
    };
    assert!(drawn.contains(&slope_line), "the slope is drawn: {drawn:?}");
    // The cross at the uphill (right) foot, on the surface (the body slides down meanwhile).
    let right_foot = {
        let t = app.world().get::<Transform>(body).unwrap().translation;
        t.x + 6.0
    };
    let cross_centres: Vec<Vec2> = drawn
        .iter()
        .filter_map(|s| match s {
            OverlayShape::Line { from, to, color } if *color == Color::from(bevy::color::palettes::css::AQUA) => {
                Some((*from + *to) * 0.5)
            }
            _ => None,
        })
        .collect();
    assert_eq!(cross_centres.len(), 2, "{drawn:?}");
    let expected = Vec2::new(right_foot, right_foot * 0.5);
    assert!(
        cross_centres.iter().all(|c| (*c - expected).length() < 0.01),
        "{cross_centres:?} vs {expected}"
    );
}

#[test]
fn a_sensor_slope_is_drawn_as_its_line_not_as_the_box_its_sensor_requires() {
    let mut app = overlay_app();
    app.world_mut().spawn((
        SlopeSegment::new(Vec2::ZERO, Vec2::new(160.0, 80.0)),
        Transform::from_xyz(40.0, 0.0, 0.0),
        Sensor,
    ));
    app.insert_resource(DebugOverlay {
        colliders: true,
        ..default()
    });
    for _ in 0..3 {
        app.update();
    }
    let drawn = shapes(&app);
    let line = OverlayShape::Line {
        from: Vec2::new(40.0, 0.0),
        to: Vec2::new(200.0, 80.0),
        color: bevy::color::palettes::css::LIGHT_GRAY.into(),
    };
    assert_eq!(drawn, vec![line]);
}
