//! The push-out of a body that overlaps solids: the correction vector accumulated over every
//! solid it overlaps, along the axis it entered each by, never through the internal face between
//! two cells of a floor or a wall.

use bevy::prelude::*;

use crate::broad_phase::ColliderProxy;
use crate::components::*;
use crate::geometry::{Aabb, CorrectionAccumulator, remove_velocity_into};

/// Pushes `aabb` out of every solid it overlaps, with the accumulated correction vector (see
/// [`CorrectionAccumulator`], and *Discrete mode* in [the physics rules](crate::physics_rules)): fully out of static
/// and kinematic colliders, half out of dynamic ones (the other dynamic body does its own half). Removes the velocity into each surface and records contacts.
///
/// Moving bodies (dynamic, then kinematic) are handled first, statics last and measured again
/// after the first pass, so they have the final word: a body squeezed between a lift and a wall
/// ends against the wall, overlapping the lift, never inside the wall.
///
/// `blockers` are solids left out of the move (the top-join blocks) that a push must still not sink
/// the body into. `previous`: the box before the move that caused the overlaps, if known.
pub(crate) fn push_out(
    aabb: &mut Aabb,
    previous: Option<&Aabb>,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    // Most bodies overlap nothing: one look instead of a pass per kind.
    if !solids.iter().any(|s| aabb.intersects(&s.aabb, skin)) {
        return;
    }
    let entered = *aabb;
    for kind in [BodyKind::Dynamic, BodyKind::Kinematic, BodyKind::Static] {
        if kind == BodyKind::Static && *aabb != entered {
            push_back_out(aabb, &entered, velocity, solids, skin, contacts);
        }
        // A correction can push the body into a static solid it did not overlap when the pass
        // measured (out of a wall and into the block beside it): the statics, which have the last
        // word, measure again, a few times at most.
        let passes = if kind == BodyKind::Static { 4 } else { 1 };
        for _ in 0..passes {
            if !push_out_pass(aabb, previous, velocity, solids, blockers, kind, skin, contacts) {
                break;
            }
        }
    }
}

/// Takes `aabb` back out of the level's solids that the pushes out of moving bodies moved it into
/// from `entered` (where it was beside them), by the face it came in through: out of a lift and
/// into the wall beside, the body goes back against the wall, never on through to its far side
/// (it then overlaps the lift, which squishes it).
fn push_back_out(
    aabb: &mut Aabb,
    entered: &Aabb,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    skin: f32,
    contacts: &mut Contacts,
) {
    for solid in solids.iter().filter(|s| s.is_level_solid()) {
        let before = entered.overlap(&solid.aabb);
        if !aabb.intersects(&solid.aabb, skin) || before.min_element() > skin {
            continue;
        }
        let Some(axis) = entry_axis(entered, &solid.aabb, skin) else {
            continue;
        };
        let mut normal = Vec2::ZERO;
        normal[axis] = if entered.center()[axis] >= solid.aabb.center()[axis] {
            1.0
        } else {
            -1.0
        };
        let shift = if normal[axis] > 0.0 {
            solid.aabb.max[axis] - aabb.min[axis]
        } else {
            solid.aabb.min[axis] - aabb.max[axis]
        };
        *aabb = aabb.translated(normal * shift.abs());
        remove_velocity_into(velocity, normal);
        contacts.record(solid.contact(ContactDirection::from_normal(normal), shift.abs()));
    }
}

/// One push-out with one accumulator, out of the solids of one `kind`; returns whether it moved
/// the body. Every penetration is measured against the same box, before any correction, as if all
/// the contacts were reported at once: the accumulator then removes what earlier pushes already
/// did.
#[allow(clippy::too_many_arguments)]
fn push_out_pass(
    aabb: &mut Aabb,
    previous: Option<&Aabb>,
    velocity: &mut Vec2,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    kind: BodyKind,
    skin: f32,
    contacts: &mut Contacts,
) -> bool {
    let overlapped = *aabb;
    let mut correction = CorrectionAccumulator::default();
    for solid in solids.iter().filter(|s| s.kind == kind) {
        if !overlapped.intersects(&solid.aabb, skin) {
            continue;
        }
        let (normal, depth) = if solid.one_way {
            (Vec2::Y, solid.aabb.max.y - overlapped.min.y)
        } else {
            push_axis(&overlapped, previous, solid, solids, blockers, skin)
        };
        let share = if solid.kind == BodyKind::Dynamic { 0.5 } else { 1.0 };
        *aabb = aabb.translated(correction.push(normal * depth * share));
        remove_velocity_into(velocity, normal);
        contacts.record(solid.contact(ContactDirection::from_normal(normal), depth));
    }
    correction.total != Vec2::ZERO
}

/// The axis (0 for x, 1 for y) through which a body that was at `previous` entered `solid`: the one
/// on which it was apart (or touching) while it already overlapped on the other. `None` for a body
/// that was already inside, or came in through a corner.
fn entry_axis(previous: &Aabb, solid: &Aabb, skin: f32) -> Option<usize> {
    let before = previous.overlap(solid);
    match (before.x > skin, before.y > skin) {
        (false, true) => Some(0),
        (true, false) => Some(1),
        _ => None,
    }
}

/// How deep `body` is inside `solid`: along the axis the body entered it through, when known from
/// `previous`, else the smaller overlap. Zero when apart. A body walking into the side
/// of an overhang while its head is already above the overhang's bottom is in it by the sideways
/// overlap: standing up out of the floor does not sink it deeper.
fn penetration(body: &Aabb, previous: Option<&Aabb>, solid: &Aabb, skin: f32) -> f32 {
    let o = body.overlap(solid);
    if o.x <= 0.0 || o.y <= 0.0 {
        return 0.0;
    }
    match previous.and_then(|p| entry_axis(p, solid, skin)) {
        Some(axis) => o[axis],
        None => o.min_element(),
    }
}

/// The push out of `solid` for a body at `body`: the axis of the smaller penetration (the shortest
/// way out), unless that push would move the body into another solid — through the internal face between two
/// cells of a floor or a wall (the "ghost collision" that stops a body at a seam), or down into the
/// platform it stands on when its head meets a block's corner — and the other axis would not, and
/// would take the body out of `solid` without putting it into another solid of the level.
/// `previous`, the box before the move, tells how deep the body is in those other solids.
fn push_axis(
    body: &Aabb,
    previous: Option<&Aabb>,
    solid: &ColliderProxy,
    solids: &[ColliderProxy],
    blockers: &[ColliderProxy],
    skin: f32,
) -> (Vec2, f32) {
    let overlap = body.overlap(&solid.aabb);
    let away = body.center() - solid.aabb.center();
    let sign = |v: f32| if v >= 0.0 { 1.0 } else { -1.0 };
    // Back out through the face the body came in by, on an axis where the box before the substep
    // was apart from the solid: a body thinner than the solid (or the solid thinner than the body)
    // can pass its centre in one substep, and pushed away from the centre it would come out the
    // far side. On an axis where it overlapped already, away from the centre.
    let s = &solid.aabb;
    let apart_before = |axis: usize| previous.filter(|p| p.overlap(s)[axis] <= skin);
    let push = |axis: usize| {
        let mut normal = Vec2::ZERO;
        let depth = match apart_before(axis) {
            Some(p) if p.max[axis] <= s.min[axis] + skin => {
                normal[axis] = -1.0;
                body.max[axis] - s.min[axis]
            }
            Some(_) => {
                normal[axis] = 1.0;
                s.max[axis] - body.min[axis]
            }
            None => {
                normal[axis] = sign(away[axis]);
                overlap[axis]
            }
        };
        (normal, depth)
    };
    let (horizontal, vertical) = (push(0), push(1));
    // A box that came in through the solid's top or bottom (apart on that axis only) is pushed
    // vertically whatever the overlaps; one that rested level with its top (walking across the seam
    // between a one-way cell and a solid one) sinks into the top, not the side. Else the axis of the
    // smaller overlap.
    let came_in_by = previous.and_then(|p| entry_axis(p, s, skin));
    let resting_on_top = vertical.0.y > 0.0 && apart_before(1).is_some_and(|p| (p.min.y - s.max.y).abs() <= skin);
    let (first, second) = match came_in_by {
        Some(1) => (vertical, horizontal),
        _ if resting_on_top || overlap.y <= overlap.x => (vertical, horizontal),
        _ => (horizontal, vertical),
    };
    let blocked = |(normal, depth): (Vec2, f32)| {
        internal_face(solid, normal, body, solids, skin)
            || push_deepens(body, previous, normal * depth, solid, solids, skin)
            || push_deepens(body, previous, normal * depth, solid, blockers, skin)
    };
    // The other axis only if its push takes the body out of `solid` and into no other solid: a
    // body inside a solid's extent on that axis (a ceiling wider than the body, a hair too low
    // over it) would be thrown sideways by its width and still be under it; a body whose head is
    // a hair into a block's corner, beside a wall, would be thrown into the wall.
    let fits = |(normal, depth): (Vec2, f32)| {
        let moved = body.translated(normal * depth);
        !moved.intersects(&solid.aabb, skin)
            && !solids.iter().chain(blockers).any(|c| {
                !c.same_collider(solid)
                    && c.is_level_solid()
                    && moved.intersects(&c.aabb, skin)
                    && !body.intersects(&c.aabb, skin)
            })
    };
    if blocked(first) && !blocked(second) && fits(second) {
        second
    } else {
        first
    }
}

/// Whether pushing `body` by `push` out of `solid` would sink it deeper into another static solid it
/// already touches (its [`penetration`] grows): the floor under a body whose head meets a block's
/// corner, the wall beside a body that falls onto a block's corner. A one-way platform only counts
/// for a downward push. A solid the body does not touch yet is left to the next measuring pass.
fn push_deepens(
    body: &Aabb,
    previous: Option<&Aabb>,
    push: Vec2,
    solid: &ColliderProxy,
    solids: &[ColliderProxy],
    skin: f32,
) -> bool {
    let moved = body.translated(push);
    solids.iter().any(|c| {
        !c.same_collider(solid)
            && c.kind == BodyKind::Static
            && !c.sensor
            && c.slope.is_none()
            && (!c.one_way || push.y < 0.0)
            && body.touches(&c.aabb, skin)
            && penetration(&moved, previous, &c.aabb, skin) > penetration(body, previous, &c.aabb, skin) + skin
    })
}

/// Whether the face of static `solid` facing `normal` is covered by another static solid where
/// `body` overlaps it: a point just outside that face, in the middle of the overlap, lies inside it.
#[inline]
pub(crate) fn internal_face(
    solid: &ColliderProxy,
    normal: Vec2,
    body: &Aabb,
    solids: &[ColliderProxy],
    skin: f32,
) -> bool {
    // Internal edges belong to the level's static geometry; a lift is never part of a wall.
    if solid.kind != BodyKind::Static {
        return false;
    }
    let b = &solid.aabb;
    let outside = 2.0 * skin.max(1e-4);
    let probe = if normal.x != 0.0 {
        let x = if normal.x > 0.0 {
            b.max.x + outside
        } else {
            b.min.x - outside
        };
        Vec2::new(x, 0.5 * (b.min.y.max(body.min.y) + b.max.y.min(body.max.y)))
    } else {
        let y = if normal.y > 0.0 {
            b.max.y + outside
        } else {
            b.min.y - outside
        };
        Vec2::new(0.5 * (b.min.x.max(body.min.x) + b.max.x.min(body.max.x)), y)
    };
    solids
        .iter()
        .any(|c| !c.same_collider(solid) && c.is_level_solid() && c.aabb.contains(probe))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(index: u32, min: Vec2) -> ColliderProxy {
        ColliderProxy::static_box(index, Aabb::from_min_size(min, Vec2::splat(16.0)))
    }

    const SKIN: f32 = 1e-3;

    /// A block of a slot's side, from x = `min_x` to `max_x`, its top at y = 10.
    fn slot_side(index: u32, min_x: f32, max_x: f32) -> ColliderProxy {
        ColliderProxy::static_box(
            index,
            Aabb {
                min: Vec2::new(min_x, -100.0),
                max: Vec2::new(max_x, 10.0),
            },
        )
    }

    #[test]
    fn the_entry_axis_is_the_one_on_which_the_body_was_still_apart() {
        let solid = Aabb::from_min_size(Vec2::new(100.0, 100.0), Vec2::splat(16.0));
        let size = Vec2::new(12.0, 24.0);
        // Beside it (overlapping on y): came in through a side face.
        let beside = Aabb::from_min_size(Vec2::new(88.0, 96.0), size);
        assert_eq!(entry_axis(&beside, &solid, SKIN), Some(0));
        // Above it (overlapping on x): came in through the top.
        let above = Aabb::from_min_size(Vec2::new(102.0, 116.0), size);
        assert_eq!(entry_axis(&above, &solid, SKIN), Some(1));
        // Already inside, or apart on both axes (a corner): unknown.
        let inside = Aabb::from_min_size(Vec2::new(102.0, 98.0), size);
        assert_eq!(entry_axis(&inside, &solid, SKIN), None);
        let corner = Aabb::from_min_size(Vec2::new(86.0, 117.0), size);
        assert_eq!(entry_axis(&corner, &solid, SKIN), None);

        // How deep a body now 3 px in from the side and 10 px in from the top is, by where it
        // came from.
        let now = Aabb::from_min_size(Vec2::new(91.0, 106.0), size);
        assert_eq!(penetration(&now, Some(&beside), &solid, SKIN), 3.0);
        assert_eq!(penetration(&now, Some(&above), &solid, SKIN), 10.0);
        assert_eq!(penetration(&now, None, &solid, SKIN), 3.0, "the smaller overlap");
    }

    #[test]
    fn a_body_that_was_within_a_skin_of_a_face_entered_through_that_face() {
        // With a skin of 0.5 px the boundary is exact: 0.5 px into the solid's side (a rounding
        // margin) is still beside it.
        let skin = 0.5;
        let solid = Aabb::from_min_size(Vec2::new(100.0, 100.0), Vec2::splat(16.0));
        let size = Vec2::new(12.0, 24.0);
        let beside = Aabb::from_min_size(Vec2::new(88.5, 96.0), size);
        assert_eq!(beside.overlap(&solid).x, skin);
        assert_eq!(entry_axis(&beside, &solid, skin), Some(0));
        let above = Aabb::from_min_size(Vec2::new(102.0, 115.5), size);
        assert_eq!(above.overlap(&solid).y, skin);
        assert_eq!(entry_axis(&above, &solid, skin), Some(1));
    }

    #[test]
    fn a_body_touching_one_side_of_a_slot_and_a_hair_into_the_other_is_pushed_sideways() {
        // A slot 10 px deep between two blocks, a hair narrower than the body plus its margins:
        // the body, its feet at the slot's bottom, is half a skin from the left block and 1.2
        // skins into the right one. It goes back the hair to the left (ending 0.7 skins into the
        // left block, a rounding margin), not up 10 px onto the blocks.
        let left = slot_side(1, -16.0, 0.0);
        let right = slot_side(2, 12.0005 - 0.0012, 28.0);
        let start = Aabb::from_min_size(Vec2::new(0.0005, 0.0), Vec2::new(12.0, 24.0));
        let mut aabb = start;
        let mut velocity = Vec2::ZERO;
        let mut contacts = Contacts::default();
        push_out(&mut aabb, None, &mut velocity, &[left, right], &[], SKIN, &mut contacts);
        assert_eq!(aabb.min.y, 0.0, "not thrown up: {aabb:?}");
        assert!((aabb.min.x + 0.0007).abs() < 1e-5, "{aabb:?}");
    }

    /// `aabb` mirrored about x = 0.
    fn mirrored(aabb: Aabb) -> Aabb {
        Aabb {
            min: Vec2::new(-aabb.max.x, aabb.min.y),
            max: Vec2::new(-aabb.min.x, aabb.max.y),
        }
    }

    #[test]
    fn a_body_a_lift_pushes_into_a_thin_wall_goes_back_against_it_not_through_it() {
        // A wall 4 px thick, a body resting against its right face (into it by exactly the skin,
        // 0.5 px here, a rounding margin), a tall lift 9 px into the body from the right. Out of
        // the lift, the body goes 9 px into the wall, past the wall's middle: it comes back out
        // by the face it went in through, flush (and overlaps the lift, which squishes it), never
        // out of the wall's far side. The same mirrored, the wall on the body's right.
        let skin = 0.5;
        let wall = Aabb {
            min: Vec2::new(96.0, -100.0),
            max: Vec2::new(100.0, 100.0),
        };
        let lift = Aabb {
            min: Vec2::new(102.5, -100.0),
            max: Vec2::new(140.0, 100.0),
        };
        let start = Aabb::from_min_size(Vec2::new(99.5, 0.0), Vec2::new(12.0, 24.0));
        let flush = Aabb::from_min_size(Vec2::new(100.0, 0.0), Vec2::new(12.0, 24.0));
        for (side, mirror) in [(ContactDirection::Left, false), (ContactDirection::Right, true)] {
            let place = |aabb: Aabb| if mirror { mirrored(aabb) } else { aabb };
            let wall = ColliderProxy::static_box(1, place(wall));
            let lift = ColliderProxy {
                kind: BodyKind::Kinematic,
                ..ColliderProxy::static_box(2, place(lift))
            };
            let mut aabb = place(start);
            let mut velocity = Vec2::new(if mirror { 50.0 } else { -50.0 }, 0.0);
            let mut contacts = Contacts::default();
            push_out(&mut aabb, None, &mut velocity, &[wall, lift], &[], skin, &mut contacts);
            assert_eq!(aabb, place(flush), "{side:?}: back against the wall");
            assert_eq!(velocity.x, 0.0, "{side:?}: no velocity into the wall");
            let wall_contact = contacts.with(wall.entity).expect("touches the wall");
            assert_eq!(wall_contact.direction, side);
            assert_eq!(wall_contact.depth, 9.5, "{side:?}: how far in the lift had pushed it");
        }
    }

    #[test]
    fn a_push_that_would_sink_the_body_into_the_block_beside_it_goes_the_other_way() {
        // With a skin of 0.5 px. A slot 10 px deep: the body stands flush against its left block
        // and 2 px into its right one. Pushing it 2 px left would sink it 2 px into the left
        // block, so it goes up 10 px instead, out of the slot, whether the left block is among
        // the solids or a support left out of the move (a block continuing a slope's top).
        let skin = 0.5;
        let left = slot_side(1, -16.0, 0.0);
        let right = slot_side(2, 10.0, 28.0);
        let body = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        let (normal, depth) = push_axis(&body, None, &right, &[right, left], &[], skin);
        assert_eq!((normal, depth), (Vec2::Y, 10.0), "among the solids");
        let (normal, depth) = push_axis(&body, None, &right, &[right], &[left], skin);
        assert_eq!((normal, depth), (Vec2::Y, 10.0), "a support");
    }

    #[test]
    fn a_sideways_push_is_never_held_back_by_a_one_way_platform_the_body_passes_through() {
        // The body 2 px into a block on its right, its waist through the end of a one-way
        // platform on its left (1 px across). Pushed 2 px left, it goes 2 px further through the
        // platform, which only counts for a downward push: it goes left, not up 10 px.
        let right = slot_side(1, 10.0, 28.0);
        let platform = ColliderProxy {
            one_way: true,
            ..ColliderProxy::static_box(
                2,
                Aabb {
                    min: Vec2::new(-16.0, 8.0),
                    max: Vec2::new(1.0, 12.0),
                },
            )
        };
        let body = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        let (normal, depth) = push_axis(&body, None, &right, &[right, platform], &[], SKIN);
        assert_eq!((normal, depth), (Vec2::NEG_X, 2.0));
    }

    #[test]
    fn a_lifts_push_is_measured_where_another_bodys_push_put_the_body_and_the_wall_has_the_last_word() {
        // A body 9 px wide, 1 px left of a wall; another dynamic body 4 px into its left side (it
        // pushes half of that, 2 px, into the wall); a lift 3 px into its head from above, from
        // x = 7.5 on. Where the first push put it, the lift overlaps it 3.5 px across and 3 px
        // down, so it pushes it down; only then does the wall take it back out, to flush.
        let wall = ColliderProxy::static_box(
            1,
            Aabb {
                min: Vec2::new(10.0, -100.0),
                max: Vec2::new(20.0, 100.0),
            },
        );
        let other = ColliderProxy {
            kind: BodyKind::Dynamic,
            ..ColliderProxy::static_box(
                2,
                Aabb {
                    min: Vec2::new(-20.0, -100.0),
                    max: Vec2::new(4.0, 100.0),
                },
            )
        };
        let lift = ColliderProxy {
            kind: BodyKind::Kinematic,
            ..ColliderProxy::static_box(
                3,
                Aabb {
                    min: Vec2::new(7.5, 21.0),
                    max: Vec2::new(40.0, 60.0),
                },
            )
        };
        let mut aabb = Aabb::from_min_size(Vec2::ZERO, Vec2::new(9.0, 24.0));
        let mut velocity = Vec2::ZERO;
        let mut contacts = Contacts::default();
        push_out(
            &mut aabb,
            None,
            &mut velocity,
            &[wall, other, lift],
            &[],
            SKIN,
            &mut contacts,
        );
        assert_eq!(aabb, Aabb::from_min_size(Vec2::new(1.0, -3.0), Vec2::new(9.0, 24.0)));
        assert_eq!(
            contacts.with(wall.entity).map(|c| c.direction),
            Some(ContactDirection::Right)
        );
        assert_eq!(
            contacts.with(lift.entity).map(|c| c.direction),
            Some(ContactDirection::Up)
        );
    }

    #[test]
    fn a_push_that_deepens_a_neighbours_overlap_by_exactly_a_skin_is_made() {
        // With a skin of 0.5 px the boundary is exact. A block overlaps the body's right side by
        // 2 px; a corner of another block is over its top-left, 0.25 px across and 0.75 px down
        // (touching, not inside: within the skin on x). The push 2 px left makes the corner's
        // penetration 0.75 instead of 0.25: deeper by exactly the skin, which does not count, so
        // the body goes left by the face it entered, not up 10 px over the first block.
        let skin = 0.5;
        let right = slot_side(1, 10.0, 40.0);
        let corner = ColliderProxy::static_box(
            2,
            Aabb {
                min: Vec2::new(-20.0, 23.25),
                max: Vec2::new(0.25, 50.0),
            },
        );
        let body = Aabb::from_min_size(Vec2::ZERO, Vec2::new(12.0, 24.0));
        let (normal, depth) = push_axis(&body, None, &right, &[right, corner], &[], skin);
        assert_eq!((normal, depth), (Vec2::NEG_X, 2.0));
    }

    #[test]
    fn a_face_is_internal_only_where_a_neighbouring_solid_covers_it() {
        // Two cells of a floor side by side, and a stack of two cells, away from the origin.
        let left = cell(1, Vec2::new(64.0, 32.0));
        let right = cell(2, Vec2::new(80.0, 32.0));
        let lower = cell(3, Vec2::new(160.0, 32.0));
        let upper = cell(4, Vec2::new(160.0, 48.0));
        let solids = [left, right, lower, upper];
        let body = |x: f32, y: f32| Aabb::from_min_size(Vec2::new(x, y), Vec2::new(12.0, 24.0));
        // The faces between neighbours, from either side.
        assert!(internal_face(&left, Vec2::X, &body(74.0, 40.0), &solids, SKIN));
        assert!(internal_face(&right, -Vec2::X, &body(76.0, 40.0), &solids, SKIN));
        assert!(internal_face(&lower, Vec2::Y, &body(162.0, 44.0), &solids, SKIN));
        assert!(internal_face(&upper, -Vec2::Y, &body(162.0, 30.0), &solids, SKIN));
        // The outer faces.
        assert!(!internal_face(&left, -Vec2::X, &body(54.0, 40.0), &solids, SKIN));
        assert!(!internal_face(&left, Vec2::Y, &body(66.0, 44.0), &solids, SKIN));
        assert!(!internal_face(&upper, Vec2::Y, &body(162.0, 60.0), &solids, SKIN));
        assert!(!internal_face(&lower, -Vec2::Y, &body(162.0, 14.0), &solids, SKIN));
        // A neighbour a pixel away leaves the face between them open.
        let apart = cell(5, Vec2::new(97.0, 32.0));
        assert!(!internal_face(
            &right,
            Vec2::X,
            &body(90.0, 40.0),
            &[left, right, apart],
            SKIN
        ));
        // A lift is never part of a wall.
        let lift = ColliderProxy {
            kind: BodyKind::Kinematic,
            ..left
        };
        assert!(!internal_face(&lift, Vec2::X, &body(74.0, 40.0), &[lift, right], SKIN));
    }

    #[test]
    fn a_body_past_a_thin_wall_s_centre_is_pushed_back_out_the_face_it_came_in_by() {
        // A 2 px body was left of a 2 px wall, and is now 2.5 px into it (through its far face by
        // 0.5): its centre is past the wall's, and pushed away from the wall's centre it would come
        // out on the far side.
        let wall = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(100.0, 0.0), Vec2::new(2.0, 100.0)));
        let before = Aabb::from_min_size(Vec2::new(96.0, 0.0), Vec2::new(2.0, 24.0));
        let body = Aabb::from_min_size(Vec2::new(100.5, 0.0), Vec2::new(2.0, 24.0));
        let (normal, depth) = push_axis(&body, Some(&before), &wall, &[wall], &[], SKIN);
        assert_eq!((normal, depth), (Vec2::NEG_X, 2.5));
        // Without the box before, the centre decides (and gets it wrong).
        assert_eq!(push_axis(&body, None, &wall, &[wall], &[], SKIN).0, Vec2::X);
    }

    #[test]
    fn a_body_walking_level_onto_a_solid_cell_sinks_into_its_top_not_its_side() {
        // Standing on a one-way cell, the body's right edge 0.03 px into the solid cell beside it,
        // its feet 0.1 px into both tops (a step of gravity): up, not a wall.
        let cell = ColliderProxy::static_box(1, Aabb::from_min_size(Vec2::new(16.0, -16.0), Vec2::splat(16.0)));
        let before = Aabb::from_min_size(Vec2::new(3.9, 0.0), Vec2::new(12.0, 24.0));
        let body = Aabb::from_min_size(Vec2::new(4.03, -0.1), Vec2::new(12.0, 24.0));
        let (normal, depth) = push_axis(&body, Some(&before), &cell, &[cell], &[], SKIN);
        assert_eq!(normal, Vec2::Y);
        assert!((depth - 0.1).abs() < 1e-4, "{depth}");
        // Falling onto the same corner from above and beside it: the smaller overlap, sideways.
        let falling = Aabb::from_min_size(Vec2::new(3.9, 3.0), Vec2::new(12.0, 24.0));
        assert_eq!(
            push_axis(&body, Some(&falling), &cell, &[cell], &[], SKIN).0,
            Vec2::NEG_X
        );
    }
}
