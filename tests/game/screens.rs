//! What a player sees and hears, checked on the windowed game run offscreen
//! ([`offscreen_app`]: every screen, sprite, text and sound decision, no window, no GPU): the
//! title, the lives card, the jingles and the music, the pixel font's glyphs, the pictures of a
//! growing and shrinking player and of a power-up rising out of its block.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::ecs::system::RunSystemOnce;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy_platformer_physics::prelude::*;
use slope_bros::draw_order;
use slope_bros::gameplay::objects::items::{POWER_UP_SIZE, PowerUpKind, Rising, spawn_power_up};
use slope_bros::gameplay::player::{Form, Player, PlayerStatus};
use slope_bros::gameplay::run::progress::{GameProgress, RunOutcome};
use slope_bros::harness::app::offscreen_app;
use slope_bros::harness::cli::Options;
use slope_bros::input::replay::Replay;
use slope_bros::level::{BUILTIN_LEVELS, CurrentLevel, LevelClock, LevelInfo, LevelSource};
use slope_bros::presentation::{GameAssets, GoalFlag, Music, PlaySound, Tune};
use slope_bros::screens::{Pause, Screen};

use platformer_tests::game::{Placed, player_feet, root, write_level};

/// Every sound asked for so far, in order.
#[derive(Resource, Default)]
struct Heard(Vec<&'static str>);

fn listen(mut sounds: MessageReader<PlaySound>, mut heard: ResMut<Heard>) {
    heard.0.extend(sounds.read().map(|sound| sound.0));
}

/// The offscreen game on `level` (the title first when `None`), driven by the keyboard, or by
/// `replay` (which skips the lives card), updated until its images have loaded.
fn offscreen(level: Option<LevelSource>, replay: Option<Replay>) -> App {
    offscreen_with(level, replay, &Options::default())
}

/// [`offscreen`] with these command-line options.
fn offscreen_with(level: Option<LevelSource>, replay: Option<Replay>, options: &Options) -> App {
    let mut app = offscreen_app(root(), level, replay, options);
    app.init_resource::<Heard>();
    app.add_systems(Last, listen);
    let since = Instant::now();
    while *app.world().resource::<State<Screen>>().get() == Screen::Loading {
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "the images did not load in 60 s"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    app
}

/// A level file of the test levels (the game's physics mapping).
fn file_level(path: PathBuf) -> LevelSource {
    LevelSource::File {
        path,
        mapping: Some(root().levels().join("mapping.ron")),
    }
}

/// Updates until `done`, at most `frames` times (the level's loading takes wall-clock time, so
/// frames wait a little).
fn update_until(app: &mut App, what: &str, frames: u32, mut done: impl FnMut(&mut App) -> bool) {
    for _ in 0..frames {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_micros(200));
    }
    assert!(done(app), "{what}: not within {frames} frames");
}

/// Updates until the level has loaded and played a few steps.
fn wait_for_play(app: &mut App) {
    update_until(app, "the level's first steps", 600, |app| {
        app.world().resource::<LevelClock>().steps > 5
    });
}

/// How many times `sound` was asked for.
fn times_heard(app: &App, sound: &str) -> usize {
    app.world()
        .resource::<Heard>()
        .0
        .iter()
        .filter(|s| **s == sound)
        .count()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Presses `key` for one frame, then lets it go.
fn tap(app: &mut App, key: KeyCode) {
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code: key,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

/// Every text on screen: UI texts, their spans and texts in the world (pop-ups).
fn texts(app: &mut App) -> Vec<String> {
    let world = app.world_mut();
    let mut out: Vec<String> = world.query::<&Text>().iter(world).map(|t| t.0.clone()).collect();
    out.extend(world.query::<&TextSpan>().iter(world).map(|t| t.0.clone()));
    out.extend(world.query::<&Text2d>().iter(world).map(|t| t.0.clone()));
    out
}

fn player(app: &mut App) -> Player {
    let world = app.world_mut();
    world.query::<&Player>().single(world).expect("one player").clone()
}

fn music(app: &App) -> Option<Tune> {
    app.world().resource::<Music>().0
}

/// Flat ground, the player on it (column 2), nothing else.
const FLAT: [&str; 6] = [
    "....................",
    "....................",
    "....................",
    "..P.................",
    "####################",
    "####################",
];

#[test]
fn the_title_says_when_the_build_has_no_sound_and_how_to_build_it_with_sound() {
    let mut app = offscreen(None, None);
    assert_eq!(screen(&app), Screen::Title);
    app.update();
    let texts = texts(&mut app);
    let line = texts.iter().find(|t| t.starts_with("No sound in this build"));
    if cfg!(feature = "audio") {
        assert_eq!(line, None, "{texts:#?}");
    } else {
        let line = line.unwrap_or_else(|| panic!("no sound line on the title: {texts:#?}"));
        assert!(
            line.contains("libasound2-dev") && line.contains("--features audio"),
            "{line}"
        );
    }
}

#[test]
fn the_windowed_game_starts_the_player_where_and_as_the_command_line_says() {
    // `--start` and `--power-up`: the windowed game took the second and dropped the first.
    let level = write_level(
        "start_here",
        &[
            "S..................S",
            "S..................S",
            "S..................S",
            "S..................S",
            "S..P...............S",
            "####################",
        ],
        &[],
    );
    let options = Options {
        // The level's bottom is at y = 0 (y up): the floor's top at 16, the start a tile above.
        start: Some(Vec2::new(200.0, 32.0)),
        power_up: Some(Form::Big),
        ..default()
    };
    let mut app = offscreen_with(Some(file_level(level)), Some(Replay::default()), &options);
    wait_for_play(&mut app);
    // A quarter of a second to fall the tile onto the floor.
    for _ in 0..15 {
        app.update();
    }
    let floor = app.world().resource::<LevelInfo>().bounds.min.y + 16.0;
    let feet = player_feet(&mut app);
    assert!(
        (feet.x - 200.0).abs() < 0.5 && (feet.y - floor).abs() < 0.5,
        "the player's feet are at {feet}, not on the floor (y = {floor}) under (200, 32)"
    );
    let world = app.world_mut();
    let player = world.query::<&Player>().single(world).expect("one player");
    assert_eq!(player.form, Form::Big);
}

#[test]
fn the_lives_card_names_the_level_and_the_lives_and_holds_the_game_for_two_seconds() {
    let mut app = offscreen(Some(LevelSource::Builtin(5)), None);
    update_until(&mut app, "the card", 600, |app| {
        texts(app).iter().any(|t| t.starts_with("WORLD 2-2"))
    });
    let lives = app.world().resource::<GameProgress>().lives;
    let shown = texts(&mut app);
    assert!(shown.contains(&format!("× {lives}")), "{shown:#?}");
    let clock = *app.world().resource::<LevelClock>();
    // Two seconds of frames: the game stands still while the card shows...
    for _ in 0..110 {
        app.update();
    }
    assert!(
        texts(&mut app).iter().any(|t| t.starts_with("WORLD 2-2")),
        "the card went early"
    );
    assert_eq!(
        app.world().resource::<LevelClock>().steps,
        clock.steps,
        "the game ran under the card"
    );
    // ... then it goes and the game starts.
    for _ in 0..20 {
        app.update();
    }
    assert!(
        !texts(&mut app).iter().any(|t| t.starts_with("WORLD 2-2")),
        "the card is still there after 130 frames"
    );
    let steps = app.world().resource::<LevelClock>().steps;
    app.update();
    assert_eq!(
        app.world().resource::<LevelClock>().steps,
        steps + 1,
        "the game does not run after the card"
    );
}

#[test]
fn after_a_death_the_card_shows_one_life_less_and_the_last_death_is_game_over_with_its_jingle() {
    // The player starts over a pit.
    let level = write_level(
        "card_after_death",
        &[
            "....................",
            "..P.................",
            "....................",
            "....................",
            "#.......############",
        ],
        &[],
    );
    let mut app = offscreen(Some(file_level(level)), None);
    let lives = app.world().resource::<GameProgress>().lives;
    assert!(lives >= 2, "the rules give {lives} lives");
    update_until(&mut app, "the first card", 600, |app| {
        texts(app).contains(&format!("× {lives}"))
    });
    update_until(&mut app, "the card after the first death", 1200, |app| {
        texts(app).contains(&format!("× {}", lives - 1))
    });
    assert!(app.world().resource::<Heard>().0.contains(&"die"));
    app.world_mut().resource_mut::<GameProgress>().lives = 1;
    update_until(&mut app, "game over", 1200, |app| screen(app) == Screen::GameOver);
    app.update();
    assert!(
        texts(&mut app).iter().any(|t| t == "GAME OVER"),
        "{:#?}",
        texts(&mut app)
    );
    assert!(app.world().resource::<Heard>().0.contains(&"game_over"));
}

#[test]
fn pausing_plays_the_pause_jingle_and_shows_the_menu() {
    let mut app = offscreen(
        Some(file_level(write_level("pause_jingle", &FLAT, &[]))),
        Some(Replay::default()),
    );
    wait_for_play(&mut app);
    assert_eq!(times_heard(&app, "pause"), 0);
    tap(&mut app, KeyCode::Escape);
    assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Paused);
    assert_eq!(times_heard(&app, "pause"), 1);
    assert!(texts(&mut app).iter().any(|t| t == "PAUSED"));
    // Resuming plays nothing.
    tap(&mut app, KeyCode::Escape);
    assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Running);
    assert_eq!(times_heard(&app, "pause"), 1);
}

#[test]
fn the_flagpole_plays_its_fanfare_brings_its_flag_down_and_the_level_complete_screen_follows() {
    let level = write_level(
        "fanfare",
        &[
            "....................",
            "....................",
            "....................",
            "..P....G............",
            "####################",
            "####################",
        ],
        &[],
    );
    let mut app = offscreen(Some(file_level(level)), Some(Replay::default().hold(600, "R")));
    wait_for_play(&mut app);
    assert_eq!(flag_height(&mut app), GoalFlag::TOP, "the flag flies at the top");
    update_until(&mut app, "the flagpole", 600, |app| {
        player(app).status == PlayerStatus::Finished
    });
    app.update();
    assert_eq!(music(&app), None, "the music plays on at the flagpole");
    // The flag comes down the pole at the slide's speed (118 px in 40 frames) and stays down.
    let taken_at = flag_height(&mut app);
    assert!(
        taken_at > 140.0,
        "the flag came down before the pole was taken: {taken_at}"
    );
    for _ in 0..30 {
        app.update();
    }
    let coming_down = flag_height(&mut app);
    assert!(
        (40.0..130.0).contains(&coming_down),
        "half a second later the flag is at {coming_down}"
    );
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(
        flag_height(&mut app),
        GoalFlag::LOWEST,
        "the flag is not down on the base block"
    );
    update_until(&mut app, "the level complete screen", 3000, |app| {
        screen(app) == Screen::LevelComplete
    });
    let heard = &app.world().resource::<Heard>().0;
    assert!(heard.contains(&"flagpole"), "{heard:?}");
    assert!(heard.contains(&"level_complete"), "{heard:?}");
    app.update();
    assert!(
        texts(&mut app).iter().any(|t| t == "LEVEL COMPLETE"),
        "{:#?}",
        texts(&mut app)
    );
}

/// The height of the goal flag's top above the pole's base.
fn flag_height(app: &mut App) -> f32 {
    let world = app.world_mut();
    let flag = world.query_filtered::<&Transform, With<GoalFlag>>().single(world);
    flag.expect("one goal flag").translation.y
}

#[test]
fn the_music_follows_the_play_hurried_at_100_seconds_star_tune_and_silence_on_death() {
    let level = write_level(
        "music",
        &[
            "....................",
            "....................",
            "....................",
            "..P.................",
            "####....############",
            "####....############",
        ],
        &[],
    );
    // Standing still for 4 s, then walking right into the pit.
    let replay = Replay::default().hold(240, "").hold(300, "R");
    let mut app = offscreen(Some(file_level(level)), Some(replay));
    wait_for_play(&mut app);
    assert_eq!(
        music(&app),
        Some(Tune {
            name: "music_overworld",
            hurried: false
        })
    );
    app.world_mut().resource_mut::<LevelClock>().left = 100.2;
    update_until(&mut app, "the hurried music", 30, |app| {
        music(app).is_some_and(|t| t.hurried)
    });
    assert_eq!(music(&app).map(|t| t.name), Some("music_overworld"));
    {
        let world = app.world_mut();
        world.query::<&mut Player>().single_mut(world).unwrap().star = 2.0;
    }
    app.update();
    assert_eq!(music(&app).map(|t| t.name), Some("music_star"));
    update_until(&mut app, "the end of star power", 200, |app| {
        music(app).map(|t| t.name) == Some("music_overworld")
    });
    // Into the pit: the music stops while the player dies, and comes back with the next attempt.
    assert!(
        app.world().resource::<LevelClock>().steps < 240,
        "the walk began too early"
    );
    update_until(&mut app, "the death", 300, |app| {
        matches!(player(app).status, PlayerStatus::Dying(_))
    });
    assert_eq!(music(&app), None);
    update_until(&mut app, "the next attempt", 600, |app| {
        player(app).status == PlayerStatus::Alive
    });
    app.update();
    assert_eq!(music(&app).map(|t| t.name), Some("music_overworld"));
}

/// Each character of `text` that is not in the font's character map.
fn missing_glyphs(face: &ttf_parser::Face, text: &str) -> BTreeSet<char> {
    text.chars()
        .filter(|c| *c != '\n' && face.glyph_index(*c).is_none())
        .collect()
}

#[test]
fn every_text_the_screens_print_has_its_glyphs_in_the_pixel_font() {
    let font_file = root().assets().join("fonts/pixel.ttf");
    let data = std::fs::read(&font_file).unwrap_or_else(|e| panic!("{}: {e}", font_file.display()));
    let face = ttf_parser::Face::parse(&data, 0).unwrap_or_else(|e| panic!("{}: {e}", font_file.display()));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut look = |app: &mut App| seen.extend(texts(app));

    // The title in both feels, then every level in turn: its lives card, the HUD, the pause menu,
    // its level-complete screen, then game over.
    let mut app = offscreen(None, None);
    app.update();
    look(&mut app);
    tap(&mut app, KeyCode::KeyF);
    look(&mut app);
    tap(&mut app, KeyCode::Space);
    for level in 0..BUILTIN_LEVELS.len() {
        update_until(&mut app, &format!("level {level}'s card"), 600, |app| {
            app.world().resource::<CurrentLevel>().source == LevelSource::Builtin(level)
                && texts(app).iter().any(|t| t.starts_with("WORLD") && t.contains("  "))
        });
        app.update();
        look(&mut app);
        update_until(&mut app, "the end of the card", 300, |app| {
            !texts(app).iter().any(|t| t.starts_with("WORLD"))
        });
        if level == 0 {
            tap(&mut app, KeyCode::Escape);
            look(&mut app);
            tap(&mut app, KeyCode::Escape);
        }
        app.world_mut().resource_mut::<RunOutcome>().level_done = true;
        update_until(&mut app, "the level complete screen", 10, |app| {
            screen(app) == Screen::LevelComplete
        });
        app.update();
        look(&mut app);
        update_until(&mut app, "the next level", 1200, |app| {
            screen(app) != Screen::LevelComplete
        });
    }
    assert_eq!(screen(&app), Screen::Title, "after the last level");
    app.world_mut().insert_resource(NextState::Pending(Screen::Playing));
    update_until(&mut app, "play", 600, |app| screen(app) == Screen::Playing);
    app.world_mut().resource_mut::<RunOutcome>().game_over = true;
    update_until(&mut app, "game over", 10, |app| screen(app) == Screen::GameOver);
    app.update();
    look(&mut app);

    let all: String = seen.iter().flat_map(|t| t.chars()).collect();
    for expected in [
        "YOU WIN!",
        "WORLD 1 CLEAR",
        "1-1 COMPLETE",
        "GAME OVER",
        "PAUSED",
        "TIME",
        "Feel: Classic",
    ] {
        assert!(
            seen.iter().any(|t| t.contains(expected)),
            "never saw {expected:?}: {seen:#?}"
        );
    }
    // Pop-ups: every award of the rules.
    let rules = &app.world().resource::<slope_bros::tuning::Tuning>().rules;
    let awards: String = (0..=rules.chain_scores.len())
        .map(|i| slope_bros::gameplay::run::scoring::Award::of_chain(rules, i).label())
        .collect();
    let missing = missing_glyphs(&face, &(all + &awards));
    assert!(missing.is_empty(), "{} lacks {missing:?}", font_file.display());
}

#[test]
fn the_font_check_finds_a_character_the_font_lacks() {
    let font_file = root().assets().join("fonts/pixel.ttf");
    let data = std::fs::read(&font_file).unwrap();
    let face = ttf_parser::Face::parse(&data, 0).unwrap();
    assert_eq!(missing_glyphs(&face, "SCORE 0123 × …"), BTreeSet::new());
    assert_eq!(missing_glyphs(&face, "日本 ok"), BTreeSet::from(['日', '本']));
}

/// The picture the player's sprite shows: the sheet's frame height, and where its bottom is.
fn player_picture(app: &mut App) -> (f32, f32, ObjectRect, f32) {
    let assets = app.world().resource::<GameAssets>().clone();
    let world = app.world_mut();
    let (sprite, anchor, transform, collider, rect) = world
        .query_filtered::<(&Sprite, &Anchor, &Transform, &Collider, &ObjectRect), With<Player>>()
        .single(world)
        .expect("one player");
    let layout = &sprite
        .texture_atlas
        .as_ref()
        .expect("the player is drawn from a sheet")
        .layout;
    let height = if *layout == assets.player_small.layout {
        16.0
    } else if *layout == assets.player_big.layout || *layout == assets.player_fire.layout {
        32.0
    } else {
        panic!("the player is drawn with another sheet")
    };
    let bottom = transform.translation.y - (anchor.0.y + 0.5) * height;
    let collider_bottom = transform.translation.y - collider.size.y / 2.0;
    (height, bottom, *rect, collider_bottom)
}

#[test]
fn growing_and_shrinking_flicker_between_the_two_pictures_and_the_object_rect_follows() {
    // A walker comes from the right once the player is big.
    let level = write_level(
        "grow_flicker",
        &[
            "..............................",
            "..............................",
            "..............................",
            "..P...........................",
            "##############################",
            "##############################",
        ],
        &[Placed {
            identifier: "Walker",
            cell: IVec2::new(14, 3),
            cells: IVec2::ONE,
            fields: vec![],
        }],
    );
    let mut app = offscreen(Some(file_level(level)), Some(Replay::default()));
    wait_for_play(&mut app);
    let feet = platformer_tests::game::player_feet(&mut app);
    app.world_mut()
        .run_system_once(move |mut commands: Commands| {
            spawn_power_up(&mut commands, PowerUpKind::Mushroom, feet, 1.0, 0.0);
        })
        .unwrap();
    // Frame by frame: the picture's height, each one standing on the collider's bottom, with
    // its object rect the same size and place.
    let mut heights = Vec::new();
    for _ in 0..60 {
        app.update();
        let (height, bottom, rect, collider_bottom) = player_picture(&mut app);
        assert!(
            (bottom - collider_bottom).abs() < 0.01,
            "the picture floats: {bottom} vs {collider_bottom}"
        );
        assert_eq!(
            rect.size,
            Vec2::new(16.0, height),
            "the object rect is not the picture's size"
        );
        let collider_height = {
            let world = app.world_mut();
            world
                .query_filtered::<&Collider, With<Player>>()
                .single(world)
                .unwrap()
                .size
                .y
        };
        assert_eq!(
            rect.offset.y - height / 2.0,
            -collider_height / 2.0,
            "the object rect is not at the feet"
        );
        heights.push(height);
    }
    assert_eq!(player(&mut app).form, Form::Big);
    let switches = heights.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches >= 4, "growing: {heights:?}");
    assert!(
        heights[40..].iter().all(|h| *h == 32.0),
        "growing ends big: {heights:?}"
    );
    // The walker hurts the player: small again, flickering the other way.
    let mut heights = Vec::new();
    update_until(&mut app, "the walker's hit", 900, |app| player(app).form == Form::Small);
    for _ in 0..60 {
        heights.push(player_picture(&mut app).0);
        app.update();
    }
    let switches = heights.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(switches >= 4, "shrinking: {heights:?}");
    assert!(
        heights[40..].iter().all(|h| *h == 16.0),
        "shrinking ends small: {heights:?}"
    );
}

#[test]
fn a_rising_power_up_is_drawn_out_of_its_block_from_behind_it() {
    let mut app = offscreen(
        Some(file_level(write_level("rising_picture", &FLAT, &[]))),
        Some(Replay::default()),
    );
    wait_for_play(&mut app);
    // On the ground (the top of a block) ten tiles right of the player.
    let feet = platformer_tests::game::player_feet(&mut app) + Vec2::X * 160.0;
    app.world_mut()
        .run_system_once(move |mut commands: Commands| {
            spawn_power_up(&mut commands, PowerUpKind::Mushroom, feet, 1.0, 0.6);
        })
        .unwrap();
    let mut bottoms = Vec::new();
    loop {
        app.update();
        let world = app.world_mut();
        let Some((transform, anchor, rising)) = world
            .query_filtered::<(&Transform, &Anchor, Option<&Rising>), With<Sprite>>()
            .iter(world)
            .find(|(t, ..)| (t.translation.x - feet.x).abs() < 8.0 && t.translation.y > feet.y)
        else {
            panic!("the power-up has no sprite");
        };
        // The sprite is 16 px high.
        let bottom = transform.translation.y - (anchor.0.y + 0.5) * 16.0;
        if rising.is_none() {
            assert!(
                (bottom - feet.y).abs() < 0.01,
                "out of its block, it stands on it: {bottom}"
            );
            assert_eq!(transform.translation.z, draw_order::ITEMS, "out, it is drawn in front");
            break;
        }
        assert!(
            transform.translation.z < draw_order::TILES,
            "rising, it is drawn behind the block"
        );
        assert!(
            (transform.translation.y - POWER_UP_SIZE.y / 2.0 - feet.y).abs() < 0.01,
            "the body waits where it will stand"
        );
        bottoms.push(bottom - feet.y);
        assert!(bottoms.len() < 60, "still rising after a second");
    }
    assert!(bottoms[0] < -14.0, "it appears inside the block: {bottoms:?}");
    assert!(
        bottoms.windows(2).all(|w| w[1] > w[0]),
        "it rises steadily: {bottoms:?}"
    );
    assert!(bottoms.len() >= 30, "the rise takes 0.6 s: {bottoms:?}");
}
