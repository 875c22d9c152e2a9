//! Command-line entry point; everything lives in the library so that it can be tested.

fn main() -> std::process::ExitCode {
    taskbench::main()
}
