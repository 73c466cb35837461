//! The rules every enemy follows, and how each kind is spawned: walkers (turning at walls; a variant also at ledges), shell enemies and hammer
//! throwers, all moved by the physics plugin (slopes, lifts, one-way platforms). Stomping and
//! touching them are game rules checked after the physics step.

use bevy::prelude::*;

use bevy_platformer_physics::geometry::Aabb;
use bevy_platformer_physics::prelude::*;

use super::hammer::HammerThrower;
use super::shell::Shell;
use super::{Asleep, Enemy, EnemyKind, KnockedOut, Squashed, knock_out};
use crate::draw_order;
use crate::gameplay::Sfx;
use crate::gameplay::player::{ChangeForm, Player, PlayerStatus};
use crate::gameplay::run::progress::GameProgress;
use crate::gameplay::run::scoring::{Award, give};
use crate::input::PlayerInput;
use crate::level::{LevelInfo, RegisterLevelObject};
use crate::schedule::GameSystems;
use crate::tuning::{Feel, Tuning};

/// The collider of a walker (and of a shell), px.
pub const SHORT_ENEMY_SIZE: Vec2 = Vec2::new(14.0, 14.0);
/// The collider of a shell enemy and of a hammer thrower, px.
pub const TALL_ENEMY_SIZE: Vec2 = Vec2::new(14.0, 22.0);
/// How far below a walker's feet, just ahead of its front foot, it looks for ground, px.
const LEDGE_PROBE_DEPTH: f32 = 3.0;
/// How far below the level's bottom a falling enemy is gone, px.
const FALL_OUT_MARGIN: f32 = 64.0;

fn spawn_enemy(commands: &mut Commands, feet: Vec2, size: Vec2, kind: EnemyKind, name: &'static str) -> Entity {
    commands
        .spawn((
            Enemy { kind, direction: -1.0 },
            Asleep,
            Frozen,
            Name::new(name),
            Collider::rectangle(size.x, size.y),
            Transform::from_translation((feet + Vec2::Y * size.y / 2.0).extend(draw_order::ENEMIES)),
        ))
        .id()
}

/// A walker; `turns_at_ledges` makes the ledge-turning variant.
pub fn spawn_walker(commands: &mut Commands, feet: Vec2, turns_at_ledges: bool, _tuning: &Tuning) {
    let kind = if turns_at_ledges {
        EnemyKind::LedgeWalker
    } else {
        EnemyKind::Walker
    };
    spawn_enemy(commands, feet, SHORT_ENEMY_SIZE, kind, "Walker");
}

/// A shell enemy.
pub fn spawn_shell_enemy(commands: &mut Commands, feet: Vec2, _tuning: &Tuning) {
    spawn_enemy(commands, feet, TALL_ENEMY_SIZE, EnemyKind::ShellEnemy, "Shell enemy");
}

/// A hammer thrower.
pub fn spawn_hammer_thrower(commands: &mut Commands, feet: Vec2, tuning: &Tuning) {
    let entity = spawn_enemy(
        commands,
        feet,
        TALL_ENEMY_SIZE,
        EnemyKind::HammerThrower,
        "Hammer thrower",
    );
    commands.entity(entity).insert(HammerThrower::new(&tuning.enemies));
}

pub(in crate::gameplay) fn plugin(app: &mut App) {
    app.register_type::<Enemy>();
    app.register_level_object("Walker", |commands, object| {
        spawn_walker(commands, object.feet(), object.flag("turns_at_ledges"), object.tuning);
    });
    app.register_level_object("ShellEnemy", |commands, object| {
        spawn_shell_enemy(commands, object.feet(), object.tuning);
    });
    app.register_level_object("HammerThrower", |commands, object| {
        spawn_hammer_thrower(commands, object.feet(), object.tuning);
    });
    app.add_systems(
        FixedUpdate,
        (wake_enemies, walk_enemies).chain().in_set(GameSystems::Intent),
    );
    app.add_systems(
        FixedUpdate,
        (
            enemies_turn_at_each_other,
            player_meets_enemies,
            fade_squashed,
            fall_knocked_out,
            enemies_in_pits,
        )
            .chain()
            .in_set(GameSystems::React),
    );
}

/// Whether there is ground just ahead of a body's front foot: a collider that is not a moving
/// body under a point a little below the foot (for a slope, its triangle, with half a pixel of
/// slack: the foot stands on its surface).
fn ground_ahead(query: &SpatialQuery, aabb: &Aabb, direction: f32) -> bool {
    let x = if direction > 0.0 {
        aabb.max.x + 1.0
    } else {
        aabb.min.x - 1.0
    };
    let probe = Vec2::new(x, aabb.min.y - LEDGE_PROBE_DEPTH);
    let ground = |point: Vec2, slope: bool| {
        query
            .overlap_point(point, &QueryFilter::default())
            .iter()
            .any(|c| c.kind != BodyKind::Dynamic && c.slope.is_some() == slope)
    };
    ground(probe, false) || ground(probe - Vec2::new(0.0, 0.5), true)
}

/// Enemies near the player wake up (and stay awake).
fn wake_enemies(
    mut commands: Commands,
    tuning: Res<Tuning>,
    players: Query<&Transform, With<Player>>,
    sleepers: Query<(Entity, &Transform), (With<Enemy>, With<Asleep>)>,
) {
    let Ok(player) = players.single() else {
        return;
    };
    for (entity, transform) in &sleepers {
        if (transform.translation.x - player.translation.x).abs() <= tuning.enemies.wake_distance {
            commands.entity(entity).remove::<(Asleep, Frozen)>();
        }
    }
}

/// Whether an enemy of `kind` walks into the others (and turns at them) rather than standing or
/// being a moving shell, which knocks them out instead.
fn walks(kind: EnemyKind) -> bool {
    matches!(kind, EnemyKind::Walker | EnemyKind::LedgeWalker | EnemyKind::ShellEnemy)
}

/// Two enemies that meet turn back: a walking enemy touching another one ahead of it (awake and
/// not a moving shell) turns around. Each of two walkers meeting head-on sees the other ahead, so
/// both turn; a walker catching up with a slower one from behind turns alone.
fn enemies_turn_at_each_other(
    mut enemies: Query<
        (Entity, &mut Enemy, &Transform, &Collider, Option<&Shell>),
        (Without<Frozen>, Without<KnockedOut>, Without<Squashed>),
    >,
) {
    let boxes: Vec<(Entity, Aabb, bool)> = enemies
        .iter()
        .map(|(entity, enemy, transform, collider, shell)| {
            let obstacle = enemy.kind != EnemyKind::Shell || !shell.is_some_and(|s| s.moving);
            (entity, collider.aabb(transform.translation.truncate()), obstacle)
        })
        .collect();
    for (entity, mut enemy, transform, collider, _) in &mut enemies {
        if !walks(enemy.kind) {
            continue;
        }
        let me = collider.aabb(transform.translation.truncate());
        let met_ahead = boxes.iter().any(|(other, other_box, obstacle)| {
            *other != entity
                && *obstacle
                && me.intersects(other_box, 0.0)
                && crate::gameplay::sign_or(other_box.center().x - me.center().x, 0.0) == enemy.direction
        });
        if met_ahead {
            enemy.direction = -enemy.direction;
        }
    }
}

/// Walking and turning.
pub(in crate::gameplay) fn walk_enemies(
    tuning: Res<Tuning>,
    query: SpatialQuery,
    mut enemies: Query<
        (
            &mut Enemy,
            &Transform,
            &Collider,
            &Contacts,
            &mut MovementTuning,
            &mut MovementInput,
            Option<&Shell>,
        ),
        Without<Frozen>,
    >,
) {
    let t = &tuning.enemies;
    for (mut enemy, transform, collider, contacts, mut movement, mut input, shell) in &mut enemies {
        let speed = match enemy.kind {
            EnemyKind::Walker | EnemyKind::LedgeWalker => t.walker_speed,
            EnemyKind::ShellEnemy => t.shell_enemy_speed,
            EnemyKind::Shell => {
                if shell.is_some_and(|s| s.moving) {
                    t.shell_speed
                } else {
                    0.0
                }
            }
            // Rollers roll by their own rule (`roller.rs`).
            EnemyKind::HammerThrower | EnemyKind::Roller => 0.0,
        };
        let blocked_left = contacts.solid_in(ContactDirection::Left).next().is_some();
        let blocked_right = contacts.solid_in(ContactDirection::Right).next().is_some();
        if enemy.direction < 0.0 && blocked_left {
            enemy.direction = 1.0;
        } else if enemy.direction > 0.0 && blocked_right {
            enemy.direction = -1.0;
        } else if enemy.kind == EnemyKind::LedgeWalker && contacts.on_floor() {
            let aabb = collider.aabb(transform.translation.truncate());
            if !ground_ahead(&query, &aabb, enemy.direction) {
                enemy.direction = -enemy.direction;
            }
        }
        movement.max_speed.x = speed;
        movement.acceleration = 4000.0;
        movement.deceleration = 4000.0;
        movement.skid_deceleration = 8000.0;
        input.horizontal = if speed > 0.0 { enemy.direction } else { 0.0 };
    }
}

/// Stomps, kicks and hurts: the player against every enemy it overlaps after the step.
fn player_meets_enemies(
    mut commands: Commands,
    tuning: Res<Tuning>,
    feel: Res<Feel>,
    input: Res<PlayerInput>,
    mut progress: ResMut<GameProgress>,
    mut players: Query<(&mut Player, &Transform, &Collider, &mut Velocity, &MovementState), Without<Enemy>>,
    mut enemies: Query<
        (Entity, &mut Enemy, &Transform, &mut Collider, Option<&mut Shell>),
        (Without<Frozen>, Without<Player>),
    >,
    mut hurts: MessageWriter<ChangeForm>,
    mut sfx: MessageWriter<Sfx>,
) {
    for (mut player, player_transform, player_collider, mut player_velocity, state) in &mut players {
        if player.status != PlayerStatus::Alive {
            continue;
        }
        let player_box = player_collider.aabb(player_transform.translation.truncate());
        // Falling as the step ended: landing on two enemies at once stomps both (the first
        // stomp's bounce must not turn the second into a side hit).
        let falling = player_velocity.y < 0.0;
        for (entity, mut enemy, transform, mut collider, shell) in &mut enemies {
            let enemy_box = collider.aabb(transform.translation.truncate());
            if !player_box.intersects(&enemy_box, 0.0) {
                continue;
            }
            if player.sliding || player.starred() {
                // A slope slide, or star power, knocks out whatever it runs into.
                knock_out(&mut commands, entity);
                let award = Award::Points(tuning.rules.stomp_score);
                give(&mut commands, &mut progress, &mut sfx, enemy_box.center(), award);
                sfx.write(Sfx::Kick);
                continue;
            }
            // A roller's spikes hurt whoever lands on them.
            let stomp = falling && state.start_aabb.min.y >= enemy_box.max.y - 6.0 && enemy.kind != EnemyKind::Roller;
            let side = crate::gameplay::sign_or(enemy_box.center().x - player_box.center().x, player.facing);
            if stomp {
                let t = tuning.player_for(*feel);
                player_velocity.y = if input.current.jump {
                    t.stomp_bounce_held
                } else {
                    t.stomp_bounce
                };
                player.jumping = true;
                let award = Award::of_chain(&tuning.rules, player.stomp_chain as usize);
                player.stomp_chain += 1;
                give(&mut commands, &mut progress, &mut sfx, enemy_box.center(), award);
                match enemy.kind {
                    EnemyKind::Walker | EnemyKind::LedgeWalker => {
                        commands
                            .entity(entity)
                            .insert((Squashed(tuning.enemies.squash_time), Frozen));
                        sfx.write(Sfx::Stomp);
                    }
                    EnemyKind::HammerThrower | EnemyKind::Roller => {
                        commands.entity(entity).insert((KnockedOut { velocity_y: 0.0 }, Frozen));
                        sfx.write(Sfx::Stomp);
                    }
                    EnemyKind::ShellEnemy => {
                        enemy.kind = EnemyKind::Shell;
                        let feet = transform.translation.y - collider.size.y / 2.0;
                        *collider = Collider::rectangle(SHORT_ENEMY_SIZE.x, SHORT_ENEMY_SIZE.y);
                        commands.entity(entity).insert((
                            Shell::default(),
                            Transform::from_xyz(
                                transform.translation.x,
                                feet + SHORT_ENEMY_SIZE.y / 2.0,
                                transform.translation.z,
                            ),
                        ));
                        sfx.write(Sfx::Stomp);
                    }
                    EnemyKind::Shell => {
                        if let Some(mut shell) = shell {
                            if shell.moving {
                                shell.moving = false;
                            } else {
                                shell.kick(&mut enemy, side, &tuning.enemies);
                            }
                        }
                        sfx.write(Sfx::Kick);
                    }
                }
            } else if enemy.kind == EnemyKind::Shell
                && let Some(mut shell) = shell
                && (!shell.moving || shell.grace > 0.0)
            {
                if !shell.moving {
                    shell.kick(&mut enemy, side, &tuning.enemies);
                    sfx.write(Sfx::Kick);
                }
            } else if player.vulnerable() {
                hurts.write(ChangeForm::Hurt);
            }
        }
    }
}

fn fade_squashed(time: Res<Time>, mut commands: Commands, mut squashed: Query<(Entity, &mut Squashed)>) {
    for (entity, mut squash) in &mut squashed {
        squash.0 -= time.delta_secs();
        if squash.0 <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

fn fall_knocked_out(
    time: Res<Time>,
    tuning: Res<Tuning>,
    info: Res<LevelInfo>,
    mut commands: Commands,
    mut knocked: Query<(Entity, &mut KnockedOut, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (entity, mut out, mut transform) in &mut knocked {
        out.velocity_y += tuning.physics.gravity * dt;
        transform.translation.y += out.velocity_y * dt;
        if transform.translation.y < info.bounds.min.y - FALL_OUT_MARGIN {
            commands.entity(entity).despawn();
        }
    }
}

/// Enemies that fell out of the level are gone.
fn enemies_in_pits(
    info: Res<LevelInfo>,
    mut commands: Commands,
    enemies: Query<(Entity, &Transform), (With<Enemy>, Without<KnockedOut>)>,
) {
    for (entity, transform) in &enemies {
        if transform.translation.y < info.bounds.min.y - 32.0 {
            commands.entity(entity).despawn();
        }
    }
}
