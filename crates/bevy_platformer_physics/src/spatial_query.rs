//! Spatial queries: the game's window onto the physics world. Ray casts, box casts, and the
//! colliders in an area or at a point, exact on boxes, tile-grid pieces and slopes, with the
//! movement rules' view of one-way platforms (hit only from above) and slopes (hit only on their
//! surface from above; areas and points find the triangle under the surface).
//!
//! The queries read the broad phase, which is current after every body's move: a system after
//! [`PlatformerSystems::AfterMovement`](crate::PlatformerSystems::AfterMovement) sees this step's
//! positions; one before [`PlatformerSystems::SyncColliders`](crate::PlatformerSystems::SyncColliders)
//! sees the last step's, which is what input and AI systems decide on.

use bevy::ecs::change_detection::Tick;
use bevy::ecs::component::ComponentId;
use bevy::ecs::query::FilteredAccessSet;
use bevy::ecs::system::{ReadOnlySystemParam, SystemMeta, SystemParam, SystemParamValidationError};
use bevy::ecs::world::unsafe_world_cell::UnsafeWorldCell;
use bevy::prelude::*;

use crate::broad_phase::{BroadPhase, ColliderProxy};
use crate::components::{BodyKind, CollisionLayers};
use crate::config::PhysicsConfig;
use crate::geometry::{
    Aabb, CastHit, SlopeShape, area_overlaps_slope, cast_box_aabb, cast_box_slope, point_in_slope, ray_aabb, ray_slope,
};

/// A collider as a spatial query finds it: which one, its box, what kind of body it belongs to,
/// and how the movement rules treat it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderHit {
    /// The collider's entity.
    pub entity: Entity,
    /// Which piece of the entity: 0 for an ordinary collider, the piece number for a piece of a
    /// [`TileGrid`](crate::TileGrid).
    pub part: u32,
    /// World box; for a slope, the segment's bounding rect.
    pub aabb: Aabb,
    /// Static, kinematic or dynamic.
    pub kind: BodyKind,
    /// The segment, for a [`SlopeSegment`](crate::SlopeSegment) or a slope piece of a tile grid.
    /// A slope is never solid: only the slope rules of the movement stages use it.
    pub slope: Option<SlopeShape>,
    /// Solid only from above (a [`OneWayPlatform`](crate::OneWayPlatform) or a one-way cell).
    pub one_way: bool,
    /// Interaction only (a [`Sensor`](crate::Sensor)).
    pub sensor: bool,
    /// Its collision layers.
    pub layers: CollisionLayers,
}

impl ColliderHit {
    fn of(proxy: &ColliderProxy) -> Self {
        Self {
            entity: proxy.entity,
            part: proxy.part,
            aabb: proxy.aabb,
            kind: proxy.kind,
            slope: proxy.slope_shape(),
            one_way: proxy.one_way,
            sensor: proxy.sensor,
            layers: proxy.layers,
        }
    }

    /// Solid from every side and never pushed aside: a static or kinematic collider that is not
    /// a one-way platform, a sensor or a slope. No body may end inside one.
    pub fn is_solid_obstacle(&self) -> bool {
        self.kind != BodyKind::Dynamic && !self.one_way && !self.sensor && self.slope.is_none()
    }
}

/// Which colliders a query finds.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// # let me = Entity::PLACEHOLDER;
/// // Colliders on layer 1 or 2, sensors too, never the caster itself.
/// let filter = QueryFilter::default().with_mask(0b11).with_sensors().excluding(me);
/// assert!(filter.excluded.contains(&me));
/// ```
#[derive(Clone, Debug, PartialEq, Reflect)]
pub struct QueryFilter {
    /// A collider is found only if it is a member of one of these layers
    /// ([`CollisionLayers::memberships`](crate::CollisionLayers::memberships) `& mask != 0`).
    pub mask: u32,
    /// Whether sensors are found (they are not by default).
    pub include_sensors: bool,
    /// Entities never found, such as the caster itself.
    pub excluded: Vec<Entity>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self {
            mask: u32::MAX,
            include_sensors: false,
            excluded: Vec::new(),
        }
    }
}

impl QueryFilter {
    /// Finds only members of the layers in `mask`: a raw mask, or layers of a
    /// [`PhysicsLayer`](crate::PhysicsLayer) enum (one, or an array of them).
    pub fn with_mask(mut self, mask: impl crate::components::LayerMask) -> Self {
        self.mask = mask.mask();
        self
    }

    /// Finds sensors too.
    pub fn with_sensors(mut self) -> Self {
        self.include_sensors = true;
        self
    }

    /// Never finds `entity`.
    pub fn excluding(mut self, entity: Entity) -> Self {
        self.excluded.push(entity);
        self
    }

    /// Whether the filter lets `collider` through.
    pub(crate) fn accepts(&self, collider: &ColliderProxy) -> bool {
        collider.layers.memberships & self.mask != 0
            && (self.include_sensors || !collider.sensor)
            && !self.excluded.contains(&collider.entity)
    }
}

/// Where a ray hit a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The collider hit (its entity, the tile-grid piece, its box and flags).
    pub collider: ColliderHit,
    /// Distance from the origin, px.
    pub distance: f32,
    /// The point hit.
    pub point: Vec2,
    /// Unit normal of the surface hit, pointing back toward the origin's side.
    pub normal: Vec2,
}

/// Where a cast box first touched a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxHit {
    /// The collider hit.
    pub collider: ColliderHit,
    /// How far the box travelled, px.
    pub distance: f32,
    /// Unit normal of the surface hit, pointing back toward the box.
    pub normal: Vec2,
    /// The box where it touches.
    pub aabb: Aabb,
}

/// The physics world seen from a system: ray casts, box casts, overlaps.
///
/// # Example
///
/// A ledge probe: is there ground a little ahead of a walker's front foot?
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Walker {
///     direction: f32,
/// }
///
/// fn turn_at_ledges(query: SpatialQuery, mut walkers: Query<(Entity, &mut Walker, &Transform, &Collider)>) {
///     for (entity, mut walker, transform, collider) in &mut walkers {
///         let aabb = collider.aabb(transform.translation.truncate());
///         let front = if walker.direction > 0.0 { aabb.max.x + 1.0 } else { aabb.min.x - 1.0 };
///         let filter = QueryFilter::default().excluding(entity);
///         if query.cast_ray(Vec2::new(front, aabb.min.y + 1.0), Dir2::NEG_Y, 4.0, &filter).is_none() {
///             walker.direction = -walker.direction;
///         }
///     }
/// }
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
/// app.add_systems(FixedUpdate, turn_at_ledges.before(PlatformerSystems::SyncColliders));
/// ```
///
/// Outside a system (an exclusive system, a test), [`SpatialQuery::from_world`] gives the same
/// view of a `&World`.
#[derive(Clone, Copy)]
pub struct SpatialQuery<'w> {
    broad_phase: &'w BroadPhase,
    config: &'w PhysicsConfig,
}

/// What a [`SpatialQuery`] reads, as system parameters.
type SpatialQueryParams = (Res<'static, BroadPhase>, Res<'static, PhysicsConfig>);

// SAFETY: every function forwards to the two `Res` parameters' own implementation (the same
// state, access and world), and the item only turns their borrows into plain shared references
// of the same lifetime.
unsafe impl SystemParam for SpatialQuery<'_> {
    // (The two `Res`' states, spelled out: naming them through the tuple would show the private
    // broad phase in a public type.)
    type State = (ComponentId, ComponentId);
    type Item<'w, 's> = SpatialQuery<'w>;

    fn init_state(world: &mut World) -> Self::State {
        SpatialQueryParams::init_state(world)
    }

    fn init_access(
        state: &Self::State,
        system_meta: &mut SystemMeta,
        component_access_set: &mut FilteredAccessSet,
        world: &mut World,
    ) {
        SpatialQueryParams::init_access(state, system_meta, component_access_set, world);
    }

    unsafe fn get_param<'w, 's>(
        state: &'s mut Self::State,
        system_meta: &SystemMeta,
        world: UnsafeWorldCell<'w>,
        change_tick: Tick,
    ) -> Result<Self::Item<'w, 's>, SystemParamValidationError> {
        // SAFETY: the caller keeps `get_param`'s contract for this state and world.
        let (broad_phase, config) = unsafe { SpatialQueryParams::get_param(state, system_meta, world, change_tick) }?;
        Ok(SpatialQuery {
            broad_phase: broad_phase.into_inner(),
            config: config.into_inner(),
        })
    }
}

// SAFETY: it reads two resources and writes nothing.
unsafe impl ReadOnlySystemParam for SpatialQuery<'_> {}

impl<'w> SpatialQuery<'w> {
    /// The physics world of `world`, as a system's `SpatialQuery` sees it; `None` before the
    /// physics plugins are added.
    ///
    /// # Example
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_platformer_physics::prelude::*;
    ///
    /// let mut app = App::new();
    /// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default()));
    /// app.insert_resource(bevy::time::TimeUpdateStrategy::FixedTimesteps(1));
    /// let floor = app.world_mut().spawn((Transform::default(), Collider::rectangle(64.0, 16.0))).id();
    /// app.update(); // starts the clocks
    /// app.update(); // a physics step: it mirrors the new collider
    /// let query = SpatialQuery::from_world(app.world()).unwrap();
    /// let hits = query.overlap_point(Vec2::ZERO, &QueryFilter::default());
    /// assert_eq!(hits.iter().map(|hit| hit.entity).collect::<Vec<_>>(), [floor]);
    /// ```
    pub fn from_world(world: &'w World) -> Option<Self> {
        Some(Self {
            broad_phase: world.get_resource::<BroadPhase>()?,
            config: world.get_resource::<PhysicsConfig>()?,
        })
    }
}

impl SpatialQuery<'_> {
    /// The first collider the ray from `origin` along `direction`, no longer than `max_distance`,
    /// hits. A ray that starts inside a solid box hits it at distance 0.
    pub fn cast_ray(&self, origin: Vec2, direction: Dir2, max_distance: f32, filter: &QueryFilter) -> Option<RayHit> {
        let mut first: Option<RayHit> = None;
        self.for_each_ray_hit(origin, direction, max_distance, filter, |hit| {
            if first.is_none_or(|f| hit.distance < f.distance) {
                first = Some(hit);
            }
        });
        first
    }

    /// Every collider the ray hits, nearest first (then by entity and piece).
    pub fn cast_ray_all(&self, origin: Vec2, direction: Dir2, max_distance: f32, filter: &QueryFilter) -> Vec<RayHit> {
        let mut hits = Vec::new();
        self.for_each_ray_hit(origin, direction, max_distance, filter, |hit| hits.push(hit));
        hits.sort_by(|a, b| {
            a.distance
                .total_cmp(&b.distance)
                .then((a.collider.entity, a.collider.part).cmp(&(b.collider.entity, b.collider.part)))
        });
        hits
    }

    /// The first collider the box `aabb`, moved along `direction` no farther than `max_distance`,
    /// touches, by the continuous mode's swept-box test (and, on slopes, the movement rules'
    /// uphill foot). A box that starts inside a solid hits it at distance 0.
    pub fn cast_box(&self, aabb: Aabb, direction: Dir2, max_distance: f32, filter: &QueryFilter) -> Option<BoxHit> {
        let dir = Vec2::from(direction);
        let (skin, tolerance) = (self.config.skin, self.config.contact_tolerance());
        let mut best: Option<BoxHit> = None;
        for collider in self.candidates(&aabb.swept(dir * max_distance.max(0.0)), filter) {
            let hit = match collider.slope_shape() {
                Some(shape) => cast_box_slope(&aabb, dir, max_distance, &shape, tolerance),
                None if collider.one_way => {
                    // Only landing on the top, from at or above it.
                    cast_box_aabb(&aabb, dir, max_distance, &collider.aabb, skin)
                        .filter(|hit| hit.normal == Vec2::Y && aabb.min.y >= collider.aabb.max.y - skin)
                }
                None => cast_box_aabb(&aabb, dir, max_distance, &collider.aabb, skin),
            };
            if let Some(CastHit { distance, normal }) = hit
                && best.is_none_or(|b| distance < b.distance)
            {
                best = Some(BoxHit {
                    collider: ColliderHit::of(&collider),
                    distance,
                    normal,
                    aabb: aabb.translated(dir * distance),
                });
            }
        }
        best
    }

    /// Every collider that `area` overlaps (more than touching): boxes, tile-grid pieces, and the
    /// triangle under a slope's surface. Sorted by entity and piece.
    pub fn overlap_area(&self, area: Aabb, filter: &QueryFilter) -> Vec<ColliderHit> {
        self.overlapping(area, filter).iter().map(ColliderHit::of).collect()
    }

    fn overlapping(&self, area: Aabb, filter: &QueryFilter) -> Vec<ColliderProxy> {
        let mut found = self.candidates(&area, filter);
        found.retain(|c| match c.slope_shape() {
            Some(shape) => area_overlaps_slope(&area, &shape),
            None => area.intersects(&c.aabb, 0.0),
        });
        found
    }

    /// Every collider that contains `point` (its border included): boxes, tile-grid pieces, and
    /// the triangle under a slope's surface. Sorted by entity and piece.
    pub fn overlap_point(&self, point: Vec2, filter: &QueryFilter) -> Vec<ColliderHit> {
        let mut found = self.candidates(&Aabb::from_min_size(point, Vec2::ZERO), filter);
        found.retain(|c| match c.slope_shape() {
            Some(shape) => point_in_slope(point, &shape),
            None => c.aabb.contains(point),
        });
        found.iter().map(ColliderHit::of).collect()
    }

    /// Whether a box `area` fits where it is: it overlaps (more than touching) no solid obstacle,
    /// a static or kinematic collider solid from every side. One-way platforms, slopes, sensors
    /// and dynamic bodies do not count. For game rules such as "can the player grow or stand up
    /// here".
    pub fn is_free(&self, area: Aabb, filter: &QueryFilter) -> bool {
        !self
            .overlapping(area, filter)
            .iter()
            .any(ColliderProxy::is_solid_obstacle)
    }

    /// The collider `entity` (its tile-grid piece `part`; 0 for an ordinary collider) as the
    /// physics world holds it: its box, kind and flags. `None` when it is not in the world
    /// (despawned, disabled, invalid).
    pub fn collider(&self, entity: Entity, part: u32) -> Option<ColliderHit> {
        self.broad_phase.piece(entity, part).as_ref().map(ColliderHit::of)
    }

    /// The colliders near `area` that `filter` lets through.
    fn candidates(&self, area: &Aabb, filter: &QueryFilter) -> Vec<ColliderProxy> {
        let mut nearby = Vec::new();
        self.broad_phase.query(area, &mut nearby);
        nearby.retain(|c| filter.accepts(c));
        nearby
    }

    fn for_each_ray_hit(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        filter: &QueryFilter,
        mut found: impl FnMut(RayHit),
    ) {
        let dir = Vec2::from(direction);
        if !origin.is_finite() || !max_distance.is_finite() || max_distance < 0.0 {
            return;
        }
        let reach = Aabb::from_min_size(origin, Vec2::ZERO).swept(dir * max_distance);
        for collider in self.candidates(&reach, filter) {
            let hit = match collider.slope_shape() {
                Some(shape) => ray_slope(origin, dir, max_distance, &shape),
                None if collider.one_way => ray_aabb(origin, dir, max_distance, &collider.aabb)
                    .filter(|hit| hit.normal == Vec2::Y && origin.y >= collider.aabb.max.y),
                None => ray_aabb(origin, dir, max_distance, &collider.aabb),
            };
            if let Some(CastHit { distance, normal }) = hit {
                found(RayHit {
                    collider: ColliderHit::of(&collider),
                    distance,
                    point: origin + dir * distance,
                    normal,
                });
            }
        }
    }
}
