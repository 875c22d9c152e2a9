//! Every way a contestant can go wrong is a status on its runs, and the harness goes on to
//! the next case.

use super::util::{measured, run_fixtures};

#[test]
fn each_failure_has_its_status_and_the_run_goes_on() {
    let (out, results) = run_fixtures(&[
        "--contestant",
        "fixture-crash,fixture-hang,fixture-garbage,fixture-wrong,fixture-fail,fixture-na,fixture-honest",
        "--scenario",
        "spawn,yield",
        "--tasks",
        "10",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--timeout",
        "1s",
    ]);
    let status = |contestant: &str| -> Vec<String> {
        measured(&results, contestant)
            .iter()
            .map(|r| r["status"].as_str().unwrap().to_string())
            .collect()
    };
    // Two scenarios × two runs, except where the first answer stops the case; a case with
    // no valid run stops at its minimum (2), the honest one alternates memory and time
    // processes (2 of each for -r 2).
    assert_eq!(status("fixture-crash"), ["crashed"; 4]);
    assert_eq!(status("fixture-garbage"), ["bad_output"; 4]);
    assert_eq!(status("fixture-wrong"), ["wrong_checksum"; 4]);
    assert_eq!(status("fixture-fail"), ["failed"; 4]);
    assert_eq!(
        status("fixture-hang"),
        ["timeout"; 2],
        "a timeout stops its case"
    );
    assert_eq!(
        status("fixture-na"),
        ["not_implemented"; 2],
        "n/a is asked once per case"
    );
    assert_eq!(status("fixture-honest"), ["ok"; 8]);

    let crash = measured(&results, "fixture-crash")[0];
    assert_eq!(crash["signal"], libc_sigsegv());
    assert!(
        crash["figures"]["stderr_tail"]
            .as_str()
            .unwrap()
            .contains("crashing on purpose")
    );
    // Rounds run in a shuffled order, so pick the spawn case's record by name.
    let wrong = measured(&results, "fixture-wrong")
        .into_iter()
        .find(|r| r["scenario"] == "spawn")
        .unwrap();
    assert_eq!(
        (wrong["expected"].as_u64(), wrong["got"].as_u64()),
        (Some(45), Some(46))
    );

    // Invalid runs are never averaged: only the honest contestant has a valid row.
    for point in results["points"].as_array().unwrap() {
        let rows = point["rows"].as_array().unwrap();
        let valid: Vec<&str> = rows
            .iter()
            .filter(|r| r["outcome"] == "valid")
            .map(|r| r["contestant"].as_str().unwrap())
            .collect();
        assert_eq!(valid, ["fixture-honest"]);
        assert_eq!(
            rows[0]["contestant"], "fixture-honest",
            "the valid row comes first"
        );
    }

    // Every run reached runs.jsonl as it finished, and the exports were written.
    let log = std::fs::read_to_string(out.path().join("runs.jsonl")).unwrap();
    assert_eq!(
        log.lines().count(),
        results["runs"].as_array().unwrap().len()
    );
    let md = std::fs::read_to_string(out.path().join("results.md")).unwrap();
    assert!(
        md.contains("crashed (SIGSEGV)") && md.contains("timeout") && md.contains("n/a"),
        "{md}"
    );
    let csv = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    assert_eq!(
        csv.lines().count(),
        log.lines().count() + 1,
        "one CSV row per run"
    );
}

fn libc_sigsegv() -> i32 {
    11
}

#[test]
fn a_runtime_that_cannot_start_is_unavailable_with_its_reason() {
    let (_out, results) = run_fixtures(&[
        "--contestant",
        "fixture-cannot-start,fixture-honest",
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "--runs",
        "1",
        "--warmup",
        "0",
    ]);
    let contestants = results["contestants"].as_array().unwrap();
    let broken = contestants
        .iter()
        .find(|c| c["name"] == "fixture-cannot-start")
        .unwrap();
    let reason = broken["unavailable"].as_str().unwrap();
    assert!(
        reason.starts_with("cannot start") && reason.contains("io_uring is disabled"),
        "{reason}"
    );
    assert!(
        measured(&results, "fixture-cannot-start").is_empty(),
        "it is never run"
    );
    assert_eq!(
        measured(&results, "fixture-honest").len(),
        2,
        "the others go on: one memory and one time process"
    );
}
