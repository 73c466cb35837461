//! Swept AABB: when, during one step, a moving box first touches a still one.
//!
//! This is the classic swept-rectangle test: a ray from the mover's centre, along the step's
//! displacement, against the target expanded by the mover's half size. Entry and exit times are
//! computed per axis from the boxes' faces, which is the same arithmetic as the expanded-target ray
//! but without adding and subtracting the half size (that rounding would make a box resting exactly
//! flush look a hair inside or outside its floor).
//!
//! Rules (see *Continuous mode* in [the physics rules](crate::physics_rules)):
//! - a hit needs `0 <= t < 1` (a box resting flush is hit at `t = 0`, which is what keeps it on
//!   the floor);
//! - on an axis the mover does not move along, the ray is parallel to the faces: in the ray form
//!   that is `0 · ∞ = NaN`, which is *no hit*. Here: a mover that only touches the target on that
//!   axis (within `skin`) cannot hit it, so a box sliding flush along a floor or wall is never
//!   caught by it, and a box running over the seam between two floor boxes does not stop;
//! - the normal is the axis entered last; an exact corner prefers the vertical axis (land on top).

use bevy::prelude::*;

use super::Aabb;

/// The first contact of a swept box with a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Fraction of the step's displacement at which the faces meet, in `[0, 1)`.
    pub time: f32,
    /// Unit normal of the target's face that was hit, pointing toward the mover.
    pub normal: Vec2,
    /// At a corner (both axes entered at the same time, within the skin), the normal of the other
    /// face: a solver that finds `normal`'s face covered by a neighbouring solid uses this one.
    pub alternative: Option<Vec2>,
}

/// Entry and exit times on one axis. `None` when the mover never overlaps the target on this axis
/// by more than `skin` during the step.
fn axis_times(
    mover_min: f32,
    mover_max: f32,
    target_min: f32,
    target_max: f32,
    delta: f32,
    skin: f32,
) -> Option<(f32, f32)> {
    if delta > 0.0 {
        // Ends at most touching the face it moves toward: it never enters (a box corrected onto
        // a floor plane, moving on over a second box whose top lies on the same plane).
        if mover_max + delta <= target_min + skin {
            return None;
        }
        Some(((target_min - mover_max) / delta, (target_max - mover_min) / delta))
    } else if delta < 0.0 {
        if mover_min + delta >= target_max - skin {
            return None;
        }
        Some(((target_max - mover_min) / delta, (target_min - mover_max) / delta))
    } else if mover_max <= target_min + skin || mover_min >= target_max - skin {
        // Parallel to the faces and at most touching: the ray form's NaN, no hit.
        None
    } else {
        Some((f32::NEG_INFINITY, f32::INFINITY))
    }
}

/// Sweeps `mover` by `delta` against the still `target`.
///
/// `skin` (pixels) is the rounding margin: a mover that starts up to `skin` inside the face it
/// enters through is still hit at `t = 0`; one that starts deeper inside is already overlapping and
/// is left to the push-out. Returns `None` for no hit during this step.
#[inline]
pub fn sweep_aabb(mover: &Aabb, delta: Vec2, target: &Aabb, skin: f32) -> Option<SweepHit> {
    if delta == Vec2::ZERO {
        return None;
    }
    let (enter_x, exit_x) = axis_times(mover.min.x, mover.max.x, target.min.x, target.max.x, delta.x, skin)?;
    let (enter_y, exit_y) = axis_times(mover.min.y, mover.max.y, target.min.y, target.max.y, delta.y, skin)?;
    if enter_x.is_nan() || enter_y.is_nan() || exit_x.is_nan() || exit_y.is_nan() {
        return None;
    }
    let enter = enter_x.max(enter_y);
    let exit = exit_x.min(exit_y);
    if enter >= exit || exit <= 0.0 || enter >= 1.0 {
        return None;
    }
    // Vertical wins a tie: at an exact corner the box lands on top rather than stopping.
    let vertical = enter_y >= enter_x;
    let (axis_delta, normal) = if vertical {
        (delta.y, Vec2::new(0.0, -delta.y.signum()))
    } else {
        (delta.x, Vec2::new(-delta.x.signum(), 0.0))
    };
    // How far inside the entry face the mover starts, in pixels (negative: a gap).
    let start_depth = -enter * axis_delta.abs();
    if enter < 0.0 && start_depth > skin {
        return None;
    }
    let corner = enter_x.is_finite() && enter_y.is_finite() && (enter_x - enter_y).abs() * delta.length() <= skin;
    let alternative = corner.then(|| {
        if vertical {
            Vec2::new(-delta.x.signum(), 0.0)
        } else {
            Vec2::new(0.0, -delta.y.signum())
        }
    });
    Some(SweepHit {
        time: enter.max(0.0),
        normal,
        alternative,
    })
}

/// The velocity correction of the continuous mode: remove the part of the motion along the hit
/// normal that lies beyond the contact, `v += n · |v| · (1 − t)` per axis, so the body stops
/// exactly at the contact and keeps sliding along the face.
pub fn correct_velocity(velocity: Vec2, hit: &SweepHit) -> Vec2 {
    velocity + hit.normal * velocity.abs() * (1.0 - hit.time)
}

/// Removes the component of `velocity` that moves into a surface with the unit `normal` (pointing
/// out of the surface); a velocity leaving the surface or sliding along it is kept.
pub fn remove_velocity_into(velocity: &mut Vec2, normal: Vec2) {
    let into = velocity.dot(normal);
    if into < 0.0 {
        *velocity -= normal * into;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_cases::{Cases, marched_by};
    use super::*;

    const SKIN: f32 = 1e-3;

    fn boxed(x: f32, y: f32, w: f32, h: f32) -> Aabb {
        Aabb::from_min_size(Vec2::new(x, y), Vec2::new(w, h))
    }

    #[test]
    fn falling_box_hits_floor_at_the_right_time() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(10.0, 20.0, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(0.0, -20.0), &floor, SKIN).expect("hit");
        assert_eq!(hit.time, 0.5);
        assert_eq!(hit.normal, Vec2::Y);
        let v = correct_velocity(Vec2::new(0.0, -2000.0), &hit);
        assert_eq!(v, Vec2::new(0.0, -1000.0), "moves exactly to the floor");
    }

    #[test]
    fn resting_box_is_hit_at_time_zero() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(10.0, 10.0, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(3.0, -0.1), &floor, SKIN).expect("hit");
        assert_eq!(hit.time, 0.0);
        assert_eq!(hit.normal, Vec2::Y);
    }

    #[test]
    fn sliding_flush_along_a_surface_is_no_hit() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(10.0, 10.0, 10.0, 10.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(30.0, 0.0), &floor, SKIN), None);
        let next_floor = boxed(100.0, 0.0, 100.0, 10.0);
        let at_seam = boxed(89.0, 10.0, 10.0, 10.0);
        assert_eq!(
            sweep_aabb(&at_seam, Vec2::new(5.0, 0.0), &next_floor, SKIN),
            None,
            "no seam snag"
        );
    }

    #[test]
    fn ending_on_the_plane_of_a_face_is_no_hit() {
        // A box a hair above a floor plane, with the tiny vertical motion left by a correction,
        // walking onto a second box whose top is on the same plane: no wall.
        let next = boxed(100.0, -8.0, 48.0, 8.0);
        let body = boxed(87.86, 1e-5, 12.0, 24.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(1.6, -1e-5), &next, SKIN), None);
        // The same box 0.5 px higher is a real step: a wall.
        let step = boxed(100.0, -8.0, 48.0, 8.5);
        assert_eq!(
            sweep_aabb(&body, Vec2::new(1.6, -1e-5), &step, SKIN).map(|h| h.normal),
            Some(Vec2::NEG_X)
        );
    }

    #[test]
    fn ending_or_passing_within_the_skin_of_a_face_is_no_hit() {
        let block = boxed(100.0, 0.0, 10.0, 10.0);
        // Ends 0.0005 px into the block's near face, moving right and moving left.
        let from_left = boxed(80.0, 2.0, 10.0, 5.0);
        assert_eq!(sweep_aabb(&from_left, Vec2::new(10.0005, 0.0), &block, SKIN), None);
        let from_right = boxed(120.0, 2.0, 10.0, 5.0);
        assert_eq!(sweep_aabb(&from_right, Vec2::new(-10.0005, 0.0), &block, SKIN), None);
        // Falls straight down past the block's side, overlapping it across by 0.0005 px.
        let beside = boxed(90.0005, 30.0, 10.0, 10.0);
        assert_eq!(sweep_aabb(&beside, Vec2::new(0.0, -40.0), &block, SKIN), None);
        // Runs flat over a seam 0.0005 px below the next box's top: no snag.
        let sunk_at_seam = boxed(85.0, 9.9995, 10.0, 10.0);
        assert_eq!(sweep_aabb(&sunk_at_seam, Vec2::new(10.0, 0.0), &block, SKIN), None);
        // Each a hair deeper is a hit.
        assert!(sweep_aabb(&from_left, Vec2::new(10.01, 0.0), &block, SKIN).is_some());
        assert!(
            sweep_aabb(
                &beside.translated(Vec2::new(0.01, 0.0)),
                Vec2::new(0.0, -40.0),
                &block,
                SKIN
            )
            .is_some()
        );
    }

    #[test]
    fn moving_away_from_a_touching_surface_is_no_hit() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let body = boxed(10.0, 10.0, 10.0, 10.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(1.0, 5.0), &floor, SKIN), None);
    }

    #[test]
    fn wall_beyond_this_step_is_no_hit_yet() {
        let wall = boxed(100.0, 0.0, 1.0, 100.0);
        let body = boxed(0.0, 40.0, 10.0, 10.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(50.0, 0.0), &wall, SKIN), None, "t = 1.8");
    }

    #[test]
    fn thin_wall_is_found_within_a_long_step() {
        let wall = boxed(100.0, 0.0, 1.0, 100.0);
        let body = boxed(0.0, 40.0, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(500.0, 0.0), &wall, SKIN).expect("hit");
        assert!((hit.time - 90.0 / 500.0).abs() < 1e-6);
        assert_eq!(hit.normal, Vec2::NEG_X);
    }

    #[test]
    fn exact_corner_prefers_landing_on_top() {
        let block = boxed(10.0, 0.0, 10.0, 10.0);
        let body = boxed(0.0, 20.0, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(20.0, -20.0), &block, SKIN).expect("corner hit");
        assert_eq!(hit.time, 0.5);
        assert_eq!(hit.normal, Vec2::Y);
    }

    #[test]
    fn a_corner_tie_offers_the_other_face() {
        let block = boxed(20.0, 0.0, 10.0, 10.0);
        let body = boxed(0.0, 20.0, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(20.0, -20.0), &block, SKIN).expect("corner hit");
        assert_eq!((hit.time, hit.normal), (0.5, Vec2::Y));
        assert_eq!(hit.alternative, Some(Vec2::NEG_X));
        let square = sweep_aabb(&body, Vec2::new(0.0, -20.0), &boxed(0.0, 0.0, 10.0, 10.0), SKIN).unwrap();
        assert_eq!(square.alternative, None, "a face hit is not a corner");
    }

    #[test]
    fn a_sweep_hits_when_and_where_marching_the_box_first_goes_into_the_target() {
        const STEP: f32 = 1e-4;
        let mut cases = Cases(3);
        let (mut compared, mut hits) = (0, 0);
        for _ in 0..500 {
            let target = Aabb::from_min_size(
                Vec2::new(cases.range(-20.0, 20.0), cases.range(-20.0, 20.0)),
                Vec2::new(cases.range(1.0, 30.0), cases.range(1.0, 30.0)),
            );
            let mover = Aabb::from_min_size(
                Vec2::new(cases.range(-50.0, 50.0), cases.range(-50.0, 50.0)),
                Vec2::new(cases.range(2.0, 16.0), cases.range(2.0, 24.0)),
            );
            let delta = if cases.next() < 0.2 {
                cases.direction() * cases.range(1.0, 60.0)
            } else {
                Vec2::new(cases.range(-60.0, 60.0), cases.range(-60.0, 60.0))
            };
            if mover.touches(&target, 0.05) {
                continue; // Starting flush or inside: the tests above.
            }
            let moved = |t: f32| mover.translated(delta * t);
            let inside = |t: f32| moved(t).intersects(&target, 1e-3);
            let reference = marched_by(STEP, 1.0 - STEP, inside);
            // The entry face: the axis still apart one step before.
            let entered = reference.map(|t| {
                let before = moved(t - STEP).overlap(&target);
                (before.x <= 1e-3, before.y <= 1e-3)
            });
            let undecidable = reference.is_some_and(|t| t > 0.98)
                || entered.is_some_and(|(x, y)| x == y || (x && delta.x.abs() < 1.0) || (y && delta.y.abs() < 1.0))
                || (0..20).any(|i| {
                    // Grazing: only just across on the other axis at some point of the pass.
                    let o = moved(i as f32 / 19.0).overlap(&target);
                    (o.x.abs() < 0.05 && o.y > -0.05) || (o.y.abs() < 0.05 && o.x > -0.05)
                });
            if undecidable {
                continue;
            }
            let hit = sweep_aabb(&mover, delta, &target, SKIN);
            compared += 1;
            match (hit, reference, entered) {
                (None, None, _) => {}
                (Some(hit), Some(t), Some((through_x, _))) => {
                    hits += 1;
                    let tolerance = STEP + 2e-3 / if through_x { delta.x.abs() } else { delta.y.abs() };
                    assert!(
                        hit.time <= t && hit.time >= t - tolerance,
                        "{mover:?} {delta} {target:?}: {hit:?} vs {t}"
                    );
                    let normal = if through_x {
                        Vec2::new(-delta.x.signum(), 0.0)
                    } else {
                        Vec2::new(0.0, -delta.y.signum())
                    };
                    assert_eq!(
                        (hit.normal, hit.alternative),
                        (normal, None),
                        "{mover:?} {delta} {target:?}"
                    );
                }
                (hit, reference, _) => panic!("{mover:?} {delta} {target:?}: {hit:?} vs {reference:?}"),
            }
        }
        assert!(compared > 300 && hits > 40, "{compared} cases compared, {hits} hits");
    }

    #[test]
    fn a_start_inside_by_the_skin_or_less_is_hit_at_once_and_deeper_is_not() {
        let floor = boxed(0.0, 0.0, 100.0, 10.0);
        let down = Vec2::new(0.0, -10.0);
        let sunk = |depth: f32| boxed(10.0, 10.0 - depth, 10.0, 10.0);
        assert_eq!(sweep_aabb(&sunk(0.0005), down, &floor, SKIN).map(|h| h.time), Some(0.0));
        assert_eq!(sweep_aabb(&sunk(0.005), down, &floor, SKIN), None);
        // Exactly the skin deep, in binary-exact numbers.
        let skin = 0.25;
        assert_eq!(
            sweep_aabb(&sunk(0.25), Vec2::new(0.0, -1.0), &floor, skin).map(|h| h.time),
            Some(0.0)
        );
    }

    #[test]
    fn a_corner_where_the_side_is_entered_last_offers_the_top() {
        let block = boxed(20.0, 0.0, 10.0, 10.0);
        let body = boxed(0.0, 19.9995, 10.0, 10.0);
        let hit = sweep_aabb(&body, Vec2::new(20.0, -20.0), &block, SKIN).expect("corner hit");
        assert_eq!((hit.normal, hit.alternative), (Vec2::NEG_X, Some(Vec2::Y)));
    }

    #[test]
    fn removing_velocity_into_a_surface_keeps_what_leaves_or_slides_along_it() {
        let mut into_floor = Vec2::new(3.0, -5.0);
        remove_velocity_into(&mut into_floor, Vec2::Y);
        assert_eq!(into_floor, Vec2::new(3.0, 0.0));
        let mut leaving = Vec2::new(3.0, 5.0);
        remove_velocity_into(&mut leaving, Vec2::Y);
        assert_eq!(leaving, Vec2::new(3.0, 5.0));
        let mut into_slope = Vec2::new(0.0, -2.0);
        let normal = Vec2::new(-0.6, 0.8);
        remove_velocity_into(&mut into_slope, normal);
        assert!(into_slope.dot(normal).abs() < 1e-6 && (into_slope - Vec2::new(-0.96, -0.72)).length() < 1e-6);
    }

    #[test]
    fn a_box_moving_away_from_a_target_beside_it_is_no_hit() {
        // Right of the block and moving right while it comes down past the block's top: the
        // vertical window opens after the horizontal one has closed.
        let block = boxed(0.0, 0.0, 10.0, 10.0);
        let body = boxed(11.0, 12.0, 2.0, 2.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(2.0, -8.0), &block, SKIN), None);
        // Passing the block's corner diagonally: across its right face's plane only after it is
        // below the block.
        let body = boxed(12.0, 12.0, 2.0, 2.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(-4.0, -40.0), &block, SKIN), None);
        // Walking off the block's edge: flush with its side, feet within the skin under its top,
        // moving right and down. The windows of both axes closed at the start of the step.
        let body = boxed(10.0, 9.9995, 4.0, 4.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(2.0, -3.0), &block, SKIN), None);
    }

    #[test]
    fn a_box_or_a_target_with_a_nan_coordinate_is_never_hit() {
        let block = boxed(0.0, 0.0, 10.0, 10.0);
        let body = boxed(-10.0, 15.0, 4.0, 4.0);
        let delta = Vec2::new(12.0, -10.0);
        assert!(
            sweep_aabb(&body, delta, &block, SKIN).is_some(),
            "the move hits without NaN"
        );
        for corner in 0..4 {
            let poison = |aabb: &Aabb| {
                let mut aabb = *aabb;
                match corner {
                    0 => aabb.min.x = f32::NAN,
                    1 => aabb.max.x = f32::NAN,
                    2 => aabb.min.y = f32::NAN,
                    _ => aabb.max.y = f32::NAN,
                }
                aabb
            };
            assert_eq!(
                sweep_aabb(&poison(&body), delta, &block, SKIN),
                None,
                "body, corner {corner}"
            );
            assert_eq!(
                sweep_aabb(&body, delta, &poison(&block), SKIN),
                None,
                "block, corner {corner}"
            );
        }
    }

    #[test]
    fn deep_overlap_at_start_is_left_to_push_out() {
        let block = boxed(0.0, 0.0, 10.0, 10.0);
        let body = boxed(5.0, 5.0, 10.0, 10.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(1.0, -1.0), &block, SKIN), None);
    }

    #[test]
    fn miss_when_passing_beside() {
        let block = boxed(0.0, 0.0, 10.0, 10.0);
        let body = boxed(-20.0, 20.0, 5.0, 5.0);
        assert_eq!(sweep_aabb(&body, Vec2::new(40.0, 0.0), &block, SKIN), None);
    }
}
