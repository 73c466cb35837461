//! The discrete push-out accumulates the correction vector of `seeds/004`.

mod common;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use common::*;

fn still_body(app: &mut App, min: Vec2, size: Vec2) -> Entity {
    let body = spawn_body(app, min + Vec2::new(size.x * 0.5, 0.0), size, CollisionMode::Discrete);
    set_movement(
        app,
        body,
        Movement {
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
    let body = still_body(&mut app, Vec2::new(5.0, 8.0), Vec2::new(10.0, 10.0));
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
    // a moves 2 left (half of 4); b then overlaps by 2 and moves 1 right.
    assert_eq!(aabb(&app, a).min.x, -2.0);
    assert_eq!(aabb(&app, b).min.x, 7.0);
    tick(&mut app, 20);
    let gap = aabb(&app, b).min.x - aabb(&app, a).max.x;
    assert!(
        gap.abs() < 0.01,
        "they separate over a few steps without flying apart: gap {gap}"
    );
}
