//! The level's objects: blocks, items (coins and power-ups), springs, falling lifts, lava and pipes.

pub mod blocks;
pub mod falling_lift;
pub mod items;
pub mod lava;
pub mod pipe;
pub mod spring;
