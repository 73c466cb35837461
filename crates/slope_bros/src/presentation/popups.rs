//! Score pop-ups: the points (or "1UP") of a knock-out or a power-up, drawn where they were scored
//! while the core moves them up.

use bevy::prelude::*;

use super::AppSystems;
use crate::gameplay::run::scoring::ScorePopup;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, write_popups.in_set(AppSystems::Spawn));
}

fn write_popups(mut commands: Commands, popups: Query<(Entity, &ScorePopup), Added<ScorePopup>>) {
    for (entity, popup) in &popups {
        commands.entity(entity).insert((
            Text2d::new(popup.award.label()),
            TextFont {
                font_size: FontSize::Px(8.0),
                ..default()
            },
            TextColor(Color::WHITE),
        ));
    }
}
