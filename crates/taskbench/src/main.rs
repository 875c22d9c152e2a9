//! Command-line entry point; everything lives in the library so that it can be tested.

fn main() -> std::process::ExitCode {
    let code = taskbench::main();
    // A run stopped by SIGINT, SIGTERM, SIGHUP or a closed stdout (SIGPIPE) has written what
    // it had: 130, 143, 129 or 141, as a shell reports a command killed by the signal.
    match run::interrupt::exit_code() {
        Some(status) => std::process::ExitCode::from(status),
        None => code,
    }
}
