//! The player's input, one [`InputFrame`] per fixed step.
//!
//! Gameplay never reads devices: each fixed step takes one frame from the [`InputSource`] — the
//! live keyboard (and gamepad) through leafwing-input-manager, or a replay — into [`PlayerInput`].
//! That makes a run a pure function of its input frames: replays and tests drive the real game.

pub mod replay;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use crate::schedule::GameSystems;
use replay::{InputFrame, Recorder, ReplayCursor};

/// This fixed step's input and the previous step's, for edges (a jump is a press, not a hold).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct PlayerInput {
    /// Held this step.
    pub current: InputFrame,
    /// Held the step before.
    pub previous: InputFrame,
    /// Fixed steps taken since the run started.
    pub frame: u64,
}

impl PlayerInput {
    /// Jump went down this step.
    pub fn jump_pressed(&self) -> bool {
        self.current.jump && !self.previous.jump
    }

    /// Run went down this step (a fire player throws a fireball).
    pub fn run_pressed(&self) -> bool {
        self.current.run && !self.previous.run
    }
}

/// Where each fixed step's input comes from.
#[derive(Resource, Clone, Debug, Default)]
pub enum InputSource {
    /// Nothing held (title screens, tests that place the player by hand).
    #[default]
    Idle,
    /// The keyboard and gamepad, through [`LiveInput`].
    Live,
    /// A replay, frame by frame; nothing is held after its end.
    Replay(ReplayCursor),
}

/// The game's actions (leafwing-input-manager).
#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect)]
pub enum Action {
    /// Move left.
    Left,
    /// Move right.
    Right,
    /// Up.
    Up,
    /// Down / drop through.
    Down,
    /// Jump.
    Jump,
    /// Run.
    Run,
    /// Pause and resume.
    Pause,
}

impl Action {
    /// The default bindings: arrows or WASD, Space/Z to jump, Shift/X to run, Escape/P to pause;
    /// the gamepad's d-pad and face buttons when the `gamepad` feature is on.
    pub fn default_input_map() -> InputMap<Action> {
        let mut map = InputMap::default();
        map.insert(Action::Left, KeyCode::ArrowLeft)
            .insert(Action::Left, KeyCode::KeyA)
            .insert(Action::Right, KeyCode::ArrowRight)
            .insert(Action::Right, KeyCode::KeyD)
            .insert(Action::Up, KeyCode::ArrowUp)
            .insert(Action::Up, KeyCode::KeyW)
            .insert(Action::Down, KeyCode::ArrowDown)
            .insert(Action::Down, KeyCode::KeyS)
            .insert(Action::Jump, KeyCode::Space)
            .insert(Action::Jump, KeyCode::KeyZ)
            .insert(Action::Run, KeyCode::ShiftLeft)
            .insert(Action::Run, KeyCode::ShiftRight)
            .insert(Action::Run, KeyCode::KeyX)
            .insert(Action::Pause, KeyCode::Escape)
            .insert(Action::Pause, KeyCode::KeyP);
        #[cfg(feature = "gamepad")]
        map.insert(Action::Left, GamepadButton::DPadLeft)
            .insert(Action::Right, GamepadButton::DPadRight)
            .insert(Action::Up, GamepadButton::DPadUp)
            .insert(Action::Down, GamepadButton::DPadDown)
            .insert(Action::Jump, GamepadButton::South)
            .insert(Action::Run, GamepadButton::West)
            .insert(Action::Pause, GamepadButton::Start);
        map
    }
}

/// The live buttons, sampled every frame: what is held now and what was pressed since the last
/// fixed step (a tap shorter than one step still counts).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct LiveInput {
    /// Held now.
    pub held: InputFrame,
    /// Pressed at some point since the last fixed step.
    pub pressed: InputFrame,
}

/// The entity that owns the input map and action state.
#[derive(Component)]
pub struct InputController;

pub(super) fn plugin(app: &mut App) {
    app.register_type::<PlayerInput>();
    app.init_resource::<PlayerInput>()
        .init_resource::<InputSource>()
        .init_resource::<LiveInput>();
    app.add_systems(FixedUpdate, advance_input.in_set(GameSystems::Input));
    app.add_plugins(replay::plugin);
}

/// Live input: the leafwing plugin and the per-frame sampling. Windowed mode only.
pub(super) fn live_plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<Action>::default());
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Name::new("Input"), InputController, Action::default_input_map()));
    });
    app.add_systems(
        PreUpdate,
        sample_live_input.after(leafwing_input_manager::plugin::InputManagerSystem::Update),
    );
}

fn sample_live_input(actions: Single<&ActionState<Action>, With<InputController>>, mut live: ResMut<LiveInput>) {
    let frame = |f: &dyn Fn(&Action) -> bool| InputFrame {
        left: f(&Action::Left),
        right: f(&Action::Right),
        up: f(&Action::Up),
        down: f(&Action::Down),
        jump: f(&Action::Jump),
        run: f(&Action::Run),
    };
    live.held = frame(&|a| actions.pressed(a));
    live.pressed = live.pressed.union(frame(&|a| actions.just_pressed(a)));
}

/// Takes this step's input frame from the source, and records it.
fn advance_input(
    mut input: ResMut<PlayerInput>,
    mut source: ResMut<InputSource>,
    mut live: ResMut<LiveInput>,
    recorder: Option<ResMut<Recorder>>,
) {
    let next = match &mut *source {
        InputSource::Idle => InputFrame::default(),
        InputSource::Live => {
            let frame = live.held.union(live.pressed);
            live.pressed = InputFrame::default();
            frame
        }
        InputSource::Replay(cursor) => cursor.next_frame(),
    };
    input.previous = input.current;
    input.current = next;
    input.frame += 1;
    if let Some(mut recorder) = recorder {
        recorder.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_every_combination() {
        for bits in 0..64u8 {
            let frame = InputFrame {
                left: bits & 1 != 0,
                right: bits & 2 != 0,
                up: bits & 4 != 0,
                down: bits & 8 != 0,
                jump: bits & 16 != 0,
                run: bits & 32 != 0,
            };
            assert_eq!(
                InputFrame::from_letters(&frame.to_letters()),
                Ok(frame),
                "bits {bits:06b}"
            );
        }
    }

    #[test]
    fn unknown_letters_are_an_error_naming_the_letter() {
        let error = InputFrame::from_letters("RQ").unwrap_err();
        assert!(error.contains("'Q'"), "{error}");
    }

    #[test]
    fn a_jump_is_a_press_not_a_hold() {
        let mut input = PlayerInput::default();
        input.current.jump = true;
        assert!(input.jump_pressed());
        input.previous = input.current;
        assert!(!input.jump_pressed());
    }
}
