//! What the broad phase keeps of a collider: its world box and the flags the narrow phase needs.

use bevy::prelude::*;

use super::grid::{GridData, GridPiece, PieceKind};
use crate::components::{BodyKind, CollisionLayers, Contact, ContactDirection};
use crate::geometry::Aabb;
use crate::geometry::{SlopeRise, SlopeShape};

/// What the narrow phase knows of a collider without touching the ECS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ColliderProxy {
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
    /// A static box of entity index `index`, solid from every side, on every layer: the plain
    /// collider of the unit tests.
    #[cfg(test)]
    pub(crate) fn static_box(index: u32, aabb: Aabb) -> Self {
        Self {
            entity: Entity::from_raw_u32(index).expect("a valid entity index"),
            aabb,
            kind: BodyKind::Static,
            one_way: false,
            sensor: false,
            layers: CollisionLayers::ALL,
            slope: None,
            part: 0,
        }
    }

    /// Whether `self` and `other` interact at all (layers from both sides; never with itself).
    pub(crate) fn interacts_with(&self, other: &ColliderProxy) -> bool {
        self.entity != other.entity && self.layers.interacts_with(&other.layers)
    }

    /// A solid box of the level's static geometry: static, solid from every side, not a sensor,
    /// not a slope.
    pub(crate) fn is_level_solid(&self) -> bool {
        self.kind == BodyKind::Static && !self.one_way && !self.sensor && self.slope.is_none()
    }

    /// Solid from every side and never pushed aside: a static or kinematic collider that is not
    /// a one-way platform, a sensor or a slope. No body may end inside one.
    pub(crate) fn is_solid_obstacle(&self) -> bool {
        self.kind != BodyKind::Dynamic && !self.one_way && !self.sensor && self.slope.is_none()
    }

    /// The segment, for a slope.
    pub(crate) fn slope_shape(&self) -> Option<SlopeShape> {
        self.slope.map(|rise| SlopeShape::from_rect(self.aabb, rise))
    }

    /// A collision contact with this collider, on the body's side `direction`, `depth` px deep.
    #[inline]
    pub(crate) fn contact(&self, direction: ContactDirection, depth: f32) -> Contact {
        Contact {
            entity: self.entity,
            direction,
            depth,
            sensor: false,
            part: self.part,
        }
    }

    /// Whether `other` is the same collider (entity and part).
    pub(crate) fn same_collider(&self, other: &ColliderProxy) -> bool {
        (self.entity, self.part) == (other.entity, other.part)
    }
}

/// The proxy of one piece of a tile grid.
pub(super) fn grid_proxy(entity: Entity, grid: &GridData, piece: &GridPiece) -> ColliderProxy {
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
