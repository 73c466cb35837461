//! The camera: 15 tiles tall, follows the player with a dead zone, clamped to the level.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;

use super::{AppSystems, VIEW_HEIGHT};
use crate::gameplay::player::Player;
use crate::level::{LevelInfo, LevelSpawned};

/// The game camera.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct GameCamera;

/// Half-size of the dead zone around the view's centre, px: the player moves freely inside it.
pub const DEAD_ZONE: Vec2 = Vec2::new(20.0, 36.0);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera);
    app.add_systems(
        Update,
        (snap_to_start.run_if(on_message::<LevelSpawned>), follow_player)
            .chain()
            .in_set(AppSystems::Camera),
    );
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Camera"),
        GameCamera,
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::FixedVertical {
                viewport_height: VIEW_HEIGHT,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// The centre of a view of `size` that keeps `target` inside the dead zone around `current` and
/// stays inside `bounds` (centred when the level is smaller than the view).
pub fn follow(current: Vec2, target: Vec2, size: Vec2, bounds: &Aabb) -> Vec2 {
    let mut center = current;
    let offset = target - current;
    for axis in 0..2 {
        if offset[axis] > DEAD_ZONE[axis] {
            center[axis] = target[axis] - DEAD_ZONE[axis];
        } else if offset[axis] < -DEAD_ZONE[axis] {
            center[axis] = target[axis] + DEAD_ZONE[axis];
        }
        let (lo, hi) = (bounds.min[axis] + size[axis] / 2.0, bounds.max[axis] - size[axis] / 2.0);
        center[axis] = if lo > hi {
            (bounds.min[axis] + bounds.max[axis]) / 2.0
        } else {
            center[axis].clamp(lo, hi)
        };
    }
    center
}

fn view_size(window: Option<&Window>) -> Vec2 {
    let aspect = window.map_or(16.0 / 9.0, |w| w.width() / w.height().max(1.0));
    Vec2::new(VIEW_HEIGHT * aspect, VIEW_HEIGHT)
}

fn snap_to_start(info: Res<LevelInfo>, windows: Query<&Window>, mut cameras: Query<&mut Transform, With<GameCamera>>) {
    let size = view_size(windows.iter().next());
    for mut transform in &mut cameras {
        let center = follow(info.player_start, info.player_start, size, &info.bounds);
        transform.translation = center.extend(transform.translation.z);
    }
}

fn follow_player(
    info: Res<LevelInfo>,
    windows: Query<&Window>,
    players: Query<&Transform, (With<Player>, Without<GameCamera>)>,
    mut cameras: Query<&mut Transform, With<GameCamera>>,
) {
    let Some(player) = players.iter().next() else { return };
    let size = view_size(windows.iter().next());
    for mut transform in &mut cameras {
        let center = follow(
            transform.translation.truncate(),
            player.translation.truncate(),
            size,
            &info.bounds,
        );
        transform.translation = center.extend(transform.translation.z);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_moves_freely_inside_the_dead_zone_and_drags_the_view_outside_it() {
        let bounds = Aabb::from_min_size(Vec2::ZERO, Vec2::new(4000.0, 240.0));
        let size = Vec2::new(426.0, 240.0);
        let start = Vec2::new(1000.0, 120.0);
        assert_eq!(follow(start, start + Vec2::new(10.0, 0.0), size, &bounds), start);
        assert_eq!(follow(start, start + Vec2::new(50.0, 0.0), size, &bounds).x, 1030.0);
    }

    #[test]
    fn the_view_stays_inside_the_level() {
        let bounds = Aabb::from_min_size(Vec2::ZERO, Vec2::new(4000.0, 240.0));
        let size = Vec2::new(426.0, 240.0);
        let at_left = follow(Vec2::new(300.0, 120.0), Vec2::new(0.0, 0.0), size, &bounds);
        assert_eq!(at_left, Vec2::new(213.0, 120.0));
        let small = Aabb::from_min_size(Vec2::ZERO, Vec2::new(200.0, 100.0));
        assert_eq!(follow(Vec2::ZERO, Vec2::ZERO, size, &small), Vec2::new(100.0, 50.0));
    }
}
