//! A tile grid level: seam-free floors and walls, one-way cells with drop-through, 45° and gentle
//! ramps both ways, and a breakable block (B breaks the cell under the player).
//!
//! Arrows or A/D walk, Space jumps, Down + Space drops through. C, R and N toggle the overlay.
//!
//! `cargo run -p bevy_platformer_physics --example tilemap --features examples`

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

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
struct Player;

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
    commands.spawn((Camera2d, Transform::from_xyz(200.0, 80.0, 0.0)));
    let grid = TileGrid::from_rows(LEVEL, CELL).expect("the level's rows are valid");
    commands.spawn((Level, grid, Transform::default()));
    commands.spawn((
        Player,
        Dynamic,
        Collider::rectangle(12.0, 22.0),
        Sprite::from_color(Color::srgb(0.9, 0.2, 0.2), Vec2::new(12.0, 22.0)),
        Transform::from_xyz(40.0, 60.0, 1.0),
        Movement {
            max_speed: Vec2::new(180.0, 1000.0),
            ..default()
        },
    ));
}

fn player_input(keys: Res<ButtonInput<KeyCode>>, mut players: Query<&mut MovementInput, With<Player>>) {
    for mut input in &mut players {
        let left = keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]);
        let right = keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]);
        input.horizontal = (right as i32 - left as i32) as f32;
        if keys.just_pressed(KeyCode::Space) {
            if keys.any_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
                input.drop_through = true;
            } else {
                input.jump = Some(430.0);
            }
        }
    }
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

fn follow_player(
    players: Query<&Transform, With<Player>>,
    mut cameras: Query<&mut Transform, (With<Camera2d>, Without<Player>)>,
) {
    let (Ok(player), Ok(mut camera)) = (players.single(), cameras.single_mut()) else {
        return;
    };
    camera.translation.x = player.translation.x;
    camera.translation.y = player.translation.y + 40.0;
}
