//! Loading: waits for every image (and sound) with a progress line, then the title (or the level
//! given on the command line).

use bevy::asset::LoadState;
use bevy::prelude::*;

use super::{Screen, StartLevel, big_text, screen_root};
use crate::presentation::GameAssets;

#[derive(Component)]
struct Progress;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Loading), spawn_loading_screen);
    app.add_systems(Update, track_loading.run_if(in_state(Screen::Loading)));
}

fn spawn_loading_screen(mut commands: Commands) {
    commands
        .spawn(screen_root(Screen::Loading, "Loading screen"))
        .with_children(|root| {
            root.spawn(big_text("Loading…", 40.0));
            root.spawn((Progress, big_text("", 24.0)));
        });
}

fn track_loading(
    assets: Option<Res<GameAssets>>,
    server: Res<AssetServer>,
    start: Res<StartLevel>,
    mut texts: Query<&mut Text, With<Progress>>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(assets) = assets else { return };
    let handles = assets.all();
    let mut loaded = 0;
    let mut failed = Vec::new();
    for handle in &handles {
        match server.get_load_state(handle.id()) {
            Some(LoadState::Loaded) => loaded += 1,
            Some(LoadState::Failed(e)) => failed.push(e.to_string()),
            _ => {}
        }
    }
    for mut text in &mut texts {
        text.0 = format!("{loaded} / {} files", handles.len());
        if !failed.is_empty() {
            text.0
                .push_str(&format!("\n{} could not be loaded: {}", failed.len(), failed[0]));
        }
    }
    // Missing pictures are drawn blank; the game itself does not need them.
    if loaded + failed.len() == handles.len() {
        next.set(if start.skip_title {
            Screen::Playing
        } else {
            Screen::Title
        });
    }
}
