//! The level's objects: chests (boxes that fall and can be stood on) and pumpkins (scenery), made
//! when their level is ready and gone with it.

use bevy::prelude::*;
use bevy_platformer_physics::ldtk::{LdtkEntityPlacement, LdtkLevelEntity, LdtkLevelReady, LevelPhysics};
use bevy_platformer_physics::prelude::*;

use super::physics::body_size;

/// An object made from an LDtk entity of a level: that entity's iid. A level's objects are made
/// once however often the level is said to be ready (its mapping changing sends it again).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct LevelObject(pub String);

/// A chest.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Chest;

/// Pumpkins (scenery).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Pumpkins;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        spawn_objects.after(bevy_platformer_physics::ldtk::LdtkPhysicsSystems),
    );
}

/// The placements of `identifier` in the level of `ready` that have no object yet, with the
/// components every object of the level carries.
pub(super) fn new_placements<'a>(
    ready: &LdtkLevelReady,
    physics: &'a LevelPhysics,
    identifier: &'a str,
    existing: &'a Query<&LevelObject>,
) -> impl Iterator<Item = (&'a LdtkEntityPlacement, impl Bundle)> + 'a {
    let level_iid = ready.level_iid.clone();
    physics
        .entities
        .iter()
        .filter(move |p| p.identifier == identifier && !existing.iter().any(|o| o.0 == p.iid))
        .map(move |p| {
            let marks = (
                LevelObject(p.iid.clone()),
                LdtkLevelEntity {
                    level_iid: level_iid.clone(),
                },
                Name::new(format!("{} {}", p.identifier, p.iid)),
            );
            (p, marks)
        })
}

fn spawn_objects(
    mut commands: Commands,
    mut ready: MessageReader<LdtkLevelReady>,
    levels: Query<&LevelPhysics>,
    existing: Query<&LevelObject>,
) {
    for level in ready.read() {
        let Ok(physics) = levels.get(level.level) else { continue };
        for (chest, marks) in new_placements(level, physics, "Chest", &existing) {
            let size = body_size("Chest");
            let centre = Vec2::new(chest.rect.center().x, chest.rect.min.y + size.y * 0.5);
            commands.spawn((
                marks,
                Chest,
                Dynamic,
                Collider::rectangle(size.x, size.y),
                Transform::from_translation(centre.extend(10.0)),
            ));
        }
        for (pumpkins, marks) in new_placements(level, physics, "Pumpkins", &existing) {
            commands.spawn((
                marks,
                Pumpkins,
                Transform::from_translation(pumpkins.rect.center().extend(10.0)),
            ));
        }
    }
}
