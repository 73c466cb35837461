//! The look of a level.

use bevy::prelude::*;

/// The look of a level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
pub enum Theme {
    /// Grass and sky.
    #[default]
    Overworld,
    /// Caves.
    Underground,
    /// Clouds.
    Sky,
    /// Stone.
    Castle,
}

impl Theme {
    /// The theme named `text` in a level's `theme` field.
    pub(super) fn parse(text: &str) -> Option<Self> {
        match text {
            "overworld" => Some(Self::Overworld),
            "underground" => Some(Self::Underground),
            "sky" => Some(Self::Sky),
            "castle" => Some(Self::Castle),
            _ => None,
        }
    }

    /// Row of the theme in `tiles.png`, and its file-name part.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Name used in file names.
    pub fn name(self) -> &'static str {
        ["overworld", "underground", "sky", "castle"][self.index()]
    }
}
