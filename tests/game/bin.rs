//! The game's command line, for the tests that run it as a process (`levels.rs`, `screenshot.rs`).

fn main() -> std::process::ExitCode {
    slope_bros::harness::launch::run_command_line()
}
