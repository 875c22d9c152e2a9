//! Command-line entry point; everything lives in the library so that it can be tested.

fn main() -> std::process::ExitCode {
    let code = taskbench::main();
    // A run stopped by SIGINT, SIGTERM or SIGHUP has written what it had: 130, 143 or 129,
    // as a shell reports a command killed by the signal.
    match taskbench::run::interrupt::exit_code() {
        Some(status) => std::process::ExitCode::from(status),
        None => code,
    }
}
