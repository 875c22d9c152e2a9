//! Every scenario's checksum proves its work: a contestant that does one unit less — one
//! task, link, round, yield, request, fan-out op, sleep, connection or byte fewer — reports a checksum the
//! harness refuses, in every scenario.

use super::session::fixture_contestants;
use super::util::{measured, read_json, taskbench};

/// Each scenario, and the parameters that count its work.
const WORK: &[(&str, &[&str])] = &[
    ("spawn", &["tasks"]),
    ("sleep", &["tasks"]),
    ("timer", &["total-ms"]),
    ("doxbee", &["requests"]),
    ("parallel", &["requests", "fanout"]),
    ("skynet", &["size"]),
    ("pingpong", &["pairs", "rounds"]),
    ("chain", &["length"]),
    ("yield", &["tasks", "yields"]),
    ("echo", &["connections", "rounds", "bytes"]),
    ("connections", &["connections"]),
];

/// Small sizes, every scenario's parameters.
const SMALL: &[&str] = &[
    "--tasks",
    "10",
    "--delay-ms",
    "1",
    "--step-us",
    "1000",
    "--total-ms",
    "5",
    "--requests",
    "5",
    "--io-ms",
    "1",
    "--fanout",
    "3",
    "--size",
    "100",
    "--pairs",
    "3",
    "--rounds",
    "4",
    "--length",
    "10",
    "--yields",
    "3",
    "--connections",
    "3",
    "--bytes",
    "4",
];

#[test]
fn one_unit_less_work_fails_every_scenarios_checksum() {
    let mut params: Vec<&str> = WORK.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    params.sort_unstable();
    params.dedup();
    let pairs: Vec<(String, String)> = params
        .iter()
        .map(|p| (format!("less-{p}"), format!("less-{p}")))
        .collect();
    let borrowed: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_str()))
        .collect();
    let contestants = fixture_contestants(&borrowed);
    let out = tempfile::tempdir().unwrap();
    let names: Vec<String> = pairs.iter().map(|(n, _)| format!("fixture-{n}")).collect();
    let names = names.join(",");
    let scenarios: Vec<&str> = WORK.iter().map(|(s, _)| *s).collect();
    let scenarios = scenarios.join(",");
    let mut args = vec![
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
        "--contestant",
        &names,
        "--scenario",
        &scenarios,
        "-r",
        "1",
        "-w",
        "0",
    ];
    args.extend_from_slice(SMALL);
    let output = taskbench(&args);
    assert!(output.status.success(), "{output:?}");
    let results = read_json(&out.path().join("results.json"));
    for (scenario, params) in WORK {
        for param in *params {
            let name = format!("fixture-less-{param}");
            let runs: Vec<_> = measured(&results, &name)
                .into_iter()
                .filter(|r| r["scenario"] == *scenario)
                .collect();
            assert!(!runs.is_empty(), "{scenario}: {name} made no run");
            for run in runs {
                assert_eq!(run["status"], "wrong_checksum", "{scenario}, {name}: {run}");
            }
        }
    }
}
