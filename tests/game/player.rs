//! The player end to end: running, variable jumps, coyote time, jump buffer, growth and damage,
//! drop-through, pits and respawn, the slope slide, crouching, the power-up kept between levels.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::enemies::{Enemy, KnockedOut, spawn_walker};
use slope_bros::gameplay::objects::items::{PowerUpKind, spawn_power_up};
use slope_bros::gameplay::player::{Form, Player, PlayerStatus};
use slope_bros::gameplay::run::progress::{GameProgress, RunOutcome};
use slope_bros::input::replay::Replay;
use slope_bros::tuning::Tuning;

const FLAT: [&str; 6] = [
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..............................................................S",
    "S..P...........................................................S",
    "################################################################",
];

fn peak_height(replay: Replay, steps: u32) -> f32 {
    let mut app = app_on(write_level("jump", &FLAT, &[]), replay);
    tick(&mut app, 1);
    let ground = player_feet(&mut app).y;
    let mut peak: f32 = 0.0;
    for _ in 0..steps {
        tick(&mut app, 1);
        peak = peak.max(player_feet(&mut app).y - ground);
    }
    peak
}

#[test]
fn holding_jump_jumps_higher_than_tapping_it() {
    let held = peak_height(Replay::default().hold(10, "").hold(60, "J"), 100);
    let tapped = peak_height(Replay::default().hold(10, "").hold(3, "J"), 100);
    assert!(held > 60.0, "a held jump rises about 4 tiles, rose {held}");
    assert!(
        tapped < held - 24.0,
        "a tapped jump is lower: tapped {tapped}, held {held}"
    );
    assert!(tapped > 8.0, "a tapped jump still leaves the ground: {tapped}");
}

fn top_speed(letters: &str) -> f32 {
    let mut app = app_on(write_level("run", &FLAT, &[]), Replay::default().hold(200, letters));
    let mut top: f32 = 0.0;
    for _ in 0..150 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let v = world
            .query_filtered::<&Velocity, With<Player>>()
            .single(world)
            .unwrap()
            .x;
        top = top.max(v);
    }
    top
}

#[test]
fn running_is_faster_than_walking() {
    let tuning = Tuning::default();
    let walk = top_speed("R");
    let run = top_speed("RB");
    assert!((walk - tuning.player.walk_speed).abs() < 1.0, "walk top speed {walk}");
    assert!((run - tuning.player.run_speed).abs() < 1.0, "run top speed {run}");
}

#[test]
fn reversing_at_speed_skids() {
    let mut app = app_on(
        write_level("skid", &FLAT, &[]),
        Replay::default().hold(90, "RB").hold(30, "L"),
    );
    let mut skidded = false;
    for _ in 0..120 {
        tick(&mut app, 1);
        skidded |= player(&mut app).0.skidding;
    }
    assert!(skidded, "turning around at speed skids");
}

const LEDGE: [&str; 14] = [
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.P.....................................S",
    "#########...............................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "S.......................................S",
    "#########################################",
];

/// Walks right off the ledge, presses jump `after` steps after leaving the ground; whether the
/// player rose.
fn jump_after_leaving(after: u32) -> bool {
    let mut app = app_on(write_level("coyote", &LEDGE, &[]), Replay::default().hold(400, "R"));
    let ledge_x = 9.0 * 16.0;
    let mut steps = 0;
    loop {
        tick(&mut app, 1);
        steps += 1;
        assert!(steps < 300, "never left the ledge");
        let world = app.world_mut();
        let contacts = world
            .query_filtered::<&Contacts, With<Player>>()
            .single(world)
            .unwrap()
            .clone();
        if player_feet(&mut app).x > ledge_x && !contacts.on_floor() {
            break;
        }
    }
    // Press jump `after` steps later (the replay is swapped for one that presses jump then).
    let replay = Replay::default().hold(after, "R").hold(20, "RJ");
    app.insert_resource(slope_bros::input::InputSource::Replay(
        slope_bros::input::replay::ReplayCursor::new(&replay),
    ));
    let mut rose = false;
    for _ in 0..(after + 10) {
        tick(&mut app, 1);
        let world = app.world_mut();
        rose |= world
            .query_filtered::<&Velocity, With<Player>>()
            .single(world)
            .unwrap()
            .y
            > 100.0;
    }
    rose
}

#[test]
fn coyote_time_allows_a_late_jump_but_not_a_very_late_one() {
    assert!(
        jump_after_leaving(2),
        "a jump 2 steps after leaving the ledge works (coyote time)"
    );
    assert!(
        !jump_after_leaving(20),
        "a jump 20 steps after leaving the ledge does not"
    );
}

#[test]
fn a_jump_pressed_just_before_landing_happens_on_landing() {
    let rows = ["S........S", "S...P....S", "S........S", "S........S", "##########"];
    let mut app = app_on(write_level("buffer", &rows, &[]), Replay::default());
    tick(&mut app, 1);
    // Fall; press jump when the feet are less than 6 px above the ground.
    let ground = 16.0; // the top of the bottom row
    let mut pressed = false;
    let mut jumped_after_landing = false;
    for _ in 0..120 {
        let feet = player_feet(&mut app).y;
        if !pressed && feet - ground < 6.0 && feet > ground + 0.5 {
            let replay = Replay::default().hold(3, "J");
            app.insert_resource(slope_bros::input::InputSource::Replay(
                slope_bros::input::replay::ReplayCursor::new(&replay),
            ));
            pressed = true;
        }
        tick(&mut app, 1);
        let world = app.world_mut();
        let vy = world
            .query_filtered::<&Velocity, With<Player>>()
            .single(world)
            .unwrap()
            .y;
        if pressed && vy > 100.0 {
            jumped_after_landing = true;
        }
    }
    assert!(pressed, "the player fell close to the ground");
    assert!(jumped_after_landing, "the buffered jump happened on landing");
}

fn give_mushroom(app: &mut App) {
    let feet = player_feet(app);
    let world = app.world_mut();
    spawn_power_up(&mut world.commands(), PowerUpKind::Mushroom, feet, 1.0, 0.0);
    world.flush();
}

fn player_box(app: &mut App) -> bevy_platformer_physics::geometry::Aabb {
    let world = app.world_mut();
    let (t, c) = world
        .query_filtered::<(&Transform, &Collider), With<Player>>()
        .single(world)
        .unwrap();
    c.aabb(t.translation.truncate())
}

#[test]
fn the_mushroom_grows_the_collider_and_damage_shrinks_it() {
    let rows = [
        "S..................S",
        "S..................S",
        "S..P..........w....S",
        "####################",
    ];
    let mut app = app_on(
        write_level("grow", &rows, &[]),
        Replay::default().hold(20, "").hold(400, "R"),
    );
    tick(&mut app, 5);
    let feet = player_feet(&mut app);
    give_mushroom(&mut app);
    tick(&mut app, 3);
    let tuning = Tuning::default();
    let (grown, _) = player(&mut app);
    assert_eq!(grown.form, Form::Big, "touching the mushroom grows the player");
    assert_eq!(player_box(&mut app).size(), tuning.player.big_size, "the collider grew");
    assert!(
        (player_feet(&mut app).y - feet.y).abs() < 0.01,
        "growing keeps the feet on the ground"
    );
    // Walk into the walker: shrink, blink, survive.
    let mut shrank = false;
    for _ in 0..400 {
        tick(&mut app, 1);
        let (p, _) = player(&mut app);
        assert_eq!(p.status, PlayerStatus::Alive, "a big player survives a hit");
        if p.form == Form::Small {
            shrank = true;
            assert!(p.invulnerable > 0.0, "a hit makes the player invulnerable for a while");
            assert_eq!(player_box(&mut app).size(), tuning.player.small_size);
            break;
        }
    }
    assert!(shrank, "the walker's hit shrank the player");
}

#[test]
fn growth_waits_until_the_big_collider_fits_under_a_low_ceiling() {
    let rows = [
        "S..................S",
        "SSSSSSSSSS.........S",
        "S.P................S",
        "####################",
    ];
    let mut app = app_on(
        write_level("low_ceiling", &rows, &[]),
        Replay::default().hold(10, "").hold(300, "R"),
    );
    tick(&mut app, 5);
    give_mushroom(&mut app);
    let mut grew_at = None;
    for step in 0..300 {
        tick(&mut app, 1);
        let aabb = player_box(&mut app);
        let fits = app
            .world_mut()
            .run_system_once(move |q: SpatialQuery| q.is_free(aabb.grown(-0.05), &QueryFilter::default()))
            .unwrap();
        assert!(fits, "step {step}: the player's box {aabb:?} is inside a ceiling");
        if grew_at.is_none() && player(&mut app).0.form == Form::Big {
            grew_at = Some(player_feet(&mut app).x);
        }
    }
    let x = grew_at.expect("the player grew once out of the corridor");
    assert!(x > 10.0 * 16.0, "grew at x {x}, under the low ceiling that ends at 160");
}

#[test]
fn down_and_jump_drop_through_a_one_way_platform_and_jump_alone_does_not() {
    let rows = [
        "S...........S",
        "S....P......S",
        "S..======...S",
        "S...........S",
        "S...........S",
        "#############",
    ];
    let platform_top = 4.0 * 16.0;
    let mut app = app_on(
        write_level("drop", &rows, &[]),
        Replay::default().hold(40, "").hold(5, "DJ").hold(60, ""),
    );
    tick(&mut app, 40);
    assert!(
        (player_feet(&mut app).y - platform_top).abs() < 0.5,
        "standing on the platform"
    );
    tick(&mut app, 65);
    assert!(
        (player_feet(&mut app).y - 16.0).abs() < 0.5,
        "dropped through to the floor, feet at {}",
        player_feet(&mut app).y
    );
    let mut app = app_on(
        write_level("no_drop", &rows, &[]),
        Replay::default().hold(40, "").hold(5, "J").hold(80, ""),
    );
    tick(&mut app, 125);
    assert!(
        (player_feet(&mut app).y - platform_top).abs() < 0.5,
        "a plain jump lands back on the platform, feet at {}",
        player_feet(&mut app).y
    );
}

#[test]
fn falling_into_a_pit_costs_a_life_and_restarts_at_the_checkpoint() {
    let rows = [
        "S.......................S",
        "S.P.......C.............S",
        "###############....######",
    ];
    let mut app = app_on(write_level("pit", &rows, &[]), Replay::default().hold(600, "R"));
    let lives = Tuning::default().rules.lives;
    let mut died = false;
    for _ in 0..600 {
        tick(&mut app, 1);
        if matches!(player(&mut app).0.status, PlayerStatus::Dying(_)) {
            died = true;
        }
        if died && player(&mut app).0.status == PlayerStatus::Alive {
            break;
        }
    }
    assert!(died, "the player fell into the pit and died");
    assert_eq!(app.world().resource::<GameProgress>().lives, lives - 1);
    assert_eq!(app.world().resource::<RunOutcome>().deaths, 1);
    let feet = player_feet(&mut app);
    assert!(
        (feet.x - (10.0 * 16.0 + 8.0)).abs() < 4.0,
        "the player restarted at the checkpoint, is at {feet}"
    );
}

/// A level with a ramp down to the right from the player's start to flat ground: 45° (one row per
/// column) or gentle (gradient 1/2, one row per two columns), `drop` rows high, then 30 columns of
/// flat ground. The player starts above the ramp's second cell.
fn ramp_level(name: &str, gentle: bool, drop: usize) -> std::path::PathBuf {
    let run = if gentle { 2 * drop } else { drop };
    let width = 2 + run + 30;
    let height = drop + 4;
    let mut rows: Vec<Vec<char>> = vec![vec!['.'; width]; height];
    for row in rows.iter_mut() {
        row[0] = 'S';
        row[width - 1] = 'S';
    }
    // The ramp: rows 2..2+drop; under each slope cell, ground to the bottom.
    for step in 0..drop {
        let row = 2 + step;
        let cells: Vec<(usize, char)> = if gentle {
            vec![(1 + 2 * step, 'L'), (2 + 2 * step, 'l')]
        } else {
            vec![(1 + step, '\\')]
        };
        for (col, c) in cells {
            rows[row][col] = c;
            for below in rows.iter_mut().skip(row + 1) {
                below[col] = '#';
            }
        }
    }
    // Flat ground after the ramp, and the bottom row.
    for col in 1 + run..width - 1 {
        for row in rows.iter_mut().skip(2 + drop) {
            row[col] = '#';
        }
    }
    rows[1][if gentle { 3 } else { 2 }] = 'P';
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    write_level(name, &rows, &[])
}

/// Slides down the ramp of [`ramp_level`] holding Down: the fastest speed while sliding on the
/// slope, and the player at the end.
fn slide(gentle: bool) -> (f32, Player, Vec2, f32) {
    let mut app = app_on(
        ramp_level("slide", gentle, 8),
        Replay::default().hold(20, "").hold(400, "D"),
    );
    let mut fastest: f32 = 0.0;
    for _ in 0..420 {
        tick(&mut app, 1);
        let world = app.world_mut();
        let mut query = world.query::<(&Player, &Velocity, &MovementState)>();
        let (p, v, state) = query.single(world).unwrap();
        if p.sliding && state.supporting_slope.is_some() {
            fastest = fastest.max(v.x);
        }
    }
    let speed = app
        .world_mut()
        .query_filtered::<&Velocity, With<Player>>()
        .single(app.world())
        .unwrap()
        .x;
    let (p, _) = player(&mut app);
    (fastest, p, player_feet(&mut app), speed)
}

#[test]
fn down_on_a_slope_slides_down_it_faster_on_steeper_slopes_until_level_ground() {
    let t = Tuning::default().player;
    let (steep, end, feet, speed) = slide(false);
    let (gentle, ..) = slide(true);
    let expected_steep = t.slide_speed + t.slide_speed_per_gradient;
    let expected_gentle = t.slide_speed + t.slide_speed_per_gradient * 0.5;
    assert!(
        (steep - expected_steep).abs() < 0.05 * expected_steep,
        "slide on 45°: {steep} px/s, expected {expected_steep}"
    );
    assert!(
        (gentle - expected_gentle).abs() < 0.05 * expected_gentle,
        "slide on the gentle slope: {gentle} px/s, expected {expected_gentle}"
    );
    assert!(steep > gentle + 15.0, "steeper is faster: {steep} against {gentle}");
    // The ramp ends at column 9 (x 144), 8 rows down: the slide carried the player onto the flat
    // ground, where it stopped sliding and came to rest with Down still held.
    assert!(
        feet.x > 9.0 * 16.0 && feet.y < 4.5 * 16.0,
        "the player slid down to the flat ground, is at {feet}"
    );
    assert!(!end.sliding, "the slide ends on level ground");
    assert_eq!(speed, 0.0, "and the player came to rest");
    assert_eq!(end.status, PlayerStatus::Alive);
}

#[test]
fn a_slide_knocks_out_the_enemy_in_its_way() {
    let mut app = app_on(
        ramp_level("slide_enemy", false, 8),
        Replay::default().hold(20, "").hold(300, "D"),
    );
    tick(&mut app, 1);
    // A walker on the ramp, below the player: the slope cell of column 6 is on row 7 of 12, its
    // surface 72 px high at the column's middle; the walker falls the last pixels onto it.
    {
        let world = app.world_mut();
        let tuning = world.resource::<Tuning>().clone();
        spawn_walker(&mut world.commands(), Vec2::new(6.5 * 16.0, 84.0), false, &tuning);
        world.flush();
    }
    let mut knocked_out = false;
    for _ in 0..300 {
        tick(&mut app, 1);
        assert_eq!(
            player(&mut app).0.status,
            PlayerStatus::Alive,
            "the slide does not hurt"
        );
        let world = app.world_mut();
        knocked_out |= world
            .query_filtered::<(), (With<Enemy>, With<KnockedOut>)>()
            .iter(world)
            .next()
            .is_some();
    }
    assert!(knocked_out, "the slide knocked the walker out");
}

#[test]
fn a_big_player_crouches_and_cannot_stand_up_under_a_low_ceiling() {
    let t = Tuning::default().player;
    // Crouch from step 40, try to walk right while crouched, let go at step 100, crouch again at
    // 140 and let go at 160, under a block put above the player at step 150.
    let replay = Replay::default()
        .hold(40, "")
        .hold(30, "D")
        .hold(30, "DR")
        .hold(40, "")
        .hold(20, "D")
        .hold(100, "");
    let mut app = app_on(write_level("crouch", &FLAT, &[]), replay);
    tick(&mut app, 5);
    give_mushroom(&mut app);
    tick(&mut app, 30);
    assert_eq!(player(&mut app).0.form, Form::Big, "the mushroom grew the player");
    let standing = player_feet(&mut app);
    tick(&mut app, 10);
    assert!(player(&mut app).0.crouching, "Down crouches");
    assert_eq!(
        player_box(&mut app).size(),
        t.crouch_size,
        "with the crouching collider"
    );
    assert!(
        (player_feet(&mut app) - standing).length() < 0.01,
        "feet where they were"
    );
    tick(&mut app, 50);
    assert!(
        (player_feet(&mut app).x - standing.x).abs() < 0.01,
        "a crouching player does not walk"
    );
    tick(&mut app, 20);
    assert!(!player(&mut app).0.crouching, "letting go of Down stands up");
    assert_eq!(player_box(&mut app).size(), t.big_size);
    tick(&mut app, 35);
    assert!(player(&mut app).0.crouching, "crouched again");
    // A ceiling 20 px above the feet: the crouching collider (15 px) fits under it, the big one
    // (30 px) does not.
    let feet = player_feet(&mut app);
    let block = app
        .world_mut()
        .spawn((
            Collider::rectangle(64.0, 16.0),
            Transform::from_xyz(feet.x, feet.y + 28.0, 0.0),
        ))
        .id();
    tick(&mut app, 40);
    let (p, _) = player(&mut app);
    assert!(p.crouching, "Down let go under the low ceiling: still crouching");
    assert_eq!(player_box(&mut app).size(), t.crouch_size);
    app.world_mut().despawn(block);
    tick(&mut app, 2);
    assert!(!player(&mut app).0.crouching, "the ceiling gone, the player stands up");
    assert_eq!(player_box(&mut app).size(), t.big_size);
}

#[test]
fn a_power_up_is_kept_into_the_next_level_and_lost_by_dying() {
    let t = Tuning::default().player;
    let rows = [
        "S.......................S",
        "S.P.....................S",
        "###############....######",
    ];
    let mut app = app_on(
        write_level("carry", &rows, &[]),
        Replay::default().hold(60, "").hold(600, "R"),
    );
    tick(&mut app, 5);
    give_mushroom(&mut app);
    tick(&mut app, 20);
    assert_eq!(player(&mut app).0.form, Form::Big);
    assert_eq!(
        app.world().resource::<GameProgress>().form,
        Form::Big,
        "the progress carries it"
    );
    // The level starts again as a next level does: a new player, spawned by the level.
    app.world_mut().write_message(slope_bros::level::LoadLevel);
    tick(&mut app, 2);
    let (p, _) = player(&mut app);
    assert_eq!(p.form, Form::Big, "the new level's player starts big");
    assert_eq!(player_box(&mut app).size(), t.big_size, "with the big collider");
    assert!(
        (player_feet(&mut app).y - 16.0).abs() < 0.5,
        "standing on the ground, feet at {}",
        player_feet(&mut app)
    );
    // Run into the pit: the restart after the death is small.
    assert!(
        run_until_restarted_after_a_death(&mut app),
        "the player ran into the pit"
    );
    assert_eq!(player(&mut app).0.form, Form::Small, "dying loses the power-up");
    assert_eq!(player_box(&mut app).size(), t.small_size);
}

/// Steps (at most 600) until the player has died and is playing again; false if they never died.
fn run_until_restarted_after_a_death(app: &mut App) -> bool {
    let mut died = false;
    for _ in 0..600 {
        tick(app, 1);
        died |= matches!(player(app).0.status, PlayerStatus::Dying(_));
        if died && player(app).0.status == PlayerStatus::Alive {
            break;
        }
    }
    died
}

/// `--power-up fire`: the game starts with the fire flower's player (big collider, fireballs),
/// which a death takes away as it takes a power-up found in the level.
#[test]
fn a_game_started_with_a_power_up_starts_with_it_until_a_death() {
    let t = Tuning::default().player;
    let rows = [
        "S.......................S",
        "S.P.....................S",
        "###############....######",
    ];
    let replay = Replay::default().hold(30, "").hold(2, "B").hold(600, "R");
    let mut app = app_on_starting_as(write_level("start_fire", &rows, &[]), replay, Form::Fire);
    tick(&mut app, 1);
    assert_eq!(player(&mut app).0.form, Form::Fire);
    assert_eq!(player_box(&mut app).size(), t.big_size, "with the big collider");
    assert!((player_feet(&mut app).y - 16.0).abs() < 0.5, "standing on the ground");
    assert_eq!(app.world().resource::<GameProgress>().form, Form::Fire);
    tick(&mut app, 32);
    let fireballs = app
        .world_mut()
        .query::<&slope_bros::gameplay::fire::Fireball>()
        .iter(app.world())
        .count();
    assert_eq!(fireballs, 1, "the run button threw a fireball");
    assert!(
        run_until_restarted_after_a_death(&mut app),
        "the player ran into the pit"
    );
    assert_eq!(
        player(&mut app).0.form,
        Form::Small,
        "the restart after a death is small"
    );
}

/// Six tiles of run-up, a pit six tiles wide down to the level's bottom (the widest the levels
/// have, `MAX_PIT` of the level generator), then ground.
const SIX_TILE_PIT: [&str; 6] = [
    "S...............................S",
    "S...............................S",
    "S...............................S",
    "S...............................S",
    "S.P.............................S",
    "########......###################",
];
const PIT_FIRST_COLUMN: f32 = 8.0;
const PIT_LAST_COLUMN: f32 = 13.0;

/// Whether holding `letters` (right, with or without run) and jumping at step `take_off` (jump
/// held for a full jump) leaves the player standing on the ground beyond the six-tile pit.
fn crosses_the_pit(letters: &str, take_off: u32) -> bool {
    let replay = Replay::default()
        .hold(take_off, letters)
        .hold(40, &format!("{letters}J"))
        .hold(80, letters);
    let mut app = app_on(write_level("pit", &SIX_TILE_PIT, &[]), replay);
    tick(&mut app, 1);
    let left = app.world().resource::<slope_bros::level::LevelInfo>().bounds.min.x;
    let ground = player_feet(&mut app).y;
    tick(&mut app, take_off + 100);
    let feet = player_feet(&mut app);
    let standing = player(&mut app).0.status == PlayerStatus::Alive && (feet.y - ground).abs() < 1.0;
    standing && feet.x > left + (PIT_LAST_COLUMN + 1.0) * 16.0
}

/// The step at which the player, holding `letters` and never jumping, walks off the pit's edge.
fn reaches_the_edge(letters: &str) -> u32 {
    let mut app = app_on(
        write_level("pit_edge", &SIX_TILE_PIT, &[]),
        Replay::default().hold(400, letters),
    );
    tick(&mut app, 1);
    let edge = app.world().resource::<slope_bros::level::LevelInfo>().bounds.min.x + PIT_FIRST_COLUMN * 16.0;
    for step in 1..400 {
        if player_feet(&mut app).x >= edge {
            return step;
        }
        tick(&mut app, 1);
    }
    panic!("holding {letters:?} never reached the pit");
}

/// Some pits of the levels need a running jump: from the run-up the levels give it, no walking
/// jump crosses a six-tile pit, whatever the step it takes off at (from well before the edge to
/// past it, in coyote time), and a running jump does.
#[test]
fn a_six_tile_pit_needs_a_running_jump() {
    let take_offs = |letters: &str| {
        let edge = reaches_the_edge(letters);
        (edge.saturating_sub(24)..edge + 8).collect::<Vec<_>>()
    };
    let walking: Vec<u32> = take_offs("R")
        .into_iter()
        .filter(|&step| crosses_the_pit("R", step))
        .collect();
    assert!(walking.is_empty(), "walking jumps at steps {walking:?} crossed the pit");
    let running = take_offs("RB").into_iter().any(|step| crosses_the_pit("RB", step));
    assert!(running, "no running jump crossed the pit");
}
