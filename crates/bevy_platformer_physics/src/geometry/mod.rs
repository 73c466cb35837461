//! Pure geometry: boxes, slopes, sweeps, axis casts, the correction vector, rays and casts. No ECS here, so every rule
//! is unit-tested on plain values.

mod aabb;
mod axis_cast;
mod correction;
mod ray;
mod slope;
mod sweep;
#[cfg(test)]
mod test_cases;

pub use aabb::Aabb;
pub use axis_cast::{Axis, axis_cast};
pub use correction::CorrectionAccumulator;
pub use ray::{
    CastHit, area_overlaps_slope, box_sweep_touches_slope, cast_box_aabb, cast_box_slope, point_in_slope, ray_aabb,
    ray_slope, slope_normal,
};
pub use slope::{SlopeRise, SlopeShape};
pub use sweep::{SweepHit, correct_velocity, remove_velocity_into, sweep_aabb};

/// `floor(v)` as an integer cell coordinate, clamped to ±10⁹ so that absurd coordinates cannot
/// overflow (NaN gives 0). `f32::floor` is an out-of-line call on baseline x86-64, and the broad
/// phase and tile grids floor several coordinates per query.
#[inline]
pub fn floor_cell(v: f32) -> i32 {
    let v = v.clamp(-1e9, 1e9);
    let i = v as i32;
    if (i as f32) > v { i - 1 } else { i }
}

#[cfg(test)]
mod tests {
    use super::floor_cell;

    #[test]
    fn floor_cell_matches_floor() {
        for v in [
            -2.5f32, -2.0, -1.0e-7, -0.0, 0.0, 0.3, 1.0, 1.999_999, 63.999, 64.0, 1.0e12, -1.0e12,
        ] {
            assert_eq!(floor_cell(v), v.clamp(-1e9, 1e9).floor() as i32, "{v}");
        }
        assert_eq!(floor_cell(f32::NAN), 0);
    }
}
