//! Per-step trace of the player: position, velocity, contacts and state, as CSV rows.

use std::fmt::Write as _;
use std::path::PathBuf;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;

use crate::gameplay::player::Player;
use crate::gameplay::run::progress::{GameProgress, RunOutcome};
use crate::input::PlayerInput;
use crate::level::LevelClock;
use crate::schedule::GameSystems;

/// The header of a trace file. `contacts` lists `direction:entity.part`, the entity counted from
/// the player's (the level's grid is a small negative number).
pub const HEADER: &str =
    "step,input,x,y,vx,vy,on_floor,on_wall,on_ceiling,contacts,form,status,score,coins,lives,completed";

/// Collects trace rows; written to `path` by the headless runner (or on exit).
#[derive(Resource, Clone, Debug, Default)]
pub struct Trace {
    /// Where to write, if anywhere.
    pub path: Option<PathBuf>,
    /// Rows so far (without the header).
    pub rows: Vec<String>,
}

impl Trace {
    /// The whole CSV text.
    pub fn to_csv(&self) -> String {
        let mut text = String::with_capacity(self.rows.len() * 96 + HEADER.len() + 1);
        text.push_str(HEADER);
        text.push('\n');
        for row in &self.rows {
            text.push_str(row);
            text.push('\n');
        }
        text
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(FixedUpdate, record_trace.in_set(GameSystems::Record));
}

fn record_trace(
    trace: Option<ResMut<Trace>>,
    input: Res<PlayerInput>,
    clock: Res<LevelClock>,
    progress: Option<Res<GameProgress>>,
    outcome: Res<RunOutcome>,
    players: Query<(Entity, &Player, &Transform, &Velocity, &Contacts)>,
) {
    let Some(mut trace) = trace else { return };
    let Some((entity, player, transform, velocity, contacts)) = players.iter().next() else {
        return;
    };
    let mut touching = String::new();
    for contact in contacts.iter() {
        if !touching.is_empty() {
            touching.push(' ');
        }
        // Counted from the player's entity: the same in every build, however many resources (which
        // Bevy numbers as entities) the app holds before the level spawns.
        let _ = write!(
            touching,
            "{:?}:{}.{}",
            contact.direction,
            i64::from(contact.entity.index_u32()) - i64::from(entity.index_u32()),
            contact.part
        );
    }
    let progress = progress.map(|p| p.clone()).unwrap_or_default();
    let row = format!(
        "{},{},{:.3},{:.3},{:.3},{:.3},{},{},{},{},{:?},{:?},{},{},{},{}",
        clock.steps,
        input.current.to_letters(),
        transform.translation.x,
        transform.translation.y,
        velocity.x,
        velocity.y,
        contacts.on_floor(),
        contacts.on_wall(),
        contacts.on_ceiling(),
        touching,
        player.form,
        player.status,
        progress.score,
        progress.coins,
        progress.lives,
        outcome.completed_at.is_some(),
    );
    trace.rows.push(row);
}
