//! Rays, box casts, areas and points against the shapes of the world: boxes and slope segments.
//! The pure geometry under [`SpatialQuery`](crate::spatial_query::SpatialQuery).
//!
//! A box is solid from every side. A slope is the diagonal of its bounding rect and the triangle
//! under it: rays and casts hit it only on its surface, coming from above (the movement rules let
//! a body jump up through a slope and walk in under its high end), while areas and points find the
//! triangle.

use bevy::prelude::*;

use super::Aabb;
use super::SlopeShape;

/// Where a ray or a cast first touches a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Distance travelled along the (unit) direction, px.
    pub distance: f32,
    /// Unit normal of the surface hit, pointing back toward the caster.
    pub normal: Vec2,
}

/// The first point where the ray from `origin` along the unit `direction`, no longer than
/// `max_distance`, enters `aabb`. A ray that starts inside the box hits it at distance 0, with the
/// normal against the direction; one that starts on a face and leaves misses it. A ray through an
/// exact corner gets the side face's normal.
pub fn ray_aabb(origin: Vec2, direction: Vec2, max_distance: f32, aabb: &Aabb) -> Option<CastHit> {
    if aabb.min.cmplt(origin).all() && aabb.max.cmpgt(origin).all() {
        return Some(CastHit {
            distance: 0.0,
            normal: -direction,
        });
    }
    let mut enter = f32::NEG_INFINITY;
    let mut exit = f32::INFINITY;
    let mut normal = Vec2::ZERO;
    for axis in 0..2 {
        let (o, d, lo, hi) = (origin[axis], direction[axis], aabb.min[axis], aabb.max[axis]);
        if d == 0.0 {
            // Parallel to this axis's faces: in the slab or never.
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (near, far, face) = if d > 0.0 {
            ((lo - o) / d, (hi - o) / d, -1.0)
        } else {
            ((hi - o) / d, (lo - o) / d, 1.0)
        };
        if near > enter {
            enter = near;
            normal = Vec2::ZERO;
            normal[axis] = face;
        }
        exit = exit.min(far);
    }
    (enter <= exit && enter >= 0.0 && enter <= max_distance).then_some(CastHit {
        distance: enter,
        normal,
    })
}

/// The unit normal of a slope's surface, pointing up.
pub fn slope_normal(shape: &SlopeShape) -> Vec2 {
    let along = shape.right - shape.left;
    Vec2::new(-along.y, along.x).normalize_or(Vec2::Y)
}

/// Where the ray hits the slope's surface from above (its origin on or over the line, going
/// down through it); a ray from below or parallel to the surface passes.
pub fn ray_slope(origin: Vec2, direction: Vec2, max_distance: f32, shape: &SlopeShape) -> Option<CastHit> {
    let normal = slope_normal(shape);
    let approach = direction.dot(normal);
    let height = (origin - shape.left).dot(normal);
    if approach >= 0.0 || height < 0.0 {
        return None;
    }
    let distance = height / -approach;
    let x = origin.x + direction.x * distance;
    (distance <= max_distance && x >= shape.left.x && x <= shape.right.x).then_some(CastHit { distance, normal })
}

/// Where the box `mover`, moved by `distance · direction` for distances up to `max_distance`,
/// first comes to stand on the slope by the movement rules: its feet at the surface height under
/// its uphill foot corner ([`SlopeShape::surface_y`]), while it overlaps the slope's span. It must
/// be on or above the surface (within `tolerance`) when it reaches the span; a box below it passes.
pub fn cast_box_slope(
    mover: &Aabb,
    direction: Vec2,
    max_distance: f32,
    shape: &SlopeShape,
    tolerance: f32,
) -> Option<CastHit> {
    // The distances during which the box overlaps the span strictly.
    let (mut start, mut end) = (0.0_f32, max_distance);
    if direction.x == 0.0 {
        if !shape.overlaps_x(mover) {
            return None;
        }
    } else {
        let a = (shape.left.x - mover.max.x) / direction.x;
        let b = (shape.right.x - mover.min.x) / direction.x;
        start = start.max(a.min(b));
        end = end.min(a.max(b));
        if start >= end {
            return None;
        }
    }
    // The gap between the feet and the surface is piecewise linear in the distance (the foot's
    // clamp to the ends bends it): where it meets zero is the hit.
    let gap = |d: f32| {
        let moved = mover.translated(direction * d);
        moved.min.y - shape.surface_y(&moved)
    };
    let at_start = gap(start);
    if at_start < -tolerance {
        return None;
    }
    let normal = slope_normal(shape);
    if at_start <= 0.0 {
        return Some(CastHit {
            distance: start,
            normal,
        });
    }
    let foot_x = if shape.rises_right() { mover.max.x } else { mover.min.x };
    let mut bends = vec![start, end];
    if direction.x != 0.0 {
        bends.extend(
            [shape.left.x, shape.right.x]
                .map(|x| (x - foot_x) / direction.x)
                .into_iter()
                .filter(|d| *d > start && *d < end),
        );
    }
    bends.sort_by(f32::total_cmp);
    for pair in bends.windows(2) {
        let (d0, d1) = (pair[0], pair[1]);
        let (g0, g1) = (gap(d0), gap(d1));
        if g1 <= 0.0 {
            let distance = if g0 == g1 { d0 } else { d0 + (d1 - d0) * g0 / (g0 - g1) };
            return Some(CastHit { distance, normal });
        }
    }
    None
}

/// Where the box `mover`, moved along the unit `direction` no farther than `max_distance`, first
/// touches `target`; `None` when it does not. A mover that starts overlapping the target by more
/// than `skin` hits it at distance 0, with the normal against the direction.
pub fn cast_box_aabb(mover: &Aabb, direction: Vec2, max_distance: f32, target: &Aabb, skin: f32) -> Option<CastHit> {
    if mover.intersects(target, skin) {
        return Some(CastHit {
            distance: 0.0,
            normal: -direction,
        });
    }
    super::sweep_aabb(mover, direction * max_distance, target, skin).map(|hit| CastHit {
        distance: hit.time * max_distance,
        normal: hit.normal,
    })
}

/// Whether `area` overlaps the slope's triangle (the part of its bounding rect under the surface)
/// by more than touching.
pub fn area_overlaps_slope(area: &Aabb, shape: &SlopeShape) -> bool {
    let rect = shape.rect();
    if !area.intersects(&rect, 0.0) {
        return false;
    }
    // The surface is highest at the end of the shared span nearest the high end.
    let span = (area.min.x.max(rect.min.x), area.max.x.min(rect.max.x));
    let x = if shape.rises_right() { span.1 } else { span.0 };
    area.min.y < shape.surface_y(&Aabb::from_min_size(Vec2::new(x, 0.0), Vec2::ZERO))
}

/// Whether the box `start`, moved by `delta`, touches the slope's triangle (the part of its
/// bounding rect under the surface, within `skin`) at some point of the move: the test of a
/// sensor slope. Exact for straight moves: the triangle and the box are convex, so they meet at
/// a time `t` in `[0, 1]` exactly when their projections overlap at `t` on each of the axes
/// that can separate them (x, y and the surface's normal), and each axis gives an interval of
/// `t`. A flat or degenerate slope (no triangle) is touched by nothing.
pub fn box_sweep_touches_slope(start: &Aabb, delta: Vec2, shape: &SlopeShape, skin: f32) -> bool {
    let rect = shape.rect();
    let size = rect.size();
    if size.x <= 0.0 || size.y <= 0.0 || !(start.is_finite() && delta.is_finite()) {
        return false;
    }
    // The triangle's corner under its high end.
    let low = if shape.rises_right() { shape.left } else { shape.right };
    let corner = Vec2::new(if shape.rises_right() { rect.max.x } else { rect.min.x }, low.y);
    let triangle = [shape.left, shape.right, corner];
    let normal = slope_normal(shape);
    let (mut from, mut to) = (0.0_f32, 1.0_f32);
    for axis in [Vec2::X, Vec2::Y, normal] {
        let project = |p: Vec2| p.dot(axis);
        let (t_min, t_max) = triangle
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(project(p)), hi.max(project(p)))
            });
        let box_points = [
            start.min,
            start.max,
            Vec2::new(start.min.x, start.max.y),
            Vec2::new(start.max.x, start.min.y),
        ];
        let (b_min, b_max) = box_points
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(project(p)), hi.max(project(p)))
            });
        // Overlap at t: b_min + t·v <= t_max + skin and b_max + t·v >= t_min - skin.
        let v = delta.dot(axis);
        let (upper, lower) = (t_max + skin - b_min, t_min - skin - b_max);
        if v == 0.0 {
            if upper < 0.0 || lower > 0.0 {
                return false;
            }
        } else {
            let (a, b) = (lower / v, upper / v);
            from = from.max(a.min(b));
            to = to.min(a.max(b));
        }
        if from > to {
            return false;
        }
    }
    true
}

/// Whether `point` lies in the slope's triangle, its surface included.
pub fn point_in_slope(point: Vec2, shape: &SlopeShape) -> bool {
    let rect = shape.rect();
    rect.contains(point) && point.y <= shape.surface_y(&Aabb::from_min_size(point, Vec2::ZERO))
}

#[cfg(test)]
mod tests {
    use super::super::test_cases::{Cases, MARCH, marched};
    use super::*;

    fn rect(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    fn unit_box() -> Aabb {
        rect(Vec2::ZERO, Vec2::splat(10.0))
    }

    #[test]
    fn a_ray_enters_a_box_by_the_face_it_meets_first() {
        let hit = ray_aabb(Vec2::new(-5.0, 5.0), Vec2::X, 100.0, &unit_box()).unwrap();
        assert_eq!(
            hit,
            CastHit {
                distance: 5.0,
                normal: Vec2::NEG_X
            }
        );
        let hit = ray_aabb(Vec2::new(5.0, 30.0), Vec2::NEG_Y, 100.0, &unit_box()).unwrap();
        assert_eq!(
            hit,
            CastHit {
                distance: 20.0,
                normal: Vec2::Y
            }
        );
        let diagonal = Vec2::new(1.0, -1.0).normalize();
        let hit = ray_aabb(Vec2::new(-2.0, 14.0), diagonal, 100.0, &unit_box()).unwrap();
        assert_eq!(hit.normal, Vec2::Y, "the top is entered after the left face's plane");
        assert!((hit.distance - 4.0 * 2f32.sqrt()).abs() < 1e-4);
    }

    #[test]
    fn a_ray_through_an_exact_corner_gets_the_side_faces_normal() {
        let hit = ray_aabb(Vec2::splat(-5.0), Vec2::ONE.normalize(), 100.0, &unit_box()).unwrap();
        assert_eq!(hit.normal, Vec2::NEG_X);
        assert!((hit.distance - 5.0 * 2f32.sqrt()).abs() < 1e-4);
        let hit = ray_aabb(Vec2::new(15.0, 15.0), Vec2::NEG_ONE.normalize(), 100.0, &unit_box()).unwrap();
        assert_eq!(hit.normal, Vec2::X);
    }

    #[test]
    fn a_ray_misses_a_box_beside_it_beyond_its_length_or_behind_it() {
        assert_eq!(ray_aabb(Vec2::new(-5.0, 15.0), Vec2::X, 100.0, &unit_box()), None);
        assert_eq!(ray_aabb(Vec2::new(-5.0, 5.0), Vec2::X, 4.9, &unit_box()), None);
        assert_eq!(ray_aabb(Vec2::new(-5.0, 5.0), Vec2::NEG_X, 100.0, &unit_box()), None);
    }

    #[test]
    fn a_ray_from_inside_a_box_hits_it_at_once() {
        let hit = ray_aabb(Vec2::splat(5.0), Vec2::X, 100.0, &unit_box()).unwrap();
        assert_eq!(
            hit,
            CastHit {
                distance: 0.0,
                normal: Vec2::NEG_X
            }
        );
    }

    #[test]
    fn a_ray_from_a_face_hits_the_box_going_in_and_misses_it_going_out() {
        let top = Vec2::new(5.0, 10.0);
        assert_eq!(
            ray_aabb(top, Vec2::NEG_Y, 1.0, &unit_box()),
            Some(CastHit {
                distance: 0.0,
                normal: Vec2::Y
            })
        );
        assert_eq!(ray_aabb(top, Vec2::Y, 1.0, &unit_box()), None);
    }

    #[test]
    fn a_ray_enters_a_box_where_marching_along_it_first_finds_the_box() {
        let mut cases = Cases(7);
        let mut compared = 0;
        for _ in 0..400 {
            let aabb = Aabb::from_min_size(
                Vec2::new(cases.range(-20.0, 20.0), cases.range(-20.0, 20.0)),
                Vec2::new(cases.range(1.0, 20.0), cases.range(1.0, 20.0)),
            );
            let origin = Vec2::new(cases.range(-40.0, 40.0), cases.range(-40.0, 40.0));
            let direction = cases.direction();
            let max_distance = cases.range(0.0, 80.0);
            let reference = marched(max_distance, |d| aabb.contains(origin + direction * d));
            // Leave out the cases a marching step cannot decide: grazing an edge or a corner,
            // or reaching the box at the very end of the ray.
            let grazing = |d: f32| {
                let p = origin + direction * d;
                let near = |a: f32, b: f32| (a - b).abs() < 0.05;
                (near(p.x, aabb.min.x) || near(p.x, aabb.max.x)) && (near(p.y, aabb.min.y) || near(p.y, aabb.max.y))
            };
            if reference.is_some_and(|d| grazing(d) || d > max_distance - 2.0 * MARCH) {
                continue;
            }
            let hit = ray_aabb(origin, direction, max_distance, &aabb);
            compared += 1;
            match (hit, reference) {
                (None, None) => {}
                (Some(hit), Some(d)) => {
                    assert!(
                        (hit.distance - d).abs() <= 2.0 * MARCH,
                        "{origin} {direction} {aabb:?}: {hit:?} vs {d}"
                    );
                    if d > 0.0 {
                        // The normal is the face the ray came in through.
                        let p = origin + direction * hit.distance;
                        let on_face = (p.x - aabb.min.x).abs() < 1e-3 && hit.normal == Vec2::NEG_X
                            || (p.x - aabb.max.x).abs() < 1e-3 && hit.normal == Vec2::X
                            || (p.y - aabb.min.y).abs() < 1e-3 && hit.normal == Vec2::NEG_Y
                            || (p.y - aabb.max.y).abs() < 1e-3 && hit.normal == Vec2::Y;
                        assert!(on_face, "{origin} {direction} {aabb:?}: {hit:?}");
                    }
                }
                (hit, reference) => panic!("{origin} {direction} {max_distance} {aabb:?}: {hit:?} vs {reference:?}"),
            }
        }
        assert!(compared > 350, "{compared} cases compared");
    }

    #[test]
    fn a_ray_along_a_face_touches_the_box_and_one_beside_it_misses() {
        let b = unit_box();
        for (origin, direction, expected) in [
            (Vec2::new(-5.0, 0.0), Vec2::X, Some(5.0)),
            (Vec2::new(-5.0, 10.0), Vec2::X, Some(5.0)),
            (Vec2::new(0.0, 20.0), Vec2::NEG_Y, Some(10.0)),
            (Vec2::new(10.0, 20.0), Vec2::NEG_Y, Some(10.0)),
            (Vec2::new(-5.0, -0.5), Vec2::X, None),
            (Vec2::new(-5.0, 10.5), Vec2::X, None),
            (Vec2::new(-0.5, 20.0), Vec2::NEG_Y, None),
            (Vec2::new(10.5, 20.0), Vec2::NEG_Y, None),
        ] {
            let hit = ray_aabb(origin, direction, 100.0, &b).map(|h| h.distance);
            assert_eq!(hit, expected, "from {origin} along {direction}");
        }
    }

    #[test]
    fn a_ray_crosses_a_slope_from_above_where_marching_along_it_first_goes_under_the_line() {
        let mut cases = Cases(11);
        let mut compared = 0;
        let mut hits = 0;
        for _ in 0..400 {
            let left = Vec2::new(cases.range(-30.0, 30.0), cases.range(-30.0, 30.0));
            let width = cases.range(5.0, 40.0);
            let rise = cases.range(1.0, 40.0) * if cases.next() < 0.5 { -1.0 } else { 1.0 };
            let slope = SlopeShape::new(left, left + Vec2::new(width, rise));
            let line = |x: f32| left.y + (x - left.x) * rise / width;
            let origin = Vec2::new(cases.range(-40.0, 70.0), cases.range(-70.0, 70.0));
            // Most rays aim near the segment, so that many of them hit it.
            let aim_x = cases.range(left.x - 10.0, left.x + width + 10.0);
            let aim = Vec2::new(aim_x, line(aim_x) + cases.range(-10.0, 10.0));
            let direction = if cases.next() < 0.7 {
                (aim - origin).normalize_or(Vec2::NEG_Y)
            } else {
                cases.direction()
            };
            let max_distance = cases.range(0.0, 160.0);
            let above = |d: f32| {
                let p = origin + direction * d;
                p.y - line(p.x)
            };
            // From above (or on) the line only; then the first step at or under it.
            let reference = if above(0.0) < 0.0 {
                None
            } else {
                marched(max_distance, |d| above(d) <= 0.0)
                    .filter(|&d| (left.x..=left.x + width).contains(&(origin.x + direction.x * d)))
            };
            let crossing_x = marched(max_distance, |d| above(d) <= 0.0).map(|d| origin.x + direction.x * d);
            let undecidable = above(0.0).abs() < 0.05
                || crossing_x.is_some_and(|x| (x - left.x).abs() < 0.05 || (x - left.x - width).abs() < 0.05)
                || reference.is_some_and(|d| d > max_distance - 2.0 * MARCH);
            if undecidable {
                continue;
            }
            let hit = ray_slope(origin, direction, max_distance, &slope);
            compared += 1;
            match (hit, reference) {
                (None, None) => {}
                (Some(hit), Some(d)) => {
                    hits += 1;
                    assert!(
                        (hit.distance - d).abs() <= 2.0 * MARCH,
                        "{origin} {direction} {slope:?}: {hit:?} vs {d}"
                    );
                    assert!((hit.normal - slope_normal(&slope)).length() < 1e-6);
                }
                (hit, reference) => panic!("{origin} {direction} {max_distance} {slope:?}: {hit:?} vs {reference:?}"),
            }
        }
        assert!(compared > 300 && hits > 30, "{compared} cases compared, {hits} hits");
    }

    #[test]
    fn a_slopes_normal_is_perpendicular_to_it_and_points_up_wherever_it_lies() {
        for (a, b) in [
            (Vec2::new(100.0, 50.0), Vec2::new(140.0, 70.0)),
            (Vec2::new(-30.0, 10.0), Vec2::new(-10.0, -30.0)),
        ] {
            let slope = SlopeShape::new(a, b);
            let n = slope_normal(&slope);
            assert!(n.dot(b - a).abs() < 1e-4, "{n}");
            assert!(n.y > 0.0 && (n.length() - 1.0).abs() < 1e-6, "{n}");
        }
    }

    #[test]
    fn a_ray_from_a_point_on_a_slope_going_down_hits_it_at_once() {
        let slope = SlopeShape::new(Vec2::new(100.0, 50.0), Vec2::new(140.0, 70.0));
        let on_surface = Vec2::new(120.0, 60.0);
        let hit = ray_slope(on_surface, Vec2::NEG_Y, 10.0, &slope).unwrap();
        assert_eq!(hit.distance, 0.0);
        assert_eq!(
            ray_slope(on_surface + Vec2::Y, Vec2::Y, 10.0, &slope),
            None,
            "above, going up"
        );
        assert_eq!(
            ray_slope(on_surface - Vec2::Y, Vec2::NEG_Y, 10.0, &slope),
            None,
            "below, going down"
        );
    }

    #[test]
    fn a_box_cast_stands_on_a_slope_where_marching_the_box_first_stands_on_it() {
        let mut cases = Cases(5);
        let tolerance = 0.01;
        let mut compared = 0;
        let mut hits = 0;
        for _ in 0..300 {
            let left = Vec2::new(cases.range(-30.0, 30.0), cases.range(-30.0, 30.0));
            let width = cases.range(8.0, 48.0);
            let rise = cases.range(2.0, 48.0) * if cases.next() < 0.5 { -1.0 } else { 1.0 };
            let slope = SlopeShape::new(left, left + Vec2::new(width, rise));
            let mover = Aabb::from_min_size(
                Vec2::new(cases.range(-60.0, 80.0), cases.range(-60.0, 80.0)),
                Vec2::new(cases.range(4.0, 16.0), cases.range(4.0, 24.0)),
            );
            // Most casts aim the box's feet near the segment, so that many of them land on it.
            let aim_x = cases.range(left.x - 10.0, left.x + width + 10.0);
            let aim = Vec2::new(
                aim_x,
                left.y + (aim_x - left.x) * rise / width + cases.range(-10.0, 10.0),
            );
            let feet = Vec2::new(mover.center().x, mover.min.y);
            let direction = if cases.next() < 0.7 {
                (aim - feet).normalize_or(Vec2::NEG_Y)
            } else {
                cases.direction()
            };
            let max_distance = cases.range(0.0, 160.0);
            let moved = |d: f32| mover.translated(direction * d);
            let gap = |d: f32| moved(d).min.y - slope.surface_y(&moved(d));
            // The box stands where it first overlaps the span with its feet at or under the
            // surface; reaching the span already under it (beyond the tolerance), it passes.
            let entered = marched(max_distance, |d| slope.overlaps_x(&moved(d)));
            let reference = entered.and_then(|start| {
                if gap(start) < -tolerance {
                    return None;
                }
                marched(max_distance, |d| {
                    d >= start && slope.overlaps_x(&moved(d)) && gap(d) <= 0.0
                })
            });
            let undecidable = entered
                .is_some_and(|start| (gap(start) + tolerance).abs() < 0.2 || gap(start).abs() < 0.2)
                || reference.is_some_and(|d| d > max_distance - 0.2)
                || marched(max_distance, |d| slope.overlaps_x(&moved(d)) && gap(d) <= 0.0).is_some_and(|d| {
                    !slope.overlaps_x(&moved(d + 0.2)) || !slope.overlaps_x(&moved((d - 0.2).max(0.0)))
                });
            if undecidable {
                continue;
            }
            let hit = cast_box_slope(&mover, direction, max_distance, &slope, tolerance);
            compared += 1;
            match (hit, reference) {
                (None, None) => {}
                (Some(hit), Some(d)) => {
                    hits += 1;
                    assert!(
                        (hit.distance - d).abs() < 0.1,
                        "{mover:?} {direction} {slope:?}: {hit:?} vs {d}"
                    );
                }
                (hit, reference) => panic!("{mover:?} {direction} {max_distance} {slope:?}: {hit:?} vs {reference:?}"),
            }
        }
        assert!(compared > 200 && hits > 20, "{compared} cases compared, {hits} hits");
    }

    #[test]
    fn a_ray_hits_a_slope_only_from_above() {
        // Rises right with gradient 1/2 from (0, 0) to (20, 10).
        let slope = SlopeShape::new(Vec2::ZERO, Vec2::new(20.0, 10.0));
        let hit = ray_slope(Vec2::new(10.0, 20.0), Vec2::NEG_Y, 100.0, &slope).unwrap();
        assert!((hit.distance - 15.0).abs() < 1e-5, "{hit:?}");
        assert!(hit.normal.y > 0.0 && hit.normal.x < 0.0, "up and back: {hit:?}");
        assert_eq!(
            ray_slope(Vec2::new(10.0, -5.0), Vec2::Y, 100.0, &slope),
            None,
            "from below"
        );
        assert_eq!(
            ray_slope(Vec2::new(25.0, 20.0), Vec2::NEG_Y, 100.0, &slope),
            None,
            "past the end"
        );
        assert_eq!(
            ray_slope(Vec2::new(10.0, 20.0), Vec2::NEG_Y, 14.0, &slope),
            None,
            "too short"
        );
        let along = Vec2::new(2.0, 1.0).normalize();
        assert_eq!(ray_slope(Vec2::new(0.0, 5.0), along, 100.0, &slope), None, "parallel");
    }

    #[test]
    fn a_box_cast_down_stands_on_a_slope_at_its_uphill_foot() {
        // Rises right: the box's right bottom corner rests on the surface.
        let slope = SlopeShape::new(Vec2::ZERO, Vec2::new(40.0, 20.0));
        let mover = rect(Vec2::new(10.0, 30.0), Vec2::new(20.0, 40.0));
        let hit = cast_box_slope(&mover, Vec2::NEG_Y, 100.0, &slope, 0.01).unwrap();
        assert!((hit.distance - 20.0).abs() < 1e-4, "{hit:?}");
        // From below: passes.
        let below = mover.translated(Vec2::new(0.0, -30.0));
        assert_eq!(cast_box_slope(&below, Vec2::Y, 100.0, &slope, 0.01), None);
    }

    #[test]
    fn a_box_reaching_a_slope_under_its_surface_stands_on_it_within_the_tolerance_only() {
        // Rises right from (0, 0): a box sliding right meets the low end with its uphill foot.
        let slope = SlopeShape::new(Vec2::ZERO, Vec2::new(40.0, 20.0));
        let tolerance = 0.25;
        let within = rect(Vec2::new(-20.0, -0.25), Vec2::new(-10.0, 9.75));
        let hit = cast_box_slope(&within, Vec2::X, 100.0, &slope, tolerance).unwrap();
        assert_eq!(hit.distance, 10.0, "stands where it reaches the span");
        let beyond = within.translated(Vec2::new(0.0, -0.25));
        assert_eq!(
            cast_box_slope(&beyond, Vec2::X, 100.0, &slope, tolerance),
            None,
            "passes under"
        );
    }

    #[test]
    fn a_box_cast_sideways_meets_a_slope_at_its_foot_clamped_to_an_end() {
        // Falls right; the box moves right and down at 45° toward it from the upper left, its
        // uphill foot (left) off the high end at first, where the surface holds the end height.
        let slope = SlopeShape::new(Vec2::new(0.0, 20.0), Vec2::new(40.0, 0.0));
        let mover = rect(Vec2::new(-30.0, 60.0), Vec2::new(-20.0, 70.0));
        let direction = Vec2::new(1.0, -1.0).normalize();
        let hit = cast_box_slope(&mover, direction, 200.0, &slope, 0.01).unwrap();
        let landed = mover.translated(direction * hit.distance);
        assert!((landed.min.y - slope.surface_y(&landed)).abs() < 1e-3, "{landed:?}");
        // Over the span at (0, 40) with its feet 20 px up, past the end height at (10, 30), on the
        // surface at x = 20.
        assert!((landed.min - Vec2::new(20.0, 10.0)).length() < 1e-3, "{landed:?}");
    }

    #[test]
    fn a_box_cast_hits_a_box_as_the_continuous_solver_does() {
        let mover = rect(Vec2::new(-20.0, 0.0), Vec2::new(-10.0, 10.0));
        let hit = cast_box_aabb(&mover, Vec2::X, 100.0, &unit_box(), 1e-3).unwrap();
        assert_eq!(
            hit,
            CastHit {
                distance: 10.0,
                normal: Vec2::NEG_X
            }
        );
        assert_eq!(cast_box_aabb(&mover, Vec2::X, 9.0, &unit_box(), 1e-3), None);
        let inside = rect(Vec2::splat(2.0), Vec2::splat(4.0));
        assert_eq!(
            cast_box_aabb(&inside, Vec2::Y, 9.0, &unit_box(), 1e-3),
            Some(CastHit {
                distance: 0.0,
                normal: Vec2::NEG_Y
            }),
            "from inside: at once, against the direction"
        );
    }

    #[test]
    fn areas_and_points_find_a_slopes_triangle() {
        let slope = SlopeShape::new(Vec2::ZERO, Vec2::new(20.0, 10.0));
        assert!(area_overlaps_slope(
            &rect(Vec2::new(15.0, 5.0), Vec2::new(25.0, 15.0)),
            &slope
        ));
        assert!(
            !area_overlaps_slope(&rect(Vec2::new(0.0, 6.0), Vec2::new(10.0, 15.0)), &slope),
            "over the surface"
        );
        assert!(
            !area_overlaps_slope(&rect(Vec2::new(5.0, 5.0), Vec2::new(10.0, 15.0)), &slope),
            "resting on the surface at the span's high side: touching is not overlapping"
        );
        assert!(point_in_slope(Vec2::new(18.0, 8.0), &slope));
        assert!(!point_in_slope(Vec2::new(2.0, 8.0), &slope));
        assert!(point_in_slope(Vec2::new(10.0, 5.0), &slope), "on the surface");
    }

    #[test]
    fn a_moving_box_touches_a_slopes_triangle_only_where_it_passes_under_the_surface() {
        // A slope rising right from (100, 50) to (132, 66), and the same mirrored (rising left).
        let shapes = [
            (SlopeShape::new(Vec2::new(100.0, 50.0), Vec2::new(132.0, 66.0)), false),
            (SlopeShape::new(Vec2::new(-132.0, 66.0), Vec2::new(-100.0, 50.0)), true),
        ];
        let skin = 1e-3;
        for (slope, mirrored) in shapes {
            let place = |min: Vec2, size: Vec2| {
                let b = Aabb::from_min_size(min, size);
                if mirrored {
                    rect(Vec2::new(-b.max.x, b.min.y), Vec2::new(-b.min.x, b.max.y))
                } else {
                    b
                }
            };
            let flip = |d: Vec2| if mirrored { Vec2::new(-d.x, d.y) } else { d };
            let touches = |min: Vec2, size: Vec2, delta: Vec2| {
                box_sweep_touches_slope(&place(min, size), flip(delta), &slope, skin)
            };
            let label = if mirrored { "rising left" } else { "rising right" };
            // Still: feet on the surface under the uphill foot touch; a pixel above does not.
            assert!(
                touches(Vec2::new(110.0, 57.0), Vec2::splat(4.0), Vec2::ZERO),
                "{label}: on the surface"
            );
            assert!(
                !touches(Vec2::new(110.0, 58.0), Vec2::splat(4.0), Vec2::ZERO),
                "{label}: above it"
            );
            // Through the triangle sideways, low down, in one move.
            assert!(
                touches(Vec2::new(80.0, 51.0), Vec2::splat(4.0), Vec2::new(80.0, 0.0)),
                "{label}: across"
            );
            // Across the rect's empty half, over the surface all the way (the rect alone would say yes).
            assert!(
                !touches(Vec2::new(102.0, 60.0), Vec2::splat(2.0), Vec2::new(8.0, 2.0)),
                "{label}: over it"
            );
            // Down through it from far above, in one move; and passing beside it.
            assert!(
                touches(Vec2::new(114.0, 120.0), Vec2::splat(4.0), Vec2::new(0.0, -100.0)),
                "{label}: down through"
            );
            assert!(
                !touches(Vec2::new(140.0, 120.0), Vec2::splat(4.0), Vec2::new(0.0, -100.0)),
                "{label}: beside"
            );
            // A diagonal move that ends beyond the high corner's side, passing over the triangle.
            assert!(
                !touches(Vec2::new(96.0, 70.0), Vec2::splat(4.0), Vec2::new(40.0, 4.0)),
                "{label}: over the top"
            );
        }
        // No triangle, nothing to touch; a non-finite move touches nothing either.
        let flat = SlopeShape::new(Vec2::ZERO, Vec2::new(32.0, 0.0));
        assert!(!box_sweep_touches_slope(
            &rect(Vec2::new(4.0, -1.0), Vec2::new(8.0, 3.0)),
            Vec2::ZERO,
            &flat,
            skin
        ));
        let (slope, _) = shapes[0];
        let inside = rect(Vec2::new(120.0, 51.0), Vec2::new(124.0, 55.0));
        assert!(box_sweep_touches_slope(&inside, Vec2::ZERO, &slope, skin));
        assert!(!box_sweep_touches_slope(
            &inside,
            Vec2::new(f32::NAN, 0.0),
            &slope,
            skin
        ));
    }
}
