//! Variants fetched from a registry (contestant/variant): a Go release the module proxy
//! does not have is one line and the run goes on; a real older Go release is fetched,
//! builds the Go contestant and runs it validly, its version read back from the binary.

use super::util::{DEADLINE, read_json, skip, stderr, taskbench_within};
use std::process::Command;

/// Whether the machine's `go` runs (the Go contestant's toolchain).
fn go_here() -> bool {
    let found = Command::new("go").arg("version").output();
    if !found.is_ok_and(|o| o.status.success()) {
        skip("no `go` on the PATH: install Go 1.26 from go.dev");
        return false;
    }
    true
}

/// `taskbench run -c LINEUP` of spawn and pingpong at small sizes into `out`, its header
/// printed unless `quiet`.
pub(super) fn run_small(lineup: &str, out: &std::path::Path, quiet: bool) -> std::process::Output {
    let mut args = vec![
        "run",
        "--out",
        out.to_str().unwrap(),
        "-c",
        lineup,
        "--scenario",
        "spawn,pingpong",
        "--tasks",
        "100",
        "--pairs",
        "10",
        "--rounds",
        "10",
        "-r",
        "2",
        "-w",
        "0",
    ];
    if quiet {
        args.push("--quiet");
    }
    taskbench_within(&args, DEADLINE)
}

/// `run_small` of `lineup`, quietly, which must succeed: its results.json.
pub(super) fn ran_small(lineup: &str, out: &std::path::Path) -> serde_json::Value {
    let run = run_small(lineup, out, true);
    assert!(run.status.success(), "{}", stderr(&run));
    read_json(&out.join("results.json"))
}

/// The version read back for contestant `name`, which must have been available.
pub(super) fn version_of<'a>(results: &'a serde_json::Value, name: &str) -> &'a str {
    let variant = contestant(results, name);
    assert!(variant["unavailable"].is_null(), "{variant}");
    variant["version"].as_str().unwrap()
}

/// The contestant `name` of results.json.
pub(super) fn contestant<'a>(results: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    results["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not among the contestants: {results}"))
}

#[test]
fn a_go_release_the_proxy_lacks_is_one_line_and_the_run_goes_on() {
    if !go_here() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let run = run_small("go,go@1.99", out.path(), false);
    assert!(run.status.success(), "{}", stderr(&run));
    // Beside its build step on stderr, one line says why it cannot run.
    let said = String::from_utf8_lossy(&run.stdout);
    let lines: Vec<&str> = said.lines().filter(|l| l.contains("go@1.99")).collect();
    assert_eq!(lines.len(), 1, "{said}");
    assert!(
        lines[0].starts_with("unavailable: go@1.99 — the Go module proxy has no Go 1.99 for"),
        "{}",
        lines[0]
    );
    let results = read_json(&out.path().join("results.json"));
    let missing = contestant(&results, "go@1.99")["unavailable"]
        .as_str()
        .unwrap();
    assert!(
        missing.starts_with("the Go module proxy has no Go 1.99"),
        "{missing}"
    );
    assert!(contestant(&results, "go")["unavailable"].is_null());
}

#[test]
fn an_older_go_release_builds_the_contestant_and_runs_it_validly() {
    if !go_here() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let results = ran_small("go@1.22", out.path());
    let version = version_of(&results, "go@1.22");
    assert!(version.starts_with("go version go1.22."), "{version}");
    assert_valid(&results, "go@1.22");
}

/// That `name` ran spawn and pingpong, both valid (every checksum checked).
pub(super) fn assert_valid(results: &serde_json::Value, name: &str) {
    let rows: Vec<&serde_json::Value> = results["points"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["rows"].as_array().unwrap())
        .filter(|r| r["contestant"] == name)
        .collect();
    assert_eq!(rows.len(), 2, "{name}: spawn and pingpong");
    for row in rows {
        assert_eq!(row["outcome"], "valid", "{row}");
    }
}
