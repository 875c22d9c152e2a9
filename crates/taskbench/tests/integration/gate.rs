//! `taskbench compare` as a gate: a contestant made slower fails it with exit 1 and is
//! named; the same contestant run twice, or made faster, passes.

use super::session::fixture_contestants;
use super::util::{QUICK, taskbench, taskbench_within};

/// A results folder of `fixture-x` behaving as `behaviour` (it sleeps, then answers).
fn measured(behaviour: &str) -> tempfile::TempDir {
    let contestants = fixture_contestants(&[("x", behaviour)]);
    let out = tempfile::tempdir().unwrap();
    let run = taskbench(&[
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "-r",
        "4",
        "-w",
        "0",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

#[test]
fn a_slower_contestant_fails_the_gate_and_the_same_one_passes() {
    let (base, again, slower) = (
        measured("touch-1-20"),
        measured("touch-1-20"),
        measured("touch-1-80"),
    );
    let compare = |a: &tempfile::TempDir, b: &tempfile::TempDir, pct: &str| {
        taskbench_within(
            &[
                "compare",
                a.path().to_str().unwrap(),
                b.path().to_str().unwrap(),
                "--fail-if-slower",
                pct,
            ],
            QUICK,
        )
    };
    let same = compare(&base, &again, "50%");
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
    let gated = compare(&base, &slower, "5%");
    let stderr = String::from_utf8_lossy(&gated.stderr);
    assert_eq!(gated.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("spawn tasks=10 · fixture-x: slower by"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&gated.stdout).contains("slower"));
    let faster = compare(&slower, &base, "5%");
    assert_eq!(faster.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&faster.stdout).contains("faster"));
}
