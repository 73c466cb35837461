//! The discrete push-out accumulates the correction vector (see *Discrete mode* in
//! [the physics rules](bevy_platformer_physics::physics_rules)): contacts sharing a direction are never pushed out twice.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::physics::*;

fn still_body(app: &mut App, min: Vec2, size: Vec2) -> Entity {
    let body = spawn_body(app, min + Vec2::new(size.x * 0.5, 0.0), size, CollisionMode::Discrete);
    set_movement(
        app,
        body,
        MovementTuning {
            gravity_scale: 0.0,
            ..default()
        },
    );
    body
}

#[test]
fn two_floor_boxes_push_out_by_the_deeper_one_not_the_sum() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
    spawn_box(&mut app, Vec2::new(10.0, 0.0), Vec2::new(10.0, 12.0));
    // Half a pixel above the higher box, falling 4.5 px in one step: the move ends 2 px into the
    // lower box and 4 px into the higher one.
    let body = still_body(&mut app, Vec2::new(5.0, 12.5), Vec2::new(10.0, 10.0));
    set_velocity(&mut app, body, Vec2::new(0.0, -450.0));
    tick(&mut app, 1);
    let b = aabb(&app, body);
    assert_eq!(b.min, Vec2::new(5.0, 12.0), "pushed up by 4 (the deeper), not 2 + 4");
    let c = contacts(&app, body);
    assert_eq!(c.list.len(), 2);
    assert!(c.list.iter().all(|c| c.direction == ContactDirection::Down));
}

#[test]
fn floor_and_wall_push_out_by_both_perpendicular_vectors() {
    let mut app = app();
    spawn_box(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(100.0, 10.0));
    spawn_box(&mut app, Vec2::new(14.0, 0.0), Vec2::new(16.0, 100.0));
    let body = still_body(&mut app, Vec2::new(7.0, 8.0), Vec2::new(10.0, 10.0));
    tick(&mut app, 1);
    assert_eq!(aabb(&app, body).min, Vec2::new(4.0, 10.0), "exactly (-3, +2)");
}

#[test]
fn two_dynamic_bodies_each_move_half() {
    let mut app = app();
    let a = still_body(&mut app, Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
    let b = still_body(&mut app, Vec2::new(6.0, 0.0), Vec2::new(10.0, 10.0));
    tick(&mut app, 1);
    // The body moved first goes half of the 4 px overlap (2 px) away; the other then overlaps it
    // by 2 and goes half of that (1 px) the other way. Which one moves first is the ECS's order.
    let moves = (aabb(&app, a).min.x - 0.0, aabb(&app, b).min.x - 6.0);
    assert!(
        moves == (-2.0, 1.0) || moves == (-1.0, 2.0),
        "each moves away by half of what it overlaps: {moves:?}"
    );
    tick(&mut app, 20);
    let gap = aabb(&app, b).min.x - aabb(&app, a).max.x;
    assert!(
        gap.abs() < 0.01,
        "they separate over a few steps without flying apart: gap {gap}"
    );
}

/// Found by the robustness harness (seed 14975419971872921593): pushed out of a wall, the body
/// landed inside the block beside it, which the pass had measured before the push.
#[test]
fn a_push_out_of_a_wall_into_the_block_beside_it_is_measured_again() {
    for mode in MODES {
        let mut app = app();
        spawn_box(&mut app, Vec2::new(750.0, 0.0), Vec2::new(50.0, 200.0));
        let block = spawn_box(&mut app, Vec2::new(700.0, 16.0), Vec2::new(36.0, 16.0));
        let body = spawn_body(&mut app, Vec2::new(742.0, 33.0), Vec2::new(16.0, 16.0), mode);
        set_movement(
            &mut app,
            body,
            MovementTuning {
                acceleration: 1.0e6,
                max_speed: Vec2::new(300.0, 1000.0),
                gravity_scale: 0.0,
                ..default()
            },
        );
        input(&mut app, body).horizontal = 1.0;
        set_velocity(&mut app, body, Vec2::new(300.0, -200.0));
        tick(&mut app, 1);
        let b = aabb(&app, body);
        assert!(b.min.y >= 32.0 - 1e-3, "{mode:?}: inside the block: {b:?}");
        assert!((b.max.x - 750.0).abs() < 1e-3, "{mode:?}: against the wall: {b:?}");
        assert!(
            contacts(&app, body).with(block).is_some(),
            "{mode:?}: landed on the block: {b:?}"
        );
    }
}
