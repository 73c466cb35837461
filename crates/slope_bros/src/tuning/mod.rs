//! Every gameplay number, in `assets/tuning.ron`, hot-reloaded.
//!
//! The file is read at start-up and polled for changes while the game runs (windowed mode only:
//! a headless run keeps the values it started with, so that replays are deterministic). A file that
//! fails to parse logs one error naming the file, line and column, and the game keeps the last good
//! values; a missing field takes its default.
//!
//! Each section of the file is a file here: `player` (and the two feels), `enemies`, `items`,
//! `physics`, `rules`. A new number goes into its section's struct and `Default`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use serde::{Deserialize, Serialize};

mod enemies;
mod items;
mod physics;
mod player;
mod rules;

pub use enemies::EnemyTuning;
pub use items::ItemTuning;
pub use physics::PhysicsTuning;
pub use player::{Feel, PlayerTuning};
pub use rules::GameRules;

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
