//! Sound. What plays is decided here in every build, and the `audio` feature plays it (without
//! the feature the decisions are made and nothing is heard, so they are tested in every build):
//! - each [`Sfx`] asks for its sound, a [`PlaySound`];
//! - the jingles: entering the pause menu plays `pause`, the game-over screen `game_over` (the
//!   level-complete fanfare is the finale's [`Sfx::Fanfare`]);
//! - [`Music`] is the tune that should play now: the level's theme, hurried once the clock is at
//!   [`TIME_WARNING_AT`] or less; the star tune during star power; silence while the player dies
//!   or finishes a level, and outside play.

use bevy::prelude::*;

use super::AppSystems;
use crate::gameplay::Sfx;
use crate::gameplay::player::{Player, PlayerStatus};
use crate::gameplay::run::progress::TIME_WARNING_AT;
use crate::level::{LevelClock, LevelInfo, Theme};
use crate::screens::state::{Pause, Screen};

/// A sound to play once: the file `assets/audio/<name>.wav`.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaySound(pub &'static str);

/// A looping tune: the file `assets/audio/<name>.wav`, and whether it plays faster because time
/// is running out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tune {
    /// The file's name.
    pub name: &'static str,
    /// Played [`HURRIED_SPEED`] times faster.
    pub hurried: bool,
}

/// The music that should play now (`None`: silence).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Music(pub Option<Tune>);

/// How much faster the music plays once the time warning has sounded.
pub const HURRIED_SPEED: f32 = 1.3;

/// Every sound and tune the game can ask for (files `assets/audio/<name>.wav`).
pub const SOUNDS: [&str; 29] = [
    "jump",
    "jump_big",
    "coin",
    "stomp",
    "kick",
    "bump",
    "break",
    "powerup_appears",
    "powerup",
    "hurt",
    "die",
    "one_up",
    "checkpoint",
    "hammer",
    "fireball",
    "spring",
    "time_warning",
    "flagpole",
    "tick",
    "pipe",
    "boss_fall",
    "pause",
    "level_complete",
    "game_over",
    "music_overworld",
    "music_underground",
    "music_sky",
    "music_castle",
    "music_star",
];

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlaySound>();
    app.init_resource::<Music>();
    app.add_systems(Update, (ask_for_effects, choose_music).in_set(AppSystems::Hud));
    app.add_systems(OnEnter(Pause::Paused), |mut sounds: MessageWriter<PlaySound>| {
        sounds.write(PlaySound("pause"));
    });
    app.add_systems(OnEnter(Screen::GameOver), |mut sounds: MessageWriter<PlaySound>| {
        sounds.write(PlaySound("game_over"));
    });
    #[cfg(feature = "audio")]
    app.add_systems(
        Update,
        (playback::play_sounds, playback::play_music)
            .after(AppSystems::Hud)
            .run_if(resource_exists::<super::GameAssets>),
    );
}

/// The file each game event sounds.
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

fn ask_for_effects(mut effects: MessageReader<Sfx>, mut sounds: MessageWriter<PlaySound>) {
    sounds.write_batch(effects.read().map(|sfx| PlaySound(sound_name(*sfx))));
}

/// The tune for the play now. Only a player in play has music: none outside the playing screen,
/// none while the player dies, finishes, or goes down a pipe (the pipe's sound plays alone, and
/// the tune of where it leads starts on arrival).
fn wanted_music(in_play: bool, player: Option<&Player>, theme: Theme, seconds_left: f32) -> Option<Tune> {
    let player = player.filter(|p| in_play && p.status == PlayerStatus::Alive)?;
    let name = if player.starred() {
        "music_star"
    } else {
        match theme {
            Theme::Overworld => "music_overworld",
            Theme::Underground => "music_underground",
            Theme::Sky => "music_sky",
            Theme::Castle => "music_castle",
        }
    };
    Some(Tune {
        name,
        hurried: seconds_left <= TIME_WARNING_AT,
    })
}

fn choose_music(
    info: Res<LevelInfo>,
    clock: Res<LevelClock>,
    screen: Res<State<Screen>>,
    players: Query<&Player>,
    mut music: ResMut<Music>,
) {
    let wanted = wanted_music(
        *screen.get() == Screen::Playing,
        players.iter().next(),
        info.theme,
        clock.left,
    );
    music.set_if_neq(Music(wanted));
}

/// Playing what was decided (feature `audio`).
#[cfg(feature = "audio")]
mod playback {
    use bevy::prelude::*;

    use super::{HURRIED_SPEED, Music, PlaySound};
    use crate::presentation::GameAssets;

    /// The entity playing the music.
    #[derive(Component)]
    pub(super) struct MusicPlayer;

    pub(super) fn play_sounds(mut commands: Commands, mut sounds: MessageReader<PlaySound>, assets: Res<GameAssets>) {
        for PlaySound(name) in sounds.read() {
            if let Some(sound) = assets.sounds.get(name) {
                commands.spawn((AudioPlayer(sound.clone()), PlaybackSettings::DESPAWN));
            }
        }
    }

    pub(super) fn play_music(
        mut commands: Commands,
        music: Res<Music>,
        assets: Res<GameAssets>,
        playing: Query<Entity, With<MusicPlayer>>,
    ) {
        if !music.is_changed() {
            return;
        }
        for entity in &playing {
            commands.entity(entity).despawn();
        }
        if let Some(tune) = music.0
            && let Some(track) = assets.sounds.get(tune.name)
        {
            let speed = if tune.hurried { HURRIED_SPEED } else { 1.0 };
            commands.spawn((
                AudioPlayer(track.clone()),
                PlaybackSettings::LOOP
                    .with_volume(bevy::audio::Volume::Linear(0.5))
                    .with_speed(speed),
                MusicPlayer,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
    use bevy::reflect::{FromReflect, TypeInfo, Typed};

    use super::*;

    fn player(status: PlayerStatus, star: f32) -> Player {
        Player {
            status,
            star,
            ..default()
        }
    }

    /// Every variant of [`Sfx`], read from its reflection (a new one is checked without being
    /// listed here).
    fn every_sfx() -> Vec<Sfx> {
        let TypeInfo::Enum(info) = Sfx::type_info() else {
            panic!("Sfx is an enum");
        };
        info.iter()
            .map(|variant| {
                let dynamic = DynamicEnum::new(variant.name(), DynamicVariant::Unit);
                Sfx::from_reflect(&dynamic).unwrap_or_else(|| panic!("Sfx::{} is a unit variant", variant.name()))
            })
            .collect()
    }

    #[test]
    fn every_sound_the_game_asks_for_is_a_file_in_assets() {
        let sfx = every_sfx();
        assert!(sfx.len() >= 20, "read {} Sfx variants", sfx.len());
        let jingles = ["pause", "game_over"];
        let tunes = [Theme::Overworld, Theme::Underground, Theme::Sky, Theme::Castle]
            .map(|theme| wanted_music(true, Some(&player(PlayerStatus::Alive, 0.0)), theme, 300.0));
        let star = wanted_music(true, Some(&player(PlayerStatus::Alive, 5.0)), Theme::Sky, 300.0);
        let asked = sfx
            .into_iter()
            .map(sound_name)
            .chain(jingles)
            .chain(tunes.into_iter().chain([star]).map(|t| t.expect("music in play").name));
        let audio = crate::paths::DataRoot::built_from().assets().join("audio");
        for name in asked {
            assert!(SOUNDS.contains(&name), "{name} is not in SOUNDS, so it is never loaded");
            let file = audio.join(format!("{name}.wav"));
            assert!(file.is_file(), "{} is missing", file.display());
        }
    }

    #[test]
    fn each_theme_has_its_tune_and_star_power_has_its_own() {
        let alive = player(PlayerStatus::Alive, 0.0);
        let tune = |theme| wanted_music(true, Some(&alive), theme, 300.0).map(|t| t.name);
        assert_eq!(tune(Theme::Overworld), Some("music_overworld"));
        assert_eq!(tune(Theme::Underground), Some("music_underground"));
        assert_eq!(tune(Theme::Sky), Some("music_sky"));
        assert_eq!(tune(Theme::Castle), Some("music_castle"));
        let starred = player(PlayerStatus::Alive, 3.0);
        for theme in [Theme::Overworld, Theme::Castle] {
            assert_eq!(
                wanted_music(true, Some(&starred), theme, 300.0).map(|t| t.name),
                Some("music_star")
            );
        }
    }

    #[test]
    fn the_music_hurries_from_100_seconds_left() {
        let alive = player(PlayerStatus::Alive, 0.0);
        let hurried = |left| wanted_music(true, Some(&alive), Theme::Overworld, left).map(|t| t.hurried);
        assert_eq!(hurried(100.5), Some(false));
        assert_eq!(hurried(TIME_WARNING_AT), Some(true));
        assert_eq!(hurried(12.0), Some(true));
        let starred = player(PlayerStatus::Alive, 3.0);
        assert_eq!(
            wanted_music(true, Some(&starred), Theme::Overworld, 50.0),
            Some(Tune {
                name: "music_star",
                hurried: true
            })
        );
    }

    #[test]
    fn the_music_stops_on_death_at_the_finish_and_outside_play() {
        for status in [PlayerStatus::Dying(1.0), PlayerStatus::Finished] {
            assert_eq!(
                wanted_music(true, Some(&player(status, 0.0)), Theme::Overworld, 300.0),
                None,
                "{status:?}"
            );
        }
        let alive = player(PlayerStatus::Alive, 0.0);
        assert_eq!(wanted_music(false, Some(&alive), Theme::Overworld, 300.0), None);
        assert_eq!(wanted_music(true, None, Theme::Overworld, 300.0), None);
    }
}
