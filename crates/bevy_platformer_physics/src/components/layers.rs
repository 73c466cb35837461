//! Collision layers: raw bit masks, or the variants of a game's own enum.

use bevy::prelude::*;

/// Collision layers: whether two colliders may interact at all, as bit masks checked from both
/// sides, so either one can refuse the other.
///
/// Two colliders interact only if each one's `memberships` intersects the other's `filters`.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// const LEVEL: u32 = 1 << 0;
/// const PLAYER: u32 = 1 << 1;
/// const ENEMY: u32 = 1 << 2;
///
/// // The player meets the level and enemies; enemies meet only the level (they walk through each
/// // other, and through the player: stomps are game rules).
/// let player = CollisionLayers::new(PLAYER, LEVEL | ENEMY);
/// let enemy = CollisionLayers::new(ENEMY, LEVEL);
/// let level = CollisionLayers::default();
/// assert!(player.interacts_with(&level) && enemy.interacts_with(&level));
/// assert!(!player.interacts_with(&enemy), "the enemy does not accept the player");
/// assert!(!enemy.interacts_with(&enemy));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct CollisionLayers {
    /// Layers this collider belongs to (bit mask).
    pub memberships: u32,
    /// Layers this collider interacts with (bit mask).
    pub filters: u32,
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

impl CollisionLayers {
    /// Member of every layer, interacting with every layer.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };

    /// A collider in `memberships` that interacts with `filters` (bit masks). With a game's
    /// layer enum, use [`from_layers`](Self::from_layers), or the enum's `const fn bit` here.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self { memberships, filters }
    }

    /// A collider in the layers `memberships` that interacts with the layers `filters`: each a
    /// layer of a [`PhysicsLayer`] enum, an array or slice of them, or a raw mask.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy_platformer_physics::{CollisionLayers, physics_layers};
    ///
    /// physics_layers! {
    ///     /// The game's layers.
    ///     pub enum Layer {
    ///         Level,
    ///         Player,
    ///         Enemy,
    ///     }
    /// }
    ///
    /// let player = CollisionLayers::from_layers(Layer::Player, [Layer::Level, Layer::Enemy]);
    /// let enemy = CollisionLayers::from_layers(Layer::Enemy, [Layer::Level, Layer::Player]);
    /// assert!(player.interacts_with(&enemy));
    /// let ghost = CollisionLayers::from_layers(Layer::Enemy, Layer::Level);
    /// assert!(!player.interacts_with(&ghost), "the ghost does not accept the player");
    /// // The same with masks, and in a const:
    /// const PLAYER: CollisionLayers = CollisionLayers::new(Layer::Player.bit(), Layer::Level.bit() | Layer::Enemy.bit());
    /// assert_eq!(PLAYER, player);
    /// ```
    pub fn from_layers(memberships: impl LayerMask, filters: impl LayerMask) -> Self {
        Self::new(memberships.mask(), filters.mask())
    }

    /// Whether the two interact: each accepts the other.
    pub fn interacts_with(&self, other: &CollisionLayers) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

/// One layer of a game's own collision layers, usually a variant of an enum declared with
/// [`physics_layers!`](crate::physics_layers): each variant is one bit of a [`CollisionLayers`]
/// mask (at most 32).
pub trait PhysicsLayer: Copy {
    /// The layer's bit.
    fn bit(self) -> u32;
}

/// A set of layers: one [`PhysicsLayer`], an array, slice or `Vec` of them, or a raw `u32` mask.
pub trait LayerMask {
    /// The set as a bit mask.
    fn mask(self) -> u32;
}

impl LayerMask for u32 {
    fn mask(self) -> u32 {
        self
    }
}

impl<L: PhysicsLayer> LayerMask for L {
    fn mask(self) -> u32 {
        self.bit()
    }
}

impl<L: PhysicsLayer, const N: usize> LayerMask for [L; N] {
    fn mask(self) -> u32 {
        self.iter().fold(0, |mask, layer| mask | layer.bit())
    }
}

impl<L: PhysicsLayer> LayerMask for &[L] {
    fn mask(self) -> u32 {
        self.iter().fold(0, |mask, layer| mask | layer.bit())
    }
}

impl<L: PhysicsLayer> LayerMask for Vec<L> {
    fn mask(self) -> u32 {
        self.as_slice().mask()
    }
}

/// Declares a game's collision layers as an enum: each variant, in order, is one bit (the first
/// is `1`, the next `2`, …; at most 32 variants). The enum implements [`PhysicsLayer`] and has a
/// `const fn bit(self) -> u32` for constant masks. (A declarative macro rather than a derive, so
/// that the plugin stays one crate.)
///
/// # Example
///
/// ```
/// use bevy_platformer_physics::{CollisionLayers, physics_layers};
///
/// physics_layers! {
///     /// What collides with what in my game.
///     #[derive(Default)]
///     pub enum GameLayer {
///         /// Walls, floors, slopes, platforms.
///         #[default]
///         Level,
///         Player,
///         Enemy,
///     }
/// }
///
/// assert_eq!(GameLayer::Level.bit(), 1);
/// assert_eq!(GameLayer::Enemy.bit(), 4);
/// let layers = CollisionLayers::from_layers(GameLayer::Player, [GameLayer::Level, GameLayer::Enemy]);
/// assert_eq!(layers, CollisionLayers::new(0b010, 0b101));
/// ```
#[macro_export]
macro_rules! physics_layers {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant),*
        }

        impl $name {
            /// The layer's bit in a collision layer mask.
            #[allow(dead_code)]
            pub const fn bit(self) -> u32 {
                1 << (self as u32)
            }
        }

        impl $crate::components::PhysicsLayer for $name {
            fn bit(self) -> u32 {
                <$name>::bit(self)
            }
        }

        const _: () = assert!(
            [$(stringify!($variant)),*].len() <= 32,
            "a CollisionLayers mask has 32 layers"
        );
    };
}
