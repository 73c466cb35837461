//! The static candidates a dynamic body keeps from one stage and one step to the next.

use bevy::prelude::*;
use smallvec::SmallVec;

use super::{BroadPhase, ColliderProxy};
use crate::components::CollisionLayers;
use crate::geometry::Aabb;
use crate::geometry::SlopeShape;

/// The kept boxes of a body. A walker on a tile grid keeps up to four (the ground run, the runs
/// under a ramp, a wall): they live inline in the component, read with the rest of the body, not
/// from a heap block of their own.
type KeptBoxes = SmallVec<[ColliderProxy; 4]>;
/// The kept slopes of a body: one or two around a ramp or a valley, most often none.
type KeptSlopes = SmallVec<[ColliderProxy; 2]>;

/// The static colliders and tile-grid pieces a dynamic body interacts with around its move, kept
/// from one stage of the step to the next and from one step to the next. The prepare stage queries
/// an area with some room around the move, and keeps the result while the body's moves stay inside
/// it and the static geometry does not change ([`BroadPhase::static_version`]); the resolve and
/// finish stages take theirs from it. So a walking body queries the broad phase every few
/// steps, not several times per step, and gets exactly what a new query would return. Kept by the
/// plugin; added with [`Dynamic`](crate::Dynamic) (a required component the core plugin registers).
#[derive(Component, Clone, Debug, Default)]
pub(crate) struct StaticCandidates {
    /// The area queried, the static version then, and the layers of the body it was for (`None`
    /// when nothing is kept).
    kept: Option<(Aabb, u64, CollisionLayers)>,
    /// What the query returned except the slopes, sorted by entity and part.
    boxes: KeptBoxes,
    /// The slopes the query returned, sorted by entity and part: most bodies walk where there
    /// is none, and the slope rules look at nothing else.
    slopes: KeptSlopes,
    /// Where the latest movement pass left the body (its box) and the static version then: a
    /// body still there, with no static collider changed since, is out of the level's solids, as
    /// every move ends, and needs no recovery check.
    moved_to: Option<(Aabb, u64)>,
}

/// The kept candidates are a cache, rebuilt by the next step: saved, a body keeps none.
#[cfg(feature = "serialize")]
impl serde::Serialize for StaticCandidates {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

#[cfg(feature = "serialize")]
impl<'de> serde::Deserialize<'de> for StaticCandidates {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer)?;
        Ok(Self::default())
    }
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
            // A sensor slope is never stood on: kept with the boxes, it is only touched.
            if p.slope.is_some() && !p.sensor {
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
        self.moved_to = None;
    }

    /// Notes that the movement pass left the body at `aabb`.
    pub(crate) fn set_moved_to(&mut self, aabb: Aabb, broad_phase: &BroadPhase) {
        self.moved_to = Some((aabb, broad_phase.static_version()));
    }

    /// Whether the body is still where the latest movement pass left it, at `aabb`, and no static
    /// collider or tile grid changed since.
    pub(crate) fn unmoved_since_pass(&self, aabb: &Aabb, broad_phase: &BroadPhase) -> bool {
        self.moved_to == Some((*aabb, broad_phase.static_version()))
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

    /// [`for_each_touching`](Self::for_each_touching) for the slopes only (not the sensor slopes,
    /// which support nothing), with their shapes.
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
                && !p.sensor
                && p.aabb.meets(area)
            {
                f(p, shape);
            }
        }
    }
}
