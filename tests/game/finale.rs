//! The finale after the flagpole: the grab's height bonus, the slide down the pole, the walk to
//! the castle's door, the time counted into the score, then the level is done.

use bevy::prelude::*;
use platformer_tests::game::*;
use slope_bros::gameplay::run::finale::{DOOR_OFFSET, Finale, FinaleStage};
use slope_bros::gameplay::run::goal::Goal;
use slope_bros::gameplay::run::goal::height_bonus;
use slope_bros::gameplay::run::progress::{GameProgress, RunOutcome};
use slope_bros::input::replay::Replay;
use slope_bros::level::LevelClock;
use slope_bros::tuning::Tuning;

fn finale(app: &mut App) -> Option<Finale> {
    let world = app.world_mut();
    world.query::<&Finale>().iter(world).next().copied()
}

#[test]
fn the_flagpole_grab_slides_down_walks_into_the_castle_and_counts_the_time() {
    // The player walks off a ledge beside the pole, to grab it above its foot.
    let level = write_level(
        "finale",
        &[
            "S........................S",
            "S........................S",
            "S........................S",
            "S........................S",
            "S........................S",
            "S..P.....................S",
            "SSSSSSSSS................S",
            "SSSSSSSSS................S",
            "SSSSSSSSS.G..............S",
            "##########################",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default().hold(400, "R"));
    let tuning = app.world().resource::<Tuning>().clone();
    let mut touched = None;
    for step in 0..200 {
        tick(&mut app, 1);
        if finale(&mut app).is_some() {
            touched = Some(step);
            break;
        }
    }
    assert!(touched.is_some(), "the player reached the pole");
    let world = app.world_mut();
    let base = world
        .query_filtered::<&Transform, With<Goal>>()
        .single(world)
        .unwrap()
        .translation
        .truncate();
    let grab_feet = player_feet(&mut app);
    let score_at_grab = app.world().resource::<GameProgress>().score;
    let left = app.world().resource::<LevelClock>().left;
    assert!(
        app.world().resource::<RunOutcome>().completed_at.is_some(),
        "the level is completed at the touch"
    );
    assert!(
        grab_feet.y > base.y + 8.0,
        "grabbed above the foot: {grab_feet} over {base}"
    );

    let mut slide = Vec::new();
    let mut walk = Vec::new();
    let mut counted_from = None;
    for _ in 0..600 {
        tick(&mut app, 1);
        let stage = finale(&mut app).unwrap().stage;
        let feet = player_feet(&mut app);
        match stage {
            FinaleStage::Slide => slide.push(feet),
            FinaleStage::Walk => walk.push(feet),
            FinaleStage::Count => {
                counted_from.get_or_insert(app.world().resource::<GameProgress>().score);
            }
            FinaleStage::Done => break,
        }
    }
    assert!(
        slide.windows(2).all(|w| w[1].y < w[0].y && w[1].x == w[0].x),
        "straight down the pole"
    );
    assert!((walk[0].y - base.y).abs() < 0.5, "down to the pole's foot");
    assert!(walk.windows(2).all(|w| w[1].x >= w[0].x), "then right");
    assert!(
        walk.last().unwrap().x >= base.x + DOOR_OFFSET - 2.0,
        "to the castle's door"
    );
    let outcome = app.world().resource::<RunOutcome>().clone();
    assert!(outcome.level_done, "then the level is done");
    assert_eq!(
        app.world().resource::<LevelClock>().left,
        0.0,
        "the clock was counted out"
    );
    let bonus = height_bonus(&tuning.rules.flagpole_scores, base.y, grab_feet.y);
    let score = app.world().resource::<GameProgress>().score;
    assert_eq!(
        score - (score_at_grab - bonus),
        bonus + left.ceil() as u32 * tuning.rules.time_bonus,
        "the height bonus and each second left, {left} s, scored"
    );
    assert!(
        counted_from.is_some_and(|s| s < score),
        "the time is counted into the score step by step"
    );
}

#[test]
fn a_higher_grab_scores_more() {
    let scores = Tuning::default().rules.flagpole_scores;
    let bonuses: Vec<u32> = [0.0, 40.0, 70.0, 100.0, 150.0]
        .iter()
        .map(|h| height_bonus(&scores, 0.0, *h))
        .collect();
    assert_eq!(bonuses, [100, 400, 800, 2000, 5000]);
    assert_eq!(height_bonus(&scores, 0.0, 500.0), 5000, "above the pole: the top bonus");
}

#[test]
fn a_finale_that_falls_out_of_the_level_still_ends_it() {
    // A pole standing on nothing and the player falling along it: it grabs the pole and slides
    // down it out of the level.
    let level = write_level(
        "finale_pit",
        &[
            "S......P......S",
            "S.............S",
            "S.............S",
            "S......G......S",
        ],
        &[],
    );
    let mut app = app_on(level, Replay::default());
    let mut done = false;
    for _ in 0..900 {
        tick(&mut app, 1);
        if app.world().resource::<RunOutcome>().level_done {
            done = true;
            break;
        }
    }
    assert!(finale(&mut app).is_some(), "the pole was touched");
    assert!(player_feet(&mut app).y < 0.0, "the slide went out of the level");
    assert!(
        done,
        "the count ran and the level is done, though the slide went out of the level"
    );
}

/// The sounds the game asked for, step by step.
#[derive(Resource, Default)]
struct Heard(Vec<slope_bros::gameplay::Sfx>);

fn listen(mut sfx: MessageReader<slope_bros::gameplay::Sfx>, mut heard: ResMut<Heard>) {
    heard.0.extend(sfx.read().copied());
}

/// Frame by frame: with 100.5 s left nothing is said; the step the clock passes 100 s the time
/// warning (its sound, and the faster music the presentation plays from it) comes once, and not
/// again as the clock runs on.
#[test]
fn the_clock_warns_once_as_it_passes_100_seconds() {
    use slope_bros::gameplay::Sfx;
    use slope_bros::gameplay::run::progress::TIME_WARNING_AT;
    let level = write_level("warning", &["S......S", "S..P...S", "########"], &[]);
    let mut app = app_on(level, Replay::default());
    app.init_resource::<Heard>();
    app.add_systems(FixedPostUpdate, listen);
    tick(&mut app, 1);
    app.world_mut().resource_mut::<LevelClock>().left = TIME_WARNING_AT + 0.5;
    let warnings = |app: &App| {
        app.world()
            .resource::<Heard>()
            .0
            .iter()
            .filter(|s| **s == Sfx::TimeWarning)
            .count()
    };
    tick(&mut app, 29);
    assert_eq!(
        warnings(&app),
        0,
        "{} s left: no warning yet",
        app.world().resource::<LevelClock>().left
    );
    tick(&mut app, 2);
    assert_eq!(
        warnings(&app),
        1,
        "{} s left: the warning",
        app.world().resource::<LevelClock>().left
    );
    tick(&mut app, 120);
    assert_eq!(warnings(&app), 1, "once");
}
