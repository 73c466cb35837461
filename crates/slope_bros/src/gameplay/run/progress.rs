//! Score, coins, lives, the power-up carried to the next level and the level clock, and what a
//! run came to (for the screens and for headless runs).

use bevy::prelude::*;
use bevy_platformer_physics::prelude::Collider;

use crate::gameplay::Sfx;
use crate::gameplay::player::{Form, Kill, Player, PlayerDied, PlayerStatus, resize};
use crate::level::{CurrentLevel, LevelClock, LoadLevel};
use crate::schedule::GameSystems;
use crate::tuning::{GameRules, Tuning};

/// The player reached the goal.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LevelCompleted;

/// Carried across levels: score, coins, lives, the power-up.
#[derive(Resource, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct GameProgress {
    /// Points.
    pub score: u32,
    /// Coins (wrapping at [`GameRules::coins_per_life`]).
    pub coins: u32,
    /// Lives left.
    pub lives: u32,
    /// The player's form: the next level starts with it. A death makes it small.
    pub form: Form,
}

impl GameProgress {
    /// A new game, the player starting in `form`.
    pub fn new(rules: &GameRules, form: StartingForm) -> Self {
        Self {
            score: 0,
            coins: 0,
            lives: rules.lives,
            form: form.0,
        }
    }

    /// Adds points.
    pub fn add_score(&mut self, points: u32) {
        self.score = self.score.saturating_add(points);
    }

    /// Adds a coin; true if it made an extra life.
    pub fn add_coin(&mut self, rules: &GameRules) -> bool {
        self.add_score(rules.coin_score);
        self.coins += 1;
        if rules.coins_per_life > 0 && self.coins >= rules.coins_per_life {
            self.coins -= rules.coins_per_life;
            self.lives += 1;
            true
        } else {
            false
        }
    }
}

/// The form every new game starts in: small, unless the command line asked for a power-up
/// (`--power-up`, to try a level or take a picture with one).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct StartingForm(pub Form);

/// What happened in this run so far.
#[derive(Resource, Clone, Debug, Default, PartialEq, Reflect)]
#[reflect(Resource)]
pub struct RunOutcome {
    /// The goal was reached (at this step of the attempt).
    pub completed_at: Option<u64>,
    /// Deaths so far.
    pub deaths: u32,
    /// No lives are left.
    pub game_over: bool,
    /// The finale after the goal is over (the time is counted): the level is done.
    pub level_done: bool,
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<(GameProgress, LevelClock, RunOutcome, StartingForm)>();
    app.init_resource::<StartingForm>();
    app.add_message::<PlayerDied>().add_message::<LevelCompleted>();
    app.init_resource::<LevelClock>().init_resource::<RunOutcome>();
    app.add_systems(Startup, new_game);
    app.add_observer(start_with_carried_form);
    app.add_systems(
        FixedUpdate,
        (tick_clock, complete_level, lose_life, remember_form)
            .chain()
            .in_set(GameSystems::Progress),
    );
}

fn new_game(mut commands: Commands, tuning: Res<Tuning>, form: Res<StartingForm>) {
    commands.insert_resource(GameProgress::new(&tuning.rules, *form));
}

/// Seconds left on the clock when the time warning sounds (and the music speeds up).
pub const TIME_WARNING_AT: f32 = 100.0;

fn tick_clock(
    time: Res<Time>,
    mut clock: ResMut<LevelClock>,
    outcome: Res<RunOutcome>,
    mut kills: MessageWriter<Kill>,
    mut sfx: MessageWriter<Sfx>,
) {
    if outcome.completed_at.is_some() {
        return;
    }
    clock.steps += 1;
    let before = clock.left;
    clock.left = (clock.left - time.delta_secs()).max(0.0);
    if before > TIME_WARNING_AT && clock.left <= TIME_WARNING_AT {
        sfx.write(Sfx::TimeWarning);
    }
    if before > 0.0 && clock.left == 0.0 {
        kills.write(Kill);
    }
}

fn complete_level(
    mut completed: MessageReader<LevelCompleted>,
    clock: Res<LevelClock>,
    mut outcome: ResMut<RunOutcome>,
) {
    if completed.read().count() == 0 || outcome.completed_at.is_some() {
        return;
    }
    // The clock stops; the finale counts what is left into the score.
    outcome.completed_at = Some(clock.steps);
}

/// The form the player has now is the one the next level starts with; dying loses it.
fn remember_form(mut progress: ResMut<GameProgress>, players: Query<&Player>) {
    for player in &players {
        let form = match player.status {
            PlayerStatus::Dying(_) => Form::Small,
            PlayerStatus::Alive | PlayerStatus::Finished | PlayerStatus::InPipe => player.form,
        };
        if progress.form != form {
            progress.form = form;
        }
    }
}

/// A player spawned by a level starts with the form carried from the level before (feet where
/// the level put them).
fn start_with_carried_form(
    add: On<Add, Player>,
    progress: Option<Res<GameProgress>>,
    tuning: Res<Tuning>,
    mut players: Query<(&mut Player, &mut Transform, &mut Collider)>,
) {
    let Some(form) = progress.map(|p| p.form) else {
        return;
    };
    if let Ok((mut player, mut transform, mut collider)) = players.get_mut(add.entity)
        && player.form != form
    {
        player.form = form;
        resize(&mut transform, &mut collider, Player::size(form, &tuning.player));
    }
}

/// A death: one life less; the level restarts (at the last checkpoint) or the game is over.
fn lose_life(
    mut died: MessageReader<PlayerDied>,
    mut progress: ResMut<GameProgress>,
    mut outcome: ResMut<RunOutcome>,
    mut current: ResMut<CurrentLevel>,
    mut reload: MessageWriter<LoadLevel>,
) {
    if died.read().count() == 0 {
        return;
    }
    // A death in a bonus room restarts the level itself.
    current.arrival = None;
    outcome.deaths += 1;
    progress.lives = progress.lives.saturating_sub(1);
    if progress.lives == 0 {
        outcome.game_over = true;
    } else {
        reload.write(LoadLevel);
    }
}
