//! Falling lifts: a platform that hangs still until someone stands on it, then, after
//! `items.falling_lift_delay`, falls faster and faster (to `items.falling_lift_max_speed`) out of
//! the level. It is a kinematic body moved by its velocity, so the physics carries its riders
//! down with it.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::level::{LevelEntity, LevelInfo, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A falling lift; its transform is its collider's centre.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component)]
#[require(Kinematic, LevelEntity, Name::new("Falling lift"))]
pub struct FallingLift {
    /// Seconds until it falls, once stood on (`None`: nobody has stood on it yet).
    pub falls_in: Option<f32>,
}

/// Spawns a falling lift over `rect`.
pub fn spawn_falling_lift(commands: &mut Commands, rect: bevy_platformer_physics::geometry::Aabb) {
    let size = rect.size();
    commands.spawn((
        FallingLift::default(),
        Collider::rectangle(size.x, size.y),
        Transform::from_translation(rect.center().extend(crate::draw_order::TILES)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<FallingLift>();
    app.register_level_object("FallingLift", |commands, object| {
        spawn_falling_lift(commands, object.rect);
    });
    app.add_systems(FixedUpdate, drop_lifts.in_set(GameSystems::Intent));
}

/// Stood on, a lift counts down; then it falls.
fn drop_lifts(
    mut commands: Commands,
    time: Res<Time>,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    riders: Query<&Contacts, With<Dynamic>>,
    mut lifts: Query<(Entity, &mut FallingLift, &mut Velocity, &Transform)>,
) {
    let dt = time.delta_secs();
    let t = &tuning.items;
    for (entity, mut lift, mut velocity, transform) in &mut lifts {
        if lift.falls_in.is_none()
            && riders
                .iter()
                .any(|contacts| contacts.solid_in(ContactDirection::Down).any(|c| c.entity == entity))
        {
            lift.falls_in = Some(t.falling_lift_delay);
        }
        if let Some(left) = lift.falls_in {
            lift.falls_in = Some(left - dt);
            if left - dt <= 0.0 {
                velocity.y = (velocity.y - t.falling_lift_gravity * dt).max(-t.falling_lift_max_speed);
            }
        }
        if transform.translation.y < info.bounds.min.y - 64.0 {
            commands.entity(entity).despawn();
        }
    }
}
