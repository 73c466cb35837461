//! Springs: a solid block that launches the player who lands on it, higher with jump held. The
//! launch is the player's own upward speed (`items.spring_speed`, or `spring_speed_held`); the
//! player's rising speed limit lets it through until the player lands again.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{Player, PlayerStatus};
use crate::input::PlayerInput;
use crate::level::{LevelEntity, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::Tuning;

/// A spring; its transform is its collider's centre.
#[derive(Component, Clone, Copy, Debug, Default, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Spring"))]
pub struct Spring {
    /// Seconds left of the squashed look after a launch.
    pub squashed: f32,
}

impl Spring {
    /// Its collider, px: one tile.
    pub const SIZE: Vec2 = Vec2::new(16.0, 16.0);
}

/// Spawns a spring standing on `feet`.
pub fn spawn_spring(commands: &mut Commands, feet: Vec2) {
    commands.spawn((
        Spring::default(),
        Collider::rectangle(Spring::SIZE.x, Spring::SIZE.y),
        Transform::from_translation((feet + Vec2::Y * Spring::SIZE.y / 2.0).extend(draw_order::MARKERS)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Spring>();
    app.register_level_object("Spring", |commands, object| spawn_spring(commands, object.feet()));
    app.add_systems(FixedUpdate, launch_from_springs.in_set(GameSystems::React));
}

/// A player standing on a spring after the step is launched.
fn launch_from_springs(
    time: Res<Time>,
    input: Res<PlayerInput>,
    tuning: Res<Tuning>,
    mut springs: Query<(Entity, &mut Spring)>,
    mut players: Query<(&mut Player, &Contacts, &mut Velocity)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (_, mut spring) in &mut springs {
        spring.squashed = (spring.squashed - time.delta_secs()).max(0.0);
    }
    for (mut player, contacts, mut velocity) in &mut players {
        if player.status != PlayerStatus::Alive || velocity.y > 0.0 {
            continue;
        }
        for contact in contacts.solid_in(ContactDirection::Down) {
            let Ok((_, mut spring)) = springs.get_mut(contact.entity) else {
                continue;
            };
            let speed = if input.current.jump {
                tuning.items.spring_speed_held
            } else {
                tuning.items.spring_speed
            };
            velocity.y = speed;
            player.launch_speed = speed;
            // A launch, not a jump: no cut when jump is let go, and no jump taken on top of it.
            player.jumping = false;
            player.coyote_left = 0.0;
            player.buffered_jump = 0.0;
            spring.squashed = 0.15;
            sfx.write(Sfx::Spring);
            break;
        }
    }
}
