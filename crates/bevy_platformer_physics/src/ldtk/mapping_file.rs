//! The mapping as a Bevy asset: a `.physics.ron` file that the asset server loads and, with
//! Bevy's `file_watcher` feature (or `AssetServer::reload`), loads again when it changes.

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoadFailedEvent, AssetLoader, LoadContext};
use bevy::prelude::*;

use super::{LdtkPhysicsError, LdtkPhysicsMapping, LdtkPhysicsReport};

/// An [`LdtkPhysicsMapping`] loaded by the asset server from a `.physics.ron` file.
#[derive(Asset, TypePath, Clone, Debug, PartialEq)]
pub struct LdtkPhysicsMappingAsset(pub LdtkPhysicsMapping);

/// Loads `.physics.ron` files as [`LdtkPhysicsMappingAsset`]s; a file that is not a mapping is
/// an [`LdtkPhysicsError`] naming it, line and column.
#[derive(Default, TypePath)]
pub struct LdtkPhysicsMappingLoader;

impl AssetLoader for LdtkPhysicsMappingLoader {
    type Asset = LdtkPhysicsMappingAsset;
    type Settings = ();
    type Error = LdtkPhysicsError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Self::Asset, Self::Error> {
        let file = load_context.path().to_string();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|e| LdtkPhysicsError::file(&file, format!("cannot read: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|_| LdtkPhysicsError::file(&file, "not UTF-8 text".to_string()))?;
        LdtkPhysicsMapping::from_ron(&text, &file).map(LdtkPhysicsMappingAsset)
    }

    fn extensions(&self) -> &[&str] {
        &["physics.ron"]
    }
}

/// The mapping file the LDtk bridge follows. Each time the file loads (again), the
/// [`LdtkPhysicsMapping`] resource becomes what it says, and the physics of every spawned level
/// is made again with it. A file that fails to load leaves the previous mapping in place; its
/// error is logged and kept in [`LdtkPhysicsReport`].
///
/// # Example
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_platformer_physics::ldtk::LdtkPhysicsMappingFile;
///
/// fn follow_the_mapping(mut commands: Commands, assets: Res<AssetServer>) {
///     commands.insert_resource(LdtkPhysicsMappingFile(assets.load("levels/mapping.physics.ron")));
/// }
/// # App::new().add_systems(Startup, follow_the_mapping);
/// ```
#[derive(Resource, Clone, Debug)]
pub struct LdtkPhysicsMappingFile(pub Handle<LdtkPhysicsMappingAsset>);

/// Copies the mapping file into the [`LdtkPhysicsMapping`] resource when it (re)loads.
pub(super) fn follow_mapping_file(
    file: Option<Res<LdtkPhysicsMappingFile>>,
    mut loaded: MessageReader<AssetEvent<LdtkPhysicsMappingAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<LdtkPhysicsMappingAsset>>,
    assets: Res<Assets<LdtkPhysicsMappingAsset>>,
    mut mapping: ResMut<LdtkPhysicsMapping>,
    mut report: ResMut<LdtkPhysicsReport>,
) {
    let Some(file) = file else {
        loaded.clear();
        failed.clear();
        return;
    };
    for event in loaded.read() {
        if (event.is_loaded_with_dependencies(file.0.id()) || event.is_modified(file.0.id()))
            && let Some(asset) = assets.get(&file.0)
            && asset.0 != *mapping
        {
            log::info!(
                "bevy_platformer_physics: LDtk physics mapping {:?} (re)loaded",
                file.0.path()
            );
            *mapping = asset.0.clone();
        }
    }
    for event in failed.read() {
        if event.id == file.0.id() {
            let problem = LdtkPhysicsError::file(
                &event.path.to_string(),
                format!("the mapping did not load ({}); the previous one stays", event.error),
            );
            log::error!("{problem}");
            report.errors.push(problem);
        }
    }
}
