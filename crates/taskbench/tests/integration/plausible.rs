//! A contestant that lies about its times ends invalid, with one line saying why: one that
//! skips its sleeps, one that reports half its time, one that reports twice its time; the
//! honest one beside them stays valid.

use super::session::fixture_contestants;
use super::util::{measured, read_json, taskbench};

/// Fixture name, behaviour, and the start of the reason each of its runs must give.
const LIARS: &[(&str, &str, &str)] = &[
    ("skip-sleep", "skip-sleep", "iteration 1 reported"),
    ("tenth-time", "tenth-time", "iteration 1 reported"),
    ("double-time", "double-time", "the iteration"),
];

/// Runs `liars` (fixture name, behaviour) beside an honest fixture on `case` (scenario and
/// parameters), two time processes each and no warm-up; the run's results.json.
fn beside_honest(liars: &[(&str, &str)], case: &[&str]) -> serde_json::Value {
    let mut pairs = liars.to_vec();
    pairs.push(("honest", "honest"));
    let contestants = fixture_contestants(&pairs);
    let out = tempfile::tempdir().unwrap();
    let names: Vec<String> = pairs.iter().map(|(n, _)| format!("fixture-{n}")).collect();
    let names = names.join(",");
    let mut args = vec![
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
        "--contestant",
        &names,
    ];
    args.extend_from_slice(case);
    args.extend_from_slice(&["-r", "2", "-w", "0"]);
    let output = taskbench(&args);
    assert!(output.status.success(), "{output:?}");
    read_json(&out.path().join("results.json"))
}

/// Every point ranks the honest fixture and nothing else.
fn only_the_honest_row_is_ranked(results: &serde_json::Value) {
    for point in results["points"].as_array().unwrap() {
        let valid: Vec<&str> = point["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["outcome"] == "valid")
            .map(|r| r["contestant"].as_str().unwrap())
            .collect();
        assert_eq!(valid, ["fixture-honest"], "only the honest row is ranked");
    }
}

#[test]
fn a_contestant_reporting_times_that_cannot_be_true_is_implausible() {
    let liars: Vec<(&str, &str)> = LIARS.iter().map(|(n, b, _)| (*n, *b)).collect();
    let case = ["--scenario", "sleep", "--tasks", "10", "--delay-ms", "20"];
    let results = beside_honest(&liars, &case);
    for (name, _, why) in LIARS {
        let runs = measured(&results, &format!("fixture-{name}"));
        assert!(!runs.is_empty(), "fixture-{name} made no run");
        for run in runs {
            assert_eq!(run["status"], "implausible", "fixture-{name}: {run}");
            let reason = run["reason"].as_str().unwrap();
            assert!(reason.starts_with(why), "fixture-{name}: {reason}");
            assert!(!reason.contains('\n'), "one line: {reason}");
        }
    }
    let honest = measured(&results, "fixture-honest");
    assert!(honest.iter().all(|r| r["status"] == "ok"), "{honest:?}");
    only_the_honest_row_is_ranked(&results);
}

/// Issue 46: one iteration of 1,000 ns, then an even number of 2^63 ns, whose sum in u64
/// wraps back to a few µs, was ranked at 9223372036.855 s an iteration.
#[test]
fn times_whose_sum_would_wrap_are_implausible() {
    let case = ["--scenario", "spawn", "--tasks", "10"];
    let results = beside_honest(&[("overflow", "overflow")], &case);
    let runs = measured(&results, "fixture-overflow");
    let wrapped: Vec<_> = runs
        .iter()
        .filter(|r| r["figures"]["iterations_ns"].as_array().unwrap().len() > 2)
        .collect();
    assert!(!wrapped.is_empty(), "no time process of many iterations");
    for run in wrapped {
        assert_eq!(run["status"], "implausible", "{run}");
        let reason = run["reason"].as_str().unwrap();
        assert!(
            reason.contains("iterations it reported add up to"),
            "{reason}"
        );
    }
    only_the_honest_row_is_ranked(&results);
}
