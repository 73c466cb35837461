//! A path that a kinematic body (a lift) follows.

use bevy::prelude::*;

use super::Kinematic;

/// What a path follower does at the last point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Debug, Default, PartialEq)]
pub enum PathMode {
    /// Back and forth along the points.
    #[default]
    PingPong,
    /// From the last point straight on to the first, and round again.
    Loop,
    /// Stop at the last point.
    Once,
}

/// Moves a [`Kinematic`] body along straight segments between points, at a constant speed, in the
/// Kinematics stage. The body's riders are carried by the exact displacement.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy::time::TimeUpdateStrategy;
/// use bevy_platformer_physics::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, PlatformerPhysicsPlugins::default().with_fixed_hz(100.0)));
/// // One physics step per update.
/// app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// // A lift 64 px up and down at 32 px/s, waiting half a second at each end.
/// let lift = app
///     .world_mut()
///     .spawn((
///         Collider::rectangle(48.0, 8.0),
///         Transform::default(),
///         PathFollower::new(vec![Vec2::ZERO, Vec2::new(0.0, 64.0)], 32.0, PathMode::PingPong).with_wait(0.5),
///     ))
///     .id();
/// for _ in 0..100 {
///     app.update();
/// }
/// let y = app.world().get::<Transform>(lift).unwrap().translation.y;
/// assert!((y - 32.0).abs() < 0.5, "half-way up after a second: {y}");
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug)]
#[require(Kinematic)]
pub struct PathFollower {
    /// World positions of the entity's translation, in pixels. At least two.
    pub points: Vec<Vec2>,
    /// Speed along the path, in px/s.
    pub speed: f32,
    /// Behaviour at the ends.
    pub mode: PathMode,
    /// Pause on reaching the first or the last point, in seconds.
    pub wait: f32,
    /// Index of the point being moved toward.
    pub next: usize,
    /// Whether the follower moves toward higher indices (ping-pong).
    pub forward: bool,
    /// Seconds of pause left.
    pub wait_left: f32,
}

impl PathFollower {
    /// A follower that starts at `points[0]` heading for `points[1]`.
    pub fn new(points: Vec<Vec2>, speed: f32, mode: PathMode) -> Self {
        Self {
            points,
            speed,
            mode,
            wait: 0.0,
            next: 1,
            forward: true,
            wait_left: 0.0,
        }
    }

    /// The same follower pausing `seconds` at each end.
    pub fn with_wait(mut self, seconds: f32) -> Self {
        self.wait = seconds;
        self
    }

    /// Why this path cannot be followed, or `None`.
    pub fn problem(&self) -> Option<String> {
        if self.points.len() < 2 {
            Some(format!("path has {} points; it needs at least 2", self.points.len()))
        } else if self.points.iter().any(|p| !p.is_finite()) {
            Some("path has a non-finite point".to_string())
        } else if !self.speed.is_finite() || self.speed < 0.0 || !self.wait.is_finite() || self.wait < 0.0 {
            Some(format!(
                "path speed {} / wait {} must be finite and not negative",
                self.speed, self.wait
            ))
        } else {
            None
        }
    }

    fn is_end(&self, index: usize) -> bool {
        index == 0 || index + 1 == self.points.len()
    }

    /// Picks the point after `self.next` once it has been reached. Returns false when the path is
    /// over (`Once`).
    fn advance_index(&mut self) -> bool {
        let last = self.points.len() - 1;
        match self.mode {
            PathMode::Loop => self.next = (self.next + 1) % self.points.len(),
            PathMode::Once => {
                if self.next == last {
                    return false;
                }
                self.next += 1;
            }
            PathMode::PingPong => {
                if self.forward && self.next == last {
                    self.forward = false;
                } else if !self.forward && self.next == 0 {
                    self.forward = true;
                }
                self.next = if self.forward { self.next + 1 } else { self.next - 1 };
            }
        }
        true
    }

    /// Where a body at `position` is after `dt` seconds along the path. Pure bookkeeping on the
    /// follower's own state; the caller moves the body.
    pub fn advance(&mut self, position: Vec2, dt: f32) -> Vec2 {
        if self.problem().is_some() || dt <= 0.0 {
            return position;
        }
        self.next = self.next.min(self.points.len() - 1);
        let mut position = position;
        let mut time_left = dt;
        // Each turn reaches a point or ends the step; the bound only guards against zero-length
        // segments at speed 0.
        for _ in 0..(self.points.len() * 4 + 8) {
            if self.wait_left > 0.0 {
                let waited = self.wait_left.min(time_left);
                self.wait_left -= waited;
                time_left -= waited;
            }
            if time_left <= 0.0 || self.speed <= 0.0 {
                break;
            }
            let target = self.points[self.next];
            let to_target = target - position;
            let distance = to_target.length();
            let travel = self.speed * time_left;
            if travel < distance {
                position += to_target / distance * travel;
                break;
            }
            position = target;
            time_left -= distance / self.speed;
            if self.is_end(self.next) {
                self.wait_left = self.wait;
            }
            if !self.advance_index() {
                break;
            }
        }
        position
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ping_pong_turns_at_the_ends() {
        let mut path = PathFollower::new(vec![Vec2::ZERO, Vec2::new(10.0, 0.0)], 10.0, PathMode::PingPong);
        let p = path.advance(Vec2::ZERO, 0.5);
        assert_eq!(p, Vec2::new(5.0, 0.0));
        let p = path.advance(p, 1.0);
        assert_eq!(p, Vec2::new(5.0, 0.0), "reached 10 and came back 5");
        let p = path.advance(p, 0.7);
        assert!((p - Vec2::new(2.0, 0.0)).length() < 1e-5, "{p}");
    }

    #[test]
    fn loop_goes_from_last_to_first() {
        let mut path = PathFollower::new(
            vec![Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)],
            10.0,
            PathMode::Loop,
        );
        let p = path.advance(Vec2::ZERO, 2.0);
        assert_eq!(p, Vec2::new(10.0, 10.0));
        let p = path.advance(p, 2f32.sqrt());
        assert!((p - Vec2::ZERO).length() < 1e-4, "{p}");
    }

    #[test]
    fn waits_at_the_ends() {
        let mut path =
            PathFollower::new(vec![Vec2::ZERO, Vec2::new(10.0, 0.0)], 10.0, PathMode::PingPong).with_wait(0.5);
        let p = path.advance(Vec2::ZERO, 1.0);
        assert_eq!(p, Vec2::new(10.0, 0.0));
        let p = path.advance(p, 0.4);
        assert_eq!(p, Vec2::new(10.0, 0.0), "still waiting");
        let p = path.advance(p, 0.2);
        assert!((p - Vec2::new(9.0, 0.0)).length() < 1e-4, "{p}");
    }

    #[test]
    fn once_stops_at_the_last_point() {
        let mut path = PathFollower::new(vec![Vec2::ZERO, Vec2::new(0.0, 10.0)], 10.0, PathMode::Once);
        let p = path.advance(Vec2::ZERO, 5.0);
        assert_eq!(p, Vec2::new(0.0, 10.0));
        assert_eq!(path.advance(p, 1.0), Vec2::new(0.0, 10.0));
    }

    #[test]
    fn invalid_path_does_not_move() {
        let mut path = PathFollower::new(vec![Vec2::ZERO], 10.0, PathMode::Loop);
        assert!(path.problem().is_some());
        assert_eq!(path.advance(Vec2::ONE, 1.0), Vec2::ONE);
        let mut path = PathFollower::new(vec![Vec2::ZERO, Vec2::new(f32::NAN, 0.0)], 10.0, PathMode::Loop);
        assert_eq!(path.advance(Vec2::ONE, 1.0), Vec2::ONE);
    }
}
