//! Where levels load from: two asset sources, registered before `AssetPlugin`.
//!
//! - `data://`: the folder holding `levels/` and `assets/`, so that a game level's tileset path
//!   (`../assets/images/tiles.png`, relative to the level as LDtk writes it) resolves;
//! - `level://`: the file system from its root, for a project given on the command line, so that
//!   its own relative paths (`.ldtkl` level files, tilesets next to or above it) resolve wherever
//!   it lives.
//!
//! A picture that is not there reads as a blank one, with a warning naming it, and a picture in a
//! format this build does not decode (anything but PNG) loads as a blank one: `bevy_ecs_ldtk`
//! spawns a level only once every file of its project has loaded, and a missing tileset (the LDtk
//! samples come without theirs) must not keep a level from being played. The game then draws that
//! level's collision cells itself.

use std::path::{Path, PathBuf};

use bevy::asset::io::file::FileAssetReader;
use bevy::asset::io::{
    AssetReader, AssetReaderError, AssetSourceBuilder, ErasedAssetReader, PathStream, Reader, VecReader,
};
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;

use super::{BUILTIN_LEVELS, LevelSource};
use crate::paths::DataRoot;

/// The asset source of the game's data folder (`levels/` and `assets/`).
pub const DATA_SOURCE: &str = "data";

/// The asset source of a project given on the command line: the file system.
pub const FILE_SOURCE: &str = "level";

/// A 1 × 1 transparent PNG: what a missing picture reads as.
const BLANK_PNG: [u8; 68] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196,
    137, 0, 0, 0, 11, 73, 68, 65, 84, 120, 156, 99, 96, 0, 2, 0, 0, 5, 0, 1, 122, 94, 171, 63, 0, 0, 0, 0, 73, 69, 78,
    68, 174, 66, 96, 130,
];

/// The picture files a project may name (tilesets, level backgrounds; LDtk reads Aseprite files).
fn is_picture(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        let e = e.to_ascii_lowercase();
        e == "png" || UNDECODED_PICTURES.contains(&e.as_str())
    })
}

/// A reader of a folder in which a missing picture reads as [`BLANK_PNG`].
struct BlankMissingPictures {
    folder: PathBuf,
    files: Box<dyn ErasedAssetReader>,
}

impl AssetReader for BlankMissingPictures {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<Box<dyn Reader + 'a>, AssetReaderError> {
        match self.files.read(path).await {
            Err(AssetReaderError::NotFound(_)) if is_picture(path) => {
                warn!("{}: no such picture; drawn blank", self.folder.join(path).display());
                Ok(Box::new(VecReader::new(BLANK_PNG.to_vec())))
            }
            other => other,
        }
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<Box<dyn Reader + 'a>, AssetReaderError> {
        self.files.read_meta(path).await
    }

    async fn read_directory<'a>(&'a self, path: &'a Path) -> Result<Box<PathStream>, AssetReaderError> {
        self.files.read_directory(path).await
    }

    async fn is_directory<'a>(&'a self, path: &'a Path) -> Result<bool, AssetReaderError> {
        self.files.is_directory(path).await
    }
}

/// Picture formats the game's build does not decode: they load blank.
const UNDECODED_PICTURES: [&str; 7] = ["jpg", "jpeg", "bmp", "gif", "tga", "aseprite", "ase"];

/// Loads a picture of a format in [`UNDECODED_PICTURES`] as one transparent pixel, with a warning.
#[derive(Default, TypePath)]
pub struct UndecodedPictureLoader;

impl AssetLoader for UndecodedPictureLoader {
    type Asset = Image;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Image, Self::Error> {
        warn!(
            "{}: this build decodes PNG pictures only; drawn blank",
            load_context.path().path().display()
        );
        Ok(Image::transparent())
    }

    fn extensions(&self) -> &[&str] {
        &UNDECODED_PICTURES
    }
}

fn source_of(folder: PathBuf) -> AssetSourceBuilder {
    // Absolute: a relative folder would be read from Bevy's asset base path, not from here.
    let folder = std::path::absolute(&folder).unwrap_or(folder);
    AssetSourceBuilder::new(move || {
        Box::new(BlankMissingPictures {
            folder: folder.clone(),
            files: Box::new(FileAssetReader::new(&folder)),
        })
    })
}

/// The file system's root (the folder `level://` paths are relative to).
pub fn file_system_root() -> PathBuf {
    std::env::current_dir()
        .ok()
        .and_then(|dir| dir.ancestors().last().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// Registers the asset sources levels load from. Call before `AssetPlugin` is added.
pub fn register_asset_sources(app: &mut App, root: &DataRoot) {
    app.register_asset_source(DATA_SOURCE, source_of(root.0.clone()));
    app.register_asset_source(FILE_SOURCE, source_of(file_system_root()));
}

/// The asset path of a level's project; a project file that is not there is an error naming it.
pub fn asset_path(source: &LevelSource) -> Result<String, String> {
    match source {
        LevelSource::Builtin(i) => {
            let name = BUILTIN_LEVELS.get(*i).ok_or_else(|| format!("no built-in level {i}"))?;
            Ok(format!("{DATA_SOURCE}://levels/{name}.ldtk"))
        }
        LevelSource::File { path, .. } => file_asset_path(path),
    }
}

/// The asset path of the file at `path`, in the `level://` source; a file that is not there is an
/// error naming it.
pub fn file_asset_path(path: &Path) -> Result<String, String> {
    let absolute = path
        .canonicalize()
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let relative = absolute.strip_prefix(file_system_root()).unwrap_or(&absolute);
    // Asset paths use `/` on every platform.
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(format!("{FILE_SOURCE}://{}", parts.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blank_picture_is_one_transparent_pixel() {
        let decoder = png::Decoder::new(std::io::Cursor::new(&BLANK_PNG[..]));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
        let frame = reader.next_frame(&mut pixels).expect("its pixels");
        assert_eq!((frame.width, frame.height), (1, 1));
        assert_eq!(frame.color_type, png::ColorType::Rgba);
        assert_eq!(&pixels[..4], &[0, 0, 0, 0]);
    }

    #[test]
    fn a_project_on_the_command_line_is_read_from_where_it_is() {
        let dir = std::env::temp_dir().join(format!("slope_bros_sources_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a level.ldtk");
        std::fs::write(&file, "{}").unwrap();
        let path = asset_path(&LevelSource::File {
            path: file.clone(),
            mapping: None,
        })
        .unwrap();
        let on_disk = file_system_root().join(path.strip_prefix("level://").unwrap());
        assert_eq!(on_disk.canonicalize().unwrap(), file.canonicalize().unwrap());
        let missing = LevelSource::File {
            path: dir.join("missing.ldtk"),
            mapping: None,
        };
        let error = asset_path(&missing).unwrap_err();
        assert!(
            error.contains("missing.ldtk") && error.contains("cannot read"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
