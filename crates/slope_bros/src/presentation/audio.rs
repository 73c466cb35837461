//! Sound effects and music (feature `audio`; without it, sound events are simply not played):
//! each [`Sfx`](crate::gameplay::Sfx) plays its sound; the pause and game-over jingles play with
//! their screens; the music follows the play (see `choose_music`).

use bevy::prelude::*;

#[cfg(feature = "audio")]
use super::assets::GameAssets;
#[cfg(feature = "audio")]
use crate::gameplay::Sfx;
#[cfg(feature = "audio")]
use crate::gameplay::player::{Player, PlayerStatus};
#[cfg(feature = "audio")]
use crate::level::{LevelClock, LevelInfo};

pub(super) fn plugin(app: &mut App) {
    #[cfg(feature = "audio")]
    {
        use crate::screens::state::{Pause, Screen};
        app.add_systems(Update, (play_effects, choose_music).chain());
        app.add_systems(OnEnter(Pause::Paused), |commands: Commands, assets: Res<GameAssets>| {
            play_once(commands, &assets, "pause");
        });
        app.add_systems(
            OnEnter(Screen::GameOver),
            |commands: Commands, assets: Res<GameAssets>| {
                play_once(commands, &assets, "game_over");
            },
        );
    }
    #[cfg(not(feature = "audio"))]
    let _ = app;
}

#[cfg(feature = "audio")]
fn sound_name(sfx: Sfx) -> &'static str {
    match sfx {
        Sfx::Jump => "jump",
        Sfx::JumpBig => "jump_big",
        Sfx::Coin => "coin",
        Sfx::Stomp => "stomp",
        Sfx::Kick => "kick",
        Sfx::Bump => "bump",
        Sfx::Break => "break",
        Sfx::PowerupAppears => "powerup_appears",
        Sfx::Powerup => "powerup",
        Sfx::Hurt => "hurt",
        Sfx::Die => "die",
        Sfx::OneUp => "one_up",
        Sfx::Checkpoint => "checkpoint",
        Sfx::Hammer => "hammer",
        Sfx::Fireball => "fireball",
        Sfx::Spring => "spring",
        Sfx::TimeWarning => "time_warning",
        Sfx::Flagpole => "flagpole",
        Sfx::Fanfare => "level_complete",
        Sfx::Tick => "tick",
        Sfx::Pipe => "pipe",
        Sfx::BossFall => "boss_fall",
    }
}

/// Plays the sound `name` once.
#[cfg(feature = "audio")]
fn play_once(mut commands: Commands, assets: &GameAssets, name: &str) {
    if let Some(sound) = assets.sounds.get(name) {
        commands.spawn((AudioPlayer(sound.clone()), PlaybackSettings::DESPAWN));
    }
}

#[cfg(feature = "audio")]
fn play_effects(mut commands: Commands, mut effects: MessageReader<Sfx>, assets: Res<GameAssets>) {
    for sfx in effects.read() {
        if let Some(sound) = assets.sounds.get(sound_name(*sfx)) {
            commands.spawn((AudioPlayer(sound.clone()), PlaybackSettings::DESPAWN));
        }
    }
}

/// The music playing: its file and whether it is the hurried one.
#[cfg(feature = "audio")]
#[derive(Component, PartialEq, Eq)]
struct Music {
    name: &'static str,
    hurried: bool,
}

/// How much faster the music plays once the time warning has sounded.
#[cfg(feature = "audio")]
const HURRIED_SPEED: f32 = 1.3;

/// The music that should play now: the level's theme (faster with 100 s or less left), the star
/// tune during star power, nothing while the player dies or finishes (the fanfare plays).
#[cfg(feature = "audio")]
fn choose_music(
    mut commands: Commands,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    clock: Res<LevelClock>,
    state: Option<Res<State<crate::screens::state::Screen>>>,
    players: Query<&Player>,
    playing: Query<(Entity, &Music)>,
) {
    let in_play = state.is_some_and(|s| *s.get() == crate::screens::state::Screen::Playing);
    let player = players.iter().next();
    let wanted = match player {
        Some(p) if in_play && p.status == PlayerStatus::Alive => Some(Music {
            name: if p.starred() {
                "music_star"
            } else {
                match info.theme.name() {
                    "underground" => "music_underground",
                    "sky" => "music_sky",
                    "castle" => "music_castle",
                    _ => "music_overworld",
                }
            },
            hurried: clock.left <= crate::gameplay::progress::TIME_WARNING_AT,
        }),
        _ => None,
    };
    if playing.iter().map(|(_, m)| m).eq(wanted.iter()) {
        return;
    }
    for (entity, _) in &playing {
        commands.entity(entity).despawn();
    }
    if let Some(music) = wanted
        && let Some(track) = assets.sounds.get(music.name)
    {
        let speed = if music.hurried { HURRIED_SPEED } else { 1.0 };
        commands.spawn((
            AudioPlayer(track.clone()),
            PlaybackSettings::LOOP
                .with_volume(bevy::audio::Volume::Linear(0.5))
                .with_speed(speed),
            music,
        ));
    }
}
