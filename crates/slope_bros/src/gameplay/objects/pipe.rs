//! Pipes: solid, and the way to a bonus room and back. An upright pipe is entered from its top
//! with Down, a side pipe (its mouth facing left) by walking right into its mouth on the ground.
//! A pipe leads to a level of the same LDtk project (`to_level`), where the player comes out
//! standing on the pipe named `to_pipe`; the clock goes on, score, coins and the power-up are
//! kept, and a death in a room restarts the level itself (see [`PipeArrival`]).
//!
//! Entering takes [`PIPE_TIME`]: the player is frozen (drawn going in), can't be hurt, and then
//! the level changes ([`LoadLevel`] with [`CurrentLevel::arrival`] set).

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{Player, PlayerStatus};
use crate::input::PlayerInput;
use crate::level::{CurrentLevel, LevelEntity, LevelObject, LoadLevel, PIPE, PipeArrival, RegisterLevelObject};
use crate::schedule::GameSystems;

/// How a pipe is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Reflect)]
pub enum PipeEntry {
    /// Upright: stand on its top and hold Down.
    Down,
    /// A side pipe, its mouth on its left: walk right into the mouth on the ground.
    Right,
    /// It cannot be entered (a pipe the player comes out of, or scenery).
    None,
}

impl PipeEntry {
    /// The value of a pipe's `enter` field (`down` when empty).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "" | "down" => Some(Self::Down),
            "right" => Some(Self::Right),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// A pipe; its transform is its collider's centre.
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component)]
#[require(LevelEntity, Name::new("Pipe"))]
pub struct Pipe {
    /// Its `name`: where a pipe of another level brings the player out.
    pub name: String,
    /// How it is entered.
    pub entry: PipeEntry,
    /// Where it leads (`None`: nowhere; it cannot be entered).
    pub leads_to: Option<PipeArrival>,
}

/// The player going into a pipe: frozen for [`PIPE_TIME`], then the level it leads to.
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component)]
pub struct EnteringPipe {
    /// Seconds left.
    pub left: f32,
    /// Down into an upright pipe, or right into a side pipe (the way it is drawn going in).
    pub entry: PipeEntry,
    /// Where it comes out.
    pub to: PipeArrival,
}

/// Seconds the player takes to go into a pipe.
pub const PIPE_TIME: f32 = 0.6;
/// How far off a pipe's middle a player may stand and still go down it: its feet must be over
/// the mouth (half the pipe less half a small player), px.
const MOUTH_SLACK: f32 = 10.0;

/// Spawns the pipe of a level object (a clear error for an `enter` value it does not know: the
/// pipe is then solid and cannot be entered).
pub fn spawn_pipe(commands: &mut Commands, object: &LevelObject) {
    let enter = object.text("enter");
    let entry = PipeEntry::parse(enter).unwrap_or_else(|| {
        error!(
            "pipe {:?} at {}: unknown enter value {enter:?} (down, right or none); it cannot be entered",
            object.text("name"),
            object.rect.min
        );
        PipeEntry::None
    });
    let to_level = object.text("to_level");
    let leads_to = (!to_level.is_empty() && entry != PipeEntry::None).then(|| PipeArrival {
        level: to_level.to_string(),
        pipe: object.text("to_pipe").to_string(),
    });
    let size = object.rect.size();
    commands.spawn((
        Pipe {
            name: object.text("name").to_string(),
            entry: if leads_to.is_some() { entry } else { PipeEntry::None },
            leads_to,
        },
        Collider::rectangle(size.x, size.y),
        Transform::from_translation(object.rect.center().extend(draw_order::PIPES)),
    ));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(Pipe, EnteringPipe)>();
    app.register_level_object(PIPE, spawn_pipe);
    app.add_systems(
        FixedUpdate,
        (enter_pipes, go_through_pipes).chain().in_set(GameSystems::React),
    );
}

/// A player standing on an upright pipe's mouth with Down held, or pushing right into a side
/// pipe's mouth on the ground, goes in.
fn enter_pipes(
    mut commands: Commands,
    input: Res<PlayerInput>,
    pipes: Query<(&Pipe, &Transform, &Collider)>,
    mut players: Query<(Entity, &mut Player, &Transform, &Collider, &Contacts, &mut Velocity)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (entity, mut player, transform, collider, contacts, mut velocity) in &mut players {
        if player.status != PlayerStatus::Alive {
            continue;
        }
        let body = collider.aabb(transform.translation.truncate());
        let on_floor = contacts.on_floor();
        let mut entered = None;
        if input.current.down && on_floor {
            entered = contacts.solid_in(ContactDirection::Down).find_map(|contact| {
                let (pipe, at, _) = pipes.get(contact.entity).ok()?;
                (pipe.entry == PipeEntry::Down && (body.center().x - at.translation.x).abs() <= MOUTH_SLACK)
                    .then_some(pipe)
            });
        }
        if entered.is_none() && input.current.right && !input.current.left && on_floor {
            entered = contacts.solid_in(ContactDirection::Right).find_map(|contact| {
                let (pipe, at, pipe_collider) = pipes.get(contact.entity).ok()?;
                let mouth = pipe_collider.aabb(at.translation.truncate());
                // The whole body fits in the mouth.
                (pipe.entry == PipeEntry::Right && body.min.y >= mouth.min.y - 0.5 && body.max.y <= mouth.max.y + 0.5)
                    .then_some(pipe)
            });
        }
        let Some(pipe) = entered else {
            continue;
        };
        let Some(to) = pipe.leads_to.clone() else {
            continue;
        };
        player.status = PlayerStatus::InPipe;
        player.sliding = false;
        velocity.0 = Vec2::ZERO;
        commands.entity(entity).insert((
            Frozen,
            EnteringPipe {
                left: PIPE_TIME,
                entry: pipe.entry,
                to,
            },
        ));
        sfx.write(Sfx::Pipe);
    }
}

/// A player that is all the way in goes to the level the pipe leads to.
fn go_through_pipes(
    time: Res<Time>,
    mut current: ResMut<CurrentLevel>,
    mut players: Query<&mut EnteringPipe>,
    mut load: MessageWriter<LoadLevel>,
) {
    for mut entering in &mut players {
        if entering.left <= 0.0 {
            continue;
        }
        entering.left -= time.delta_secs();
        if entering.left <= 0.0 {
            current.arrival = Some(entering.to.clone());
            load.write(LoadLevel);
        }
    }
}
