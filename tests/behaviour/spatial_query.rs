//! `SpatialQuery`: ray casts, box casts, area and point overlaps on boxes, tile grids, slopes,
//! one-way platforms, layers and sensors, as a game system sees them.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use platformer_tests::physics::*;

/// Runs `f` with a `SpatialQuery` of `app`'s world.
fn with_query<T: Send + 'static>(app: &mut App, f: impl Fn(&SpatialQuery) -> T + Send + Sync + 'static) -> T {
    app.world_mut()
        .run_system_once(move |query: SpatialQuery| f(&query))
        .expect("the query runs")
}

fn all() -> QueryFilter {
    QueryFilter::default()
}

/// A floor with its top at y = 0 from x = -100 to 100, after one step so it is in the world.
fn floor(app: &mut App) -> Entity {
    let floor = spawn_box(app, Vec2::new(-100.0, -16.0), Vec2::new(200.0, 16.0));
    tick(app, 1);
    floor
}

#[test]
fn a_ray_down_hits_the_floor_top_with_point_normal_and_distance() {
    let mut app = app();
    let floor = floor(&mut app);
    let hit = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(10.0, 30.0), Dir2::NEG_Y, 100.0, &all())
    })
    .unwrap();
    assert_eq!(hit.collider.entity, floor);
    assert_eq!(hit.distance, 30.0);
    assert_eq!(hit.point, Vec2::new(10.0, 0.0));
    assert_eq!(hit.normal, Vec2::Y);
    let short = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(10.0, 30.0), Dir2::NEG_Y, 29.0, &all())
    });
    assert_eq!(short, None, "the ray stops at its length");
    let beside = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(150.0, 30.0), Dir2::NEG_Y, 100.0, &all())
    });
    assert_eq!(beside, None, "nothing under the ray");
}

#[test]
fn a_ray_hits_the_first_box_and_cast_ray_all_lists_every_box_in_order() {
    let mut app = app();
    let near = spawn_box(&mut app, Vec2::new(20.0, -10.0), Vec2::new(10.0, 20.0));
    let far = spawn_box(&mut app, Vec2::new(60.0, -10.0), Vec2::new(10.0, 20.0));
    tick(&mut app, 1);
    let first = with_query(&mut app, |q| q.cast_ray(Vec2::ZERO, Dir2::X, 100.0, &all())).unwrap();
    assert_eq!(
        (first.collider.entity, first.distance, first.normal),
        (near, 20.0, Vec2::NEG_X)
    );
    let every = with_query(&mut app, |q| q.cast_ray_all(Vec2::ZERO, Dir2::X, 100.0, &all()));
    let found: Vec<(Entity, f32)> = every.iter().map(|h| (h.collider.entity, h.distance)).collect();
    assert_eq!(found, vec![(near, 20.0), (far, 60.0)]);
    let filter = all().excluding(near);
    let past = with_query(&mut app, move |q| q.cast_ray(Vec2::ZERO, Dir2::X, 100.0, &filter)).unwrap();
    assert_eq!(past.collider.entity, far, "an excluded entity is passed");
}

#[test]
fn a_ray_hits_the_cell_of_a_tile_grid_it_meets() {
    let mut app = app();
    let mut grid = TileGrid::new(8, 4, 16.0);
    for x in 0..8 {
        grid.set(x, 0, TileCell::Solid);
    }
    grid.set(5, 1, TileCell::Solid);
    let grid = app.world_mut().spawn((grid, Transform::default())).id();
    tick(&mut app, 1);
    // Over column 5 the ray meets the raised cell's top at y = 32; over column 2, the floor at 16.
    let raised = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(88.0, 100.0), Dir2::NEG_Y, 200.0, &all())
    })
    .unwrap();
    assert_eq!((raised.collider.entity, raised.point), (grid, Vec2::new(88.0, 32.0)));
    let low = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(40.0, 100.0), Dir2::NEG_Y, 200.0, &all())
    })
    .unwrap();
    assert_eq!((low.collider.entity, low.point), (grid, Vec2::new(40.0, 16.0)));
    // Sideways at y = 24 from the left: the raised cell's left face at x = 80.
    let side = with_query(&mut app, |q| q.cast_ray(Vec2::new(0.0, 24.0), Dir2::X, 200.0, &all())).unwrap();
    assert_eq!((side.point, side.normal), (Vec2::new(80.0, 24.0), Vec2::NEG_X));
}

#[test]
fn a_ray_hits_a_slope_from_above_and_passes_it_from_below() {
    let mut app = app();
    // Rises right, gradient 1/2: surface y = x / 2 for x in 0..64.
    let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(64.0, 32.0));
    let ceiling = spawn_box(&mut app, Vec2::new(0.0, 100.0), Vec2::new(64.0, 8.0));
    tick(&mut app, 1);
    let down = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(40.0, 60.0), Dir2::NEG_Y, 200.0, &all())
    })
    .unwrap();
    assert_eq!(down.collider.entity, slope);
    assert!((down.point.y - 20.0).abs() < 1e-4, "{down:?}");
    assert!(down.normal.x < 0.0 && down.normal.y > 0.0);
    let up = with_query(&mut app, |q| q.cast_ray(Vec2::new(40.0, 5.0), Dir2::Y, 200.0, &all())).unwrap();
    assert_eq!(up.collider.entity, ceiling, "the slope is passed from below");
}

#[test]
fn a_one_way_platform_is_hit_only_on_its_top_from_above() {
    let mut app = app();
    let platform = spawn_box(&mut app, Vec2::new(0.0, 0.0), Vec2::new(64.0, 8.0));
    app.world_mut().entity_mut(platform).insert(OneWayPlatform);
    tick(&mut app, 1);
    let down = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(30.0, 40.0), Dir2::NEG_Y, 100.0, &all())
    });
    assert_eq!(
        down.map(|h| (h.collider.entity, h.point)),
        Some((platform, Vec2::new(30.0, 8.0)))
    );
    let up = with_query(&mut app, |q| q.cast_ray(Vec2::new(30.0, -20.0), Dir2::Y, 100.0, &all()));
    assert_eq!(up, None, "from below");
    let side = with_query(&mut app, |q| q.cast_ray(Vec2::new(-20.0, 4.0), Dir2::X, 100.0, &all()));
    assert_eq!(side, None, "from the side");
    let inside = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(30.0, 4.0), Dir2::NEG_Y, 100.0, &all())
    });
    assert_eq!(inside, None, "from inside");
    let landing = Aabb::from_min_size(Vec2::new(20.0, 30.0), Vec2::new(10.0, 10.0));
    let cast = with_query(&mut app, move |q| q.cast_box(landing, Dir2::NEG_Y, 100.0, &all())).unwrap();
    assert_eq!((cast.collider.entity, cast.distance), (platform, 22.0));
    let rising = Aabb::from_min_size(Vec2::new(20.0, -30.0), Vec2::new(10.0, 10.0));
    let cast = with_query(&mut app, move |q| q.cast_box(rising, Dir2::Y, 100.0, &all()));
    assert_eq!(cast, None, "a box jumps up through it");
}

#[test]
fn layers_and_sensors_filter_what_is_found() {
    let mut app = app();
    let wall = spawn_box(&mut app, Vec2::new(40.0, -10.0), Vec2::new(10.0, 20.0));
    app.world_mut()
        .entity_mut(wall)
        .insert(CollisionLayers::new(0b10, u32::MAX));
    let sensor = spawn_box(&mut app, Vec2::new(20.0, -10.0), Vec2::new(10.0, 20.0));
    app.world_mut().entity_mut(sensor).insert(Sensor);
    tick(&mut app, 1);
    let ray = |filter: QueryFilter| {
        move |q: &SpatialQuery| {
            q.cast_ray(Vec2::ZERO, Dir2::X, 100.0, &filter)
                .map(|h| h.collider.entity)
        }
    };
    assert_eq!(
        with_query(&mut app, ray(all())),
        Some(wall),
        "sensors are skipped by default"
    );
    assert_eq!(with_query(&mut app, ray(all().with_sensors())), Some(sensor));
    assert_eq!(
        with_query(&mut app, ray(all().with_mask(0b01))),
        None,
        "the wall is on layer 2 only"
    );
    assert_eq!(with_query(&mut app, ray(all().with_mask(0b10))), Some(wall));
    let area = Aabb::from_min_size(Vec2::new(15.0, -5.0), Vec2::new(40.0, 10.0));
    let overlapping = |filter: QueryFilter| {
        move |q: &SpatialQuery| {
            q.overlap_area(area, &filter)
                .iter()
                .map(|c| c.entity)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(with_query(&mut app, overlapping(all())), vec![wall]);
    let mut both = vec![wall, sensor];
    both.sort();
    assert_eq!(with_query(&mut app, overlapping(all().with_sensors())), both);
}

#[test]
fn a_box_cast_stops_where_a_falling_body_lands_in_every_mode() {
    for mode in MODES {
        for (a, b) in [
            (Vec2::ZERO, Vec2::new(64.0, 32.0)),
            (Vec2::new(0.0, 48.0), Vec2::new(32.0, 0.0)),
            (Vec2::new(0.0, 0.0), Vec2::new(40.0, 80.0)),
        ] {
            let mut app = app();
            spawn_slope(&mut app, a, b);
            let size = Vec2::new(12.0, 20.0);
            let body = spawn_body(&mut app, Vec2::new(20.0, 100.0), size, mode);
            let start = aabb(&app, body);
            tick(&mut app, 1);
            let filter = all().excluding(body);
            let cast = with_query(&mut app, move |q| q.cast_box(start, Dir2::NEG_Y, 500.0, &filter))
                .unwrap_or_else(|| panic!("{mode:?} {a} {b}: the cast finds the slope"));
            // The step it lands (a slope then slides it away).
            for _ in 0..200 {
                if contacts(&app, body).on_floor() {
                    break;
                }
                tick(&mut app, 1);
            }
            let landed = aabb(&app, body);
            assert!(contacts(&app, body).on_floor(), "{mode:?}: the body landed");
            assert!(
                (cast.aabb.min.y - landed.min.y).abs() < 1e-3,
                "{mode:?} slope {a} {b}: cast stops at {:?}, the body stands at {landed:?}",
                cast.aabb
            );
        }
    }
}

#[test]
fn a_box_cast_meets_walls_and_ceilings_by_their_faces() {
    let mut app = app();
    let wall = spawn_box(&mut app, Vec2::new(50.0, 0.0), Vec2::new(10.0, 40.0));
    tick(&mut app, 1);
    let mover = Aabb::from_min_size(Vec2::new(0.0, 10.0), Vec2::new(10.0, 10.0));
    let hit = with_query(&mut app, move |q| q.cast_box(mover, Dir2::X, 100.0, &all())).unwrap();
    assert_eq!(
        (hit.collider.entity, hit.distance, hit.normal),
        (wall, 40.0, Vec2::NEG_X)
    );
    assert_eq!(hit.aabb.max.x, 50.0);
    let over = Aabb::from_min_size(Vec2::new(0.0, 41.0), Vec2::new(10.0, 10.0));
    assert_eq!(
        with_query(&mut app, move |q| q.cast_box(over, Dir2::X, 100.0, &all())),
        None
    );
    let inside = Aabb::from_min_size(Vec2::new(52.0, 10.0), Vec2::new(4.0, 4.0));
    let hit = with_query(&mut app, move |q| q.cast_box(inside, Dir2::X, 100.0, &all())).unwrap();
    assert_eq!(hit.distance, 0.0, "a box that starts inside hits at once");
}

#[test]
fn areas_and_points_find_boxes_cells_and_the_triangle_under_a_slope() {
    let mut app = app();
    let block = spawn_box(&mut app, Vec2::new(100.0, 0.0), Vec2::new(20.0, 20.0));
    let slope = spawn_slope(&mut app, Vec2::ZERO, Vec2::new(40.0, 40.0));
    let mut grid = TileGrid::new(2, 1, 16.0);
    grid.set(1, 0, TileCell::Solid);
    let grid = app.world_mut().spawn((grid, Transform::from_xyz(200.0, 0.0, 0.0))).id();
    tick(&mut app, 1);
    let point =
        |p: Vec2| move |q: &SpatialQuery| q.overlap_point(p, &all()).iter().map(|c| c.entity).collect::<Vec<_>>();
    assert_eq!(with_query(&mut app, point(Vec2::new(110.0, 10.0))), vec![block]);
    assert_eq!(
        with_query(&mut app, point(Vec2::new(30.0, 10.0))),
        vec![slope],
        "under the surface"
    );
    assert!(
        with_query(&mut app, point(Vec2::new(10.0, 30.0))).is_empty(),
        "over the surface"
    );
    assert_eq!(
        with_query(&mut app, point(Vec2::new(220.0, 8.0))),
        vec![grid],
        "the solid cell"
    );
    assert!(
        with_query(&mut app, point(Vec2::new(204.0, 8.0))).is_empty(),
        "the empty cell"
    );
    let area = |min: Vec2, size: Vec2| {
        move |q: &SpatialQuery| {
            q.overlap_area(Aabb::from_min_size(min, size), &all())
                .iter()
                .map(|c| c.entity)
                .collect::<Vec<_>>()
        }
    };
    let mut both = vec![block, slope];
    both.sort();
    assert_eq!(
        with_query(&mut app, area(Vec2::new(25.0, 5.0), Vec2::new(90.0, 5.0))),
        both
    );
    assert!(
        with_query(&mut app, area(Vec2::new(0.0, 30.0), Vec2::new(20.0, 20.0))).is_empty(),
        "over the slope"
    );
    assert!(
        with_query(&mut app, area(Vec2::new(120.0, 0.0), Vec2::new(10.0, 10.0))).is_empty(),
        "touching"
    );
}

#[test]
fn queries_see_bodies_where_the_last_step_left_them() {
    let mut app = app();
    floor(&mut app);
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 50.0),
        Vec2::new(10.0, 10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 100);
    let b = aabb(&app, body);
    let hit = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(0.0, 100.0), Dir2::NEG_Y, 200.0, &all())
    })
    .unwrap();
    assert_eq!(hit.collider.entity, body, "the body is found on the floor");
    assert_eq!(hit.point.y, b.max.y);
}

#[test]
fn is_free_counts_only_solid_obstacles_and_collider_looks_one_up() {
    let mut app = app();
    let area = Aabb::from_min_size(Vec2::ZERO, Vec2::splat(10.0));
    let inside = |app: &mut App| spawn_box(app, Vec2::splat(2.0), Vec2::splat(4.0));
    let platform = inside(&mut app);
    app.world_mut().entity_mut(platform).insert(OneWayPlatform);
    let sensor = inside(&mut app);
    app.world_mut().entity_mut(sensor).insert(Sensor);
    spawn_body(
        &mut app,
        Vec2::new(4.0, 2.0),
        Vec2::splat(4.0),
        CollisionMode::Continuous,
    );
    spawn_slope(&mut app, Vec2::ZERO, Vec2::new(10.0, 10.0));
    // A wall that only touches the area's right side.
    spawn_box(&mut app, Vec2::new(10.0, 0.0), Vec2::new(5.0, 10.0));
    tick(&mut app, 1);
    assert!(
        with_query(&mut app, move |q| q.is_free(area, &all())),
        "one-way platforms, sensors, bodies, slopes and a touching wall leave it free"
    );
    let lift = app
        .world_mut()
        .spawn((
            Collider::rectangle(4.0, 4.0),
            Transform::from_xyz(8.0, 8.0, 0.0),
            PathFollower::new(vec![Vec2::splat(8.0), Vec2::new(8.0, 100.0)], 1.0, PathMode::Once),
        ))
        .id();
    tick(&mut app, 1);
    assert!(
        !with_query(&mut app, move |q| q.is_free(area, &all())),
        "a lift is in the way"
    );
    assert!(
        with_query(&mut app, move |q| q.is_free(area, &all().excluding(lift))),
        "unless the filter leaves it out"
    );
    let found = with_query(&mut app, move |q| q.collider(platform, 0)).unwrap();
    assert!(found.one_way && found.entity == platform);
    assert_eq!(with_query(&mut app, |q| q.collider(Entity::PLACEHOLDER, 0)), None);
}

/// What a point query at `POINT` found in the latest step, between SyncColliders and the rest.
#[derive(Resource, Default)]
struct FoundAtPoint(Vec<Entity>);

const POINT: Vec2 = Vec2::new(500.0, 512.0);

#[test]
fn a_body_the_game_teleports_is_where_queries_find_it_from_the_next_step_on() {
    let mut app = app();
    floor(&mut app);
    let body = spawn_body(
        &mut app,
        Vec2::new(0.0, 40.0),
        Vec2::new(12.0, 24.0),
        CollisionMode::Continuous,
    );
    // Falling: the movement pass moves it (and mirrors its moves) every step.
    tick(&mut app, 3);
    app.init_resource::<FoundAtPoint>();
    app.add_systems(
        FixedUpdate,
        (|query: SpatialQuery, mut found: ResMut<FoundAtPoint>| {
            found.0 = query.overlap_point(POINT, &all()).iter().map(|c| c.entity).collect();
        })
        .after(PlatformerSystems::SyncColliders)
        .before(PlatformerSystems::Kinematics),
    );
    // The game moves it far away between two steps (its velocity untouched since the pass).
    app.world_mut().get_mut::<Transform>(body).unwrap().translation = POINT.extend(0.0);
    tick(&mut app, 1);
    assert_eq!(app.world().resource::<FoundAtPoint>().0, vec![body]);
}

#[test]
fn a_hit_says_what_it_found_the_segment_of_a_slope_and_the_kind_of_body() {
    let mut app = app();
    let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(64.0, 32.0));
    let slope = spawn_slope(&mut app, a, b);
    let lift = app
        .world_mut()
        .spawn((
            Kinematic,
            Collider::rectangle(32.0, 8.0),
            Transform::from_xyz(-100.0, 0.0, 0.0),
        ))
        .id();
    let body = spawn_body(
        &mut app,
        Vec2::new(200.0, 0.0),
        Vec2::splat(10.0),
        CollisionMode::Continuous,
    );
    tick(&mut app, 1);
    let on_slope = with_query(&mut app, |q| {
        q.cast_ray(Vec2::new(32.0, 100.0), Dir2::NEG_Y, 200.0, &all())
    })
    .unwrap();
    assert_eq!(on_slope.collider.entity, slope);
    assert_eq!(
        on_slope.collider.slope,
        Some(SlopeShape::new(a, b)),
        "the segment, not its rise"
    );
    assert_eq!(on_slope.collider.kind, BodyKind::Static);
    assert!(!on_slope.collider.is_solid_obstacle(), "a slope is never solid");
    let lift_hit = with_query(&mut app, move |q| q.collider(lift, 0)).unwrap();
    assert_eq!((lift_hit.kind, lift_hit.slope), (BodyKind::Kinematic, None));
    assert!(lift_hit.is_solid_obstacle());
    let point = with_query(&mut app, |q| q.overlap_point(Vec2::new(200.0, 5.0), &all()));
    assert_eq!(
        point.iter().map(|h| (h.entity, h.kind)).collect::<Vec<_>>(),
        [(body, BodyKind::Dynamic)]
    );
}
