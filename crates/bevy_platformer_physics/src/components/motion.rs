//! Velocity, movement parameters, per-step input, and the per-step movement state.

use bevy::prelude::*;

use super::SlopeRef;
use crate::geometry::Aabb;

/// Linear velocity in pixels per second, y up.
///
/// On a [`Dynamic`](crate::Dynamic) body it is integrated by the plugin; on a
/// [`Kinematic`](crate::Kinematic) body without a [`PathFollower`](crate::PathFollower) it is the
/// velocity game code gives it.
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
/// // A crate thrown sideways: the game sets its velocity, the plugin moves it. (No friction, so
/// // it keeps its horizontal speed.)
/// let body = app
///     .world_mut()
///     .spawn((
///         Dynamic,
///         Collider::rectangle(8.0, 8.0),
///         Transform::default(),
///         Velocity(Vec2::new(100.0, 300.0)),
///         MovementTuning { deceleration: 0.0, ..default() },
///     ))
///     .id();
/// app.update();
/// let v = app.world().get::<Velocity>(body).unwrap().0;
/// assert_eq!(v.x, 100.0);
/// assert!(v.y < 300.0, "gravity pulls it down");
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct Velocity(pub Vec2);

/// The arcade movement rules of a dynamic body (see *Velocity integration* in
/// [the physics rules](crate::physics_rules)). Horizontal motion is driven by [`MovementInput::horizontal`]; vertical
/// motion by gravity and jumps.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// // A heavy character: slow to start, slow to stop, skids hard, falls at 1.5 g.
/// let heavy = MovementTuning {
///     acceleration: 400.0,
///     deceleration: 300.0,
///     skid_deceleration: 900.0,
///     max_speed: Vec2::new(120.0, 600.0),
///     gravity_scale: 1.5,
///     ..default()
/// };
/// # let mut world = World::new();
/// # world.spawn((Dynamic, heavy));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct MovementTuning {
    /// Horizontal acceleration while the input pushes along (or from rest), in px/s².
    pub acceleration: f32,
    /// Horizontal deceleration (friction) with no input, in px/s². Never reverses the direction.
    pub deceleration: f32,
    /// Horizontal deceleration while the input opposes the current motion (skid), in px/s².
    pub skid_deceleration: f32,
    /// Largest speed on each axis, in px/s: `x` horizontal, `y` vertical (both up and down).
    pub max_speed: Vec2,
    /// A horizontal speed below this, with no input, snaps to 0 (px/s).
    pub min_speed: f32,
    /// Multiplier of the configured gravity (0 floats).
    pub gravity_scale: f32,
}

impl Default for MovementTuning {
    fn default() -> Self {
        Self {
            acceleration: 600.0,
            deceleration: 800.0,
            skid_deceleration: 1600.0,
            max_speed: Vec2::new(160.0, 1000.0),
            min_speed: 1.0,
            gravity_scale: 1.0,
        }
    }
}

/// What the game (a player's input or an AI) asks of a dynamic body for the next physics step.
///
/// `horizontal` persists until changed; the one-shot requests `jump` and `drop_through` are
/// consumed by the next step's Integrate stage, whether or not they could be honoured.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// #[derive(Component)]
/// struct Player;
///
/// /// The buttons of this frame, as the game's input system reads them.
/// #[derive(Resource, Default)]
/// struct Buttons {
///     left: bool,
///     right: bool,
///     jump: bool,
/// }
///
/// // Before the step: what the player wants. The plugin accelerates, jumps only from the ground.
/// fn drive(buttons: Res<Buttons>, mut players: Query<&mut MovementInput, With<Player>>) {
///     for mut input in &mut players {
///         input.horizontal = buttons.right as i32 as f32 - buttons.left as i32 as f32;
///         if buttons.jump {
///             input.jump = Some(420.0);
///         }
///     }
/// }
/// # App::new().init_resource::<Buttons>().add_systems(FixedUpdate, drive.before(PlatformerSystems::SyncColliders));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct MovementInput {
    /// Horizontal intent in `-1..=1` (clamped): -1 full left, 1 full right.
    pub horizontal: f32,
    /// Jump request: the upward speed (px/s) to set. Honoured only by a supported body (one with a
    /// solid contact below it).
    pub jump: Option<f32>,
    /// Drop-through request: the one-way platforms the body stands on are ignored until it has left
    /// them.
    pub drop_through: bool,
}

/// Per-step movement state of a dynamic body, written by the plugin: where the step started and
/// what the slope planner decided for it (see *The temporary vertical velocity* in
/// [the physics rules](crate::physics_rules)), which FinishMovement compares with what the collisions allowed. Public
/// so that game code and tests can read it (an animation can use `passive_slide`); not meant to be
/// written.
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// # use log::debug; // in `bevy::prelude` with Bevy's `bevy_log` feature
/// use bevy_platformer_physics::prelude::*;
///
/// // An animation reads what the slope rules did this step.
/// fn pick_animation(bodies: Query<(&MovementState, &Contacts)>) {
///     for (state, contacts) in &bodies {
///         let animation = if state.passive_slide {
///             "slide"
///         } else if state.supporting_slope.is_some() {
///             "walk on a slope"
///         } else if contacts.on_floor() {
///             "walk"
///         } else {
///             "fall"
///         };
///         debug!("{animation}");
///     }
/// }
/// # App::new().add_systems(Update, pick_animation);
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default)]
pub struct MovementState {
    /// Translation at the start of the step's own movement (after a lift carried the body).
    pub start: Vec2,
    /// Collider box at `start`: the one-way rule and the slope rules look at it.
    pub start_aabb: Aabb,
    /// One-way platforms (entity and part) ignored after a drop-through request, until the body
    /// has left them.
    pub dropping_through: Vec<(Entity, u32)>,
    /// The latest step's horizontal motion was the passive slide down a slope too steep to stand
    /// on (removed from the velocity afterwards): a game draws a slide.
    pub passive_slide: bool,
    /// The vertical velocity Integrate gave the body in the latest step, before the slope rules
    /// had it follow a surface, px/s: whether it was rising or falling.
    pub integrated_vel_y: f32,
    /// The slope that supported the body at the end of the latest step, if any.
    pub supporting_slope: Option<SlopeRef>,
    /// The body stood on something when the step began (its latest contacts): it walks, rather
    /// than falls or jumps.
    pub started_on_floor: bool,
}

impl Default for MovementState {
    fn default() -> Self {
        Self {
            start: Vec2::ZERO,
            start_aabb: Aabb::default(),
            dropping_through: Vec::new(),
            passive_slide: false,
            integrated_vel_y: 0.0,
            supporting_slope: None,
            started_on_floor: false,
        }
    }
}
