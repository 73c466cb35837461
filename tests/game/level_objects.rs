//! Level objects end to end: hidden blocks, multi-coin blocks, a bumped block under an enemy,
//! springs, falling lifts, lava; and chains of stomps and shell hits that score more each time.

use bevy::prelude::*;
use bevy_platformer_physics::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::enemies::shell::Shell;
use slope_bros::gameplay::objects::falling_lift::FallingLift;
use slope_bros::gameplay::objects::items::{PowerUp, PowerUpKind};
use slope_bros::gameplay::player::PlayerStatus;
use slope_bros::gameplay::run::progress::GameProgress;
use slope_bros::gameplay::run::scoring::{Award, ScorePopup};
use slope_bros::input::replay::Replay;
use slope_bros::level::{Block, LevelInfo};
use slope_bros::tuning::Tuning;

fn cell_and_block(app: &App) -> (IVec2, Option<Block>, TileCell) {
    let info = app.world().resource::<LevelInfo>();
    let cell = IVec2::new(4, info.cells.height as i32 - 1 - 2);
    let grid = app.world().get::<TileGrid>(info.cells.grid.unwrap()).unwrap();
    (cell, info.cells.block(cell), grid.get(cell.x, cell.y))
}

/// The player's highest feet over `steps`.
fn peak_feet(app: &mut App, steps: u32) -> f32 {
    let mut peak = f32::MIN;
    for _ in 0..steps {
        tick(app, 1);
        peak = peak.max(player_feet(app).y);
    }
    peak
}

#[test]
fn a_hidden_block_is_nothing_until_a_head_comes_up_into_it_then_gives_its_coin() {
    let mut app = app_on(block_level("hidden", 'h'), Replay::default().hold(10, "").hold(30, "J"));
    tick(&mut app, 1);
    let (_, block, cell) = cell_and_block(&app);
    assert_eq!(
        (block, cell),
        (Some(Block::HiddenCoin), TileCell::Empty),
        "hidden: nothing to the physics"
    );
    let peak = peak_feet(&mut app, 80);
    let (_, block, cell) = cell_and_block(&app);
    assert_eq!(
        (block, cell),
        (Some(Block::Used), TileCell::Solid),
        "hit from below it is a used block"
    );
    assert_eq!(app.world().resource::<GameProgress>().coins, 1, "and it gave its coin");
    // The head stopped at the block's bottom (48 px above the floor): the feet went no higher
    // than 48 - 15 (the small player's height) above the floor at 16.
    assert!(
        peak <= 16.0 + 48.0 - 15.0 + 0.5,
        "the head stopped at the block: feet peak {peak}"
    );
}

#[test]
fn a_hidden_block_is_not_revealed_by_a_body_beside_it() {
    // The block is one column right of the player's column and the player jumps straight up.
    let level = write_level(
        "hidden_beside",
        &[
            "S........S",
            "S........S",
            "S....h...S",
            "S........S",
            "S........S",
            "S...P....S",
            "##########",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(10, "").hold(30, "J"));
    tick(&mut app, 80);
    let info = app.world().resource::<LevelInfo>();
    let cell = IVec2::new(5, info.cells.height as i32 - 1 - 2);
    assert_eq!(info.cells.block(cell), Some(Block::HiddenCoin), "not hit, still hidden");
}

#[test]
fn a_hidden_extra_life_block_releases_an_extra_life_mushroom() {
    let mut app = app_on(
        block_level("hidden_1up", 'i'),
        Replay::default().hold(10, "").hold(30, "J"),
    );
    let mut released = false;
    for _ in 0..200 {
        tick(&mut app, 1);
        let world = app.world_mut();
        released |= world
            .query::<&PowerUp>()
            .iter(world)
            .any(|p| p.kind == PowerUpKind::OneUp);
    }
    assert!(released, "the hidden block gave an extra-life mushroom");
    assert_eq!(cell_and_block(&app).1, Some(Block::Used));
}

#[test]
fn a_multi_coin_block_gives_a_coin_per_hit_until_its_time_is_up() {
    let mut replay = Replay::default().hold(5, "");
    for _ in 0..12 {
        replay = replay.hold(30, "J").hold(30, "");
    }
    let mut app = app_on(block_level("multi", '$'), replay);
    let tuning = app.world().resource::<Tuning>().items.clone();
    tick(&mut app, 95);
    assert_eq!(
        cell_and_block(&app).1,
        Some(Block::MultiCoin),
        "two hits in, it still gives"
    );
    assert!(app.world().resource::<GameProgress>().coins >= 2);
    tick(&mut app, 600);
    let coins = app.world().resource::<GameProgress>().coins;
    assert_eq!(cell_and_block(&app).1, Some(Block::Used), "its time is up: used");
    // One hit a second: the coins of its time, and one last one.
    let expected = (tuning.multi_coin_time as u32 + 1).min(tuning.multi_coin_max);
    assert!(
        coins >= expected - 1 && coins <= expected + 1,
        "{coins} coins, about {expected}"
    );
}

#[test]
fn a_block_bumped_from_below_knocks_out_the_enemy_standing_on_it() {
    let level = write_level(
        "bump",
        &[
            "S........S",
            "S...w....S",
            "S...B....S",
            "S........S",
            "S........S",
            "S...P....S",
            "##########",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(5, "").hold(30, "J"));
    assert_eq!(knocked_out_during(&mut app, 60), 1, "the walker on the brick is out");
    assert_eq!(player(&mut app).0.status, PlayerStatus::Alive);
}

fn spring_level(name: &str) -> std::path::PathBuf {
    // Twenty rows of air over the spring, room for the launch.
    let mut rows = vec!["S.......S"; 20];
    rows.extend(["S...P...S", "S...^...S", "#########"]);
    write_level(name, &rows, &[])
}

#[test]
fn a_spring_launches_the_player_and_higher_with_jump_held() {
    let floor_jump = {
        let level = write_level(
            "no_spring",
            &["S.......S"; 12]
                .iter()
                .copied()
                .chain(["S...P...S", "#########"])
                .collect::<Vec<_>>(),
            &[],
        );
        let mut app = app_on(level, Replay::default().hold(5, "").hold(60, "J"));
        peak_feet(&mut app, 120) - 16.0
    };
    let mut app = app_on(spring_level("spring"), Replay::default());
    let plain = peak_feet(&mut app, 150) - 32.0;
    let mut app = app_on(spring_level("spring_held"), Replay::default().hold(200, "J"));
    let held = peak_feet(&mut app, 150) - 32.0;
    assert!(
        plain > floor_jump + 16.0,
        "a spring launches higher than a jump: {plain} vs {floor_jump}"
    );
    assert!(held > plain + 48.0, "jump held springs higher: {held} vs {plain}");
    let speeds = app.world().resource::<Tuning>().items.clone();
    let gravity = 960.0;
    let expected = speeds.spring_speed_held * speeds.spring_speed_held / 2.0 / gravity;
    assert!(
        (held - expected).abs() < expected * 0.1,
        "held: {held} px, about {expected}"
    );
}

#[test]
fn a_falling_lift_waits_then_falls_with_the_player_on_it() {
    let level = write_level(
        "falling",
        &[
            "S...........S",
            "S...........S",
            "S...P.......S",
            "S...........S",
            "S...........S",
            "S...........S",
            "S...........S",
            "SSSS.....SSSS",
        ],
        &[Placed {
            identifier: "FallingLift",
            cell: IVec2::new(3, 4),
            cells: IVec2::new(3, 1),
            fields: vec![],
        }],
    );
    let mut app = app_on(level, Replay::default());
    let lift_y = |app: &mut App| {
        let world = app.world_mut();
        world
            .query_filtered::<&Transform, With<FallingLift>>()
            .single(world)
            .map(|t| t.translation.y)
            .ok()
    };
    tick(&mut app, 1);
    let start = lift_y(&mut app).expect("a falling lift");
    // The player falls onto it.
    let mut landed = false;
    for _ in 0..60 {
        tick(&mut app, 1);
        if (player_feet(&mut app).y - (start + 8.0)).abs() < 0.5 {
            landed = true;
            break;
        }
    }
    assert!(landed, "the player landed on the lift");
    let delay = app.world().resource::<Tuning>().items.falling_lift_delay;
    tick(&mut app, (delay * 60.0) as u32 - 1);
    assert_eq!(
        lift_y(&mut app),
        Some(start),
        "still for its delay after the player landed"
    );
    let mut riding = 0;
    for _ in 0..40 {
        tick(&mut app, 1);
        if let Some(y) = lift_y(&mut app) {
            let feet = player_feet(&mut app).y;
            if y < start - 2.0 && (feet - (y + 8.0)).abs() < 1.0 {
                riding += 1;
            }
        }
    }
    assert!(lift_y(&mut app).is_none_or(|y| y < start - 30.0), "it fell");
    assert!(riding > 10, "the player rode it down ({riding} steps)");
}

#[test]
fn lava_kills_the_player_who_falls_in() {
    let level = write_level(
        "lava",
        &[
            "S..........S",
            "S..........S",
            "S.P........S",
            "####~~~~####",
            "####~~~~####",
            // A floor under the lava: the player sinks into it, it does not fall out of the level.
            "############",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(300, "R"));
    let mut died = false;
    for _ in 0..200 {
        tick(&mut app, 1);
        died |= matches!(player(&mut app).0.status, PlayerStatus::Dying(_));
    }
    assert!(died, "the lava killed the player");
}

/// The awards popped up so far, in order, noted each step (pop-ups last less than a second).
fn note_awards(app: &mut App, seen: &mut Vec<(Entity, Award)>) {
    let world = app.world_mut();
    for (entity, popup) in world.query::<(Entity, &ScorePopup)>().iter(world) {
        if !seen.iter().any(|(e, _)| *e == entity) {
            seen.push((entity, popup.award));
        }
    }
}

#[test]
fn landing_on_two_enemies_at_once_stomps_both_as_a_chain() {
    let level = write_level(
        "stomp_chain",
        &[
            "S..........P...........S",
            "S......................S",
            "S......................S",
            "S...........w..........S",
            "########################",
        ],
        &[Placed {
            identifier: "Walker",
            cell: IVec2::new(12, 3),
            cells: IVec2::ONE,
            fields: vec![],
        }],
    );
    let mut app = app_on(level, Replay::default());
    let mut awards = Vec::new();
    for _ in 0..90 {
        tick(&mut app, 1);
        note_awards(&mut app, &mut awards);
    }
    let awards: Vec<Award> = awards.into_iter().map(|(_, a)| a).collect();
    assert_eq!(
        awards,
        [Award::Points(100), Award::Points(200)],
        "the second stomp of a chain scores more"
    );
    assert_eq!(player(&mut app).0.status, PlayerStatus::Alive);
    let rules = app.world().resource::<Tuning>().rules.clone();
    assert_eq!(
        Award::of_chain(&rules, rules.chain_scores.len()),
        Award::OneUp,
        "past the table: a life"
    );
}

#[test]
fn a_shell_scores_more_for_each_enemy_of_its_chain() {
    let level = write_level(
        "shell_chain",
        &[
            "S.....P...............S",
            "S......................S",
            "S......................S",
            "S.....k................S",
            "S......................S",
            "S.............w.w.w....S",
            "#######################S",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(80, "").hold(200, "R"));
    let mut awards = Vec::new();
    let mut knocked = 0;
    for _ in 0..400 {
        tick(&mut app, 1);
        note_awards(&mut app, &mut awards);
        let world = app.world_mut();
        for shell in world.query::<&Shell>().iter(world) {
            knocked = knocked.max(shell.knocked_out);
        }
    }
    let rules = app.world().resource::<Tuning>().rules.clone();
    let start = rules.shell_chain_start;
    let awards: Vec<Award> = awards.iter().map(|(_, a)| *a).collect();
    assert!(knocked >= 2, "the shell knocked out {knocked} walkers");
    let expected: Vec<Award> = (0..knocked as usize)
        .map(|i| Award::Points(rules.chain_scores[start + i]))
        .collect();
    assert!(
        awards.windows(expected.len()).any(|w| w == expected),
        "each enemy of the shell's chain scores more: {awards:?} holds {expected:?}"
    );
}
