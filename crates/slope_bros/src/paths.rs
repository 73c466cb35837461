//! Where the game's data lives: the repository's `assets/` and `levels/` folders.
//!
//! `cargo run` starts the game from anywhere in the repository, and the built binary may be copied
//! elsewhere; the folders are found next to the executable (or a parent of it), else at the
//! repository root this crate was built from. `SLOPE_BROS_ROOT` overrides both.

use std::path::{Path, PathBuf};

/// The folder that holds `assets/` and `levels/`; a resource of the game's apps.
#[derive(bevy::prelude::Resource, Clone, Debug, PartialEq, Eq)]
pub struct DataRoot(pub PathBuf);

impl DataRoot {
    /// Finds the folder, or says where it looked.
    pub fn locate() -> Result<Self, String> {
        let mut tried = Vec::new();
        if let Some(root) = std::env::var_os("SLOPE_BROS_ROOT") {
            let root = PathBuf::from(root);
            if has_data(&root) {
                return Ok(Self(root));
            }
            tried.push(root);
        }
        if let Ok(exe) = std::env::current_exe() {
            for dir in exe.ancestors().skip(1).take(4) {
                if has_data(dir) {
                    return Ok(Self(dir.to_path_buf()));
                }
                tried.push(dir.to_path_buf());
            }
        }
        let built_from = Self::built_from().0;
        if has_data(&built_from) {
            return Ok(Self(built_from.canonicalize().unwrap_or(built_from)));
        }
        tried.push(built_from);
        let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
        Err(format!(
            "cannot find the game's data: no folder with both assets/ and levels/ in {} (set SLOPE_BROS_ROOT)",
            tried.join(", ")
        ))
    }

    /// The repository root this crate belongs to (tests, and the binary under `cargo run`): the
    /// nearest folder that holds `assets/` and `levels/` above the package cargo says it runs
    /// (the game's, or the root `tests/` package's), else above where this crate was built.
    /// (Cargo does not rebuild when the workspace moves, so the path compiled in may be a clone
    /// that is gone.)
    pub fn built_from() -> Self {
        let running = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
        let compiled = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        running
            .iter()
            .chain([&compiled])
            .find_map(|package| package.ancestors().find(|dir| has_data(dir)))
            .map_or_else(|| Self(compiled.join("../..")), |root| Self(root.to_path_buf()))
    }

    /// `assets/`.
    pub fn assets(&self) -> PathBuf {
        self.0.join("assets")
    }

    /// `levels/`.
    pub fn levels(&self) -> PathBuf {
        self.0.join("levels")
    }
}

fn has_data(dir: &Path) -> bool {
    dir.join("assets").is_dir() && dir.join("levels").is_dir()
}
