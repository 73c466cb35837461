//! Every gameplay number, in `assets/tuning.ron`, hot-reloaded.
//!
//! The file is read at start-up and polled for changes while the game runs (windowed mode only:
//! a headless run keeps the values it started with, so that replays are deterministic). A file that
//! fails to parse logs one error naming the file, line and column, and the game keeps the last good
//! values; a missing field takes its default.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use serde::{Deserialize, Serialize};

/// How the player moves: the game's own feel, or Super Mario Bros.'s. Chosen on the title
/// screen (F) or with `--feel`; a replay names the feel it was recorded with.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Reflect)]
#[reflect(Resource)]
pub enum Feel {
    /// Quick to start and stop, high jumps, strong air control (`player` in the tuning file).
    #[default]
    Modern,
    /// Within 10 % of Super Mario Bros. on every measure of the player's motion (`classic`).
    Classic,
}

impl Feel {
    /// `modern` or `classic`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "modern" => Some(Self::Modern),
            "classic" => Some(Self::Classic),
            _ => None,
        }
    }

    /// The other feel.
    pub fn toggled(self) -> Self {
        match self {
            Self::Modern => Self::Classic,
            Self::Classic => Self::Modern,
        }
    }

    /// As the title screen shows it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Modern => "Modern",
            Self::Classic => "Classic",
        }
    }
}

/// All tuning values.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[reflect(Resource)]
#[serde(default, deny_unknown_fields)]
pub struct Tuning {
    /// The player character with the modern feel.
    pub player: PlayerTuning,
    /// The player character with the classic feel (Super Mario Bros.'s motion).
    pub classic: PlayerTuning,
    /// Enemies and items.
    pub enemies: EnemyTuning,
    /// Power-ups and level objects: fireballs, the star, springs, falling lifts, lava.
    pub items: ItemTuning,
    /// The physics world.
    pub physics: PhysicsTuning,
    /// Scores, lives and timers.
    pub rules: GameRules,
}

/// The player character. Speeds in px/s, accelerations in px/s², times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerTuning {
    /// Collider of the small form, px.
    pub small_size: Vec2,
    /// Collider of the big form, px.
    pub big_size: Vec2,
    /// Top walking speed.
    pub walk_speed: f32,
    /// Top running speed (run held).
    pub run_speed: f32,
    /// Acceleration toward the input direction.
    pub acceleration: f32,
    /// Acceleration toward the input direction with run held.
    pub run_acceleration: f32,
    /// Deceleration with no input, at up to walking speed.
    pub deceleration: f32,
    /// Deceleration with no input, faster than walking.
    pub run_deceleration: f32,
    /// Deceleration while the input opposes the motion (skid), at up to walking speed.
    pub skid_deceleration: f32,
    /// Skid deceleration faster than walking.
    pub run_skid_deceleration: f32,
    /// Horizontal acceleration in the air, as a fraction of the ground values.
    pub air_control: f32,
    /// Upward speed of a jump.
    pub jump_speed: f32,
    /// Extra jump speed at full running speed.
    pub run_jump_bonus: f32,
    /// The bonus grows from this speed up to the running speed; a jump from at least this speed is
    /// a running jump (its gravity is the `run_` one).
    pub run_jump_from: f32,
    /// Gravity multiplier while rising with the jump button held.
    pub rise_gravity_scale: f32,
    /// Gravity multiplier while rising with the jump button released (variable jump height).
    pub release_gravity_scale: f32,
    /// Gravity multiplier while falling.
    pub fall_gravity_scale: f32,
    /// [`rise_gravity_scale`](Self::rise_gravity_scale) of a running jump.
    pub run_rise_gravity_scale: f32,
    /// [`release_gravity_scale`](Self::release_gravity_scale) of a running jump.
    pub run_release_gravity_scale: f32,
    /// [`fall_gravity_scale`](Self::fall_gravity_scale) after a running jump.
    pub run_fall_gravity_scale: f32,
    /// Largest falling speed.
    pub max_fall_speed: f32,
    /// A jump still works this long after walking off a ledge.
    pub coyote_time: f32,
    /// A jump pressed this long before landing happens on landing.
    pub jump_buffer: f32,
    /// Bounce speed after a stomp.
    pub stomp_bounce: f32,
    /// Bounce speed after a stomp with jump held.
    pub stomp_bounce_held: f32,
    /// Blinking invulnerability after being hurt.
    pub invulnerable_time: f32,
    /// Length of the death animation before the level restarts.
    pub death_time: f32,
    /// Collider of the big player crouching (Down on level ground).
    pub crouch_size: Vec2,
    /// Top speed of the slope slide on a slope of gradient 0, px/s; it grows with the gradient.
    pub slide_speed: f32,
    /// What each unit of gradient (rise over run, counted up to 2) adds to the slide's top speed.
    pub slide_speed_per_gradient: f32,
    /// Acceleration of the slope slide, px/s².
    pub slide_acceleration: f32,
}

impl Default for PlayerTuning {
    fn default() -> Self {
        Self {
            small_size: Vec2::new(12.0, 15.0),
            big_size: Vec2::new(14.0, 30.0),
            walk_speed: 90.0,
            run_speed: 150.0,
            acceleration: 420.0,
            run_acceleration: 420.0,
            deceleration: 480.0,
            run_deceleration: 480.0,
            skid_deceleration: 1100.0,
            run_skid_deceleration: 1100.0,
            air_control: 0.8,
            jump_speed: 370.0,
            run_jump_bonus: 30.0,
            run_jump_from: 0.0,
            rise_gravity_scale: 1.0,
            release_gravity_scale: 3.0,
            fall_gravity_scale: 1.5,
            run_rise_gravity_scale: 1.0,
            run_release_gravity_scale: 3.0,
            run_fall_gravity_scale: 1.5,
            max_fall_speed: 420.0,
            coyote_time: 0.1,
            jump_buffer: 0.12,
            stomp_bounce: 220.0,
            stomp_bounce_held: 380.0,
            invulnerable_time: 2.0,
            death_time: 1.5,
            crouch_size: Vec2::new(14.0, 15.0),
            slide_speed: 120.0,
            slide_speed_per_gradient: 60.0,
            slide_acceleration: 600.0,
        }
    }
}

impl PlayerTuning {
    /// Super Mario Bros.'s motion at 60 steps per second and 16 px tiles, with the physics'
    /// gravity of 960 px/s² (`physics.gravity`): the reference values of `docs/feel.md`,
    /// converted from the game's `MaxXSpdData`, `FrictionData`, `PlayerYSpdData`,
    /// `JumpMForceData` and `FallMForceData` tables (one 1/256 px per frame² is 14.0625 px/s²).
    pub fn classic() -> Self {
        // Gravity multipliers of the physics' 960 px/s².
        let gravity = |px_s2: f32| px_s2 / 960.0;
        Self {
            walk_speed: 90.0,
            run_speed: 150.0,
            acceleration: 134.0,
            run_acceleration: 200.0,
            deceleration: 134.0,
            run_deceleration: 183.0,
            skid_deceleration: 267.0,
            run_skid_deceleration: 366.0,
            air_control: 1.0,
            jump_speed: 240.0,
            run_jump_bonus: 60.0,
            run_jump_from: 120.0,
            // 0x20 and 0x70 (standing and walking jumps), 0x28 and 0x90 (running jumps).
            rise_gravity_scale: gravity(450.0),
            release_gravity_scale: gravity(1575.0),
            fall_gravity_scale: gravity(1575.0),
            run_rise_gravity_scale: gravity(562.5),
            run_release_gravity_scale: gravity(2025.0),
            run_fall_gravity_scale: gravity(2025.0),
            max_fall_speed: 240.0,
            // Super Mario Bros. has no coyote time and no jump buffer: a jump is taken only from the
            // ground, on the frame it is pressed (these last less than one 60 Hz step).
            coyote_time: 0.01,
            jump_buffer: 0.01,
            ..Self::default()
        }
    }
}

/// Enemies and items. Speeds in px/s, times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct EnemyTuning {
    /// Walking speed of walkers.
    pub walker_speed: f32,
    /// Walking speed of shell enemies.
    pub shell_enemy_speed: f32,
    /// Speed of a kicked shell.
    pub shell_speed: f32,
    /// After a kick, the shell cannot hurt the kicker for this long.
    pub shell_kick_grace: f32,
    /// Time between a hammer thrower's hops.
    pub hammer_hop_interval: f32,
    /// Upward speed of a hop.
    pub hammer_hop_speed: f32,
    /// Time between throws.
    pub hammer_throw_interval: f32,
    /// Launch velocity of a hammer (x toward the player, y up).
    pub hammer_velocity: Vec2,
    /// Gravity on hammers, px/s² (downward).
    pub hammer_gravity: f32,
    /// A thrower only throws when the player is within this horizontal distance.
    pub hammer_range: f32,
    /// Speed of a mushroom.
    pub mushroom_speed: f32,
    /// How long a squashed enemy stays visible.
    pub squash_time: f32,
    /// An enemy wakes up when the player comes this close to it horizontally, px: a little more
    /// than half the view's width (the view is 15 tiles tall, about 27 wide), so enemies start
    /// to move just before they come on screen.
    pub wake_distance: f32,
    /// A roller's speed on level ground (it rolls no slower).
    pub roller_speed: f32,
    /// How much faster it rolls down a slope per unit of gradient.
    pub roller_speed_per_gradient: f32,
    /// How fast it gathers speed.
    pub roller_acceleration: f32,
    /// How fast it loses speed on level ground.
    pub roller_friction: f32,
    /// The boss's walking speed.
    pub boss_speed: f32,
    /// How far either side of where it stood the boss paces, px.
    pub boss_pace: f32,
    /// Time between the boss's hops.
    pub boss_hop_interval: f32,
    /// Upward speed of the boss's hop.
    pub boss_hop_speed: f32,
    /// Time between the boss's throws (hammers as a thrower's, within `hammer_range`).
    pub boss_throw_interval: f32,
    /// Fireballs that knock the boss out.
    pub boss_fireball_hits: u32,
    /// Points for beating the boss.
    pub boss_score: u32,
    /// Time between two planks of a bridge falling, after the axe is touched.
    pub bridge_fall_interval: f32,
}

impl Default for EnemyTuning {
    fn default() -> Self {
        Self {
            walker_speed: 30.0,
            shell_enemy_speed: 24.0,
            shell_speed: 200.0,
            shell_kick_grace: 0.25,
            hammer_hop_interval: 2.4,
            hammer_hop_speed: 230.0,
            hammer_throw_interval: 1.7,
            hammer_velocity: Vec2::new(70.0, 280.0),
            hammer_gravity: 700.0,
            hammer_range: 220.0,
            mushroom_speed: 50.0,
            squash_time: 0.5,
            wake_distance: 256.0,
            roller_speed: 30.0,
            roller_speed_per_gradient: 110.0,
            roller_acceleration: 260.0,
            roller_friction: 40.0,
            boss_speed: 24.0,
            boss_pace: 32.0,
            boss_hop_interval: 2.6,
            boss_hop_speed: 260.0,
            boss_throw_interval: 1.1,
            boss_fireball_hits: 5,
            boss_score: 5000,
            bridge_fall_interval: 0.05,
        }
    }
}

/// Power-ups and level objects. Speeds in px/s, accelerations in px/s², times in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct ItemTuning {
    /// Horizontal speed of a fireball.
    pub fireball_speed: f32,
    /// Upward speed a fireball bounces off a floor or a slope with.
    pub fireball_bounce: f32,
    /// Gravity on a fireball, as a multiple of the physics' gravity.
    pub fireball_gravity_scale: f32,
    /// Fireballs in flight at once, at most.
    pub fireballs_at_once: u32,
    /// A fireball this far from the player horizontally, px, is gone (off screen).
    pub fireball_range: f32,
    /// Seconds of star power.
    pub star_time: f32,
    /// Horizontal speed of a star.
    pub star_speed: f32,
    /// Upward speed a star hops off the ground with.
    pub star_bounce: f32,
    /// Upward speed a spring launches the player with.
    pub spring_speed: f32,
    /// The same with jump held as the player lands on it.
    pub spring_speed_held: f32,
    /// Seconds a falling lift waits after someone stands on it before it falls.
    pub falling_lift_delay: f32,
    /// Downward acceleration of a falling lift.
    pub falling_lift_gravity: f32,
    /// Top speed of a falling lift.
    pub falling_lift_max_speed: f32,
    /// A multi-coin block gives coins for this long after its first hit, then one last one.
    pub multi_coin_time: f32,
    /// ... and at most this many coins.
    pub multi_coin_max: u32,
    /// How deep into lava a body sinks before it is lost, px.
    pub lava_depth: f32,
    /// Seconds a power-up takes to rise out of its block; it waits, untouchable, until it is out.
    pub power_up_rise_time: f32,
}

impl Default for ItemTuning {
    fn default() -> Self {
        Self {
            fireball_speed: 240.0,
            fireball_bounce: 210.0,
            fireball_gravity_scale: 1.6,
            fireballs_at_once: 2,
            fireball_range: 320.0,
            star_time: 10.0,
            star_speed: 80.0,
            star_bounce: 330.0,
            spring_speed: 480.0,
            spring_speed_held: 660.0,
            falling_lift_delay: 0.25,
            falling_lift_gravity: 700.0,
            falling_lift_max_speed: 300.0,
            multi_coin_time: 4.0,
            multi_coin_max: 10,
            lava_depth: 4.0,
            power_up_rise_time: 0.6,
        }
    }
}

/// The physics world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct PhysicsTuning {
    /// Gravity, px/s² (negative is down).
    pub gravity: f32,
    /// How characters resolve collisions.
    pub collision_mode: CollisionMode,
}

impl Default for PhysicsTuning {
    fn default() -> Self {
        Self {
            gravity: -960.0,
            collision_mode: CollisionMode::Continuous,
        }
    }
}

/// Scores, lives and timers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Reflect)]
#[serde(default, deny_unknown_fields)]
pub struct GameRules {
    /// Lives at the start of a game.
    pub lives: u32,
    /// Points for a coin.
    pub coin_score: u32,
    /// Points for an enemy knocked out alone (a slide, a fireball, a star, a bumped block).
    pub stomp_score: u32,
    /// Points of the enemies of a chain, one after the other: stomps without touching the ground
    /// start at the first, a shell's knock-outs at `shell_chain_start`. After the last one, each
    /// enemy of the chain is an extra life.
    pub chain_scores: Vec<u32>,
    /// Where a sliding shell's chain starts in `chain_scores`.
    pub shell_chain_start: usize,
    /// Points for a broken brick.
    pub brick_score: u32,
    /// Points for a power-up.
    pub powerup_score: u32,
    /// Coins that make one extra life.
    pub coins_per_life: u32,
    /// Points per second left on the clock at the goal.
    pub time_bonus: u32,
    /// Points for grabbing the flagpole in each fifth of its height, lowest first.
    pub flagpole_scores: Vec<u32>,
    /// Seconds the level-complete screen shows.
    pub level_complete_time: f32,
}

impl Default for GameRules {
    fn default() -> Self {
        Self {
            lives: 3,
            coin_score: 200,
            stomp_score: 100,
            chain_scores: vec![100, 200, 400, 500, 800, 1000, 2000, 4000, 5000, 8000],
            shell_chain_start: 3,
            brick_score: 50,
            powerup_score: 1000,
            coins_per_life: 100,
            time_bonus: 50,
            flagpole_scores: vec![100, 400, 800, 2000, 5000],
            level_complete_time: 3.0,
        }
    }
}

/// A tuning file that failed to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuningError {
    /// The file.
    pub file: PathBuf,
    /// What is wrong, with line and column.
    pub message: String,
}

impl std::fmt::Display for TuningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            player: PlayerTuning::default(),
            classic: PlayerTuning::classic(),
            enemies: EnemyTuning::default(),
            items: ItemTuning::default(),
            physics: PhysicsTuning::default(),
            rules: GameRules::default(),
        }
    }
}

impl Tuning {
    /// The player's values for `feel`.
    pub fn player_for(&self, feel: Feel) -> &PlayerTuning {
        match feel {
            Feel::Modern => &self.player,
            Feel::Classic => &self.classic,
        }
    }

    /// Parses RON text; `file` names it in the error.
    pub fn from_ron(text: &str, file: &Path) -> Result<Self, TuningError> {
        let tuning: Tuning = ron::from_str(text).map_err(|e| TuningError {
            file: file.to_path_buf(),
            message: format!("line {}, column {}: {}", e.span.start.line, e.span.start.col, e.code),
        })?;
        tuning.check().map_err(|message| TuningError {
            file: file.to_path_buf(),
            message,
        })?;
        Ok(tuning)
    }

    /// Values that would break the game (NaN, negative sizes).
    fn check(&self) -> Result<(), String> {
        for (section, p) in [("player", &self.player), ("classic", &self.classic)] {
            for (name, size) in [("small_size", p.small_size), ("big_size", p.big_size)] {
                if !(size.x > 0.0 && size.y > 0.0 && size.is_finite()) {
                    return Err(format!("{section}.{name} must be positive and finite, is {size:?}"));
                }
            }
            let speeds = [
                ("walk_speed", p.walk_speed),
                ("run_speed", p.run_speed),
                ("jump_speed", p.jump_speed),
                ("max_fall_speed", p.max_fall_speed),
            ];
            for (name, value) in speeds {
                if !(value.is_finite() && value >= 0.0) {
                    return Err(format!(
                        "{section}.{name} must be a finite number of at least 0, is {value}"
                    ));
                }
            }
        }
        for (name, value) in [
            ("enemies.walker_speed", self.enemies.walker_speed),
            ("enemies.shell_speed", self.enemies.shell_speed),
            ("items.fireball_speed", self.items.fireball_speed),
            ("items.fireball_bounce", self.items.fireball_bounce),
            ("items.fireball_range", self.items.fireball_range),
            ("items.star_time", self.items.star_time),
            ("items.spring_speed", self.items.spring_speed),
            ("items.spring_speed_held", self.items.spring_speed_held),
            ("items.falling_lift_max_speed", self.items.falling_lift_max_speed),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(format!("{name} must be a finite number of at least 0, is {value}"));
            }
        }
        if !self.physics.gravity.is_finite() {
            return Err(format!("physics.gravity must be finite, is {}", self.physics.gravity));
        }
        Ok(())
    }
}

/// The tuning file and what was last read from it.
#[derive(Resource, Clone, Debug)]
pub struct TuningFile {
    /// Its path.
    pub path: PathBuf,
    /// Modification time of the last read.
    pub modified: Option<SystemTime>,
    /// The latest problem, shown until the file is fixed.
    pub error: Option<TuningError>,
    /// Poll for changes (off in headless runs).
    pub watch: bool,
}

impl TuningFile {
    /// A file not read yet.
    pub fn new(path: PathBuf, watch: bool) -> Self {
        Self {
            path,
            modified: None,
            error: None,
            watch,
        }
    }

    /// Reads the file if it changed since the last read. On success replaces `tuning` and returns
    /// true; on failure keeps `tuning`, records the error and returns it.
    pub fn reload_if_changed(&mut self, tuning: &mut Tuning) -> Result<bool, TuningError> {
        let modified = std::fs::metadata(&self.path).and_then(|m| m.modified()).ok();
        if modified.is_some() && modified == self.modified {
            return Ok(false);
        }
        self.modified = modified;
        let result = std::fs::read_to_string(&self.path)
            .map_err(|e| TuningError {
                file: self.path.clone(),
                message: format!("cannot read: {e}"),
            })
            .and_then(|text| Tuning::from_ron(&text, &self.path));
        match result {
            Ok(new) => {
                self.error = None;
                let changed = *tuning != new;
                *tuning = new;
                Ok(changed)
            }
            Err(e) => {
                self.error = Some(e.clone());
                Err(e)
            }
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.register_type::<(Tuning, Feel)>();
    app.init_resource::<Tuning>();
    app.init_resource::<Feel>();
    app.add_systems(Update, (poll_tuning_file, apply_physics_tuning).chain());
}

/// Polls the file twice a second.
fn poll_tuning_file(
    file: Option<ResMut<TuningFile>>,
    mut tuning: ResMut<Tuning>,
    time: Res<Time<Real>>,
    mut since: Local<f32>,
) {
    let Some(mut file) = file else { return };
    if !file.watch {
        return;
    }
    *since += time.delta_secs();
    if *since < 0.5 {
        return;
    }
    *since = 0.0;
    match file.reload_if_changed(&mut tuning) {
        Ok(true) => info!("reloaded {}", file.path.display()),
        Ok(false) => {}
        Err(e) => error!("{e}; keeping the previous values"),
    }
}

/// Loads the tuning file once, before the game starts.
pub fn load_tuning(world: &mut World, path: PathBuf, watch: bool) {
    let mut file = TuningFile::new(path, watch);
    let mut tuning = Tuning::default();
    if let Err(e) = file.reload_if_changed(&mut tuning) {
        error!("{e}; using the default values");
    }
    world.insert_resource(tuning);
    world.insert_resource(file);
}

fn apply_physics_tuning(tuning: Res<Tuning>, mut config: ResMut<PhysicsConfig>) {
    if tuning.is_changed() {
        let gravity = Vec2::new(0.0, tuning.physics.gravity);
        if config.gravity != gravity {
            config.gravity = gravity;
        }
    }
}
