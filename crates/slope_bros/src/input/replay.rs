//! Replays (recorded input) and traces (per-step player state) for tests and bug reports.
//!
//! A replay is RON: the level it was recorded on and run-length encoded input frames, each a
//! count of fixed steps and the buttons held (letters of [`InputFrame::to_letters`]):
//!
//! ```ron
//! (level: Some("overworld"), runs: [(30, ""), (120, "RB"), (12, "RBJ")])
//! ```

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::tuning::Feel;

/// The buttons held during one fixed step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Reflect)]
pub struct InputFrame {
    /// Move left.
    pub left: bool,
    /// Move right.
    pub right: bool,
    /// Up (unused by the player so far; kept in replays).
    pub up: bool,
    /// Down: with jump, drop through a one-way platform.
    pub down: bool,
    /// Jump.
    pub jump: bool,
    /// Run.
    pub run: bool,
}

impl InputFrame {
    /// Letters used in replay files, one per held button, in this order.
    pub const LETTERS: [(char, &'static str); 6] = [
        ('L', "left"),
        ('R', "right"),
        ('U', "up"),
        ('D', "down"),
        ('J', "jump"),
        ('B', "run"),
    ];

    /// The held buttons as letters (`"RJB"`); empty when nothing is held.
    pub fn to_letters(self) -> String {
        let held = [self.left, self.right, self.up, self.down, self.jump, self.run];
        Self::LETTERS
            .iter()
            .zip(held)
            .filter(|(_, on)| *on)
            .map(|((c, _), _)| *c)
            .collect()
    }

    /// Parses letters written by [`Self::to_letters`] (any order, case-insensitive, `.` ignored).
    pub fn from_letters(text: &str) -> Result<Self, String> {
        let mut frame = Self::default();
        for c in text.chars() {
            match c.to_ascii_uppercase() {
                'L' => frame.left = true,
                'R' => frame.right = true,
                'U' => frame.up = true,
                'D' => frame.down = true,
                'J' => frame.jump = true,
                'B' => frame.run = true,
                '.' | ' ' => {}
                other => {
                    return Err(format!(
                        "unknown button {other:?} in {text:?}; use L R U D J B (left right up down jump run)"
                    ));
                }
            }
        }
        Ok(frame)
    }

    /// Horizontal intent: -1, 0 or 1 (both directions cancel).
    pub fn horizontal(self) -> f32 {
        f32::from(self.right) - f32::from(self.left)
    }

    /// Buttons held in either frame.
    pub fn union(self, other: Self) -> Self {
        Self {
            left: self.left || other.left,
            right: self.right || other.right,
            up: self.up || other.up,
            down: self.down || other.down,
            jump: self.jump || other.jump,
            run: self.run || other.run,
        }
    }
}

fn is_modern(feel: &Feel) -> bool {
    *feel == Feel::Modern
}

/// A recorded input sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// The level it was recorded on (name or path), if known.
    #[serde(default)]
    pub level: Option<String>,
    /// The feel it was recorded with (modern when absent).
    #[serde(default, skip_serializing_if = "is_modern")]
    pub feel: Feel,
    /// Runs of identical frames: (steps, held buttons).
    pub runs: Vec<(u32, String)>,
}

/// A replay file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The file.
    pub file: PathBuf,
    /// What is wrong (with line and column for syntax errors).
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.message)
    }
}

impl Replay {
    /// Parses RON text and checks every run; `file` names it in errors.
    pub fn from_ron(text: &str, file: &Path) -> Result<Self, ReplayError> {
        let error = |message: String| ReplayError {
            file: file.to_path_buf(),
            message,
        };
        let replay: Replay = ron::from_str(text).map_err(|e| {
            error(format!(
                "line {}, column {}: {}",
                e.span.start.line, e.span.start.col, e.code
            ))
        })?;
        for (i, (_, letters)) in replay.runs.iter().enumerate() {
            InputFrame::from_letters(letters).map_err(|m| error(format!("run {i}: {m}")))?;
        }
        Ok(replay)
    }

    /// Reads a replay file.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        let text = std::fs::read_to_string(path).map_err(|e| ReplayError {
            file: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        Self::from_ron(&text, path)
    }

    /// Builds a replay from frames, merging equal neighbours.
    pub fn from_frames(level: Option<String>, frames: &[InputFrame]) -> Self {
        let mut runs: Vec<(u32, String)> = Vec::new();
        let mut last: Option<InputFrame> = None;
        for frame in frames {
            match runs.last_mut() {
                Some((count, _)) if last == Some(*frame) => *count += 1,
                _ => runs.push((1, frame.to_letters())),
            }
            last = Some(*frame);
        }
        Self {
            level,
            feel: Feel::Modern,
            runs,
        }
    }

    /// Appends `count` steps of `frame`.
    pub fn hold(mut self, count: u32, letters: &str) -> Self {
        self.runs.push((count, letters.to_string()));
        self
    }

    /// Steps in the replay.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|(n, _)| u64::from(*n)).sum()
    }

    /// No steps.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// RON text, one run per line.
    pub fn to_ron(&self) -> String {
        let mut text = String::from("(\n    level: ");
        match &self.level {
            Some(level) => text.push_str(&format!("Some({level:?}),\n")),
            None => text.push_str("None,\n"),
        }
        if self.feel != Feel::Modern {
            text.push_str(&format!("    feel: {:?},\n", self.feel));
        }
        text.push_str("    runs: [\n");
        for (count, letters) in &self.runs {
            text.push_str(&format!("        ({count}, {letters:?}),\n"));
        }
        text.push_str("    ],\n)\n");
        text
    }
}

/// Plays a replay back, one frame per fixed step.
#[derive(Clone, Debug, Default)]
pub struct ReplayCursor {
    runs: Vec<(u32, InputFrame)>,
    run: usize,
    used: u32,
}

impl ReplayCursor {
    /// A cursor at the start of `replay` (whose runs were checked when it was loaded; a bad run is
    /// played as nothing held).
    pub fn new(replay: &Replay) -> Self {
        Self {
            runs: replay
                .runs
                .iter()
                .map(|(n, letters)| (*n, InputFrame::from_letters(letters).unwrap_or_default()))
                .collect(),
            run: 0,
            used: 0,
        }
    }

    /// The next frame; nothing held after the end.
    pub fn next_frame(&mut self) -> InputFrame {
        while let Some((count, frame)) = self.runs.get(self.run) {
            if self.used < *count {
                self.used += 1;
                return *frame;
            }
            self.run += 1;
            self.used = 0;
        }
        InputFrame::default()
    }

    /// Every frame has been played.
    pub fn finished(&self) -> bool {
        self.runs[self.run.min(self.runs.len())..]
            .iter()
            .enumerate()
            .all(|(i, (count, _))| if i == 0 { self.used >= *count } else { *count == 0 })
    }
}

/// Records the input of a session; written to its file when the app exits.
#[derive(Resource, Clone, Debug)]
pub struct Recorder {
    /// Where to write.
    pub path: PathBuf,
    /// The level name or path.
    pub level: Option<String>,
    /// Frames so far.
    pub frames: Vec<InputFrame>,
    /// The feel played with.
    pub feel: Feel,
}

impl Recorder {
    /// Adds one step.
    pub fn push(&mut self, frame: InputFrame) {
        self.frames.push(frame);
    }

    /// Writes the replay file.
    pub fn write(&self) -> std::io::Result<()> {
        let replay = Replay {
            feel: self.feel,
            ..Replay::from_frames(self.level.clone(), &self.frames)
        };
        std::fs::write(&self.path, replay.to_ron())
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Last, write_recording_on_exit);
}

fn write_recording_on_exit(mut exits: MessageReader<AppExit>, recorder: Option<ResMut<Recorder>>, feel: Res<Feel>) {
    if exits.read().next().is_none() {
        return;
    }
    if let Some(mut recorder) = recorder {
        recorder.feel = *feel;
        match recorder.write() {
            Ok(()) => info!(
                "wrote {} steps of input to {}",
                recorder.frames.len(),
                recorder.path.display()
            ),
            Err(e) => error!("cannot write the replay {}: {e}", recorder.path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_through_ron() {
        let frames: Vec<InputFrame> = ["", "", "R", "R", "RJ", "RJB", "", "LD"]
            .iter()
            .map(|l| InputFrame::from_letters(l).unwrap())
            .collect();
        let replay = Replay::from_frames(Some("overworld".into()), &frames);
        assert_eq!(replay.runs.len(), 6, "{replay:?}");
        let parsed = Replay::from_ron(&replay.to_ron(), Path::new("t.ron")).unwrap();
        assert_eq!(parsed, replay);
        let mut cursor = ReplayCursor::new(&parsed);
        let played: Vec<InputFrame> = (0..frames.len()).map(|_| cursor.next_frame()).collect();
        assert_eq!(played, frames);
        assert!(cursor.finished());
        assert_eq!(
            cursor.next_frame(),
            InputFrame::default(),
            "nothing is held after the end"
        );
    }

    #[test]
    fn a_bad_replay_names_the_file_line_and_problem() {
        let error = Replay::from_ron("(runs: [(3, \"R\"),\n (2, ])", Path::new("bad.ron")).unwrap_err();
        assert_eq!(error.file, PathBuf::from("bad.ron"));
        assert!(error.message.contains("line 2"), "{error}");
        let error = Replay::from_ron("(runs: [(3, \"RX\")])", Path::new("bad.ron")).unwrap_err();
        assert!(
            error.message.contains("run 0") && error.message.contains("'X'"),
            "{error}"
        );
    }
}
