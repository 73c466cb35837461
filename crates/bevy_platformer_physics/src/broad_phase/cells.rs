//! The cells of the broad phase's grid: which proxies reach each cell, and the union of their
//! layers.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use super::ColliderProxy;
use crate::components::CollisionLayers;
use crate::geometry::Aabb;

/// Colliders spanning more cells than this are kept in a separate list that every query scans,
/// so a huge ground box does not fill thousands of cells.
pub(super) const MAX_CELLS_PER_PROXY: i64 = 256;

/// No slot: an entity index without a proxy.
pub(super) const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) proxy: ColliderProxy,
    /// Cell range covered (inclusive), or `None` for the large list.
    pub(super) cells: Option<(IVec2, IVec2)>,
}

/// One cell of a [`CellMap`]: the slots whose boxes reach it, and the union of their layers, so
/// that a query can skip a cell none of whose colliders it interacts with without visiting them.
#[derive(Clone, Debug)]
pub(super) struct Cell {
    pub(super) slots: Vec<u32>,
    /// Union of the slots' layers (it only shrinks when the cell empties: conservative).
    pub(super) layers: CollisionLayers,
}

impl Default for Cell {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            layers: CollisionLayers::new(0, 0),
        }
    }
}

/// The exact union of the layers of a changing set of colliders: how many have each bit.
#[derive(Clone, Debug)]
pub(super) struct LayerCounts {
    pub(super) memberships: [u32; 32],
    pub(super) filters: [u32; 32],
    pub(super) union: CollisionLayers,
}

impl Default for LayerCounts {
    fn default() -> Self {
        Self {
            memberships: [0; 32],
            filters: [0; 32],
            union: CollisionLayers::new(0, 0),
        }
    }
}

impl LayerCounts {
    pub(super) fn add(&mut self, layers: &CollisionLayers, add: bool) {
        for bit in 0..32 {
            for (mask, counts, union) in [
                (layers.memberships, &mut self.memberships, &mut self.union.memberships),
                (layers.filters, &mut self.filters, &mut self.union.filters),
            ] {
                if mask & (1 << bit) != 0 {
                    counts[bit] = if add { counts[bit] + 1 } else { counts[bit] - 1 };
                    if counts[bit] == 0 {
                        *union &= !(1 << bit);
                    } else {
                        *union |= 1 << bit;
                    }
                }
            }
        }
    }
}

/// Cells of one kind of collider. Cells that empty stay allocated: a crowd walking across cell
/// borders reuses them instead of hashing them in and out.
pub(super) type CellMap = HashMap<IVec2, Cell>;

/// Adds `slot`, with `layers`, to the cell at `c`.
pub(super) fn link_cell(map: &mut CellMap, c: IVec2, slot: u32, layers: CollisionLayers) {
    let cell = map.entry(c).or_default();
    cell.slots.push(slot);
    cell.layers.memberships |= layers.memberships;
    cell.layers.filters |= layers.filters;
}

/// Takes `slot` out of the cell at `c`.
pub(super) fn unlink_cell(map: &mut CellMap, c: IVec2, slot: u32) {
    if let Some(cell) = map.get_mut(&c) {
        if let Some(i) = cell.slots.iter().position(|&s| s == slot) {
            cell.slots.swap_remove(i);
        }
        if cell.slots.is_empty() {
            cell.layers = CollisionLayers::new(0, 0);
        }
    }
}

/// Whether [`BroadPhase::cells_of`] gives `(lo, hi)` for `aabb`, with cells of side `size`. Only
/// exact for a power-of-two size, whose multiples are exact.
#[inline(always)]
pub(super) fn in_cells(size: f32, aabb: &Aabb, lo: IVec2, hi: IVec2) -> bool {
    let (lo, hi) = (lo.as_vec2() * size, hi.as_vec2() * size);
    lo.x <= aabb.min.x
        && aabb.min.x < lo.x + size
        && lo.y <= aabb.min.y
        && aabb.min.y < lo.y + size
        && hi.x <= aabb.max.x
        && aabb.max.x < hi.x + size
        && hi.y <= aabb.max.y
        && aabb.max.y < hi.y + size
}
