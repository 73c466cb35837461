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
//! its static candidates in [`StaticCandidates`] from one stage and one step to the next, while
//! its moves stay inside the area it queried and the static geometry does not change.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use smallvec::SmallVec;

use crate::components::CollisionLayers;
use crate::geometry::{Aabb, floor_cell};
use crate::slope::{SlopeRise, SlopeShape};
use crate::tile_grid::{GridData, GridPiece, PieceKind};

/// How a collider takes part in the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum BodyKind {
    /// Never moves by itself; found by others.
    Static,
    /// Moves by its own rule and carries riders.
    Kinematic,
    /// Moved by the simulation.
    Dynamic,
}

/// What the narrow phase knows of a collider without touching the ECS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderProxy {
    /// The collider's entity.
    pub entity: Entity,
    /// World box.
    pub aabb: Aabb,
    /// Static, kinematic or dynamic.
    pub kind: BodyKind,
    /// Solid only from above.
    pub one_way: bool,
    /// Interaction only.
    pub sensor: bool,
    /// Collision layers.
    pub layers: CollisionLayers,
    /// Which way the slope rises, for a [`SlopeSegment`](crate::SlopeSegment) or a slope piece of
    /// a tile grid: `aabb` is then the segment's bounding rect, and the segment is the diagonal
    /// this picks ([`slope_shape`](Self::slope_shape)). A slope is never solid: only the slope
    /// rules of the movement stages use it. (Not the segment itself: the proxy stays small, and
    /// every body keeps a few of them.)
    pub slope: Option<SlopeRise>,
    /// Which piece of the entity this is: 0 for an ordinary collider, the piece number for a
    /// piece of a [`TileGrid`](crate::TileGrid).
    pub part: u32,
}

impl ColliderProxy {
    /// Whether `self` and `other` interact at all (layers from both sides; never with itself).
    pub fn interacts_with(&self, other: &ColliderProxy) -> bool {
        self.entity != other.entity && self.layers.interacts_with(&other.layers)
    }

    /// A solid box of the level's static geometry: static, solid from every side, not a sensor,
    /// not a slope.
    pub fn is_level_solid(&self) -> bool {
        self.kind == BodyKind::Static && !self.one_way && !self.sensor && self.slope.is_none()
    }

    /// Solid from every side and never pushed aside: a static or kinematic collider that is not
    /// a one-way platform, a sensor or a slope. No body may end inside one.
    pub fn is_solid_obstacle(&self) -> bool {
        self.kind != BodyKind::Dynamic && !self.one_way && !self.sensor && self.slope.is_none()
    }

    /// The segment, for a slope.
    pub fn slope_shape(&self) -> Option<SlopeShape> {
        self.slope.map(|rise| SlopeShape::from_rect(self.aabb, rise))
    }

    /// Whether `other` is the same collider (entity and part).
    pub fn same_collider(&self, other: &ColliderProxy) -> bool {
        (self.entity, self.part) == (other.entity, other.part)
    }
}

/// Colliders spanning more cells than this are kept in a separate list that every query scans,
/// so a huge ground box does not fill thousands of cells.
const MAX_CELLS_PER_PROXY: i64 = 256;

/// No slot: an entity index without a proxy.
const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Slot {
    proxy: ColliderProxy,
    /// Cell range covered (inclusive), or `None` for the large list.
    cells: Option<(IVec2, IVec2)>,
}

/// One cell of a [`CellMap`]: the slots whose boxes reach it, and the union of their layers, so
/// that a query can skip a cell none of whose colliders it interacts with without visiting them.
#[derive(Clone, Debug)]
struct Cell {
    slots: Vec<u32>,
    /// Union of the slots' layers (it only shrinks when the cell empties: conservative).
    layers: CollisionLayers,
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
struct LayerCounts {
    memberships: [u32; 32],
    filters: [u32; 32],
    union: CollisionLayers,
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
    fn add(&mut self, layers: &CollisionLayers, add: bool) {
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
type CellMap = HashMap<IVec2, Cell>;

/// The spatial grid of collider proxies.
///
/// Static colliders and moving ones (kinematic and dynamic) live in separate cells, and every cell
/// knows the union of its colliders' layers: the static geometry's cells stay small however many
/// bodies walk through them, and a crowd whose members ignore each other never visits the others'
/// proxies at all.
#[derive(Resource, Debug)]
pub struct BroadPhase {
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
    pub fn new(cell_size: f32) -> Self {
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
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of colliders and tile grids.
    pub fn len(&self) -> usize {
        self.len + self.grids.len()
    }

    /// Whether there is nothing at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Inserts or replaces the tile grid of `entity`.
    pub fn upsert_grid(&mut self, entity: Entity, grid: GridData) {
        self.static_version += 1;
        match self.grids.iter_mut().find(|(e, _)| *e == entity) {
            Some(slot) => slot.1 = grid,
            None => self.grids.push((entity, grid)),
        }
    }

    /// The tile grid of `entity`, if it has one here.
    pub fn grid(&self, entity: Entity) -> Option<&GridData> {
        self.grids.iter().find(|(e, _)| *e == entity).map(|(_, g)| g)
    }

    /// Every tile grid.
    pub fn grids(&self) -> impl Iterator<Item = (Entity, &GridData)> {
        self.grids.iter().map(|(e, g)| (*e, g))
    }

    /// The proxy of piece `part` of `entity`: the collider itself for part 0, a piece of its tile
    /// grid otherwise. `None` when it no longer exists (a despawned collider, an edited cell).
    pub fn piece(&self, entity: Entity, part: u32) -> Option<ColliderProxy> {
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
    pub fn get(&self, entity: Entity) -> Option<&ColliderProxy> {
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
    pub fn upsert(&mut self, proxy: ColliderProxy) {
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
    pub fn static_version(&self) -> u64 {
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
    pub fn set_aabb(&mut self, entity: Entity, aabb: Aabb) {
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
    pub fn remove(&mut self, entity: Entity) -> Option<ColliderProxy> {
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
    pub fn query(&self, area: &Aabb, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, None, out);
        self.collect_moving(area, None, out);
        sort_by_collider(out);
    }

    /// The same as [`query`](Self::query) for the colliders that `me` interacts with (layers from
    /// both sides, never itself): a crowd of bodies that ignore each other costs nothing here.
    pub fn query_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, Some(me), out);
        self.collect_moving(area, Some(me), out);
        sort_by_collider(out);
    }

    /// Whether `aabb` overlaps a [solid obstacle](ColliderProxy::is_solid_obstacle) by more than
    /// `skin` on both axes: for game rules such as "does the grown player fit here".
    pub fn overlaps_solid_obstacle(&self, aabb: &Aabb, skin: f32) -> bool {
        let mut nearby = Vec::new();
        self.query(aabb, &mut nearby);
        nearby
            .iter()
            .any(|p| p.is_solid_obstacle() && aabb.intersects(&p.aabb, skin))
    }

    /// The static colliders and tile-grid pieces that `me` interacts with near `area`, sorted by
    /// entity and part. They do not move during a step, so a stage may keep them for the next
    /// stage's query of an area inside this one.
    pub fn query_static_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        out.clear();
        self.collect_static(area, Some(me), out);
        sort_by_collider(out);
    }

    /// The kinematic and dynamic colliders that `me` interacts with near `area`, sorted by entity,
    /// appended to `out`.
    #[inline]
    pub fn query_moving_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
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

/// The kept boxes of a body. A walker on a tile grid keeps up to four (the ground run, the runs
/// under a ramp, a wall): they live inline in the component, read with the rest of the body, not
/// from a heap block of their own.
type KeptBoxes = SmallVec<[ColliderProxy; 4]>;
/// The kept slopes of a body: one or two around a ramp or a valley, most often none.
type KeptSlopes = SmallVec<[ColliderProxy; 2]>;

/// The static colliders and tile-grid pieces a dynamic body interacts with around its move, kept
/// from one stage of the step to the next and from one step to the next. PrepareMovement queries
/// an area with some room around the move, and keeps the result while the body's moves stay inside
/// it and the static geometry does not change ([`BroadPhase::static_version`]); Resolve and
/// FinishMovement take theirs from it. So a walking body queries the broad phase every few
/// steps, not several times per step, and gets exactly what a new query would return. Kept by the
/// plugin; added with [`Dynamic`](crate::Dynamic).
#[derive(Component, Clone, Debug, Default)]
pub struct StaticCandidates {
    /// The area queried, the static version then, and the layers of the body it was for (`None`
    /// when nothing is kept).
    kept: Option<(Aabb, u64, CollisionLayers)>,
    /// What the query returned except the slopes, sorted by entity and part.
    boxes: KeptBoxes,
    /// The slopes the query returned, sorted by entity and part: most bodies walk where there
    /// is none, and the slope rules look at nothing else.
    slopes: KeptSlopes,
}

impl StaticCandidates {
    /// Makes sure the kept colliders cover `area` for `me`: queries `area` grown by `room` and
    /// stretched by `lead` (where the body is heading) if the kept area does not contain it or
    /// the static geometry changed.
    /// Returns whether they do (not for a non-finite area).
    /// `scratch` takes the query's results.
    #[inline]
    pub(crate) fn cover(
        &mut self,
        broad_phase: &BroadPhase,
        area: &Aabb,
        room: f32,
        lead: Vec2,
        me: &ColliderProxy,
        scratch: &mut Vec<ColliderProxy>,
    ) -> bool {
        if self.covers(broad_phase, area, me) {
            return true;
        }
        let grown = area.grown(room);
        let queried = grown.swept(lead);
        broad_phase.query_static_interacting(&queried, me, scratch);
        self.boxes.clear();
        self.slopes.clear();
        for p in scratch.iter() {
            if p.slope.is_some() {
                self.slopes.push(*p);
            } else {
                self.boxes.push(*p);
            }
        }
        self.kept = queried
            .is_finite()
            .then_some((queried, broad_phase.static_version(), me.layers));
        self.kept.is_some()
    }

    /// Whether a slope was kept.
    pub(crate) fn has_slopes(&self) -> bool {
        !self.slopes.is_empty()
    }

    /// Forgets what was kept.
    pub(crate) fn clear(&mut self) {
        self.kept = None;
        self.boxes.clear();
        self.slopes.clear();
    }

    /// Whether no static collider or tile grid changed since the kept ones were queried: then
    /// every static collider a stage found since is still there.
    pub(crate) fn is_current(&self, broad_phase: &BroadPhase) -> bool {
        self.kept
            .as_ref()
            .is_some_and(|(_, version, _)| *version == broad_phase.static_version())
    }

    fn covers(&self, broad_phase: &BroadPhase, area: &Aabb, me: &ColliderProxy) -> bool {
        self.kept.as_ref().is_some_and(|(kept, version, layers)| {
            *version == broad_phase.static_version()
                && *layers == me.layers
                && kept.contains(area.min)
                && kept.contains(area.max)
        })
    }

    /// Calls `f` with each static collider touching `area` that `me` interacts with, in order,
    /// without copying them: from what was kept if it covers `area`, else from a new query into
    /// `scratch`.
    pub(crate) fn for_each_touching(
        &self,
        broad_phase: &BroadPhase,
        area: &Aabb,
        me: &ColliderProxy,
        scratch: &mut Vec<ColliderProxy>,
        mut f: impl FnMut(&ColliderProxy),
    ) {
        if !self.covers(broad_phase, area, me) {
            broad_phase.query_static_interacting(area, me, scratch);
            scratch.iter().for_each(&mut f);
            return;
        }
        let touching = |p: &&ColliderProxy| p.aabb.meets(area);
        let mut boxes = self.boxes.iter().filter(touching).peekable();
        let mut slopes = self.slopes.iter().filter(touching).peekable();
        // The two sorted lists merged back into one order.
        loop {
            let next = match (boxes.peek(), slopes.peek()) {
                (Some(b), Some(s)) if (s.entity, s.part) < (b.entity, b.part) => slopes.next(),
                (Some(_), _) => boxes.next(),
                (None, _) => slopes.next(),
            };
            match next {
                Some(p) => f(p),
                None => return,
            }
        }
    }

    /// The static colliders around `area` for `me`, slopes left out: the kept boxes if they cover
    /// `area`, else what a new query into `scratch` returns (slopes included). Either way every
    /// one of them that touches `area` is one a new query would find, and only those.
    pub(crate) fn boxes_around<'a>(
        &'a self,
        broad_phase: &BroadPhase,
        area: &Aabb,
        me: &ColliderProxy,
        scratch: &'a mut Vec<ColliderProxy>,
    ) -> &'a [ColliderProxy] {
        self.kept_or_queried(&self.boxes, broad_phase, area, me, scratch)
    }

    /// `kept` if the kept colliders cover `area` for `me`, else a new query's results in `scratch`.
    #[inline]
    fn kept_or_queried<'a>(
        &self,
        kept: &'a [ColliderProxy],
        broad_phase: &BroadPhase,
        area: &Aabb,
        me: &ColliderProxy,
        scratch: &'a mut Vec<ColliderProxy>,
    ) -> &'a [ColliderProxy] {
        if self.covers(broad_phase, area, me) {
            kept
        } else {
            broad_phase.query_static_interacting(area, me, scratch);
            scratch
        }
    }

    /// [`for_each_touching`](Self::for_each_touching) for the slopes only, with their shapes.
    pub(crate) fn for_each_slope_touching(
        &self,
        broad_phase: &BroadPhase,
        area: &Aabb,
        me: &ColliderProxy,
        scratch: &mut Vec<ColliderProxy>,
        mut f: impl FnMut(&ColliderProxy, SlopeShape),
    ) {
        for p in self.kept_or_queried(&self.slopes, broad_phase, area, me, scratch) {
            if let Some(shape) = p.slope_shape()
                && p.aabb.meets(area)
            {
                f(p, shape);
            }
        }
    }
}

/// Adds `slot`, with `layers`, to the cell at `c`.
fn link_cell(map: &mut CellMap, c: IVec2, slot: u32, layers: CollisionLayers) {
    let cell = map.entry(c).or_default();
    cell.slots.push(slot);
    cell.layers.memberships |= layers.memberships;
    cell.layers.filters |= layers.filters;
}

/// Takes `slot` out of the cell at `c`.
fn unlink_cell(map: &mut CellMap, c: IVec2, slot: u32) {
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
fn in_cells(size: f32, aabb: &Aabb, lo: IVec2, hi: IVec2) -> bool {
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

/// Sorts query results by entity and part: results never depend on the grid's history.
fn sort_by_collider(out: &mut [ColliderProxy]) {
    out.sort_unstable_by_key(|p| (p.entity, p.part));
}

/// The proxy of one piece of a tile grid.
fn grid_proxy(entity: Entity, grid: &GridData, piece: &GridPiece) -> ColliderProxy {
    ColliderProxy {
        entity,
        aabb: piece.aabb,
        kind: BodyKind::Static,
        one_way: piece.kind == PieceKind::OneWay,
        sensor: false,
        layers: grid.layers,
        slope: match piece.kind {
            PieceKind::Slope(shape) => Some(shape.rise()),
            _ => None,
        },
        part: piece.part,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy(index: u32, x: f32, y: f32, w: f32, h: f32) -> ColliderProxy {
        ColliderProxy {
            entity: Entity::from_raw_u32(index).unwrap(),
            aabb: Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h)),
            kind: BodyKind::Static,
            one_way: false,
            sensor: false,
            layers: CollisionLayers::ALL,
            slope: None,
            part: 0,
        }
    }

    fn ids(out: &[ColliderProxy]) -> Vec<u32> {
        assert!(
            out.windows(2).all(|w| w[0].entity < w[1].entity),
            "sorted by entity, no duplicates"
        );
        let mut ids: Vec<u32> = out.iter().map(|p| p.entity.index_u32()).collect();
        ids.sort();
        ids
    }

    #[test]
    fn a_proxy_stays_small() {
        // Every dynamic body keeps a few proxies inline (`StaticCandidates`), read every step.
        assert!(
            size_of::<ColliderProxy>() <= 40,
            "ColliderProxy is {} bytes",
            size_of::<ColliderProxy>()
        );
    }

    #[test]
    fn a_slope_proxy_gives_back_its_segment() {
        let shape = SlopeShape::new(Vec2::new(30.0, 8.0), Vec2::new(2.0, 20.0));
        let mut p = proxy(1, 0.0, 0.0, 0.0, 0.0);
        p.aabb = shape.rect();
        p.slope = Some(shape.rise());
        assert_eq!(p.slope_shape(), Some(shape));
        p.slope = None;
        assert_eq!(p.slope_shape(), None);
    }

    #[test]
    fn query_finds_only_nearby_proxies_once_each() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, 0.0, 0.0, 100.0, 10.0));
        bp.upsert(proxy(2, 500.0, 0.0, 10.0, 10.0));
        bp.upsert(proxy(3, 20.0, 20.0, 10.0, 10.0));
        let mut out = Vec::new();
        bp.query(
            &Aabb::from_min_size(Vec2::new(10.0, 5.0), Vec2::new(15.0, 20.0)),
            &mut out,
        );
        assert_eq!(ids(&out), vec![1, 3]);
    }

    #[test]
    fn moving_and_removing_update_the_cells() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, 0.0, 0.0, 10.0, 10.0));
        let area = Aabb::from_min_size(Vec2::new(300.0, 0.0), Vec2::new(10.0, 10.0));
        let mut out = Vec::new();
        bp.query(&area, &mut out);
        assert!(out.is_empty());
        bp.set_aabb(
            Entity::from_raw_u32(1).unwrap(),
            Aabb::from_min_size(Vec2::new(302.0, 2.0), Vec2::new(10.0, 10.0)),
        );
        bp.query(&area, &mut out);
        assert_eq!(ids(&out), vec![1]);
        assert!(bp.remove(Entity::from_raw_u32(1).unwrap()).is_some());
        bp.query(&area, &mut out);
        assert!(out.is_empty());
        assert!(bp.is_empty());
    }

    #[test]
    fn huge_colliders_are_found_everywhere_they_reach() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, -100_000.0, 0.0, 200_000.0, 16.0));
        let mut out = Vec::new();
        bp.query(
            &Aabb::from_min_size(Vec2::new(50_000.0, 10.0), Vec2::new(10.0, 10.0)),
            &mut out,
        );
        assert_eq!(ids(&out), vec![1]);
        bp.query(
            &Aabb::from_min_size(Vec2::new(50_000.0, 100.0), Vec2::new(10.0, 10.0)),
            &mut out,
        );
        assert!(out.is_empty());
    }

    #[test]
    fn a_proxy_in_many_cells_is_returned_once() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, 0.0, 0.0, 100.0, 10.0));
        bp.upsert(proxy(4, -100_000.0, 0.0, 200_000.0, 16.0));
        let mut out = Vec::new();
        bp.query(
            &Aabb::from_min_size(Vec2::new(-20.0, -20.0), Vec2::new(150.0, 60.0)),
            &mut out,
        );
        assert_eq!(ids(&out), vec![1, 4]);
    }

    #[test]
    fn non_finite_query_returns_nothing() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, 0.0, 0.0, 10.0, 10.0));
        let mut out = vec![proxy(9, 0.0, 0.0, 1.0, 1.0)];
        bp.query(&Aabb::from_min_size(Vec2::new(f32::NAN, 0.0), Vec2::ONE), &mut out);
        assert!(out.is_empty());
    }

    fn entity(index: u32) -> Entity {
        Entity::from_raw_u32(index).unwrap()
    }

    #[test]
    fn moving_colliders_are_found_only_by_bodies_that_interact_with_them() {
        let mut bp = BroadPhase::new(16.0);
        bp.upsert(proxy(1, 0.0, 0.0, 100.0, 10.0));
        // A crowd in layer 2 that only collides with layer 1 (the ground).
        for i in 2..6 {
            bp.upsert(ColliderProxy {
                kind: BodyKind::Dynamic,
                layers: CollisionLayers::new(2, 1),
                ..proxy(i, 10.0 * i as f32, 10.0, 8.0, 8.0)
            });
        }
        let me = *bp.get(entity(3)).unwrap();
        let area = Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::new(100.0, 30.0));
        let mut out = Vec::new();
        bp.query_interacting(&area, &me, &mut out);
        assert_eq!(ids(&out), vec![1], "the others of the crowd are skipped");
        bp.query(&area, &mut out);
        assert_eq!(ids(&out), vec![1, 2, 3, 4, 5], "an unfiltered query sees everyone");

        // One member that collides with the crowd is found again.
        bp.upsert(ColliderProxy {
            kind: BodyKind::Dynamic,
            layers: CollisionLayers::new(2, 3),
            ..proxy(9, 60.0, 10.0, 8.0, 8.0)
        });
        bp.query_interacting(&area, &me, &mut out);
        assert_eq!(ids(&out), vec![1], "layer 1 only: 9 is in layer 2");
        let both = ColliderProxy {
            layers: CollisionLayers::new(2, 3),
            ..me
        };
        bp.query_interacting(&area, &both, &mut out);
        assert_eq!(ids(&out), vec![1, 9], "the crowd does not accept layer 2; 9 does");
        // A body of layer 1 that collides with layer 2 meets the whole crowd.
        let hunter = ColliderProxy {
            entity: entity(20),
            layers: CollisionLayers::new(1, 2),
            ..me
        };
        bp.query_interacting(&area, &hunter, &mut out);
        assert_eq!(ids(&out), vec![1, 2, 3, 4, 5, 9]);

        // Removing 9 restores the exact union: `both` skips the moving cells again.
        bp.remove(entity(9));
        bp.query_interacting(&area, &both, &mut out);
        assert_eq!(ids(&out), vec![1]);
        bp.query_interacting(&area, &hunter, &mut out);
        assert_eq!(ids(&out), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_collider_that_changes_kind_changes_cells() {
        let mut bp = BroadPhase::new(16.0);
        let lift = proxy(1, 0.0, 0.0, 20.0, 4.0);
        bp.upsert(lift);
        bp.upsert(ColliderProxy {
            kind: BodyKind::Kinematic,
            ..lift
        });
        let mut out = Vec::new();
        let area = Aabb::from_min_size(Vec2::ZERO, Vec2::splat(30.0));
        bp.query(&area, &mut out);
        assert_eq!(out.len(), 1, "found once, not in both kinds of cells");
        assert_eq!(out[0].kind, BodyKind::Kinematic);
        bp.set_aabb(
            entity(1),
            Aabb::from_min_size(Vec2::new(100.0, 0.0), Vec2::new(20.0, 4.0)),
        );
        bp.query(&area, &mut out);
        assert!(out.is_empty(), "moved away: {out:?}");
    }

    #[test]
    fn a_stale_entity_with_the_same_index_is_not_found() {
        let mut bp = BroadPhase::new(16.0);
        let old = entity(7);
        bp.upsert(proxy(7, 0.0, 0.0, 10.0, 10.0));
        let newer = Entity::from_index_and_generation(old.index(), old.generation().after_versions(1));
        assert!(bp.get(newer).is_none(), "same index, another generation");
        assert!(bp.remove(newer).is_none());
        assert!(bp.get(old).is_some());
        assert_eq!(bp.len(), 1);
    }

    #[test]
    fn solid_obstacles_are_static_or_kinematic_and_solid_from_every_side() {
        let mut bp = BroadPhase::new(16.0);
        let area = Aabb::from_min_size(Vec2::new(0.0, 0.0), Vec2::splat(10.0));
        let inside = |i| proxy(i, 2.0, 2.0, 4.0, 4.0);
        bp.upsert(ColliderProxy {
            one_way: true,
            ..inside(1)
        });
        bp.upsert(ColliderProxy {
            sensor: true,
            ..inside(2)
        });
        bp.upsert(ColliderProxy {
            kind: BodyKind::Dynamic,
            ..inside(3)
        });
        assert!(!bp.overlaps_solid_obstacle(&area, 0.01), "none of those blocks");
        bp.upsert(proxy(4, 9.995, 0.0, 5.0, 10.0));
        assert!(
            !bp.overlaps_solid_obstacle(&area, 0.01),
            "an overlap within the skin does not count"
        );
        bp.upsert(ColliderProxy {
            kind: BodyKind::Kinematic,
            ..inside(5)
        });
        assert!(bp.overlaps_solid_obstacle(&area, 0.01), "a lift does");
    }

    #[test]
    fn a_moved_proxy_is_in_the_cells_a_new_one_would_be_in() {
        // Steps that land edges exactly on cell borders, a hair before and after them, and jumps
        // of several cells, for a power-of-two cell size (the in-place path) and another one.
        for cell in [64.0, 48.0] {
            let mut moved = BroadPhase::new(cell);
            moved.upsert(ColliderProxy {
                kind: BodyKind::Dynamic,
                ..proxy(1, 0.0, 0.0, 12.0, 24.0)
            });
            let xs = [
                0.0,
                52.0,
                52.0 + 1e-5,
                63.999,
                64.0,
                116.0,
                128.0,
                -0.5,
                -64.0,
                -76.0,
                300.0,
            ];
            // Along x, then along y, then both at once.
            let moves = xs
                .iter()
                .map(|&x| (x, 0.0))
                .chain(xs.iter().map(|&y| (0.0, y)))
                .chain(xs.iter().zip(xs.iter().rev()).map(|(&x, &y)| (x, y)));
            for (x, y) in moves {
                let aabb = Aabb::from_min_size(Vec2::new(x, y), Vec2::new(12.0, 24.0));
                moved.set_aabb(Entity::from_raw_u32(1).unwrap(), aabb);
                let mut fresh = BroadPhase::new(cell);
                fresh.upsert(ColliderProxy {
                    kind: BodyKind::Dynamic,
                    aabb,
                    ..proxy(1, 0.0, 0.0, 1.0, 1.0)
                });
                // Probes just around each corner of the box find it in both, or in neither.
                for corner in [aabb.min, aabb.max, Vec2::new(aabb.min.x, aabb.max.y)] {
                    for d in [-0.01, 0.0, 0.01] {
                        let probe = Aabb::from_min_size(corner + Vec2::splat(d), Vec2::ZERO);
                        let (mut a, mut b) = (Vec::new(), Vec::new());
                        moved.query(&probe, &mut a);
                        fresh.query(&probe, &mut b);
                        assert_eq!(a, b, "cell {cell}, box {aabb:?}, probe {probe:?}");
                    }
                }
                // And in no other cell: a cell it left forgets it.
                let cells_holding = |bp: &BroadPhase| {
                    let mut cells: Vec<(i32, i32)> = (bp.moving_cells.iter())
                        .filter(|(_, c)| !c.slots.is_empty())
                        .map(|(at, c)| {
                            assert_eq!(c.slots, [0], "cell {at} of a broad phase with one proxy");
                            (at.x, at.y)
                        })
                        .collect();
                    cells.sort();
                    cells
                };
                assert_eq!(
                    cells_holding(&moved),
                    cells_holding(&fresh),
                    "cell {cell}, box {aabb:?}"
                );
            }
        }
    }
}
