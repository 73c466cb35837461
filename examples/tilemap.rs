//! A tile grid level: seam-free floors and walls, one-way cells with drop-through, 45° and gentle
//! ramps both ways, and a breakable block (B breaks the cell under the player).
//!
//! Arrows or A/D walk, Space jumps, Down + Space drops through. C, R and N toggle the overlay.
//!
//! `cargo run -p platformer_examples --features windowed --example tilemap`

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_examples::{FollowPlayer, Player, follow_player, player_input};

const CELL: f32 = 16.0;

const LEVEL: &[&str] = &[
    "#..................................................#",
    "#..................................................#",
    "#...........====.............................#######",
    "#............................................/######",
    "#.........................................../#######",
    "#......====......pP####Qq.................../########",
    "#..............pP########Qq......#........../#########",
    "#####\\......pP############Qq.....#.........##########",
    "######\\...pP################Qq...#..====....##########",
    "####################################################",
];

#[derive(Component)]
struct Level;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, PlatformerPhysicsPlugins::default()))
        .insert_resource(DebugOverlay {
            colliders: true,
            contacts: true,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(Update, (player_input, break_block, follow_player))
        .run();
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Transform::from_xyz(200.0, 80.0, 0.0),
        FollowPlayer { above: 40.0 },
    ));
    let grid = TileGrid::from_rows(LEVEL, CELL).expect("the level's rows are valid");
    commands.spawn((Level, grid, Transform::default()));
    commands.spawn((
        Player { jump_speed: 430.0 },
        Dynamic,
        Collider::rectangle(12.0, 22.0),
        Sprite::from_color(Color::srgb(0.9, 0.2, 0.2), Vec2::new(12.0, 22.0)),
        Transform::from_xyz(40.0, 60.0, 1.0),
        MovementTuning {
            max_speed: Vec2::new(180.0, 1000.0),
            ..default()
        },
    ));
}

/// B removes the cell under the player's feet: the change takes effect at the next physics step.
fn break_block(
    keys: Res<ButtonInput<KeyCode>>,
    players: Query<&Transform, With<Player>>,
    mut grids: Query<&mut TileGrid, With<Level>>,
) {
    if !keys.just_pressed(KeyCode::KeyB) {
        return;
    }
    let (Ok(player), Ok(mut grid)) = (players.single(), grids.single_mut()) else {
        return;
    };
    let cell = ((player.translation.truncate() - Vec2::new(0.0, 12.0)) / CELL)
        .floor()
        .as_ivec2();
    grid.set(cell.x, cell.y, TileCell::Empty);
}
