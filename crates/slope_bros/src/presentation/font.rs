//! The game's pixel font (`assets/fonts/pixel.ttf`, drawn by `tools/make_art.py` with every glyph
//! the game prints) becomes the default font: every HUD, menu and pop-up text uses it without
//! naming it. Until it has loaded (and if it cannot be), Bevy's own default font stays.

use bevy::prelude::*;

/// The pixel font while it loads.
#[derive(Resource)]
struct PixelFont(Handle<Font>);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_font);
    app.add_systems(Update, make_default.run_if(resource_exists::<PixelFont>));
}

fn load_font(mut commands: Commands, server: Res<AssetServer>) {
    commands.insert_resource(PixelFont(server.load("fonts/pixel.ttf")));
}

fn make_default(
    mut commands: Commands,
    pixel: Res<PixelFont>,
    server: Res<AssetServer>,
    mut fonts: ResMut<Assets<Font>>,
) {
    if let Some(font) = fonts.get(&pixel.0).cloned() {
        if let Err(error) = fonts.insert(AssetId::default(), font) {
            warn!("assets/fonts/pixel.ttf could not become the default font: {error}");
        }
        commands.remove_resource::<PixelFont>();
    } else if server.load_state(&pixel.0).is_failed() {
        warn!("assets/fonts/pixel.ttf did not load; the text keeps Bevy's default font");
        commands.remove_resource::<PixelFont>();
    }
}
