//! The unit tests' binary is a launcher too: contestant/command.rs runs every command
//! through `current_exe() __launch …`, which in `cargo test` is the test binary, whose `main`
//! is the test runner's. This hook runs before it and becomes the launcher when asked.

/// Runs before `main` (and before the test runner parses its arguments): when the process
/// was started as `… __launch PROGRAM ARGS…`, it is the launcher and never returns.
extern "C" fn launch_if_asked() {
    // /proc, not std::env::args: the standard library may not have read them yet.
    let Ok(cmdline) = std::fs::read("/proc/self/cmdline") else {
        return;
    };
    let args: Vec<std::ffi::OsString> = cmdline
        .split(|&b| b == 0)
        .map(|a| <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(a).to_os_string())
        .collect();
    if args
        .get(1)
        .is_some_and(|a| a == crate::measure::launcher::LAUNCH_ARG)
    {
        // The trailing NUL leaves one empty argument at the end.
        let end = args.len() - usize::from(args.last().is_some_and(|a| a.is_empty()));
        crate::measure::launcher::main(&args[2..end]);
    }
}

#[used]
#[unsafe(link_section = ".init_array")]
static LAUNCH_IF_ASKED: extern "C" fn() = launch_if_asked;
