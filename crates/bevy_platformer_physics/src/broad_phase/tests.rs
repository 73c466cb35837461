//! Unit tests of the broad phase.

use super::*;
use crate::geometry::SlopeShape;

fn proxy(index: u32, x: f32, y: f32, w: f32, h: f32) -> ColliderProxy {
    ColliderProxy::static_box(index, Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h)))
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
