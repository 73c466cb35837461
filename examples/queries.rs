//! Spatial queries, headless: a small level (a floor, a wall, a slope, a one-way platform, a
//! tile grid) and the questions a game asks of it. Prints each answer.
//! `cargo run -p platformer_examples --example queries`

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

fn main() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.update();
    let world = app.world_mut();
    let floor = world
        .spawn((Collider::rectangle(400.0, 16.0), Transform::from_xyz(0.0, -8.0, 0.0)))
        .id();
    let wall = world
        .spawn((Collider::rectangle(16.0, 96.0), Transform::from_xyz(160.0, 48.0, 0.0)))
        .id();
    let slope = world
        .spawn((
            SlopeSegment::new(Vec2::new(-160.0, 0.0), Vec2::new(-96.0, 32.0)),
            Transform::default(),
        ))
        .id();
    let platform = world
        .spawn((
            OneWayPlatform,
            Collider::rectangle(48.0, 6.0),
            Transform::from_xyz(40.0, 60.0, 0.0),
        ))
        .id();
    let mut grid = TileGrid::new(4, 1, 16.0);
    for x in 0..4 {
        grid.set(x, 0, TileCell::Solid);
    }
    let grid = world.spawn((grid, Transform::from_xyz(0.0, 100.0, 0.0))).id();
    // One step puts everything in the physics world.
    app.update();

    app.world_mut()
        .run_system_once(move |query: SpatialQuery| {
            let all = QueryFilter::default();
            // Straight down onto the floor.
            let hit = query.cast_ray(Vec2::new(0.0, 40.0), Dir2::NEG_Y, 100.0, &all).unwrap();
            println!(
                "ray down from (0, 40): {:?} at {}, normal {}, {} px",
                hit.collider.entity, hit.point, hit.normal, hit.distance
            );
            assert_eq!(hit.collider.entity, floor);
            // Onto the slope's surface, with its normal.
            let hit = query
                .cast_ray(Vec2::new(-128.0, 80.0), Dir2::NEG_Y, 200.0, &all)
                .unwrap();
            println!("ray down onto the slope: {} with normal {}", hit.point, hit.normal);
            assert_eq!(hit.collider.entity, slope);
            // Up through the one-way platform (passed), on into the grid.
            let hit = query.cast_ray(Vec2::new(40.0, 20.0), Dir2::Y, 200.0, &all);
            println!("ray up through the platform: {:?}", hit.map(|h| h.collider.entity));
            assert_eq!(hit.map(|h| h.collider.entity), Some(grid));
            // Down onto the platform from above (hit).
            let hit = query.cast_ray(Vec2::new(40.0, 90.0), Dir2::NEG_Y, 50.0, &all).unwrap();
            assert_eq!(hit.collider.entity, platform);
            // Every hit along a ray.
            let hits = query.cast_ray_all(Vec2::new(-200.0, 8.0), Dir2::X, 400.0, &all);
            println!("ray right at y = 8 crosses {} colliders", hits.len());
            assert!(hits.iter().any(|h| h.collider.entity == wall));
            // A box cast: where a 12 × 24 body moving right stops.
            let body = Aabb::from_center_half_size(Vec2::new(60.0, 20.0), Vec2::new(6.0, 12.0));
            let stop = query.cast_box(body, Dir2::X, 200.0, &all).unwrap();
            println!(
                "a body moving right stops after {} px, against {:?}",
                stop.distance, stop.collider.entity
            );
            assert_eq!(stop.collider.entity, wall);
            // Areas and points.
            let under = query.overlap_point(Vec2::new(-110.0, 5.0), &all);
            println!(
                "the point (-110, 5) is under the slope's surface: {}",
                under.iter().any(|c| c.entity == slope)
            );
            assert!(query.is_free(
                Aabb::from_center_half_size(Vec2::new(0.0, 30.0), Vec2::new(6.0, 12.0)),
                &all
            ));
            assert!(!query.is_free(
                Aabb::from_center_half_size(Vec2::new(160.0, 30.0), Vec2::new(6.0, 12.0)),
                &all
            ));
            println!("a 12 × 24 box fits at (0, 30), not inside the wall");
        })
        .unwrap();
}
