//! What the repository's two test executables share.
//!
//! - [`physics`]: the plugin's behaviour tests (`behaviour/`): a headless `App` with
//!   `MinimalPlugins` stepped once per `update()`, spawners and readers.
//! - [`game`] (feature `game`): the game's end-to-end tests (`game/`): small LDtk levels written
//!   from text rows, the game's headless app on them, readers of the player and enemies.

use std::path::PathBuf;

#[cfg(feature = "game")]
pub mod game;
pub mod physics;

/// This package's folder (`tests/`): where `cargo test` says it is as the test runs, else where
/// it was built. (Cargo does not rebuild a test when the workspace moves, so the path compiled in
/// may be a clone that is gone.)
pub fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}

/// The test data (`tests/data/`): LDtk projects not written by us, with their license table.
pub fn data_dir() -> PathBuf {
    package_dir().join("data")
}

/// The repository root: the parent of this package.
pub fn repository_root() -> PathBuf {
    package_dir().join("..")
}
