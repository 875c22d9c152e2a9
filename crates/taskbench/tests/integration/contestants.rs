//! Every contestant in contestants/ runs every scenario it supports at a small size with a
//! valid checksum on every line — one memory process and one time process of many
//! iterations (protocol v2) — and answers 69 for the scenarios its manifest declares
//! unsupported, within a deadline (a contestant that hangs fails). A contestant whose
//! toolchain is absent is skipped with the reason printed; under TASKBENCH_REQUIRE_ALL=1
//! (.ci/run, which installs every toolchain) that is a failure.

use super::util::{output_within, read_json, require_all, skip, taskbench};
use std::process::Command;
use std::time::Duration;
use taskbench::contestant::Availability;
use taskbench::lineup::{places, repository_root, survey};

/// Small sizes: every scenario, a fraction of a second per run.
const SMALL: &[&str] = &[
    "--tasks",
    "100",
    "--delay-ms",
    "20",
    "--step-us",
    "1000",
    "--total-ms",
    "10",
    "--requests",
    "50",
    "--io-ms",
    "1",
    "--fanout",
    "5",
    "--size",
    "1000",
    "--pairs",
    "10",
    "--rounds",
    "10",
    "--length",
    "100",
    "--yields",
    "10",
];

#[test]
fn every_contestant_passes_every_scenario_it_supports() {
    let places = places();
    let entries = survey(&repository_root().join("contestants"), &places).unwrap();
    let mut names = Vec::new();
    let mut missing = Vec::new();
    // Contestants that cannot be installed on this kind of machine at all, named by .ci/run
    // (TASKBENCH_UNAVAILABLE_HERE=a,b) with its reason: printed, never silently skipped.
    let declared = std::env::var("TASKBENCH_UNAVAILABLE_HERE").unwrap_or_default();
    let declared: Vec<&str> = declared.split(',').filter(|n| !n.is_empty()).collect();
    for entry in &entries {
        let name = entry.contestant.name();
        match &entry.availability {
            Availability::Available => names.push(name.to_string()),
            Availability::Unavailable(reason) if declared.contains(&name) => {
                eprintln!(
                    "unavailable here, as TASKBENCH_UNAVAILABLE_HERE declares: {name}: {reason}"
                )
            }
            Availability::Unavailable(reason) => missing.push(format!("{name}: {reason}")),
        }
    }
    if !missing.is_empty() {
        // Every one named at once, not the first alone.
        assert!(
            !require_all(),
            "TASKBENCH_REQUIRE_ALL=1 but contestants are unavailable:\n{}",
            missing.join("\n")
        );
        for reason in &missing {
            skip(reason);
        }
    }
    assert!(
        names.iter().any(|n| n == "tokio") && names.iter().any(|n| n == "threads"),
        "{names:?}"
    );
    let out = tempfile::tempdir().unwrap();
    let scenarios: Vec<&str> = catalogue::SCENARIOS.iter().map(|s| s.name).collect();
    let (scenarios, contestants) = (scenarios.join(","), names.join(","));
    let mut args = vec![
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
        "--scenario",
        &scenarios,
        "--contestant",
        &contestants,
        "--runs",
        "1",
        "--warmup",
        "0",
        "--inner-warmup",
        "1",
        "--timeout",
        "60s",
        "--max-time",
        "1s",
    ];
    args.extend_from_slice(SMALL);
    let output = taskbench(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = read_json(&out.path().join("results.json"));
    let unavailable: Vec<String> = results["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["unavailable"].is_null())
        .map(|c| format!("{}: {}", c["name"], c["unavailable"]))
        .collect();
    assert!(unavailable.is_empty(), "builds failed: {unavailable:#?}");

    let mut wrong = Vec::new();
    let mut repeated = Vec::new();
    for entry in entries
        .iter()
        .filter(|e| names.iter().any(|n| n == e.contestant.name()))
    {
        let manifest = &entry.contestant.manifest;
        for scenario in catalogue::SCENARIOS {
            let runs: Vec<&serde_json::Value> = results["runs"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| {
                    r["contestant"] == manifest.name.as_str()
                        && r["scenario"] == scenario.name
                        && r["phase"] == "measured"
                })
                .collect();
            let statuses: Vec<&str> = runs.iter().map(|r| r["status"].as_str().unwrap()).collect();
            let (expected, count) = if manifest.is_unsupported(scenario.name) {
                ("not_implemented", 1)
            } else {
                // One memory process and one time process, or one process of both kinds
                // when one iteration is as long as the rest of the process.
                let both = runs.iter().all(|r| r["iterations"] == 1);
                ("ok", if both { 1 } else { 2 })
            };
            if runs.iter().any(|r| r["iterations"].as_u64() > Some(1)) {
                repeated.push(manifest.name.as_str());
            }
            if statuses != vec![expected; count] {
                let tail = runs
                    .first()
                    .and_then(|r| r["figures"]["stderr_tail"].as_str())
                    .unwrap_or("");
                wrong.push(format!(
                    "{} {}: {statuses:?} (expected {expected}) {tail}",
                    manifest.name, scenario.name
                ));
            }
        }
        for scenario in &manifest.unsupported {
            let defaults = catalogue::Scenario::new(scenario, &[]).unwrap();
            let mut command = entry.contestant.run_command(&places);
            command.extend(
                catalogue::Invocation {
                    scenario: defaults,
                    warmup: None,
                    inner_warmup: 0,
                    iterations: 1,
                }
                .to_args(),
            );
            let ran = output_within(
                Command::new(&command[0])
                    .args(&command[1..])
                    .current_dir(&entry.contestant.dir),
                Duration::from_secs(60),
            );
            match ran {
                Ok(out) if out.status.code() == Some(catalogue::EXIT_NOT_IMPLEMENTED) => {}
                Ok(out) => wrong.push(format!(
                    "{} {scenario}: declared unsupported but exited {}",
                    manifest.name, out.status
                )),
                Err(e) => wrong.push(format!(
                    "{} {scenario}: declared unsupported, and did not answer 69: {e}",
                    manifest.name
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let once: Vec<&String> = names
        .iter()
        .filter(|n| !repeated.contains(&n.as_str()))
        .collect();
    assert!(
        once.is_empty(),
        "never ran more than one iteration: {once:?}"
    );
}
