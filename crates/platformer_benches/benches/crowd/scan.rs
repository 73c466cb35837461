//! The plain scan, the brute-force baseline: no broad phase, every body tests every collider of
//! the level each step. The move is the axis-separated tile method (section 21 of
//! the plugin's physics rules (`bevy_platformer_physics::physics_rules`)) built from the plugin's own geometry functions: slope support by
//! [`SlopeShape::surface_y`] over every slope, then the vertical and the horizontal move by
//! [`axis_cast`] over every box. O(bodies × colliders) per step.

use bevy::math::Vec2;
use bevy_platformer_physics::SlopeShape;
use bevy_platformer_physics::geometry::{Aabb, Axis, axis_cast};

use crate::scene::*;
use crate::{Crowd, Observation};

/// Rounding margin, pixels: the plugin's default `PhysicsConfig::skin`.
const SKIN: f32 = 1e-3;
/// How far a grounded body follows the surface down in one step, pixels: half a tile, the same
/// snap distance the peer gets.
const SNAP: f32 = 0.5 * TILE;

struct Body {
    aabb: Aabb,
    vy: f32,
    dir: f32,
    grounded: bool,
}

/// The crowd and the level's colliders, in pixels.
pub struct ScanCrowd {
    boxes: Vec<Aabb>,
    slopes: Vec<SlopeShape>,
    bodies: Vec<Body>,
}

impl ScanCrowd {
    /// `n` characters on the merged colliders of the terrain `width` tiles wide.
    pub fn new(width: i32, n: usize) -> Self {
        let (boxes, slopes) = merged(width);
        let px = |p: [f32; 2]| Vec2::from(p) * TILE;
        let half = Vec2::from(CHAR_SIZE) * TILE * 0.5;
        Self {
            boxes: boxes
                .into_iter()
                .map(|(min, max)| Aabb {
                    min: px(min),
                    max: px(max),
                })
                .collect(),
            slopes: slopes.into_iter().map(|(a, b)| SlopeShape::new(px(a), px(b))).collect(),
            bodies: (0..n)
                .map(|i| Body {
                    aabb: Aabb::from_center_half_size(Vec2::new(spawn_x(width, i, n), SPAWN_Y) * TILE, half),
                    vy: 0.0,
                    dir: spawn_dir(i),
                    grounded: false,
                })
                .collect(),
        }
    }

    /// How far `aabb` moves by `amount` along `axis` before meeting a box, scanning every box.
    fn cast(boxes: &[Aabb], aabb: &Aabb, axis: Axis, amount: f32) -> (f32, bool) {
        let mut travel = amount.abs();
        let mut hit = false;
        for target in boxes {
            if let Some(distance) = axis_cast(aabb, axis, amount, target, SKIN)
                && distance <= travel
            {
                travel = distance;
                hit = true;
            }
        }
        (travel * amount.signum(), hit)
    }
}

impl Crowd for ScanCrowd {
    fn step(&mut self) {
        let (boxes, slopes) = (&self.boxes, &self.slopes);
        for body in &mut self.bodies {
            let dx = body.dir * SPEED * TILE * DT;
            let mut vy = if body.grounded { 0.0 } else { body.vy };
            vy = (vy - GRAVITY * TILE * DT).max(-MAX_FALL * TILE);
            // Slope support where the body is going: the highest surface within reach.
            let target = body.aabb.translated(Vec2::new(dx, 0.0));
            let bottom = body.aabb.min.y;
            let reach_down = if body.grounded { SNAP } else { -vy * DT };
            let reach_up = 2.0 * dx.abs() + SKIN;
            let mut support: Option<f32> = None;
            for slope in slopes {
                if slope.overlaps_x(&target) {
                    let y = slope.surface_y(&target);
                    if y <= bottom + reach_up && y >= bottom - reach_down {
                        support = Some(support.map_or(y, |s| s.max(y)));
                    }
                }
            }
            let dy = match support {
                Some(y) => {
                    vy = 0.0;
                    y - bottom
                }
                None => vy * DT,
            };
            // Vertical first (onto the slope's height at the target), then horizontal: a body
            // topping a ramp is level with the plateau before it moves onto it.
            let mut grounded = support.is_some();
            // A grounded body off the slopes looks for a floor up to the snap distance below it:
            // stepping off a ramp's foot it lands on the ground at once instead of hopping.
            let cast = if body.grounded && support.is_none() { -SNAP } else { dy };
            if cast != 0.0 {
                let (moved, hit) = Self::cast(boxes, &body.aabb, Axis::Y, cast);
                let moved = if hit { moved } else { dy };
                body.aabb = body.aabb.translated(Vec2::new(0.0, moved));
                if hit {
                    grounded |= cast < 0.0;
                    vy = 0.0;
                }
            }
            let (moved, hit) = Self::cast(boxes, &body.aabb, Axis::X, dx);
            body.aabb = body.aabb.translated(Vec2::new(moved, 0.0));
            if hit {
                body.dir = -body.dir;
            }
            body.vy = vy;
            body.grounded = grounded;
        }
    }

    fn observe(&mut self, out: &mut Vec<Observation>) {
        out.clear();
        out.extend(self.bodies.iter().map(|b| Observation {
            min: (b.aabb.min / TILE).to_array(),
            max: (b.aabb.max / TILE).to_array(),
            grounded: b.grounded,
        }));
    }
}
