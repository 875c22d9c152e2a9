//! `run --instructions`: each case counted under valgrind (or perf where the kernel allows
//! it), one iteration's count repeating run after run; the count in the table, the CSV
//! and BMF; and `compare --fail-if-more-instructions` passing the same work and failing
//! 10 % more of it. Skipped, with the reason printed, only where neither counter is
//! installed (.ci/run installs valgrind, and fails the test without it).

use super::session::fixture_contestants;
use super::util::{QUICK, output_within, read_json, skip, stderr, taskbench, taskbench_within};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Runs `fixture-x` spinning `thousands` per iteration, counted, into a fresh folder.
fn counted(thousands: u32) -> tempfile::TempDir {
    let contestants = fixture_contestants(&[("x", &format!("spin-{thousands}"))]);
    let out = tempfile::tempdir().unwrap();
    let bmf = out.path().join("bmf.json");
    let run = taskbench(&[
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--no-store",
        "--instructions",
        "--out",
        out.path().to_str().unwrap(),
        "--scenario",
        "spawn",
        "--tasks",
        "1000",
        "-r",
        "2",
        "-w",
        "0",
        "--export-bmf",
        bmf.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    out
}

/// One iteration's count of fixture-x in `dir`'s results.
fn iteration(dir: &Path) -> f64 {
    let results = read_json(&dir.join("results.json"));
    let row = &results["points"][0]["rows"][0];
    assert_eq!(row["contestant"], "fixture-x");
    row["instructions"]["iteration"]
        .as_f64()
        .unwrap_or_else(|| panic!("no count: {row}"))
}

#[test]
fn instructions_repeat_show_everywhere_and_gate_a_regression() {
    let perf = output_within(
        Command::new("perf").args(["stat", "-e", "instructions:u", "true"]),
        Duration::from_secs(30),
    );
    let valgrind = output_within(Command::new("valgrind").arg("--version"), QUICK);
    if !valgrind.as_ref().is_ok_and(|o| o.status.success())
        && !perf.as_ref().is_ok_and(|o| o.status.success())
    {
        return skip("neither valgrind nor perf is installed; apt-get install valgrind");
    }
    let (base, again, more) = (counted(100), counted(100), counted(110));
    // The same work counts the same (perf, where it counts, may move by a few hundred).
    let (a, b, c) = (
        iteration(base.path()),
        iteration(again.path()),
        iteration(more.path()),
    );
    assert!(a > 100_000.0, "{a}: 100k additions take more instructions");
    assert!((b / a - 1.0).abs() < 0.001, "{a} then {b}");
    // 10k more additions per iteration: at least 10k more instructions.
    assert!(c - a >= 10_000.0, "{a} → {c}");

    let results = read_json(&base.path().join("results.json"));
    let row = &results["points"][0]["rows"][0];
    assert!(
        row["instructions"]["counter"]
            .as_str()
            .unwrap()
            .contains("cachegrind")
            || row["instructions"]["counter"]
                .as_str()
                .unwrap()
                .contains("perf")
    );
    assert!(
        row["instructions"]["per_task"].as_f64().unwrap() > 100.0,
        "{row}"
    );
    // Counted runs are in the log and the CSV, apart from the measured ones.
    let counted_runs = results["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["phase"] == "counted")
        .count();
    assert_eq!(counted_runs, 2);
    let csv = std::fs::read_to_string(base.path().join("results.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",instructions,counter")
    );
    assert!(csv.contains(",counted,"), "{csv}");
    let markdown = std::fs::read_to_string(base.path().join("results.md")).unwrap();
    assert!(markdown.contains("instructions"), "{markdown}");
    let bmf = read_json(&base.path().join("bmf.json"));
    let measures = bmf.as_object().unwrap().values().next().unwrap();
    assert_eq!(measures["instructions"]["value"].as_f64(), Some(a));

    // The gate: the same count passes, 10 % more fails naming the case.
    let compare = |new: &tempfile::TempDir| {
        taskbench_within(
            &[
                "compare",
                base.path().to_str().unwrap(),
                new.path().to_str().unwrap(),
                "--fail-if-more-instructions",
                "5%",
            ],
            QUICK,
        )
    };
    let same = compare(&again);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let gated = compare(&more);
    assert_eq!(gated.status.code(), Some(1), "{}", stderr(&gated));
    assert!(
        stderr(&gated).contains("spawn tasks=1000 · fixture-x: more instructions by"),
        "{}",
        stderr(&gated)
    );
    assert!(String::from_utf8_lossy(&gated.stdout).contains("instructions"));
}
