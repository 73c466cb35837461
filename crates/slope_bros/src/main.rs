//! `slope_bros`: plays the game, or runs it headless (see `--help`).

fn main() -> std::process::ExitCode {
    slope_bros::harness::launch::run_command_line()
}
