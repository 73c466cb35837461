//! The app, assembled in one place for every run: [`windowed_app`] (a window, the screen flow,
//! pictures and sound), [`offscreen_app`] (the same windowed game with no window or GPU, for tests
//! of what a player sees and hears) and [`headless_app`] (the rules alone, one fixed step per
//! `update()`). All add [`GameCorePlugin`] (the rules and the [`Screen`] state); only the windowed
//! and offscreen apps add the live input, the screens' UI and the presentation.

use std::time::{Duration, Instant};

use bevy::image::{CompressedImageFormats, ImageLoader};
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::{ExitCondition, WindowResolution};
use bevy::winit::WinitPlugin;

use crate::GameCorePlugin;
use crate::gameplay::player::Form;
use crate::gameplay::run::progress::StartingForm;
use crate::harness::cli::Options;
use crate::harness::trace::{self, Trace};
use crate::input::replay::{Recorder, Replay, ReplayCursor};
use crate::input::{self, InputSource};
use crate::level::{self, CurrentLevel, LevelLoadError, LevelReady, LevelSource};
use crate::paths::DataRoot;
use crate::presentation::{self, ProcessStart, ScreenshotRequest};
use crate::schedule::STEPS_PER_SECOND;
use crate::screens::{self, Screen, StartLevel};
use crate::tuning::Feel;

/// The window's size in physical pixels.
const WINDOW_SIZE: (u32, u32) = (1280, 720);

/// Longest wait for a headless run's level to load before it is reported as not loading.
const HEADLESS_LOAD_LIMIT: Duration = Duration::from_secs(60);

/// An app that runs the game's rules headless, on `level`: each `update()` is one fixed step.
/// `start` replaces the level's player start; `input` is what the player presses. Returns once the
/// level is ready (or could not be loaded: [`LevelLoadError`] says why).
pub fn headless_app(root: DataRoot, level: LevelSource, start: Option<Vec2>, input: InputSource) -> App {
    headless_app_starting_as(root, level, start, input, Form::Small)
}

/// [`headless_app`] with a new game that starts in `form`.
pub fn headless_app_starting_as(
    root: DataRoot,
    level: LevelSource,
    start: Option<Vec2>,
    input: InputSource,
    form: Form,
) -> App {
    let mut app = App::new();
    level::sources::register_asset_sources(&mut app, &root);
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        AssetPlugin::default(),
        ImagePlugin::default_nearest(),
        TransformPlugin,
    ));
    // `bevy_ecs_ldtk` makes atlas layouts for the levels' entity tiles, and spawns a level once
    // its tilesets have loaded: the image loader is otherwise registered by the renderer.
    app.init_asset::<TextureAtlasLayout>();
    app.register_asset_loader(ImageLoader::new(CompressedImageFormats::empty()));
    app.add_plugins((
        GameCorePlugin {
            root,
            level,
            watch_files: false,
        },
        trace::plugin,
    ));
    app.world_mut().resource_mut::<CurrentLevel>().start_override = start;
    app.insert_resource(StartingForm(form));
    app.insert_resource(Trace::default());
    app.insert_resource(input);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    // Loads and spawns the level with the clock stopped: no fixed step runs before it is ready.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    let waiting_since = Instant::now();
    loop {
        app.update();
        let world = app.world();
        if world.resource::<LevelReady>().0 || world.resource::<LevelLoadError>().0.is_some() {
            break;
        }
        if waiting_since.elapsed() > HEADLESS_LOAD_LIMIT {
            let file = world.resource::<CurrentLevel>().source.name();
            app.world_mut().resource_mut::<LevelLoadError>().0 = Some(format!(
                "{file}: the level did not load in {} s",
                HEADLESS_LOAD_LIMIT.as_secs()
            ));
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // From now on, one fixed step per update, whatever the wall clock says: runs are deterministic.
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// The windowed game. `level` skips the title screen; `replay` plays recorded input instead of
/// the keyboard; `start` is when the process started (the log says how long after it the first
/// playable frame was shown).
pub fn windowed_app(
    root: DataRoot,
    level: Option<LevelSource>,
    replay: Option<Replay>,
    options: &Options,
    start: ProcessStart,
) -> App {
    game_app(root, level, replay, options, start, Display::Window)
}

/// The windowed game with no window and no GPU: every screen, sprite, text and sound decision of
/// [`windowed_app`] runs, and nothing is drawn or heard. Each `update()` is one frame of 1/60 s
/// and one game step. Tests use it to check what a player would see and hear; `options` are the
/// command line's (`--start`, `--power-up`, `--feel`…).
pub fn offscreen_app(root: DataRoot, level: Option<LevelSource>, replay: Option<Replay>, options: &Options) -> App {
    let mut app = game_app(root, level, replay, options, ProcessStart::now(), Display::Offscreen);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / STEPS_PER_SECOND,
    )));
    app
}

/// Where the windowed game's frames go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Display {
    /// A window, drawn by the GPU.
    Window,
    /// Nowhere: no window, no renderer.
    Offscreen,
}

fn game_app(
    root: DataRoot,
    level: Option<LevelSource>,
    replay: Option<Replay>,
    options: &Options,
    start: ProcessStart,
    display: Display,
) -> App {
    let mut app = App::new();
    app.insert_resource(start);
    let assets_folder = root.assets();
    let skip_title = level.is_some();
    let first = level.unwrap_or(LevelSource::Builtin(0));
    level::sources::register_asset_sources(&mut app, &root);
    let plugins = DefaultPlugins
        .set(AssetPlugin {
            file_path: assets_folder.display().to_string(),
            ..default()
        })
        .set(ImagePlugin::default_nearest());
    match display {
        Display::Window => app.add_plugins(plugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "Slope Bros".to_string(),
                resolution: WindowResolution::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
                ..default()
            }),
            ..default()
        })),
        Display::Offscreen => app.add_plugins(
            plugins
                .set(WindowPlugin {
                    primary_window: None,
                    exit_condition: ExitCondition::DontExit,
                    ..default()
                })
                .disable::<WinitPlugin>()
                // Tests run many apps in one process, and only one can own the global logger.
                .disable::<LogPlugin>()
                .set(RenderPlugin {
                    render_creation: WgpuSettings {
                        backends: None,
                        ..default()
                    }
                    .into(),
                    ..default()
                }),
        ),
    };
    if display == Display::Offscreen {
        // Without a GPU the renderer does not register the image loader (it asks the GPU which
        // compressed formats it reads): the images still load, as the headless app's do.
        app.register_asset_loader(ImageLoader::new(CompressedImageFormats::empty()));
    }
    if let Some(path) = &options.record {
        app.insert_resource(Recorder {
            path: path.clone(),
            level: Some(first.name()),
            frames: Vec::new(),
            feel: Feel::default(),
        });
    }
    app.add_plugins((
        GameCorePlugin {
            root,
            level: first,
            watch_files: true,
        },
        trace::plugin,
    ));
    app.world_mut().resource_mut::<CurrentLevel>().start_override = options.start;
    app.add_plugins(input::live_plugin);
    app.insert_resource(match &replay {
        Some(replay) => InputSource::Replay(ReplayCursor::new(replay)),
        None => InputSource::Live,
    });
    // The feel asked for, else the replay's.
    if let Some(feel) = options.feel.or(replay.as_ref().map(|r| r.feel)) {
        app.insert_resource(feel);
    }
    app.insert_resource(StartLevel { skip_title });
    if let Some(form) = options.power_up {
        app.insert_resource(StartingForm(form));
    }
    app.add_plugins((screens::plugin, presentation::plugin));
    if let Some(path) = &options.screenshot {
        app.insert_resource(ScreenshotRequest {
            path: path.clone(),
            after_frames: options.frames.unwrap_or(120),
        });
        // One game step per frame, however slowly the window draws: frame N shows step N of
        // the replay, on any machine.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / STEPS_PER_SECOND,
        )));
    }
    app
}

/// Opens the window and plays until it is closed.
pub fn run_windowed(
    root: DataRoot,
    level: Option<LevelSource>,
    replay: Option<Replay>,
    options: &Options,
    start: ProcessStart,
) -> Result<(), String> {
    match windowed_app(root, level, replay, options, start).run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game exited with code {code}")),
    }
}
