//! `ColliderDisabled` takes a collider, slope or grid out of the world without despawning it, and
//! removing it puts the entity back.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

#[test]
fn a_disabled_floor_lets_bodies_fall_and_ends_their_contacts_and_comes_back() {
    for mode in MODES {
        let mut app = app();
        collect::<ContactEnded>(&mut app);
        let floor = spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
        spawn_box(&mut app, Vec2::new(-100.0, -216.0), Vec2::new(200.0, 16.0));
        let body = spawn_body(&mut app, Vec2::ZERO, Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 5);
        assert!(
            contacts(&app, body).with(floor).is_some(),
            "{mode:?}: stands on the floor"
        );
        app.world_mut().entity_mut(floor).insert(ColliderDisabled);
        tick(&mut app, 1);
        assert!(contacts(&app, body).with(floor).is_none(), "{mode:?}: contact gone");
        assert!(
            collected::<ContactEnded>(&app)
                .iter()
                .any(|e| e.entity == body && e.other == floor),
            "{mode:?}: the contact ended"
        );
        tick(&mut app, 100);
        assert!(
            (aabb(&app, body).min.y + 200.0).abs() < 0.01,
            "{mode:?}: fell through onto the lower floor: {:?}",
            aabb(&app, body)
        );
        // Back, it is solid again: a body dropped onto it stands on it.
        app.world_mut().entity_mut(floor).remove::<ColliderDisabled>();
        let second = spawn_body(&mut app, Vec2::new(40.0, 30.0), Vec2::new(12.0, 24.0), mode);
        tick(&mut app, 60);
        assert!(aabb(&app, second).min.y.abs() < 0.01, "{mode:?}: the floor is back");
    }
}

#[test]
fn a_disabled_body_does_not_move_and_nothing_meets_it() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    let disabled = spawn_body(
        &mut app,
        Vec2::new(0.0, 40.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    app.world_mut().entity_mut(disabled).insert(ColliderDisabled);
    let faller = spawn_body(
        &mut app,
        Vec2::new(0.0, 100.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 100);
    assert_eq!(aabb(&app, disabled).min.y, 40.0, "not moved: no gravity");
    assert!(
        aabb(&app, faller).min.y.abs() < 0.01,
        "the other body fell through it onto the floor"
    );
    let found = app
        .world_mut()
        .run_system_once(|q: SpatialQuery| q.overlap_point(Vec2::new(0.0, 50.0), &QueryFilter::default()).len())
        .unwrap();
    assert_eq!(found, 0, "no query finds it");
    app.world_mut().entity_mut(disabled).remove::<ColliderDisabled>();
    tick(&mut app, 100);
    assert!(
        (aabb(&app, disabled).min.y - 24.0).abs() < 0.01,
        "back, it falls onto the other body: {:?}",
        aabb(&app, disabled)
    );
}

#[test]
fn a_disabled_slope_and_grid_leave_and_come_back() {
    let mut app = app();
    let slope = spawn_slope(&mut app, Vec2::new(-100.0, -10.0), Vec2::new(100.0, 10.0));
    let mut grid = TileGrid::new(10, 1, 16.0);
    for x in 0..10 {
        grid.set(x, 0, TileCell::Solid);
    }
    let grid = app
        .world_mut()
        .spawn((grid, Transform::from_xyz(-80.0, -100.0, 0.0)))
        .id();
    tick(&mut app, 1);
    let count = |app: &mut App| {
        app.world_mut()
            .run_system_once(|q: SpatialQuery| {
                q.overlap_area(
                    Aabb::from_min_size(Vec2::new(-90.0, -95.0), Vec2::new(180.0, 100.0)),
                    &QueryFilter::default(),
                )
                .len()
            })
            .unwrap()
    };
    let all = count(&mut app);
    assert!(all >= 2, "the slope and the grid's pieces are found: {all}");
    for entity in [slope, grid] {
        app.world_mut().entity_mut(entity).insert(ColliderDisabled);
    }
    tick(&mut app, 1);
    assert_eq!(count(&mut app), 0, "both out");
    for entity in [slope, grid] {
        app.world_mut().entity_mut(entity).remove::<ColliderDisabled>();
    }
    tick(&mut app, 1);
    assert_eq!(count(&mut app), all, "both back");
}
