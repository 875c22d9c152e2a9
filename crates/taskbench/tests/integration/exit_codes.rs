//! The exit status by case, as a script reads it (docs/USAGE.md, "Exit codes"): 2 for a bad
//! flag or value, 3 when there is nothing to compare with. A regression's 1 and a gate's 0
//! are checked where runs are measured (gate.rs), as is 3 for a name the store does not hold.

use super::util::{QUICK, output_within, stderr, taskbench_within};
use std::process::{Command, Output};

/// `taskbench ARGS` with `TASKBENCH_STORE` set to `store`.
fn with_store(store: &str, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
    command.env("TASKBENCH_STORE", store).args(args);
    output_within(&mut command, QUICK).unwrap()
}

fn assert_code(output: &Output, code: i32, says: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{err}");
    assert!(err.contains(says), "expected '{says}' in: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "bad input is one line: {err}"
    );
}

#[test]
fn usage_and_input_errors_exit_2() {
    assert_code(
        &taskbench_within(&["run", "--frobnicate"], QUICK),
        2,
        "--frobnicate",
    );
    // clap's error with its tip, in one line.
    assert_code(
        &taskbench_within(&["run", "--warm", "1"], QUICK),
        2,
        "a similar argument exists: '--warmup'",
    );
    assert_code(
        &taskbench_within(&["run", "--timeout", "soon"], QUICK),
        2,
        "--timeout",
    );
    assert_code(&taskbench_within(&["frobnicate"], QUICK), 2, "frobnicate");
    assert_code(
        &taskbench_within(&["run", "--scenario", "nap"], QUICK),
        2,
        "unknown scenario 'nap'",
    );
    let missing = tempfile::tempdir().unwrap();
    let gone = missing.path().join("gone");
    let bad_folder = taskbench_within(&["--contestants", gone.to_str().unwrap(), "list"], QUICK);
    assert_code(&bad_folder, 2, "--contestants");
    assert_eq!(
        stderr(&bad_folder).lines().count(),
        1,
        "{}",
        stderr(&bad_folder)
    );
    assert_code(
        &taskbench_within(&["show", gone.to_str().unwrap()], QUICK),
        2,
        "gone",
    );
}

#[test]
fn nothing_to_compare_with_exits_3() {
    let scratch = tempfile::tempdir().unwrap();
    let absent = scratch.path().join("absent.sqlite");
    let absent = absent.to_str().unwrap();
    let gate = ["--fail-if-slower", "5%"];
    let args = |base: &'static str| [&["compare", base, "last"][..], &gate].concat();
    assert_code(
        &with_store(absent, &args("main")),
        3,
        "there is no store at",
    );
    // A fork's pull request: the secret is absent, the variable set but empty.
    assert_code(&with_store("", &args("main")), 3, "is empty");
    assert_code(
        &with_store("postgres://nobody@127.0.0.1:1/x", &args("main")),
        3,
        "cannot open the store",
    );
}
