//! The player character: walk, run, skid, variable-height jump with coyote time and a jump
//! buffer, drop-through, the slope slide, crouching when big, small and big forms, damage with
//! blinking invulnerability, death.
//!
//! [`control_player`] runs before the physics step and turns [`PlayerInput`] into the plugin's
//! [`MovementTuning`] limits, [`MovementInput`] and jump velocity; the physics moves the body.

use bevy::prelude::*;
use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use super::{Sfx, sign_or};
use crate::draw_order;
use crate::input::PlayerInput;
use crate::layers::PLAYER_LAYERS;
use crate::level::{self, LevelEntity, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::{Feel, PlayerTuning, Tuning};

/// Small, big, or big with the fire flower's power.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
pub enum Form {
    /// One tile tall.
    #[default]
    Small,
    /// Two tiles tall; a hit makes it small again.
    Big,
    /// Big, and the run button throws fireballs; a hit makes it small again.
    Fire,
}

impl Form {
    /// `small`, `big` or `fire`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "small" => Some(Self::Small),
            "big" => Some(Self::Big),
            "fire" => Some(Self::Fire),
            _ => None,
        }
    }

    /// Two tiles tall (big or fire): breaks bricks, crouches, survives a hit.
    pub fn is_big(self) -> bool {
        self != Self::Small
    }
}

/// Alive, dying (frozen, then the level restarts), done (reached the goal) or going into a pipe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Reflect)]
pub enum PlayerStatus {
    /// Playing.
    #[default]
    Alive,
    /// Dying; seconds left of the animation.
    Dying(f32),
    /// Touched the goal.
    Finished,
    /// Going into a pipe (frozen, can't be hurt), until the level it leads to is there.
    InPipe,
}

/// The player character. Its transform is the centre of its collider.
#[derive(Component, Clone, Debug, Default, Reflect)]
#[reflect(Component)]
#[require(Dynamic, CollisionLayers = PLAYER_LAYERS, TransformInterpolation, Name::new("Player"), LevelEntity)]
pub struct Player {
    /// Current form.
    pub form: Form,
    /// The form a power-up asked for, applied as soon as the big collider fits.
    pub pending_growth: bool,
    /// Facing: 1 right, -1 left.
    pub facing: f32,
    /// Seconds a jump is still allowed after leaving the ground.
    pub coyote_left: f32,
    /// Seconds a pressed jump is remembered.
    pub buffered_jump: f32,
    /// Rising from a jump (variable height applies).
    pub jumping: bool,
    /// The latest jump was a running one (taken at `run_jump_from` or faster): its gravity is the
    /// `run_` one until the player lands.
    pub running_jump: bool,
    /// Seconds of invulnerability left.
    pub invulnerable: f32,
    /// Alive, dying or finished.
    pub status: PlayerStatus,
    /// Standing on something at the end of the latest step.
    pub on_ground: bool,
    /// Turning against the motion on the ground.
    pub skidding: bool,
    /// Sliding down a slope (Down on a slope): knocks out the enemies in the way; ends on level
    /// ground or with a jump.
    pub sliding: bool,
    /// Crouching (Down on level ground, big only): the collider is `crouch_size`, the player does
    /// not walk, and stands up only where the big collider fits.
    pub crouching: bool,
    /// Seconds of star power left: no hurt, and every enemy touched is knocked out.
    pub star: f32,
    /// Enemies stomped since the player last stood on the ground: each stomp of a chain scores
    /// more (see `scoring`).
    pub stomp_chain: u32,
    /// The upward speed a spring launched the player at, until it lands: the rising speed limit
    /// lets it through.
    pub launch_speed: f32,
}

impl Player {
    /// The collider size of a form.
    pub fn size(form: Form, tuning: &PlayerTuning) -> Vec2 {
        match form {
            Form::Small => tuning.small_size,
            Form::Big | Form::Fire => tuning.big_size,
        }
    }

    /// Can be hurt now.
    pub fn vulnerable(&self) -> bool {
        self.status == PlayerStatus::Alive && self.invulnerable <= 0.0 && self.star <= 0.0
    }

    /// Has star power now.
    pub fn starred(&self) -> bool {
        self.status == PlayerStatus::Alive && self.star > 0.0
    }
}

/// Spawns the player with its feet at `feet`.
pub fn spawn_player(commands: &mut Commands, feet: Vec2, tuning: &Tuning) {
    let size = tuning.player.small_size;
    commands.spawn((
        Player {
            facing: 1.0,
            ..default()
        },
        Collider::rectangle(size.x, size.y),
        tuning.physics.collision_mode,
        Transform::from_translation((feet + Vec2::Y * size.y / 2.0).extend(draw_order::PLAYER)),
    ));
}

/// Asks the player to grow (a power-up) or shrink (a hit).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeForm {
    /// A mushroom: small grows big.
    Grow,
    /// A fire flower: small grows big, big gets the fire power.
    Fire,
    /// Hit while big; a hit while small is [`Kill`].
    Hurt,
}

/// The player dies (pit, enemy, time).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kill;

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Player>();
    app.register_level_object(level::PLAYER, |commands, object| {
        spawn_player(commands, object.feet(), object.tuning);
    });
    app.add_message::<ChangeForm>().add_message::<Kill>();
    app.add_systems(
        FixedUpdate,
        (control_player, crouch).chain().in_set(GameSystems::Intent),
    );
    app.add_systems(
        FixedUpdate,
        (change_form, fall_into_pit, kill_player, tick_player)
            .chain()
            .in_set(GameSystems::Progress),
    );
}

/// Turns this step's input into movement.
pub(in crate::gameplay) fn control_player(
    input: Res<PlayerInput>,
    tuning: Res<Tuning>,
    feel: Res<Feel>,
    time: Res<Time>,
    mut players: Query<(
        &mut Player,
        &mut MovementTuning,
        &mut MovementInput,
        &mut Velocity,
        &Contacts,
        &MovementState,
    )>,
    query: SpatialQuery,
    mut sfx: MessageWriter<Sfx>,
) {
    let dt = time.delta_secs();
    // The motion of the chosen feel.
    let t = tuning.player_for(*feel);
    for (mut player, mut movement, mut intent, mut velocity, contacts, state) in &mut players {
        if player.status != PlayerStatus::Alive {
            intent.horizontal = 0.0;
            continue;
        }
        let on_ground = contacts.on_floor();
        player.on_ground = on_ground;
        if on_ground && velocity.y <= 0.0 {
            player.coyote_left = t.coyote_time;
            player.jumping = false;
            player.running_jump = false;
            player.stomp_chain = 0;
            player.launch_speed = 0.0;
        } else {
            player.coyote_left = (player.coyote_left - dt).max(0.0);
        }
        player.buffered_jump = if input.jump_pressed() {
            t.jump_buffer
        } else {
            (player.buffered_jump - dt).max(0.0)
        };

        let horizontal = input.current.horizontal();
        if horizontal != 0.0 {
            player.facing = horizontal;
        }
        let control = if on_ground { 1.0 } else { t.air_control };
        let top_speed = if input.current.run { t.run_speed } else { t.walk_speed };
        let faster_than_walking = velocity.x.abs() > t.walk_speed;
        let acceleration = if input.current.run {
            t.run_acceleration
        } else {
            t.acceleration
        };
        let (deceleration, skid) = if faster_than_walking {
            (t.run_deceleration, t.run_skid_deceleration)
        } else {
            (t.deceleration, t.skid_deceleration)
        };
        // Letting go of run slows down with friction instead of stopping at walking speed at once.
        movement.max_speed.x = top_speed.max(velocity.x.abs() - deceleration * dt).min(t.run_speed);
        movement.acceleration = acceleration * control;
        movement.deceleration = deceleration * control;
        movement.skid_deceleration = skid * control;
        intent.horizontal = horizontal;
        player.skidding = on_ground && horizontal != 0.0 && velocity.x != 0.0 && horizontal != sign_or(velocity.x, 0.0);

        let standing_on_one_way = contacts
            .solid_in(ContactDirection::Down)
            .any(|c| query.collider(c.entity, c.part).is_some_and(|p| p.one_way));
        // The slope slide: Down on a slope starts it; level ground or a jump ends it.
        let slope = state.supporting_slope.filter(|_| on_ground).map(|s| s.shape);
        if on_ground && slope.is_none() {
            player.sliding = false;
        } else if slope.is_some() && input.current.down && !player.crouching {
            player.sliding = true;
        }
        if player.sliding {
            if let Some(shape) = slope {
                // Downhill, faster on steeper slopes.
                intent.horizontal = if shape.rises_right() { -1.0 } else { 1.0 };
                movement.max_speed.x = t.slide_speed + t.slide_speed_per_gradient * shape.gradient().min(2.0);
                movement.acceleration = t.slide_acceleration;
            } else {
                // Off a ledge: the slide keeps its speed through the air.
                intent.horizontal = 0.0;
                movement.max_speed.x = movement.max_speed.x.max(velocity.x.abs());
                movement.deceleration = 0.0;
            }
            player.facing = sign_or(velocity.x, player.facing);
            player.skidding = false;
        } else if player.crouching && on_ground {
            // Crouching: no walking; the speed already had slows down with friction.
            intent.horizontal = 0.0;
            player.skidding = false;
        }

        if input.current.down && player.buffered_jump > 0.0 && on_ground && standing_on_one_way {
            intent.drop_through = true;
            player.buffered_jump = 0.0;
        } else if player.buffered_jump > 0.0 && player.coyote_left > 0.0 {
            player.sliding = false;
            // The bonus grows from `run_jump_from` up to the running speed.
            let from = t.run_jump_from;
            let speed = t.jump_speed
                + t.run_jump_bonus * ((velocity.x.abs() - from) / (t.run_speed - from).max(1.0)).clamp(0.0, 1.0);
            player.running_jump = velocity.x.abs() >= from;
            if on_ground {
                intent.jump = Some(speed);
            } else {
                velocity.y = speed;
            }
            player.jumping = true;
            player.coyote_left = 0.0;
            player.buffered_jump = 0.0;
            sfx.write(if player.form.is_big() { Sfx::JumpBig } else { Sfx::Jump });
        }
        // Variable jump height: rising from a jump without the button held pulls down harder.
        let rising = velocity.y > 0.0 || intent.jump.is_some();
        // The speed limit is both ways: a launch or a bounce keeps its speed, a fall stops at its
        // own top speed.
        movement.max_speed.y = if rising {
            t.max_fall_speed
                .max(t.jump_speed + t.run_jump_bonus)
                .max(t.stomp_bounce_held)
                .max(player.launch_speed)
        } else {
            t.max_fall_speed
        };
        let (rise, release, fall) = if player.running_jump {
            (
                t.run_rise_gravity_scale,
                t.run_release_gravity_scale,
                t.run_fall_gravity_scale,
            )
        } else {
            (t.rise_gravity_scale, t.release_gravity_scale, t.fall_gravity_scale)
        };
        movement.gravity_scale = if rising && player.jumping && !input.current.jump {
            release
        } else if !rising && !on_ground {
            fall
        } else {
            rise
        };
    }
}

/// How far a box may overlap a solid and still fit, px: a grown player flush under a ceiling fits.
const FIT_MARGIN: f32 = 0.01;

/// Whether a box fits where it is: it overlaps no solid obstacle (a static or kinematic collider
/// solid from every side; one-way platforms and slopes do not count) by more than [`FIT_MARGIN`].
pub fn box_fits(query: &SpatialQuery, aabb: &Aabb) -> bool {
    query.is_free(aabb.grown(-FIT_MARGIN), &QueryFilter::default())
}

/// Crouching: a big player on level ground holding Down crouches (not on a slope: there Down
/// slides); it stands up when Down is let go and the big collider fits, so a crouching player
/// under a low ceiling stays crouched.
fn crouch(
    input: Res<PlayerInput>,
    tuning: Res<Tuning>,
    query: SpatialQuery,
    mut players: Query<(&mut Player, &mut Transform, &mut Collider)>,
) {
    let t = &tuning.player;
    for (mut player, mut transform, mut collider) in &mut players {
        let wants = input.current.down && player.form.is_big() && player.status == PlayerStatus::Alive;
        if !player.crouching && wants && player.on_ground && !player.sliding {
            player.crouching = true;
            resize(&mut transform, &mut collider, t.crouch_size);
        } else if player.crouching && (!wants || !player.form.is_big()) {
            let size = Player::size(player.form, t);
            if box_fits(&query, &standing_box(&transform, &collider, size)) {
                player.crouching = false;
                resize(&mut transform, &mut collider, size);
            }
        }
    }
}

/// The box of `size` standing where `collider` stands (same feet, same centre x).
fn standing_box(transform: &Transform, collider: &Collider, size: Vec2) -> Aabb {
    let feet = transform.translation.truncate() - Vec2::Y * collider.size.y / 2.0;
    Aabb::from_min_size(feet - Vec2::X * size.x / 2.0, size)
}

/// Gives the player the collider `size`, feet where they were.
/// The boxes of the players that can touch things (alive: not dying, finished or in a pipe).
pub(in crate::gameplay) fn alive_player_boxes<'a>(
    players: impl Iterator<Item = (&'a Player, &'a Transform, &'a Collider)>,
) -> impl Iterator<Item = Aabb> {
    players
        .filter(|(p, ..)| p.status == PlayerStatus::Alive)
        .map(|(_, t, c)| c.aabb(t.translation.truncate()))
}

pub(in crate::gameplay) fn resize(transform: &mut Transform, collider: &mut Collider, size: Vec2) {
    let feet = transform.translation.y - collider.size.y / 2.0;
    transform.translation.y = feet + size.y / 2.0;
    *collider = Collider::rectangle(size.x, size.y);
}

/// Grows and shrinks. A growth waits until the big collider fits (never inside a ceiling).
fn change_form(
    mut requests: MessageReader<ChangeForm>,
    mut kills: MessageWriter<Kill>,
    tuning: Res<Tuning>,
    query: SpatialQuery,
    mut players: Query<(&mut Player, &mut Transform, &mut Collider)>,
    mut sfx: MessageWriter<Sfx>,
) {
    let t = &tuning.player;
    for request in requests.read() {
        for (mut player, mut transform, mut collider) in &mut players {
            if player.status != PlayerStatus::Alive {
                continue;
            }
            match request {
                ChangeForm::Grow => {
                    player.pending_growth = player.form == Form::Small;
                    sfx.write(Sfx::Powerup);
                }
                ChangeForm::Fire => {
                    if player.form == Form::Small {
                        player.pending_growth = true;
                    } else {
                        player.form = Form::Fire;
                    }
                    sfx.write(Sfx::Powerup);
                }
                ChangeForm::Hurt if !player.vulnerable() => {}
                ChangeForm::Hurt if player.form.is_big() => {
                    player.form = Form::Small;
                    player.crouching = false;
                    player.pending_growth = false;
                    player.invulnerable = t.invulnerable_time;
                    resize(&mut transform, &mut collider, t.small_size);
                    sfx.write(Sfx::Hurt);
                }
                ChangeForm::Hurt => {
                    kills.write(Kill);
                }
            }
        }
    }
    for (mut player, mut transform, mut collider) in &mut players {
        if player.pending_growth
            && player.status == PlayerStatus::Alive
            && box_fits(&query, &standing_box(&transform, &collider, t.big_size))
        {
            player.form = Form::Big;
            player.pending_growth = false;
            resize(&mut transform, &mut collider, t.big_size);
        }
    }
}

fn fall_into_pit(
    info: Res<crate::level::LevelInfo>,
    players: Query<(&Player, &Transform, &Collider)>,
    mut kills: MessageWriter<Kill>,
) {
    for (player, transform, collider) in &players {
        let top = transform.translation.y + collider.size.y / 2.0;
        if player.status == PlayerStatus::Alive && top < info.bounds.min.y {
            kills.write(Kill);
        }
    }
}

fn kill_player(
    mut kills: MessageReader<Kill>,
    tuning: Res<Tuning>,
    mut commands: Commands,
    mut players: Query<(Entity, &mut Player, &mut Velocity)>,
    mut sfx: MessageWriter<Sfx>,
) {
    if kills.read().count() == 0 {
        return;
    }
    for (entity, mut player, mut velocity) in &mut players {
        if player.status == PlayerStatus::Alive {
            player.status = PlayerStatus::Dying(tuning.player.death_time);
            velocity.0 = Vec2::ZERO;
            commands.entity(entity).insert(Frozen);
            sfx.write(Sfx::Die);
        }
    }
}

/// Timers: invulnerability, star power and the death animation.
fn tick_player(time: Res<Time>, mut players: Query<&mut Player>, mut finished: MessageWriter<PlayerDied>) {
    let dt = time.delta_secs();
    for mut player in &mut players {
        player.invulnerable = (player.invulnerable - dt).max(0.0);
        player.star = (player.star - dt).max(0.0);
        if let PlayerStatus::Dying(left) = player.status
            && left > 0.0
        {
            let left = left - dt;
            if left <= 0.0 {
                player.status = PlayerStatus::Dying(0.0);
                finished.write(PlayerDied);
            } else {
                player.status = PlayerStatus::Dying(left);
            }
        }
    }
}

/// The death animation ended: the level restarts or the game is over.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct PlayerDied;
