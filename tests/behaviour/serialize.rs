//! The `serialize` feature: components and configuration round-trip through serde (RON here).

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use bevy_platformer_physics::{SlopeRef, SlopeShape};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: T) {
    let text = ron::to_string(&value).expect("serializes");
    let back: T = ron::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, value, "{text}");
}

#[test]
fn components_and_configuration_round_trip() {
    round_trip(Collider::rectangle(12.0, 24.0).with_offset(Vec2::new(0.0, 2.0)));
    round_trip(CollisionLayers::new(0b10, 0b101));
    round_trip(Velocity(Vec2::new(3.0, -4.0)));
    round_trip(MovementTuning::default());
    round_trip(MovementInput {
        horizontal: -1.0,
        jump: Some(300.0),
        drop_through: true,
        jump_released: true,
        climb: -0.5,
    });
    round_trip(JumpTuning::default());
    round_trip(Climber { speed: 80.0 });
    round_trip(ClimbState {
        ladder: Some(Entity::from_raw_u32(3).unwrap()),
        to_centre: -40.0,
    });
    round_trip(MaxClimbableGradient(1.5));
    round_trip(JumpState {
        unsupported_for: 0.25,
        jumped: true,
        buffered: Some((300.0, 0.05)),
    });
    round_trip((
        Dynamic,
        Kinematic,
        Frozen,
        Embedded,
        Sensor,
        OneWayPlatform,
        ColliderDisabled,
        Grounded,
    ));
    round_trip((CollisionMode::AxisSeparated, BodyCollisions::Overlap));
    round_trip(PathFollower::new(vec![Vec2::ZERO, Vec2::new(0.0, 64.0)], 40.0, PathMode::PingPong).with_wait(0.5));
    round_trip(SlopeSegment::new(Vec2::ZERO, Vec2::new(64.0, 32.0)));
    let mut grid = TileGrid::new(3, 2, 16.0);
    grid.set(1, 0, TileCell::Slope45 { rises_right: true });
    round_trip(grid);
    round_trip(PhysicsConfig::default());
    let slope = SlopeRef {
        entity: Entity::from_raw_u32(7).unwrap(),
        part: 2,
        shape: SlopeShape::new(Vec2::ZERO, Vec2::new(10.0, 5.0)),
    };
    let mut contacts = Contacts::default();
    contacts.record(Contact {
        entity: slope.entity,
        direction: ContactDirection::Down,
        depth: 0.0,
        sensor: false,
        part: 2,
    });
    round_trip(contacts);
    round_trip(MovementState {
        supporting_slope: Some(slope),
        dropping_through: vec![(slope.entity, 1)],
        ..default()
    });
    round_trip(ContactStarted {
        entity: slope.entity,
        other: slope.entity,
        direction: ContactDirection::Left,
    });
}

#[test]
fn a_saved_grid_with_missing_cells_is_reported_not_trusted() {
    let text = ron::to_string(&TileGrid::new(4, 4, 16.0)).unwrap();
    // Hand-edited: the grid claims 4 × 4 cells but lists fewer.
    let cut = text.replacen("Empty,", "", 3);
    let grid: TileGrid = ron::from_str(&cut).unwrap();
    assert!(grid.problem().is_some(), "{cut}");
    assert_eq!(grid.get(3, 3), TileCell::Empty, "reading it does not panic");
}
