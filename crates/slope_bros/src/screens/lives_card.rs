//! The lives card before each attempt (the start of a level and each restart after a death):
//! the level's name and the lives left, on black, for [`CARD_TIME`] seconds while the game's
//! clock stands still. Replays (and screenshots of them) go straight in.

use bevy::prelude::*;

use super::{Pause, Screen, big_text, screen_root};
use crate::gameplay::run::progress::GameProgress;
use crate::input::InputSource;
use crate::level::{CurrentLevel, LevelInfo, LevelSource, LevelSpawned, world_and_level};
use crate::presentation::GameAssets;

/// Seconds the card shows, real time.
pub const CARD_TIME: f32 = 2.0;

/// The card on screen: the UI and the real seconds left.
#[derive(Resource)]
pub struct LivesCard {
    root: Entity,
    left: f32,
}

/// Whether the card is showing (the pause key waits for it).
pub fn showing(card: Option<Res<LivesCard>>) -> bool {
    card.is_some()
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            show_card.run_if(on_message::<LevelSpawned>),
            hide_card.run_if(resource_exists::<LivesCard>),
        )
            .chain()
            .run_if(in_state(Screen::Playing)),
    );
}

fn show_card(
    mut commands: Commands,
    source: Res<InputSource>,
    assets: Res<GameAssets>,
    info: Res<LevelInfo>,
    current: Res<CurrentLevel>,
    progress: Res<GameProgress>,
    mut time: ResMut<Time<Virtual>>,
    shown: Option<Res<LivesCard>>,
) {
    // Not for a trip through a pipe: the attempt goes on.
    if !matches!(*source, InputSource::Live) || shown.is_some() || current.arrival.is_some() {
        return;
    }
    let title = match current.source {
        LevelSource::Builtin(i) => format!("WORLD {}  {}", world_and_level(i), info.name.to_uppercase()),
        LevelSource::File { .. } => info.name.to_uppercase(),
    };
    let player = ImageNode::from_atlas_image(
        assets.player_small.image.clone(),
        TextureAtlas {
            layout: assets.player_small.layout.clone(),
            index: 0,
        },
    );
    let root = commands
        .spawn(screen_root(Screen::Playing, "Lives card"))
        .insert((BackgroundColor(Color::BLACK), GlobalZIndex(10)))
        .with_children(|root| {
            root.spawn(big_text(&title, 32.0));
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                align_items: AlignItems::Center,
                column_gap: Val::Px(24.0),
                ..default()
            })
            .with_children(|row| {
                row.spawn((
                    player,
                    Node {
                        width: Val::Px(64.0),
                        height: Val::Px(64.0),
                        ..default()
                    },
                ));
                row.spawn(big_text(&format!("× {}", progress.lives), 32.0));
            });
        })
        .id();
    time.pause();
    commands.insert_resource(LivesCard { root, left: CARD_TIME });
}

fn hide_card(
    mut commands: Commands,
    real: Res<Time<Real>>,
    mut card: ResMut<LivesCard>,
    pause: Res<State<Pause>>,
    mut time: ResMut<Time<Virtual>>,
) {
    card.left -= real.delta_secs();
    if card.left > 0.0 {
        return;
    }
    if let Ok(mut root) = commands.get_entity(card.root) {
        root.despawn();
    }
    if *pause.get() == Pause::Running {
        time.unpause();
    }
    commands.remove_resource::<LivesCard>();
}
