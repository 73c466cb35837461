//! The broad phase: a uniform grid of cells over every collider, so that a body only looks at the
//! colliders near its swept box and a step costs about O(bodies), not O(bodies × colliders), and
//! does not grow with the level's size.
//!
//! Each collider is mirrored by a [`ColliderProxy`] (its world box and the flags the narrow phase
//! needs), kept up to date by the SyncColliders stage for outside changes and by every stage that
//! moves a body. Queries return proxies sorted by entity, so results never depend on hash order.
//!
//! Static colliders and moving ones live in separate cells, each cell with the union of its
//! colliders' layers, so a crowd that ignores itself never visits its own members. Tile grids are
//! not in the cells: a query reads the grid's cells under its area directly. A dynamic body keeps
//! its static candidates (a component of its own) from one stage and one step to the next, while
//! its moves stay inside the area it queried and the static geometry does not change.

mod cells;
pub(crate) mod grid;
mod proxy;
mod static_candidates;
#[cfg(test)]
mod tests;

use bevy::prelude::*;

use crate::components::{BodyKind, CollisionLayers};
use crate::geometry::{Aabb, floor_cell};
use cells::{CellMap, LayerCounts, MAX_CELLS_PER_PROXY, NO_SLOT, Slot, in_cells, link_cell, unlink_cell};
pub(crate) use grid::GridData;
pub(crate) use proxy::ColliderProxy;
use proxy::grid_proxy;
pub(crate) use static_candidates::StaticCandidates;

/// The spatial grid of collider proxies.
///
/// Static colliders and moving ones (kinematic and dynamic) live in separate cells, and every cell
/// knows the union of its colliders' layers: the static geometry's cells stay small however many
/// bodies walk through them, and a crowd whose members ignore each other never visits the others'
/// proxies at all. Games see it through [`SpatialQuery`](crate::SpatialQuery).
#[derive(Resource, Debug)]
pub(crate) struct BroadPhase {
    cell_size: f32,
    inv_cell_size: f32,
    /// `cell_size` is a power of two, so multiplying by `inv_cell_size` is exact.
    exact_inverse: bool,
    static_cells: CellMap,
    /// Counts every change to the static colliders and tile grids, so that what a body keeps of
    /// them can tell whether it is still current.
    static_version: u64,
    moving_cells: CellMap,
    /// The layers of every moving collider: a body that interacts with none of them skips the
    /// moving cells altogether.
    moving_layers: LayerCounts,
    slots: Vec<Option<Slot>>,
    free: Vec<u32>,
    /// Slot of each entity, by entity index (`NO_SLOT` if none); the slot's proxy holds the full
    /// entity, so a stale index is recognised.
    index: Vec<u32>,
    len: usize,
    large: Vec<u32>,
    /// Tile grids, expanded into pieces by queries.
    grids: Vec<(Entity, GridData)>,
}

impl Default for BroadPhase {
    fn default() -> Self {
        Self::new(64.0)
    }
}

impl BroadPhase {
    /// An empty grid with square cells of `cell_size` pixels.
    pub(crate) fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            64.0
        };
        Self {
            cell_size,
            inv_cell_size: 1.0 / cell_size,
            exact_inverse: cell_size.log2().fract() == 0.0,
            static_cells: CellMap::default(),
            static_version: 0,
            moving_cells: CellMap::default(),
            moving_layers: LayerCounts::default(),
            slots: Vec::new(),
            free: Vec::new(),
            index: Vec::new(),
            len: 0,
            large: Vec::new(),
            grids: Vec::new(),
        }
    }

    /// The side of a cell, px.
    pub(crate) fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of colliders and tile grids.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len + self.grids.len()
    }

    /// Whether there is nothing at all.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Inserts or replaces the tile grid of `entity`.
    pub(crate) fn upsert_grid(&mut self, entity: Entity, grid: GridData) {
        self.static_version += 1;
        match self.grids.iter_mut().find(|(e, _)| *e == entity) {
            Some(slot) => slot.1 = grid,
            None => self.grids.push((entity, grid)),
        }
    }

    /// The tile grid of `entity`, if it has one here.
    pub(crate) fn grid(&self, entity: Entity) -> Option<&GridData> {
        self.grids.iter().find(|(e, _)| *e == entity).map(|(_, g)| g)
    }

    /// Every tile grid.
    #[cfg(feature = "debug-overlay")]
    pub(crate) fn grids(&self) -> impl Iterator<Item = (Entity, &GridData)> {
        self.grids.iter().map(|(e, g)| (*e, g))
    }

    /// The proxy of piece `part` of `entity`: the collider itself for part 0, a piece of its tile
    /// grid otherwise. `None` when it no longer exists (a despawned collider, an edited cell).
    pub(crate) fn piece(&self, entity: Entity, part: u32) -> Option<ColliderProxy> {
        if part == 0 {
            return self.get(entity).copied();
        }
        let grid = self.grid(entity)?;
        grid.piece(part).map(|piece| grid_proxy(entity, grid, &piece))
    }

    fn slot_of(&self, entity: Entity) -> Option<u32> {
        let slot = *self.index.get(entity.index_u32() as usize)?;
        (slot != NO_SLOT).then_some(slot).filter(|&slot| {
            self.slots[slot as usize]
                .as_ref()
                .is_some_and(|s| s.proxy.entity == entity)
        })
    }

    /// The proxy of `entity`, if it is in the grid.
    pub(crate) fn get(&self, entity: Entity) -> Option<&ColliderProxy> {
        let slot = self.slot_of(entity)?;
        self.slots[slot as usize].as_ref().map(|s| &s.proxy)
    }

    fn cell_range(&self, aabb: &Aabb) -> Option<(IVec2, IVec2)> {
        let (lo, hi) = self.cells_of(aabb);
        let count = (hi.x as i64 - lo.x as i64 + 1) * (hi.y as i64 - lo.y as i64 + 1);
        (count <= MAX_CELLS_PER_PROXY).then_some((lo, hi))
    }

    /// The cells that `aabb` overlaps or touches (inclusive).
    fn cells_of(&self, aabb: &Aabb) -> (IVec2, IVec2) {
        // A box edge exactly on a cell border must fall on the same side of it for every query:
        // multiplying by the inverse is exact only for a power-of-two cell size.
        let (lo, hi) = if self.exact_inverse {
            (aabb.min * self.inv_cell_size, aabb.max * self.inv_cell_size)
        } else {
            (aabb.min / self.cell_size, aabb.max / self.cell_size)
        };
        (
            IVec2::new(floor_cell(lo.x), floor_cell(lo.y)),
            IVec2::new(floor_cell(hi.x), floor_cell(hi.y)),
        )
    }

    fn cells_mut(&mut self, kind: BodyKind) -> &mut CellMap {
        match kind {
            BodyKind::Static => &mut self.static_cells,
            BodyKind::Kinematic | BodyKind::Dynamic => &mut self.moving_cells,
        }
    }

    fn link_cells(&mut self, slot: u32, kind: BodyKind, layers: CollisionLayers, cells: Option<(IVec2, IVec2)>) {
        let Some((lo, hi)) = cells else {
            self.large.push(slot);
            return;
        };
        let map = self.cells_mut(kind);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                link_cell(map, IVec2::new(x, y), slot, layers);
            }
        }
    }

    fn unlink(&mut self, slot: u32, kind: BodyKind, cells: Option<(IVec2, IVec2)>) {
        let Some((lo, hi)) = cells else {
            self.large.retain(|&s| s != slot);
            return;
        };
        let map = self.cells_mut(kind);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                unlink_cell(map, IVec2::new(x, y), slot);
            }
        }
    }

    /// Inserts or replaces the proxy of `proxy.entity`.
    pub(crate) fn upsert(&mut self, proxy: ColliderProxy) {
        let existing = self.slot_of(proxy.entity);
        if let Some(slot) = existing
            && self.slots[slot as usize].as_ref().is_some_and(|s| s.proxy == proxy)
        {
            return;
        }
        self.note_change(proxy.kind);
        let cells = self.cell_range(&proxy.aabb);
        if let Some(slot) = existing {
            let old = self.slots[slot as usize].expect("indexed slot is occupied");
            self.note_change(old.proxy.kind);
            if old.cells != cells || old.proxy.kind != proxy.kind || old.proxy.layers != proxy.layers {
                self.unlink(slot, old.proxy.kind, old.cells);
                self.count_moving(&old.proxy, false);
                self.link_cells(slot, proxy.kind, proxy.layers, cells);
                self.count_moving(&proxy, true);
            }
            self.slots[slot as usize] = Some(Slot { proxy, cells });
            return;
        }
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(None);
                (self.slots.len() - 1) as u32
            }
        };
        self.slots[slot as usize] = Some(Slot { proxy, cells });
        let index = proxy.entity.index_u32() as usize;
        if self.index.len() <= index {
            self.index.resize(index + 1, NO_SLOT);
        }
        self.index[index] = slot;
        self.len += 1;
        self.link_cells(slot, proxy.kind, proxy.layers, cells);
        self.count_moving(&proxy, true);
    }

    /// The version of the static colliders and tile grids: it changes whenever one of them is
    /// added, changed or removed.
    pub(crate) fn static_version(&self) -> u64 {
        self.static_version
    }

    fn note_change(&mut self, kind: BodyKind) {
        if kind == BodyKind::Static {
            self.static_version += 1;
        }
    }

    fn count_moving(&mut self, proxy: &ColliderProxy, add: bool) {
        if proxy.kind != BodyKind::Static {
            self.moving_layers.add(&proxy.layers, add);
        }
    }

    /// Moves the proxy of `entity` to `aabb`. Does nothing for an unknown entity.
    #[inline]
    pub(crate) fn set_aabb(&mut self, entity: Entity, aabb: Aabb) {
        // Every moved body comes here every step: the slot is changed in place, and a box that
        // stays in the same cells (most moves) costs a few comparisons.
        let Some(&slot) = self.index.get(entity.index_u32() as usize) else {
            return;
        };
        let Some(Some(entry)) = self.slots.get_mut(slot as usize) else {
            return;
        };
        if entry.proxy.entity != entity || entry.proxy.aabb == aabb {
            return;
        }
        entry.proxy.aabb = aabb;
        let (kind, layers, old_cells) = (entry.proxy.kind, entry.proxy.layers, entry.cells);
        self.note_change(kind);
        if let Some((lo, hi)) = old_cells
            && self.exact_inverse
            && in_cells(self.cell_size, &aabb, lo, hi)
        {
            return;
        }
        let cells = self.cell_range(&aabb);
        if cells != old_cells {
            if let Some(Some(entry)) = self.slots.get_mut(slot as usize) {
                entry.cells = cells;
            }
            self.relink(slot, kind, layers, old_cells, cells);
        }
    }

    /// Moves `slot` from the cells `old` to the cells `new`, touching only the cells it leaves
    /// and those it enters (a walking body's range shifts by one column at a time, and the
    /// crowd's cells are long).
    fn relink(
        &mut self,
        slot: u32,
        kind: BodyKind,
        layers: CollisionLayers,
        old: Option<(IVec2, IVec2)>,
        new: Option<(IVec2, IVec2)>,
    ) {
        let (Some((old_lo, old_hi)), Some((new_lo, new_hi))) = (old, new) else {
            self.unlink(slot, kind, old);
            self.link_cells(slot, kind, layers, new);
            return;
        };
        let within = |c: IVec2, lo: IVec2, hi: IVec2| c.cmpge(lo).all() && c.cmple(hi).all();
        let map = self.cells_mut(kind);
        for y in old_lo.y..=old_hi.y {
            for x in old_lo.x..=old_hi.x {
                let c = IVec2::new(x, y);
                if !within(c, new_lo, new_hi) {
                    unlink_cell(map, c, slot);
                }
            }
        }
        for y in new_lo.y..=new_hi.y {
            for x in new_lo.x..=new_hi.x {
                let c = IVec2::new(x, y);
                if !within(c, old_lo, old_hi) {
                    link_cell(map, c, slot, layers);
                }
            }
        }
    }

    /// Removes the proxy (or tile grid) of `entity`; returns the proxy if it was one.
    pub(crate) fn remove(&mut self, entity: Entity) -> Option<ColliderProxy> {
        let grids = self.grids.len();
        self.grids.retain(|(e, _)| *e != entity);
        if self.grids.len() != grids {
            self.static_version += 1;
        }
        let slot = self.slot_of(entity)?;
        self.index[entity.index_u32() as usize] = NO_SLOT;
        let old = self.slots[slot as usize].take()?;
        self.note_change(old.proxy.kind);
        self.unlink(slot, old.proxy.kind, old.cells);
        self.count_moving(&old.proxy, false);
        self.free.push(slot);
        self.len -= 1;
        Some(old.proxy)
    }

    /// Every proxy and tile-grid piece whose box overlaps or touches `area`, sorted by entity and
    /// part, each once, in `out` (which is cleared first).
    pub(crate) fn query(&self, area: &Aabb, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, None, out);
        self.collect_moving(area, None, out);
        sort_by_collider(out);
    }

    /// The same as [`query`](Self::query) for the colliders that `me` interacts with (layers from
    /// both sides, never itself): a crowd of bodies that ignore each other costs nothing here.
    #[cfg(test)]
    pub(crate) fn query_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, Some(me), out);
        self.collect_moving(area, Some(me), out);
        sort_by_collider(out);
    }

    /// The static colliders and tile-grid pieces that `me` interacts with near `area`, sorted by
    /// entity and part. They do not move during a step, so a stage may keep them for the next
    /// stage's query of an area inside this one.
    pub(crate) fn query_static_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, Some(me), out);
        sort_by_collider(out);
    }

    /// The kinematic and dynamic colliders that `me` interacts with near `area`, sorted by entity,
    /// appended to `out`.
    #[inline]
    pub(crate) fn query_moving_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        // Most bodies ignore every moving collider (a crowd that ignores itself): nothing to do.
        if !me.layers.interacts_with(&self.moving_layers.union) {
            return;
        }
        let first = out.len();
        self.collect_moving(area, Some(me), out);
        sort_by_collider(&mut out[first..]);
    }

    /// Static proxies (with the large ones) and tile-grid pieces near `area`, unsorted.
    fn collect_static(&self, area: &Aabb, me: Option<&ColliderProxy>, out: &mut Vec<ColliderProxy>) {
        if !area.is_finite() {
            return;
        }
        let keep = |p: &ColliderProxy| me.is_none_or(|me| me.interacts_with(p)) && p.aabb.meets(area);
        out.extend(
            self.large
                .iter()
                .filter_map(|&slot| self.slots[slot as usize].as_ref().map(|s| s.proxy))
                .filter(|p| keep(p)),
        );
        self.collect_cells(&self.static_cells, area, me, out);
        for (entity, grid) in &self.grids {
            if me.is_some_and(|me| !me.layers.interacts_with(&grid.layers)) || !grid.bounds().meets(area) {
                continue;
            }
            grid.for_each_piece_in(area, |piece| {
                if piece.aabb.meets(area) {
                    out.push(grid_proxy(*entity, grid, piece));
                }
            });
        }
    }

    /// Kinematic and dynamic proxies near `area`, unsorted.
    fn collect_moving(&self, area: &Aabb, me: Option<&ColliderProxy>, out: &mut Vec<ColliderProxy>) {
        if area.is_finite() && me.is_none_or(|me| me.layers.interacts_with(&self.moving_layers.union)) {
            self.collect_cells(&self.moving_cells, area, me, out);
        }
    }

    /// The proxies of `map` that touch `area` (and that `me` interacts with), each once: a proxy
    /// spanning several cells is taken only in the first cell of its range inside the query's.
    fn collect_cells(&self, map: &CellMap, area: &Aabb, me: Option<&ColliderProxy>, out: &mut Vec<ColliderProxy>) {
        let (lo, hi) = self.cells_of(area);
        let span = (hi.x as i64 - lo.x as i64 + 1) * (hi.y as i64 - lo.y as i64 + 1);
        let keep = |p: &ColliderProxy| me.is_none_or(|me| me.interacts_with(p)) && p.aabb.meets(area);
        if span > 4 * MAX_CELLS_PER_PROXY {
            // A huge area: scan the slots instead of the cells.
            let in_map = |s: &&Slot| s.cells.is_some() && std::ptr::eq(map, self.map_of(s.proxy.kind));
            out.extend(self.slots.iter().flatten().filter(in_map).map(|s| s.proxy).filter(keep));
            return;
        }
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let Some(cell) = map.get(&IVec2::new(x, y)) else {
                    continue;
                };
                if me.is_some_and(|me| !me.layers.interacts_with(&cell.layers)) {
                    continue;
                }
                for &slot in &cell.slots {
                    let Some(s) = &self.slots[slot as usize] else {
                        continue;
                    };
                    let (first, _) = s.cells.expect("a linked slot has a cell range");
                    if (x, y) != (first.x.max(lo.x), first.y.max(lo.y)) || !keep(&s.proxy) {
                        continue;
                    }
                    out.push(s.proxy);
                }
            }
        }
    }

    fn map_of(&self, kind: BodyKind) -> &CellMap {
        match kind {
            BodyKind::Static => &self.static_cells,
            BodyKind::Kinematic | BodyKind::Dynamic => &self.moving_cells,
        }
    }
}

/// Sorts query results by entity and part: results never depend on the grid's history.
fn sort_by_collider(out: &mut [ColliderProxy]) {
    out.sort_unstable_by_key(|p| (p.entity, p.part));
}
