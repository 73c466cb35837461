//! The boss end to end: touching the axe drops its bridge plank by plank and the boss with it;
//! touching the boss hurts (it cannot be stomped); five fireballs knock it out.

use bevy::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::enemies::KnockedOut;
use slope_bros::gameplay::enemies::boss::{Boss, BridgePlank};
use slope_bros::gameplay::objects::items::{PowerUpKind, spawn_power_up};
use slope_bros::gameplay::player::{Form, PlayerStatus};
use slope_bros::gameplay::run::progress::GameProgress;
use slope_bros::input::replay::Replay;
use slope_bros::tuning::Tuning;

/// Stone floor two rows deep with a lava pit in columns 6–13 spanned by a bridge; the boss on the
/// bridge (column 11), the axe on the stone just right of it (column 14).
fn bridge_level(name: &str, player_row: &str) -> std::path::PathBuf {
    let placed = [
        Placed {
            identifier: "Bridge",
            cell: IVec2::new(6, 8),
            cells: IVec2::new(8, 1),
            fields: vec![],
        },
        Placed {
            identifier: "Boss",
            cell: IVec2::new(11, 7),
            cells: IVec2::ONE,
            fields: vec![],
        },
        Placed {
            identifier: "Axe",
            cell: IVec2::new(14, 7),
            cells: IVec2::ONE,
            fields: vec![],
        },
    ];
    write_level(
        name,
        &[
            "S.....................S",
            "S.....................S",
            "S.....................S",
            "S.....................S",
            "S.....................S",
            "S.....................S",
            "S.....................S",
            player_row,
            "SSSSSS~~~~~~~~SSSSSSSSS",
            "SSSSSS~~~~~~~~SSSSSSSSS",
        ],
        &placed,
    )
}

fn count<T: Component>(app: &mut App) -> usize {
    let world = app.world_mut();
    world.query_filtered::<(), With<T>>().iter(world).count()
}

#[test]
fn the_axe_drops_the_bridge_plank_by_plank_and_the_boss_falls_with_it() {
    // The player starts right of the axe and steps left into it, then stands.
    let level = bridge_level("boss_axe", "S..............P......S");
    let mut app = app_on(level, Replay::default().hold(8, "L").hold(600, ""));
    tick(&mut app, 1);
    assert_eq!(count::<BridgePlank>(&mut app), 8, "a plank per cell");
    assert_eq!(count::<Boss>(&mut app), 1);
    let score = app.world().resource::<GameProgress>().score;
    let mut planks = Vec::new();
    for _ in 0..80 {
        app.update();
        planks.push(count::<BridgePlank>(&mut app));
    }
    assert_eq!(planks[0], 8, "the bridge stands until the axe is touched");
    assert_eq!(*planks.last().unwrap(), 0, "the whole bridge fell");
    // Plank by plank: every count from 8 down to 0 is seen, in that order.
    for left in 0..=8 {
        assert!(planks.contains(&left), "{left} planks left at some step: {planks:?}");
    }
    assert!(
        planks.windows(2).all(|w| w[1] <= w[0] && w[0] - w[1] <= 1),
        "{planks:?}"
    );
    tick(&mut app, 120);
    assert_eq!(count::<Boss>(&mut app), 0, "the boss fell out of the level");
    let boss_score = app.world().resource::<Tuning>().enemies.boss_score;
    assert!(
        app.world().resource::<GameProgress>().score >= score + boss_score,
        "beating the boss scores {boss_score}"
    );
    assert_eq!(
        player(&mut app).0.status,
        PlayerStatus::Alive,
        "the player stood by the axe"
    );
}

#[test]
fn the_boss_cannot_be_stomped_landing_on_it_hurts() {
    // The (small) player starts in the air over the boss and drops onto its head.
    let level = write_level(
        "boss_stomp",
        &[
            "S.........S",
            "S.....P...S",
            "S.........S",
            "S.........S",
            "S.........S",
            "S.........S",
            "SSSSSSSSSSS",
        ],
        &[Placed {
            identifier: "Boss",
            cell: IVec2::new(6, 5),
            cells: IVec2::ONE,
            fields: vec![],
        }],
    );
    let mut app = app_on(level, Replay::default().hold(300, ""));
    let mut hurt = false;
    for _ in 0..60 {
        app.update();
        hurt |= matches!(player(&mut app).0.status, PlayerStatus::Dying(_));
    }
    assert!(hurt, "landing on the boss kills a small player");
    assert_eq!(count::<Boss>(&mut app), 1, "the boss is still there");
    assert_eq!(count::<KnockedOut>(&mut app), 0, "and not knocked out");
}

/// Taps run (B) `times` times, 45 steps apart.
fn throws(times: u32) -> Replay {
    let mut replay = Replay::default().hold(10, "");
    for _ in 0..times {
        replay = replay.hold(1, "B").hold(44, "");
    }
    replay.hold(600, "")
}

fn fire_player_before_the_boss(times: u32) -> App {
    // The player stands 17 cells left of the boss: too far to wake it, close enough to hit it.
    let level = write_level(
        "boss_fire",
        &[
            "S........................S",
            "S........................S",
            "S........................S",
            "S........................S",
            "S........................S",
            "S.P......................S",
            "SSSSSSSSSSSSSSSSSSSSSSSSSS",
        ],
        &[Placed {
            identifier: "Boss",
            cell: IVec2::new(19, 5),
            cells: IVec2::ONE,
            fields: vec![],
        }],
    );
    let mut app = app_on(level, throws(times));
    tick(&mut app, 2);
    for kind in [PowerUpKind::Mushroom, PowerUpKind::FireFlower] {
        let feet = player_feet(&mut app);
        let world = app.world_mut();
        spawn_power_up(&mut world.commands(), kind, feet, 1.0, 0.0);
        world.flush();
        tick(&mut app, 3);
    }
    assert_eq!(player(&mut app).0.form, Form::Fire);
    app
}

#[test]
fn five_fireballs_knock_the_boss_out_four_do_not() {
    let mut app = fire_player_before_the_boss(4);
    tick(&mut app, 400);
    let world = app.world_mut();
    let hits_left = world.query::<&Boss>().single(world).unwrap().hits_left;
    assert_eq!(hits_left, 1, "four fireballs hit");
    assert_eq!(count::<KnockedOut>(&mut app), 0, "four are not enough");

    let mut app = fire_player_before_the_boss(5);
    let mut knocked_out = false;
    for _ in 0..400 {
        app.update();
        knocked_out |= count::<KnockedOut>(&mut app) > 0;
    }
    assert!(knocked_out, "the fifth knocks it out");
}
