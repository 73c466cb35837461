//! The broad phase: a uniform grid of cells over every collider, so that a body only looks at the
//! colliders near its swept box and a step costs about O(bodies), not O(bodies × colliders), and
//! does not grow with the level's size.
//!
//! Each collider is mirrored by a [`ColliderProxy`] (its world box and the flags the narrow phase
//! needs), kept up to date by the SyncColliders stage for outside changes and by every stage that
//! moves a body. Queries return proxies sorted by entity, so results never depend on hash order.

use bevy::ecs::entity::EntityHashMap;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::CollisionLayers;
use crate::geometry::Aabb;
use crate::slope::SlopeShape;
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
    /// The segment, for a [`SlopeSegment`](crate::SlopeSegment): never solid, only the slope rules
    /// of the movement stages use it. `aabb` is then its bounding rect.
    pub slope: Option<SlopeShape>,
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

    /// Whether `other` is the same collider (entity and part).
    pub fn same_collider(&self, other: &ColliderProxy) -> bool {
        (self.entity, self.part) == (other.entity, other.part)
    }
}

/// Colliders spanning more cells than this are kept in a separate list that every query scans,
/// so a huge ground box does not fill thousands of cells.
const MAX_CELLS_PER_PROXY: i64 = 256;

#[derive(Clone, Copy, Debug)]
struct Slot {
    proxy: ColliderProxy,
    /// Cell range covered (inclusive), or `None` for the large list.
    cells: Option<(IVec2, IVec2)>,
}

/// The spatial grid of collider proxies.
#[derive(Resource, Debug)]
pub struct BroadPhase {
    cell_size: f32,
    cells: HashMap<IVec2, Vec<u32>>,
    slots: Vec<Option<Slot>>,
    free: Vec<u32>,
    index: EntityHashMap<u32>,
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
        Self {
            cell_size: if cell_size.is_finite() && cell_size > 0.0 {
                cell_size
            } else {
                64.0
            },
            cells: HashMap::default(),
            slots: Vec::new(),
            free: Vec::new(),
            index: EntityHashMap::default(),
            large: Vec::new(),
            grids: Vec::new(),
        }
    }

    /// Number of colliders and tile grids.
    pub fn len(&self) -> usize {
        self.index.len() + self.grids.len()
    }

    /// Whether there is nothing at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Inserts or replaces the tile grid of `entity`.
    pub fn upsert_grid(&mut self, entity: Entity, grid: GridData) {
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

    /// The proxy of `entity`, if it is in the grid.
    pub fn get(&self, entity: Entity) -> Option<&ColliderProxy> {
        let slot = *self.index.get(&entity)?;
        self.slots[slot as usize].as_ref().map(|s| &s.proxy)
    }

    fn cell_range(&self, aabb: &Aabb) -> Option<(IVec2, IVec2)> {
        let lo = (aabb.min / self.cell_size).floor();
        let hi = (aabb.max / self.cell_size).floor();
        // Clamp so that absurd coordinates cannot overflow the cell index.
        let clamp = |v: Vec2| v.clamp(Vec2::splat(-1e9), Vec2::splat(1e9)).as_ivec2();
        let (lo, hi) = (clamp(lo), clamp(hi));
        let count = (hi.x as i64 - lo.x as i64 + 1) * (hi.y as i64 - lo.y as i64 + 1);
        (count <= MAX_CELLS_PER_PROXY).then_some((lo, hi))
    }

    fn link(&mut self, slot: u32, cells: Option<(IVec2, IVec2)>) {
        match cells {
            Some((lo, hi)) => {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        self.cells.entry(IVec2::new(x, y)).or_default().push(slot);
                    }
                }
            }
            None => self.large.push(slot),
        }
    }

    fn unlink(&mut self, slot: u32, cells: Option<(IVec2, IVec2)>) {
        match cells {
            Some((lo, hi)) => {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        let key = IVec2::new(x, y);
                        if let Some(list) = self.cells.get_mut(&key) {
                            if let Some(i) = list.iter().position(|&s| s == slot) {
                                list.swap_remove(i);
                            }
                            if list.is_empty() {
                                self.cells.remove(&key);
                            }
                        }
                    }
                }
            }
            None => self.large.retain(|&s| s != slot),
        }
    }

    /// Inserts or replaces the proxy of `proxy.entity`.
    pub fn upsert(&mut self, proxy: ColliderProxy) {
        let cells = self.cell_range(&proxy.aabb);
        if let Some(&slot) = self.index.get(&proxy.entity) {
            let old = self.slots[slot as usize].expect("indexed slot is occupied");
            if old.cells != cells {
                self.unlink(slot, old.cells);
                self.link(slot, cells);
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
        self.index.insert(proxy.entity, slot);
        self.link(slot, cells);
    }

    /// Moves the proxy of `entity` to `aabb`. Does nothing for an unknown entity.
    pub fn set_aabb(&mut self, entity: Entity, aabb: Aabb) {
        if let Some(mut proxy) = self.get(entity).copied() {
            proxy.aabb = aabb;
            self.upsert(proxy);
        }
    }

    /// Removes the proxy (or tile grid) of `entity`; returns the proxy if it was one.
    pub fn remove(&mut self, entity: Entity) -> Option<ColliderProxy> {
        self.grids.retain(|(e, _)| *e != entity);
        let slot = self.index.remove(&entity)?;
        let old = self.slots[slot as usize].take()?;
        self.unlink(slot, old.cells);
        self.free.push(slot);
        Some(old.proxy)
    }

    /// Every proxy whose box overlaps or touches `area`, and the pieces of tile grids near it,
    /// sorted by entity and part, each once, in `out` (which is cleared first).
    pub fn query(&self, area: &Aabb, out: &mut Vec<ColliderProxy>) {
        self.query_filtered(area, out, |_| true);
    }

    /// The same as [`query`](Self::query) for the colliders that `me` interacts with (layers from
    /// both sides, never itself): a crowd of bodies that ignore each other costs nothing here.
    pub fn query_interacting(&self, area: &Aabb, me: &ColliderProxy, out: &mut Vec<ColliderProxy>) {
        self.query_filtered(area, out, |p| me.interacts_with(p));
    }

    fn query_filtered(&self, area: &Aabb, out: &mut Vec<ColliderProxy>, keep: impl Fn(&ColliderProxy) -> bool) {
        out.clear();
        if !area.is_finite() {
            return;
        }
        let touching = |slot: &u32| {
            self.slots[*slot as usize]
                .as_ref()
                .map(|s| s.proxy)
                .filter(|p| keep(p) && p.aabb.touches(area, 0.0))
        };
        out.extend(self.large.iter().filter_map(touching));
        let lo = (area.min / self.cell_size)
            .floor()
            .clamp(Vec2::splat(-1e9), Vec2::splat(1e9))
            .as_ivec2();
        let hi = (area.max / self.cell_size)
            .floor()
            .clamp(Vec2::splat(-1e9), Vec2::splat(1e9))
            .as_ivec2();
        let span = (hi.x as i64 - lo.x as i64 + 1) * (hi.y as i64 - lo.y as i64 + 1);
        if span > 4 * MAX_CELLS_PER_PROXY {
            out.extend(
                self.slots
                    .iter()
                    .flatten()
                    .map(|s| s.proxy)
                    .filter(|p| keep(p) && p.aabb.touches(area, 0.0)),
            );
        } else {
            for y in lo.y..=hi.y {
                for x in lo.x..=hi.x {
                    if let Some(list) = self.cells.get(&IVec2::new(x, y)) {
                        out.extend(list.iter().filter_map(touching));
                    }
                }
            }
        }
        let mut pieces = Vec::new();
        for (entity, grid) in &self.grids {
            if grid.bounds().touches(area, 0.0) {
                pieces.clear();
                grid.pieces_in(area, &mut pieces);
                out.extend(
                    pieces
                        .iter()
                        .map(|piece| grid_proxy(*entity, grid, piece))
                        .filter(|p| keep(p)),
                );
            }
        }
        out.sort_unstable_by_key(|p| (p.entity, p.part));
        out.dedup_by_key(|p| (p.entity, p.part));
    }
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
            PieceKind::Slope(shape) => Some(shape),
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
}
