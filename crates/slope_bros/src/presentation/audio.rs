//! Sound effects and music (feature `audio`; without it, sound events are simply not played).

use bevy::prelude::*;

#[cfg(feature = "audio")]
use super::assets::GameAssets;
#[cfg(feature = "audio")]
use crate::gameplay::Sfx;
#[cfg(feature = "audio")]
use crate::level::{LevelInfo, LevelSpawned};

pub(super) fn plugin(app: &mut App) {
    #[cfg(feature = "audio")]
    app.add_systems(Update, (play_effects, play_music.run_if(on_message::<LevelSpawned>)));
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

/// Marks the music player.
#[cfg(feature = "audio")]
#[derive(Component)]
struct Music;

#[cfg(feature = "audio")]
fn play_music(
    mut commands: Commands,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    playing: Query<Entity, With<Music>>,
) {
    for entity in &playing {
        commands.entity(entity).despawn();
    }
    let name = match info.theme.name() {
        "underground" => "music_underground",
        "sky" => "music_sky",
        "castle" => "music_castle",
        _ => "music_overworld",
    };
    if let Some(music) = assets.sounds.get(name) {
        commands.spawn((
            Music,
            crate::level::LevelEntity,
            AudioPlayer(music.clone()),
            PlaybackSettings::LOOP.with_volume(bevy::audio::Volume::Linear(0.5)),
        ));
    }
}
