//! Command-line options.

use std::path::PathBuf;

use crate::gameplay::player::Form;
use crate::tuning::Feel;
use bevy::math::Vec2;

/// Usage text.
pub const USAGE: &str = "\
slope_bros — a Mario-like sample game on bevy_platformer_physics

USAGE:
    slope_bros [OPTIONS]

OPTIONS:
    --level <NAME|PATH>     play this level: overworld, underground, sky, castle, hills, caverns,
                            skyway, fortress, or any .ldtk file
    --mapping <FILE>        physics mapping (RON) for a foreign .ldtk file
    --start <X,Y>           start the player's feet here (world px) instead of the Player entity
    --feel <modern|classic> how the player moves: the game's own feel (default) or Super Mario Bros.'s
    --power-up <small|big|fire>  start the game in this form (default small)
    --record <FILE.ron>     write the session's input as a replay when the game exits
    --headless              run the game rules without a window (needs --frames)
    --replay <FILE.ron>     drive the player with a recorded replay
    --frames <N>            headless: steps to run (stops early at the goal); windowed: see --screenshot
    --trace <FILE.csv>      headless: write the player's state at every step
    --screenshot <FILE.png> windowed: save what the window shows after --frames frames, then exit
                            (one game step per frame: frame N shows step N of a replay)
    --autopilot <FILE.ron>  plan a replay that reaches the level's goal (headless) and write it
                            (with --replay: starting from that replay, as far as it stays alive)
    -h, --help              this text
";

/// Parsed options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// `--level`.
    pub level: Option<String>,
    /// `--mapping`.
    pub mapping: Option<PathBuf>,
    /// `--start`.
    pub start: Option<Vec2>,
    /// `--feel`.
    pub feel: Option<Feel>,
    /// `--power-up`.
    pub power_up: Option<Form>,
    /// `--record`.
    pub record: Option<PathBuf>,
    /// `--headless`.
    pub headless: bool,
    /// `--replay`.
    pub replay: Option<PathBuf>,
    /// `--frames`.
    pub frames: Option<u64>,
    /// `--trace`.
    pub trace: Option<PathBuf>,
    /// `--screenshot`.
    pub screenshot: Option<PathBuf>,
    /// `--autopilot`.
    pub autopilot: Option<PathBuf>,
    /// `--help`.
    pub help: bool,
}

impl Options {
    /// Parses arguments (without the program name). Errors name the option.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut options = Options::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"));
            match arg.as_str() {
                "--level" => options.level = Some(value("--level")?),
                "--mapping" => options.mapping = Some(value("--mapping")?.into()),
                "--start" => {
                    let text = value("--start")?;
                    options.start = Some(parse_point(&text).ok_or_else(|| {
                        format!("--start takes X,Y in world pixels (for example 40,32), not {text:?}")
                    })?);
                }
                "--feel" => {
                    let text = value("--feel")?;
                    options.feel = Some(
                        Feel::parse(&text).ok_or_else(|| format!("--feel takes modern or classic, not {text:?}"))?,
                    );
                }
                "--power-up" => {
                    let text = value("--power-up")?;
                    options.power_up = Some(
                        Form::parse(&text)
                            .ok_or_else(|| format!("--power-up takes small, big or fire, not {text:?}"))?,
                    );
                }
                "--record" => options.record = Some(value("--record")?.into()),
                "--headless" => options.headless = true,
                "--replay" => options.replay = Some(value("--replay")?.into()),
                "--frames" => {
                    let text = value("--frames")?;
                    options.frames = Some(
                        text.parse()
                            .map_err(|_| format!("--frames takes a whole number of steps, not {text:?}"))?,
                    );
                }
                "--trace" => options.trace = Some(value("--trace")?.into()),
                "--screenshot" => options.screenshot = Some(value("--screenshot")?.into()),
                "--autopilot" => options.autopilot = Some(value("--autopilot")?.into()),
                "-h" | "--help" => options.help = true,
                other => return Err(format!("unknown option {other:?}\n\n{USAGE}")),
            }
        }
        if options.headless && options.frames.is_none() {
            return Err("--headless needs --frames N (the number of steps to run)".to_string());
        }
        if options.headless && options.screenshot.is_some() {
            return Err("--screenshot needs a window; leave out --headless".to_string());
        }
        Ok(options)
    }
}

fn parse_point(text: &str) -> Option<Vec2> {
    let (x, y) = text.split_once(',')?;
    let point = Vec2::new(x.trim().parse().ok()?, y.trim().parse().ok()?);
    point.is_finite().then_some(point)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn headless_options_parse() {
        let options = parse(&[
            "--headless",
            "--level",
            "sky",
            "--replay",
            "r.ron",
            "--frames",
            "600",
            "--trace",
            "t.csv",
            "--start",
            "40, 32",
            "--power-up",
            "fire",
        ])
        .unwrap();
        assert!(options.headless);
        assert_eq!(options.level.as_deref(), Some("sky"));
        assert_eq!(options.frames, Some(600));
        assert_eq!(options.start, Some(Vec2::new(40.0, 32.0)));
        assert_eq!(options.power_up, Some(Form::Fire));
    }

    #[test]
    fn the_usage_names_every_level_of_the_game() {
        for level in crate::level::BUILTIN_LEVELS {
            assert!(USAGE.contains(level), "{level} is missing from the usage");
        }
    }

    #[test]
    fn bad_options_are_named() {
        assert!(parse(&["--frames", "many"]).unwrap_err().contains("--frames"));
        assert!(parse(&["--start", "1;2"]).unwrap_err().contains("--start"));
        let error = parse(&["--power-up", "huge"]).unwrap_err();
        assert!(error.contains("--power-up") && error.contains("huge"), "{error}");
        assert!(parse(&["--fly"]).unwrap_err().contains("--fly"));
        assert!(parse(&["--level"]).unwrap_err().contains("--level needs a value"));
        assert!(parse(&["--headless"]).unwrap_err().contains("--frames"));
    }
}
