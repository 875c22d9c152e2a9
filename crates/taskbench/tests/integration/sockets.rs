//! The socket scenarios' safety rules, with the fixture: a contestant stuck in a socket
//! read ends as a timeout; the harness raises a contestant's open-file limit to what its
//! point holds; a point past the machine's hard limit is refused in one line.

use super::session::fixture_contestants;
use super::util::{DEADLINE, measured, output_within, read_json, with_test_store};
use std::process::{Command, Output};

/// `taskbench ARGS` started through `sh` after `limits` (`ulimit -Sn 1024`).
fn under_limits(limits: &str, args: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{limits} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_taskbench"));
    with_test_store(&mut command).args(args);
    output_within(&mut command, DEADLINE).unwrap_or_else(|e| panic!("taskbench {args:?}: {e}"))
}

/// A run of the fixtures `contestants` (name, behaviour) with `args` under `limits`: its
/// output and, if it wrote one, its results document.
fn run(
    limits: &str,
    contestants: &[(&str, &str)],
    args: &[&str],
) -> (Output, Option<serde_json::Value>) {
    let dir = fixture_contestants(contestants);
    let out = tempfile::tempdir().unwrap();
    let mut all = vec![
        "--contestants",
        dir.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
        "-w",
        "0",
    ];
    all.extend_from_slice(args);
    let output = under_limits(limits, &all);
    let path = out.path().join("results.json");
    (output, path.exists().then(|| read_json(&path)))
}

#[test]
fn a_contestant_stuck_in_a_socket_read_ends_as_a_timeout() {
    let (output, results) = run(
        "true",
        &[("hang-socket", "hang-socket")],
        &[
            "-c",
            "fixture-hang-socket",
            "-s",
            "echo",
            "--connections",
            "2",
            "--rounds",
            "1",
            "-r",
            "2",
            "--timeout",
            "1s",
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let results = results.unwrap();
    let statuses: Vec<_> = measured(&results, "fixture-hang-socket")
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(statuses, ["timeout"], "a timeout stops its case");
}

#[test]
fn the_open_file_limit_is_raised_to_what_a_socket_point_holds() {
    // Started with a soft limit of 1,024: 1,000 connections hold 2,000 descriptors and the
    // headroom; spawn holds none and keeps what it inherited.
    let (output, results) = run(
        "ulimit -Sn 1024",
        &[("nofile", "nofile")],
        &[
            "-c",
            "fixture-nofile",
            "-s",
            "connections,spawn",
            "--connections",
            "1000",
            "--tasks",
            "1",
            "-r",
            "1",
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let results = results.unwrap();
    let limit = |scenario: &str| {
        let runs = measured(&results, "fixture-nofile");
        let run = runs.iter().find(|r| r["scenario"] == scenario).unwrap();
        run["figures"]["extra"]["open_files"].as_f64().unwrap()
    };
    let needed = catalogue::Scenario::new("connections", &[("connections", 1_000)])
        .unwrap()
        .open_files()
        .unwrap();
    assert_eq!(limit("connections"), needed as f64);
    assert_eq!(limit("spawn"), 1_024.0);
}

#[test]
fn a_point_past_the_hard_open_file_limit_is_refused_in_one_line() {
    let (output, _) = run(
        "ulimit -Sn 1024 && ulimit -Hn 4096",
        &[("honest", "honest")],
        &[
            "-c",
            "fixture-honest",
            "-s",
            "connections",
            "--connections",
            "3000",
        ],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("connections=3000 holds 6256 open files")
            && stderr.contains("hard limit of 4096")
            && stderr.contains("at most 1920 connections"),
        "{stderr}"
    );
}
