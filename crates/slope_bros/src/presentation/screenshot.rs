//! `--screenshot out.png --frames N`: saves what the window shows after N frames, then exits.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// Take one screenshot.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotRequest {
    /// Where to save it.
    pub path: PathBuf,
    /// After this many frames.
    pub after_frames: u64,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, take_screenshot.run_if(resource_exists::<ScreenshotRequest>));
}

fn take_screenshot(
    mut commands: Commands,
    request: Res<ScreenshotRequest>,
    mut frames: Local<u64>,
    mut saved: Local<Option<Arc<AtomicBool>>>,
    mut exit: MessageWriter<AppExit>,
) {
    *frames += 1;
    if let Some(done) = saved.as_ref() {
        if done.load(Ordering::Acquire) {
            info!("saved the screenshot {}", request.path.display());
            exit.write(AppExit::Success);
        } else if *frames > request.after_frames + 600 {
            error!("the screenshot {} was not captured", request.path.display());
            exit.write(AppExit::error());
        }
        return;
    }
    if *frames == request.after_frames {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(request.path.clone()))
            .observe(move |_: On<ScreenshotCaptured>| flag.store(true, Ordering::Release));
        *saved = Some(done);
    }
}
