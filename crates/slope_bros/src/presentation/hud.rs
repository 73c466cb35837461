//! The HUD: score, coins, level, time and lives; and a red banner with the latest problem (a
//! tuning file that does not parse, a level with errors) so that it is seen, not only logged.

use bevy::prelude::*;

use super::AppSystems;
use crate::gameplay::run::progress::GameProgress;
use crate::level::LevelClock;
use crate::level::{CurrentLevel, LevelInfo, LevelLoadError, LevelSource, world_and_level};
use crate::screens::state::Screen;
use crate::tuning::TuningFile;

#[derive(Component)]
struct HudText;

#[derive(Component)]
struct ProblemText;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), spawn_hud);
    app.add_systems(Update, update_hud.in_set(AppSystems::Hud));
}

fn spawn_hud(mut commands: Commands) {
    commands
        .spawn((
            Name::new("HUD"),
            DespawnOnExit(Screen::Playing),
            Node {
                width: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                padding: UiRect::axes(Val::Px(24.0), Val::Px(12.0)),
                ..default()
            },
        ))
        .with_children(|hud| {
            hud.spawn((
                HudText,
                Text::new(""),
                // The pixel font is drawn on an 8 px grid: sizes that are multiples of 8 stay crisp.
                TextFont {
                    font_size: FontSize::Px(16.0),
                    ..default()
                },
                TextColor(Color::WHITE),
                TextShadow::default(),
            ));
            hud.spawn((
                ProblemText,
                Text::new(""),
                TextFont {
                    font_size: FontSize::Px(16.0),
                    ..default()
                },
                TextColor(Color::srgb(1.0, 0.35, 0.3)),
                TextShadow::default(),
            ));
        });
}

fn update_hud(
    progress: Option<Res<GameProgress>>,
    clock: Res<LevelClock>,
    info: Res<LevelInfo>,
    current: Res<CurrentLevel>,
    tuning_file: Option<Res<TuningFile>>,
    load_error: Res<LevelLoadError>,
    mut texts: Query<&mut Text, (With<HudText>, Without<ProblemText>)>,
    mut problems: Query<&mut Text, (With<ProblemText>, Without<HudText>)>,
) {
    let progress = progress.map(|p| p.clone()).unwrap_or_default();
    // A built-in level shows its world and number; a bonus room is shown as the level it is in.
    let level = match current.source {
        LevelSource::Builtin(i) => format!("WORLD {}", world_and_level(i)),
        LevelSource::File { .. } if info.name.is_empty() => current.source.name(),
        LevelSource::File { .. } => info.name.to_uppercase(),
    };
    for mut text in &mut texts {
        let line = format!(
            "SCORE {:06}    COINS x{:02}    {}    TIME {:03}    LIVES x{}",
            progress.score,
            progress.coins,
            level,
            clock.left.ceil() as u32,
            progress.lives
        );
        if text.0 != line {
            text.0 = line;
        }
    }
    let mut lines = Vec::new();
    if let Some(e) = tuning_file.as_ref().and_then(|f| f.error.as_ref()) {
        lines.push(format!("{e} (keeping the previous values)"));
    }
    if let Some(e) = &load_error.0 {
        lines.push(e.clone());
    }
    lines.extend(info.problems.iter().take(3).cloned());
    let banner = lines.join("\n");
    for mut text in &mut problems {
        if text.0 != banner {
            text.0 = banner.clone();
        }
    }
}
