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
// Saved input written before a field existed still reads.
#[cfg_attr(feature = "serialize", serde(default))]
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
    /// The jump button was released (one-shot): with [`JumpTuning::release_cut`], a body still
    /// rising from its jump has its upward speed cut, so a tap jumps lower than a press.
    pub jump_released: bool,
    /// Climbing intent in `-1..=1` (clamped): 1 up, -1 down. A [`Climber`](crate::Climber) on a
    /// [`Ladder`](crate::Ladder) moves by it; other bodies ignore it.
    pub climb: f32,
}

impl MovementInput {
    /// [`horizontal`](Self::horizontal) as the step reads it: clamped to `-1..=1`, 0 when not finite.
    pub fn horizontal_intent(&self) -> f32 {
        axis_intent(self.horizontal)
    }

    /// [`climb`](Self::climb) as the step reads it: clamped to `-1..=1`, 0 when not finite.
    pub fn climb_intent(&self) -> f32 {
        axis_intent(self.climb)
    }
}

fn axis_intent(value: f32) -> f32 {
    if value.is_finite() { value.clamp(-1.0, 1.0) } else { 0.0 }
}

/// The forgiving jump of a platformer's controller, on a body with [`MovementInput`]: a jump asked
/// a little after walking off a ledge (coyote time) or a little before landing (jump buffer) is
/// honoured, and releasing the button early cuts the rise (variable jump height). A body without
/// it jumps only while supported, the moment it asks. Its state is [`JumpState`].
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// // 0.1 s of coyote time, 0.12 s of jump buffer, a release keeps 40 % of the rise.
/// let forgiving = JumpTuning {
///     coyote_time: 0.1,
///     jump_buffer: 0.12,
///     release_cut: 0.4,
/// };
///
/// /// The jump button's edges this frame, as the game's input system reads them.
/// #[derive(Resource, Default)]
/// struct JumpButton {
///     pressed: bool,
///     released: bool,
/// }
///
/// fn drive(button: Res<JumpButton>, mut players: Query<&mut MovementInput>) {
///     for mut input in &mut players {
///         if button.pressed {
///             input.jump = Some(420.0);
///         }
///         input.jump_released |= button.released;
///     }
/// }
/// # let mut world = World::new();
/// # world.spawn((Dynamic, forgiving));
/// # App::new().init_resource::<JumpButton>().add_systems(FixedUpdate, drive.before(PlatformerSystems::SyncColliders));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(JumpState)]
pub struct JumpTuning {
    /// How long after the body left its support a jump is still honoured, in s (once).
    pub coyote_time: f32,
    /// How long a jump asked in the air waits to be honoured when the body lands, in s.
    pub jump_buffer: f32,
    /// The share of its upward speed a body rising from its jump keeps when the button is released
    /// (`MovementInput::jump_released`), in `0..=1`: 1 never cuts.
    pub release_cut: f32,
}

impl Default for JumpTuning {
    fn default() -> Self {
        Self {
            coyote_time: 0.1,
            jump_buffer: 0.1,
            release_cut: 0.5,
        }
    }
}

/// Wall slide and wall jump, on a body with [`MovementInput`]: in the air and pressed against a wall
/// (a solid contact on one side in the latest step), it falls no faster than `max_slide_speed`, and
/// a jump request pushes it off the wall with `jump`. A jump from the ground (or within
/// [`JumpTuning::coyote_time`]) goes first. Which way the body faces afterwards is the game's: the
/// input keeps pushing as it says (many games ignore it toward the wall for a moment).
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// // Slides down walls at 60 px/s at most; a wall jump leaves at 180 px/s sideways, 380 px/s up.
/// let climber = WallJumpTuning {
///     max_slide_speed: 60.0,
///     jump: Vec2::new(180.0, 380.0),
/// };
/// # let mut world = World::new();
/// # world.spawn((Dynamic, climber));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct WallJumpTuning {
    /// Largest falling speed while pressed against a wall in the air, px/s (`f32::INFINITY`: no
    /// slide, only the wall jump).
    pub max_slide_speed: f32,
    /// Velocity of a jump off a wall: `x` away from the wall, `y` up, px/s (clipped to
    /// [`MovementTuning::max_speed`]).
    pub jump: Vec2,
}

impl Default for WallJumpTuning {
    fn default() -> Self {
        Self {
            max_slide_speed: 64.0,
            jump: Vec2::new(160.0, 360.0),
        }
    }
}

/// What a body keeps of a lift's velocity when it leaves it (jumps or walks off): nothing (the
/// default, as without this component), its horizontal part, or all of it. The velocity is added in
/// the step after the body last stood on the lift, before Integrate (so `MovementTuning` friction
/// and maximum speed then act on it as on any velocity). Landing on a lift, a body with
/// `Horizontal` or `Full` loses the lift's horizontal velocity from its own where they point the same
/// way (never past zero): jumping up from a moving lift and landing back on it, it lands where it
/// left, without a shove. Its state is [`LiftRide`].
///
/// # Example
///
/// ```
/// use bevy::prelude::*;
/// use bevy_platformer_physics::prelude::*;
///
/// # let mut world = World::new();
/// // A jump off a lift moving right carries the body on to the right.
/// world.spawn((Dynamic, LiftMomentum::Horizontal));
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(LiftRide)]
pub enum LiftMomentum {
    /// Keep nothing: the body leaves with its own velocity.
    #[default]
    None,
    /// Keep the lift's horizontal velocity.
    Horizontal,
    /// Keep the lift's whole velocity (rising lifts throw higher).
    Full,
}

impl LiftMomentum {
    /// The part of a lift's velocity `lift` a body keeps.
    pub fn kept(self, lift: Vec2) -> Vec2 {
        match self {
            Self::None => Vec2::ZERO,
            Self::Horizontal => Vec2::new(lift.x, 0.0),
            Self::Full => lift,
        }
    }
}

/// The lift a body with [`LiftMomentum`] stood on at the start of the latest step, and that lift's
/// velocity in it; written by the Kinematics stage.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct LiftRide {
    /// The kinematic body it stood on.
    pub lift: Option<Entity>,
    /// That body's velocity in the step, px/s.
    pub velocity: Vec2,
}

/// What the plugin remembers between steps for [`JumpTuning`]; written by the Integrate stage.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct JumpState {
    /// Time since the body was last supported at the start of a step, in s (0 while supported).
    pub unsupported_for: f32,
    /// A jump was honoured since the body was last supported: coyote time does not give another.
    pub jumped: bool,
    /// A jump asked and not yet honoured: its speed, and how long ago it was asked (s).
    pub buffered: Option<(f32, f32)>,
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
