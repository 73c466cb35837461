//! The player's inventory: the `items` field of its LDtk entity, printed on P.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_platformer_physics::ldtk::FieldValue;

use super::player::Player;

/// The items an entity carries (the values of an `Array<Enum>` field).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Inventory(pub Vec<String>);

impl Inventory {
    /// The values of the enum array field `name` among `fields` (empty if there is none).
    pub fn from_fields(fields: &BTreeMap<String, FieldValue>, name: &str) -> Self {
        match fields.get(name) {
            Some(FieldValue::Enums(values)) => Self(values.iter().flatten().cloned().collect()),
            _ => Self::default(),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, print_inventory);
}

/// Prints the player's inventory when P is pressed.
fn print_inventory(keys: Res<ButtonInput<KeyCode>>, players: Query<(&Name, &Inventory), With<Player>>) {
    if keys.just_pressed(KeyCode::KeyP) {
        for (name, items) in &players {
            info!("{name}'s inventory: {items:?}");
        }
    }
}
