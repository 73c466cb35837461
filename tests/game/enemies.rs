//! Enemies end to end: stomps, side hits, ledge turns, shells, hammers (pixel-perfect).

use bevy::prelude::*;
use bevy_platformer_physics::pixel_perfect::masks_overlap;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::enemies::hammer::{Hammer, player_image};
use slope_bros::gameplay::enemies::shell::Shell;
use slope_bros::gameplay::enemies::{Asleep, EnemyKind, KnockedOut};
use slope_bros::gameplay::player::{Player, PlayerStatus};
use slope_bros::gameplay::run::progress::GameProgress;
use slope_bros::input::replay::Replay;
use slope_bros::masks::SpriteMasks;
use slope_bros::tuning::Tuning;

#[test]
fn a_stomp_kills_a_walker_and_bounces_the_player() {
    let level = write_level(
        "stomp",
        &[
            "S..........P...........S",
            "S......................S",
            "S......................S",
            "S...........w..........S",
            "########################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    let mut bounced = false;
    for _ in 0..90 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let mut players = world.query::<(&Player, &Velocity)>();
        let (player, velocity) = players.single(world).unwrap();
        assert_eq!(player.status, PlayerStatus::Alive, "the stomp must not hurt the player");
        bounced |= velocity.y > 100.0;
    }
    assert!(bounced, "the player bounces off the stomped walker");
    assert!(
        enemies(&mut app).is_empty(),
        "the stomped walker is gone: {:?}",
        enemies(&mut app)
    );
    assert!(app.world().resource::<GameProgress>().score >= 100, "a stomp scores");
}

#[test]
fn walking_into_a_walker_kills_a_small_player() {
    let level = write_level(
        "side_hit",
        &[
            "S......................S",
            "S..P..........w........S",
            "########################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(300, "R"));
    let mut died = false;
    for _ in 0..300 {
        tick(&mut app, 1);
        if matches!(player(&mut app).0.status, PlayerStatus::Dying(_)) {
            died = true;
            break;
        }
    }
    assert!(died, "touching a walker's side kills a small player");
    assert_eq!(enemies(&mut app).len(), 1, "the walker survives a side hit");
}

#[test]
fn a_ledge_walker_turns_at_the_ledge_and_a_walker_walks_off() {
    // The player is shut in a cell between the platforms, near enough to wake both walkers.
    let level = write_level(
        "ledges",
        &[
            "S.............SSS....................S",
            "S.............SPS....................S",
            "S.......W.....SSS......w.............S",
            "S....#######.......#######...........S",
            "S....................................S",
            "S....................................S",
            "######################################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    let platform_top = 4.0 * 16.0;
    let mut ledge_turns = 0;
    let mut last_direction = None;
    for _ in 0..600 {
        tick(&mut app, 1);
        for (_, enemy, position) in enemies(&mut app) {
            if enemy.kind == EnemyKind::LedgeWalker {
                assert!(
                    position.y - 7.0 >= platform_top - 0.5,
                    "the ledge walker stays on its platform, is at {position}"
                );
                if last_direction.is_some_and(|d| d != enemy.direction) {
                    ledge_turns += 1;
                }
                last_direction = Some(enemy.direction);
            }
        }
    }
    assert!(
        ledge_turns >= 2,
        "the ledge walker turned at both ledges ({ledge_turns} turns)"
    );
    let walker = enemies(&mut app)
        .into_iter()
        .find(|(_, e, _)| e.kind == EnemyKind::Walker)
        .expect("the walker is still in the level");
    assert!(
        walker.2.y < platform_top,
        "the plain walker walked off its platform to the floor, is at {}",
        walker.2
    );
}

#[test]
fn a_kicked_shell_knocks_out_an_enemy() {
    let level = write_level(
        "shell",
        &[
            "S.....P...........S",
            "S.................S",
            "S.................S",
            "S.....k...........S",
            "S.................S",
            "S.w...........w...S",
            "##################S",
        ],
        &[],
    );
    // Fall on the shell enemy (a shell), land beside it, walk into it (a kick).
    let mut app = app_on(level, Replay::default().hold(80, "").hold(200, "R"));
    let mut knocked = 0;
    let mut kicked = false;
    for _ in 0..400 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let mut shells = world.query::<&Shell>();
        for shell in shells.iter(world) {
            kicked |= shell.moving;
            knocked = knocked.max(shell.knocked_out);
        }
    }
    assert!(kicked, "the stomped shell enemy left a shell that was kicked");
    assert!(knocked >= 1, "the sliding shell knocked out a walker");
    let world = app.world_mut();
    let walkers_standing = world
        .query_filtered::<&slope_bros::gameplay::enemies::Enemy, Without<KnockedOut>>()
        .iter(world)
        .filter(|e| e.kind == EnemyKind::Walker)
        .count();
    assert!(walkers_standing < 2, "a walker is gone");
}

/// Finds a hammer position whose box overlaps the player's but whose opaque pixels do not, and
/// one where they do.
fn hammer_positions(masks: &SpriteMasks, player_min: Vec2, player_size: Vec2) -> (Vec2, Vec2) {
    let (player_mask, _) = (masks.player_small.as_ref().expect("player mask"), ());
    let hammer = &masks.hammer[0];
    let mut miss = None;
    let mut hit = None;
    for dy in -15..16 {
        for dx in -15..16 {
            let hammer_min = player_min + Vec2::new(dx as f32, dy as f32);
            let boxes = hammer_min.x < player_min.x + player_size.x
                && hammer_min.x + 16.0 > player_min.x
                && hammer_min.y < player_min.y + player_size.y
                && hammer_min.y + 16.0 > player_min.y;
            // The player's picture is 16 px wide, centred on its 12 px collider.
            let image_min = player_min - Vec2::new(2.0, 0.0);
            let pixels = masks_overlap(hammer, hammer_min, player_mask, image_min);
            if boxes && !pixels && miss.is_none() {
                miss = Some(hammer_min);
            }
            if boxes && pixels && hit.is_none() {
                hit = Some(hammer_min);
            }
        }
    }
    (
        miss.expect("some box overlap without pixel overlap"),
        hit.expect("some pixel overlap"),
    )
}

#[test]
fn a_hammer_hurts_only_where_its_pixels_touch_the_player() {
    let rows = ["S.......S", "S...P...S", "#########"];
    for expect_hit in [false, true] {
        let mut app = app_on(write_level("hammer", &rows, &[]), Replay::default());
        tick(&mut app, 10);
        app.world_mut().resource_mut::<Tuning>().enemies.hammer_gravity = 0.0;
        let masks = app.world().resource::<SpriteMasks>().clone();
        let world = app.world_mut();
        let (the_player, transform, collider) = world
            .query::<(&Player, &Transform, &Collider)>()
            .single(world)
            .map(|(p, t, c)| (p.clone(), *t, *c))
            .unwrap();
        let (_, image_min) = player_image(&masks, &the_player, &transform, &collider).expect("player image");
        let player_min = image_min + Vec2::new(2.0, 0.0);
        let (miss, hit) = hammer_positions(&masks, player_min, collider.size);
        let at = if expect_hit { hit } else { miss };
        world.spawn((
            Hammer {
                velocity: Vec2::ZERO,
                age: 0.0,
            },
            Transform::from_translation((at + Vec2::splat(8.0)).extend(20.0)),
        ));
        tick(&mut app, 2);
        let status = player(&mut app).0.status;
        assert_eq!(
            matches!(status, PlayerStatus::Dying(_)),
            expect_hit,
            "hammer at {at} (player image at {image_min}): pixels {} → status {status:?}",
            if expect_hit { "overlap" } else { "do not overlap" }
        );
    }
}

#[test]
fn hammer_throwers_throw_hammers_at_a_near_player() {
    let level = write_level(
        "thrower",
        &["S..................S", "S..P.........H.....S", "###################S"],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    tick(&mut app, 240);
    let world = app.world_mut();
    let thrown: u32 = world
        .query::<&slope_bros::gameplay::enemies::hammer::HammerThrower>()
        .iter(world)
        .map(|t| t.thrown)
        .sum();
    assert!(thrown >= 2, "the thrower threw {thrown} hammers in 4 s");
}

#[test]
fn an_enemy_sleeps_until_the_player_comes_near_then_walks() {
    let wake = Tuning::default().enemies.wake_distance;
    let level = write_level(
        "wake",
        &[
            "S...............................................S",
            "S.P.............................................S",
            "S..........................................w....S",
            "#################################################",
        ],
        &[],
    );
    // Stand still for 2 s, then run right.
    let mut app = app_on(level, Replay::default().hold(120, "").hold(600, "RB"));
    tick(&mut app, 2);
    let (_, _, start) = enemies(&mut app)[0].clone();
    assert!(
        start.x - player_feet(&mut app).x > wake,
        "the walker starts out of reach"
    );
    tick(&mut app, 118);
    let (entity, _, still) = enemies(&mut app)[0].clone();
    assert_eq!(still, start, "asleep while the player is far: it has not moved");
    assert!(app.world().entity(entity).contains::<Asleep>());
    let mut woke_at = None;
    for _ in 0..200 {
        tick(&mut app, 1);
        let Some((_, _, at)) = enemies(&mut app).into_iter().next() else {
            break;
        };
        let distance = at.x - player_feet(&mut app).x;
        if woke_at.is_none() && at != start {
            woke_at = Some(distance);
        }
    }
    let distance = woke_at.expect("the walker woke up and walked");
    assert!(
        distance <= wake + 8.0 && distance > wake - 16.0,
        "it woke when the player came within {wake} px, at {distance} px"
    );
}

#[test]
fn two_walkers_that_meet_turn_back() {
    // The player is shut in a cell above, near enough to wake both walkers. Both walk left; the
    // left one turns at the wall and meets the right one head-on.
    let level = write_level(
        "meet",
        &[
            "SSSS.............................S",
            "SPS..............................S",
            "SSSS.............................S",
            "S................................S",
            "S..w......w......................S",
            "##################################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    tick(&mut app, 1);
    let starts = enemies(&mut app);
    assert_eq!(starts.len(), 2, "both walkers are in the level");
    let right_one = starts.iter().max_by(|a, b| a.2.x.total_cmp(&b.2.x)).unwrap().0;
    let left_wall = 16.0;
    let mut right_turned = false;
    for step in 0..900 {
        tick(&mut app, 1);
        let walkers = enemies(&mut app);
        assert_eq!(walkers.len(), 2, "both walkers are in the level");
        let (_, right, at) = walkers.iter().find(|w| w.0 == right_one).unwrap();
        let (_, _, other) = walkers.iter().find(|w| w.0 != right_one).unwrap();
        assert!(
            at.x - other.x > 14.0 - 2.0,
            "step {step}: the walkers passed through each other (right one at {at}, left one at {other})"
        );
        assert!(
            at.x - 7.0 > left_wall + 14.0,
            "the right walker never reaches the left wall"
        );
        right_turned |= right.direction > 0.0;
    }
    assert!(right_turned, "the right walker turned back at the left one");
}

/// A roller's path, sampled each step for `steps` steps, on `rows`.
fn roller_path(name: &str, rows: &[&str], steps: u32) -> Vec<(Vec2, f32)> {
    let mut app = app_on(write_level(name, rows, &[]), Replay::default());
    let mut path = Vec::new();
    for _ in 0..steps {
        tick(&mut app, 1);
        let world = app.world_mut();
        let mut rollers = world.query::<(&slope_bros::gameplay::enemies::Enemy, &Transform, &Velocity)>();
        if let Some((_, t, v)) = rollers.iter(world).find(|(e, ..)| e.kind == EnemyKind::Roller) {
            path.push((t.translation.truncate(), v.x));
        }
    }
    path
}

#[test]
fn a_roller_rolls_down_a_slope_faster_on_a_steeper_one_and_on_along_level_ground() {
    // A roller on a hilltop against the left wall (it rolls left, turns, and goes down), the player
    // shut in a cell near enough to wake it.
    let steep = roller_path(
        "roller_steep",
        &[
            "S..............................S",
            "S..O...........................S",
            "S#####\\.......................S",
            "S######\\......................S",
            "S#######\\.....................S",
            "S########\\......S.P.S.........S",
            "################################",
        ],
        300,
    );
    let gentle = roller_path(
        "roller_gentle",
        &[
            "S..............................S",
            "S..O...........................S",
            "S#####Ll.......................S",
            "S#######Ll.....................S",
            "S#########Ll...................S",
            "S###########Ll..S.P.S..........S",
            "################################",
        ],
        300,
    );
    let top_speed = |path: &[(Vec2, f32)]| path.iter().map(|(_, vx)| *vx).fold(0.0, f32::max);
    assert!(
        top_speed(&steep) > 100.0,
        "down a 45° slope it gathers speed: {}",
        top_speed(&steep)
    );
    assert!(
        top_speed(&steep) > top_speed(&gentle) + 20.0,
        "faster on the steeper slope: {} vs {}",
        top_speed(&steep),
        top_speed(&gentle)
    );
    let farthest = steep.iter().map(|(at, _)| at.x).fold(0.0, f32::max);
    assert!(
        farthest > 16.0 * 12.0,
        "it rolled on along the level ground: to x = {farthest}"
    );
}

#[test]
fn landing_on_a_roller_hurts() {
    let level = write_level(
        "roller_stomp",
        &[
            "S..........P...........S",
            "S......................S",
            "S......................S",
            "S...........O..........S",
            "########################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    let mut hurt = false;
    for _ in 0..90 {
        tick(&mut app, 1);
        hurt |= player(&mut app).0.status != PlayerStatus::Alive;
    }
    assert!(hurt, "the small player who landed on the roller died");
}
