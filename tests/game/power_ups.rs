//! Power-ups end to end: the fire flower and its fireballs (bouncing along floors and slopes, two
//! at most, gone at walls, knocking out enemies), the star, the extra-life mushroom.

use bevy::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::fire::Fireball;
use slope_bros::gameplay::objects::items::{PowerUp, PowerUpKind, spawn_power_up};
use slope_bros::gameplay::player::{Form, PlayerStatus};
use slope_bros::gameplay::run::progress::GameProgress;
use slope_bros::input::replay::Replay;
use slope_bros::level::LevelInfo;
use slope_bros::tuning::Tuning;

/// Puts a power-up of `kind` on the player's feet: it is taken on the next step.
fn give(app: &mut App, kind: PowerUpKind) {
    let feet = player_feet(app);
    let world = app.world_mut();
    spawn_power_up(&mut world.commands(), kind, feet, 1.0, 0.0);
    world.flush();
    tick(app, 3);
}

/// Makes the player a fire player the way the game does: a mushroom, then a flower.
fn make_fire(app: &mut App) {
    tick(app, 2);
    give(app, PowerUpKind::Mushroom);
    give(app, PowerUpKind::FireFlower);
    assert_eq!(
        player(app).0.form,
        Form::Fire,
        "mushroom then flower give the fire power"
    );
}

/// Every fireball's centre.
fn fireballs(app: &mut App) -> Vec<(Entity, Vec2)> {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &Transform), With<Fireball>>()
        .iter(world)
        .map(|(e, t)| (e, t.translation.truncate()))
        .collect()
}

/// Taps run (B) `times` times, `gap` steps apart, after `wait` steps.
fn taps(wait: u32, times: u32, gap: u32) -> Replay {
    let mut replay = Replay::default().hold(wait, "");
    for _ in 0..times {
        replay = replay.hold(1, "B").hold(gap - 1, "");
    }
    replay.hold(600, "")
}

#[test]
fn a_fire_player_throws_fireballs_that_bounce_along_the_floor_two_at_most() {
    let level = write_level(
        "fire_floor",
        &[
            "S...............................S",
            "S...............................S",
            "S...............................S",
            "S...............................S",
            "S..P............................S",
            "#################################",
        ],
        &[],
    );
    // Five taps of run, 4 steps apart.
    let mut app = app_on(level, taps(12, 5, 4));
    make_fire(&mut app);
    let mut most = 0;
    let mut first: Option<Entity> = None;
    let mut path = Vec::new();
    for _ in 0..90 {
        tick(&mut app, 1);
        let now = fireballs(&mut app);
        most = most.max(now.len());
        if first.is_none() {
            first = now.first().map(|f| f.0);
        }
        if let Some((_, at)) = now.iter().find(|(e, _)| Some(*e) == first) {
            path.push(*at);
        }
    }
    assert_eq!(most, 2, "at most two fireballs fly at once (five were asked for)");
    assert!(
        path.len() > 40,
        "the first fireball flew for a while: {} steps",
        path.len()
    );
    assert!(path.windows(2).all(|w| w[1].x > w[0].x), "it keeps going right");
    // Bounces: the lowest points of its path, each on the floor (centre 4 px above it).
    let floor = 16.0 + 4.0;
    let bounces = path
        .windows(3)
        .filter(|w| w[1].y <= w[0].y && w[1].y < w[2].y)
        .inspect(|w| assert!((w[1].y - floor).abs() < 1.0, "a bounce on the floor, at {}", w[1]))
        .count();
    assert!(bounces >= 3, "it bounced {bounces} times");
    assert!(path.iter().all(|p| p.y < floor + 40.0), "low bounces");
}

#[test]
fn a_fireball_bounces_up_and_down_a_hill_and_is_gone_at_a_wall() {
    // A 45° hill five cells high, a wall past its far foot.
    let level = write_level(
        "fire_hill",
        &[
            "S....................S",
            "S....................S",
            "S....................S",
            "S........../\\........S",
            "S........./##\\.......S",
            "S......../####\\......S",
            "S......./######\\.....S",
            "S..P.../########\\...SS",
            "######################",
        ],
        &[],
    );
    let mut app = app_on(level, taps(12, 1, 4));
    make_fire(&mut app);
    let info = app.world().resource::<LevelInfo>().clone();
    let mut path = Vec::new();
    let mut gone_at = None;
    for step in 0..240 {
        tick(&mut app, 1);
        match fireballs(&mut app).first() {
            Some((_, at)) => path.push(*at),
            None if !path.is_empty() && gone_at.is_none() => gone_at = Some(step),
            None => {}
        }
    }
    assert!(!path.is_empty(), "a fireball was thrown");
    let top = info.cells.origin.y + 16.0 * 5.0;
    let highest = path.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    assert!(
        highest > top,
        "it bounced up the slope onto the hilltop: highest {highest}, top {top}"
    );
    let wall_x = info.cells.origin.x + 16.0 * 20.0;
    let last = *path.last().unwrap();
    assert!(
        last.x > wall_x - 20.0,
        "it came down the far side to the wall: last {last}"
    );
    assert!(gone_at.is_some(), "it is gone at the wall");
    // Never inside the hill: below the surface of a 45° slope means |x - peak| < height left.
    for p in &path {
        let cell = info.cells.cell_at(*p - Vec2::Y * 4.0 + Vec2::Y * 0.5);
        assert!(
            info.cells.block(cell).is_none_or(|b| b.is_slope()),
            "the fireball's bottom is in the air or on a slope surface, not in ground: {p}"
        );
    }
}

#[test]
fn a_fireball_knocks_out_an_enemy_and_is_gone() {
    let level = write_level(
        "fire_enemy",
        &[
            "S.................S",
            "S.................S",
            "S..P.........w....S",
            "##################S",
        ],
        &[],
    );
    let mut app = app_on(level, taps(12, 1, 4));
    make_fire(&mut app);
    tick(&mut app, 6);
    assert_eq!(fireballs(&mut app).len(), 1, "thrown");
    assert_eq!(knocked_out_during(&mut app, 120), 1, "the walker is knocked out");
    assert!(fireballs(&mut app).is_empty(), "the fireball is gone");
    assert_eq!(player(&mut app).0.status, PlayerStatus::Alive);
}

#[test]
fn a_small_or_big_player_throws_nothing() {
    let level = write_level("no_fire", &["S.........S", "S..P......S", "###########"], &[]);
    let mut app = app_on(level, taps(12, 3, 6));
    tick(&mut app, 4);
    give(&mut app, PowerUpKind::Mushroom);
    for _ in 0..40 {
        tick(&mut app, 1);
        assert!(fireballs(&mut app).is_empty(), "only the fire form throws");
    }
}

#[test]
fn a_star_knocks_out_what_the_player_touches_until_it_wears_off() {
    let level = write_level(
        "star",
        &[
            "S.........................S",
            "S..P.......w..............S",
            "###########################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    tick(&mut app, 2);
    give(&mut app, PowerUpKind::Star);
    let star_time = app.world().resource::<Tuning>().items.star_time;
    assert!(player(&mut app).0.starred(), "the star gives star power");
    assert_eq!(
        knocked_out_during(&mut app, 320),
        1,
        "the walker that met the player is out"
    );
    let p = player(&mut app).0;
    assert_eq!(
        (p.status, p.form),
        (PlayerStatus::Alive, Form::Small),
        "and the player was not hurt"
    );
    tick(&mut app, (star_time * 60.0) as u32);
    assert!(!player(&mut app).0.starred(), "star power wears off");
    assert!(player(&mut app).0.vulnerable());
}

#[test]
fn a_star_hops_along_the_ground() {
    let level = write_level(
        "star_hops",
        &[
            "S..............................S",
            "S..P...........................S",
            "#################################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    tick(&mut app, 2);
    let world = app.world_mut();
    spawn_power_up(
        &mut world.commands(),
        PowerUpKind::Star,
        Vec2::new(120.0, 16.0),
        1.0,
        0.0,
    );
    world.flush();
    let mut path = Vec::new();
    for _ in 0..120 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let at = world
            .query_filtered::<&Transform, With<PowerUp>>()
            .single(world)
            .unwrap()
            .translation;
        path.push(at.truncate());
    }
    let landings = path.windows(3).filter(|w| w[1].y <= w[0].y && w[1].y < w[2].y).count();
    assert!(landings >= 2, "it hops: {landings} landings");
    assert!(path.last().unwrap().x > path[0].x + 60.0, "and moves along");
}

#[test]
fn an_extra_life_mushroom_gives_a_life_and_a_fire_flower_block_gives_a_flower_to_a_big_player() {
    let level = write_level(
        "one_up",
        &[
            "S........S",
            "S........S",
            "S...M....S",
            "S........S",
            "S........S",
            "S...P....S",
            "##########",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(20, "").hold(30, "J"));
    tick(&mut app, 2);
    let lives = app.world().resource::<GameProgress>().lives;
    give(&mut app, PowerUpKind::OneUp);
    assert_eq!(app.world().resource::<GameProgress>().lives, lives + 1, "one life more");
    give(&mut app, PowerUpKind::Mushroom);
    tick(&mut app, 40);
    let world = app.world_mut();
    let kinds: Vec<PowerUpKind> = world.query::<&PowerUp>().iter(world).map(|p| p.kind).collect();
    let form = player(&mut app).0.form;
    assert!(
        kinds == [PowerUpKind::FireFlower] || form == Form::Fire,
        "the big player's hit gave a fire flower: {kinds:?}, {form:?}"
    );
}
