//! Drawing order: the z of each kind of thing the game shows (larger is nearer the viewer).
//! Headless runs keep these too, on the `Transform`s of the objects.

/// The far parallax background.
pub const FAR_BACKGROUND: f32 = -20.0;
/// The near parallax background.
pub const NEAR_BACKGROUND: f32 = -10.0;
/// The level's tiles.
pub const TILES: f32 = 1.0;
/// Slope entities, over the grass of the ground tiles under their foot.
pub const SLOPES: f32 = 1.1;
/// Lava, over the bodies that sink into it.
pub const LAVA: f32 = 12.0;
/// Goal flags and checkpoints.
pub const MARKERS: f32 = 3.0;
/// Coins and power-ups.
pub const ITEMS: f32 = 4.0;
/// Enemies.
pub const ENEMIES: f32 = 5.0;
/// The player.
pub const PLAYER: f32 = 10.0;
/// Pipes, over the player who goes into them.
pub const PIPES: f32 = 11.0;
/// Pieces of a broken brick.
pub const DEBRIS: f32 = 15.0;
/// Thrown hammers and fireballs.
pub const PROJECTILES: f32 = 20.0;
/// Score pop-ups.
pub const POPUPS: f32 = 25.0;
