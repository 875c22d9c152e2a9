//! Every contestant in contestants/ runs every scenario it supports at a small size with a
//! valid checksum and its CPU time (`cpu_ns`) on every line — one memory process and one
//! time process of many iterations (protocol v2), and three iterations in one process when
//! asked — and answers 69 for the scenarios its manifest declares
//! unsupported, within a deadline (a contestant that hangs fails). A contestant whose
//! toolchain is absent is skipped with the reason printed; under TASKBENCH_REQUIRE_ALL=1
//! (.ci/run, which installs every toolchain) that is a failure.

use super::util::{measured, output_within, read_json, require_all, skip, taskbench};
use contestant::home::{places, repository_root};
use contestant::{Availability, Manifest, Places};
use lineup::{Surveyed, prepare, survey};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Small sizes: every scenario, a fraction of a second per run — and small enough that a
/// time process's warm-up (80 iterations on the JVM) stays so: skynet at 100 leaves (a tree
/// of two levels, as 1,000 was of three) and 20 requests took 9 s of the managed family's
/// 150 s of contestant CPU off it (2026-12-07), whose OS-thread rows spawn a thread a task.
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
    "20",
    "--io-ms",
    "1",
    "--fanout",
    "5",
    "--size",
    "100",
    "--pairs",
    "10",
    "--rounds",
    "10",
    "--length",
    "100",
    "--yields",
    "10",
    "--connections",
    "10",
    "--bytes",
    "64",
];

/// The contestants' families, a test each, so that libtest runs them beside each other and
/// beside the rest of the suite (a build or a process of one waits on disk, the network or
/// a sleep while another's computes): compiled to native code; on a managed runtime (the
/// JVM, the BEAM, Go's); everything else (JavaScript, Python).
const NATIVE: &[&str] = &["Rust", "C++", "Crystal", "Nim", "Haskell"];
const MANAGED: &[&str] = &["Java", "Kotlin", "Scala", "Elixir", "Erlang", "Go"];

#[test]
fn every_native_contestant_passes_every_scenario_it_supports() {
    let names = passes_every_scenario(|language| NATIVE.contains(&language));
    assert!(
        names.iter().any(|n| n == "tokio") && names.iter().any(|n| n == "threads"),
        "{names:?}"
    );
}

#[test]
fn every_managed_contestant_passes_every_scenario_it_supports() {
    let names = passes_every_scenario(|language| MANAGED.contains(&language));
    assert!(names.iter().any(|n| n == "go"), "{names:?}");
}

#[test]
fn every_other_contestant_passes_every_scenario_it_supports() {
    let others = |language: &str| !NATIVE.contains(&language) && !MANAGED.contains(&language);
    let names = passes_every_scenario(others);
    assert!(names.iter().any(|n| n == "node-promises"), "{names:?}");
}

/// Every available contestant whose language `family` takes runs every scenario it
/// supports validly, with its CPU on every line, answers 69 for those it does not, and
/// repeats an iteration when asked; the names it ran.
fn passes_every_scenario(family: impl Fn(&str) -> bool) -> Vec<String> {
    let places = places();
    let surveyed = survey(&repository_root().join("contestants"), &places).unwrap();
    let in_family = |entry: &&Surveyed| family(&entry.contestant.manifest.language);
    let names: Vec<String> = available(&surveyed)
        .into_iter()
        .filter(|name| (surveyed.iter().filter(in_family)).any(|e| e.contestant.name() == name))
        .collect();
    let out = tempfile::tempdir().unwrap();
    let results = run_every_scenario(&names, out.path());
    let mut wrong = Vec::new();
    for entry in surveyed
        .iter()
        .filter(|e| names.iter().any(|n| n == e.contestant.name()))
    {
        let manifest = &entry.contestant.manifest;
        for scenario in catalogue::SCENARIOS {
            let runs: Vec<&serde_json::Value> = measured(&results, &manifest.name)
                .into_iter()
                .filter(|r| r["scenario"] == scenario.name)
                .collect();
            wrong.extend(wrong_statuses(manifest, scenario.name, &runs));
            wrong.extend(without_cpu(&manifest.name, scenario.name, &runs));
            wrong.extend(idle_not_ok(manifest, scenario.name, &results));
        }
        for scenario in &manifest.unsupported {
            wrong.extend(not_answering_69(entry, scenario, &places));
        }
        wrong.extend(not_repeating(entry, &places));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    names
}

/// The names of the contestants available here. Those that cannot be installed on this
/// kind of machine at all are named by .ci/run (TASKBENCH_UNAVAILABLE_HERE=a,b) with its
/// reason: printed, never silently skipped; any other unavailable one is skipped with its
/// reason, or under TASKBENCH_REQUIRE_ALL=1 fails the test, every one named at once.
fn available(surveyed: &[Surveyed]) -> Vec<String> {
    let mut names = Vec::new();
    let mut missing = Vec::new();
    let declared = std::env::var("TASKBENCH_UNAVAILABLE_HERE").unwrap_or_default();
    let known: Vec<(&str, bool)> = surveyed
        .iter()
        .map(|e| {
            let available = matches!(e.availability, Availability::Available);
            (e.contestant.name(), available)
        })
        .collect();
    let declared = declared_unavailable(&declared, &known).unwrap_or_else(|e| panic!("{e}"));
    for entry in surveyed {
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
        assert!(
            !require_all(),
            "TASKBENCH_REQUIRE_ALL=1 but contestants are unavailable:\n{}",
            missing.join("\n")
        );
        for reason in &missing {
            skip(reason);
        }
    }
    names
}

/// The names in `declared` (TASKBENCH_UNAVAILABLE_HERE, comma-separated), each of which must
/// be a contestant of `known` (name, available here) that is unavailable here: a misspelt
/// name would excuse nothing, and an available one would hide that it became available.
/// The error names every such name at once, in one message.
fn declared_unavailable<'a>(
    declared: &'a str,
    known: &[(&str, bool)],
) -> Result<Vec<&'a str>, String> {
    let names: Vec<&str> = declared.split(',').filter(|n| !n.is_empty()).collect();
    let wrong: Vec<String> = names
        .iter()
        .filter_map(|name| match known.iter().find(|(k, _)| k == name) {
            None => Some(format!("{name} (no such contestant)")),
            Some((_, true)) => Some(format!("{name} (available here)")),
            Some((_, false)) => None,
        })
        .collect();
    if !wrong.is_empty() {
        return Err(format!(
            "TASKBENCH_UNAVAILABLE_HERE may name only contestants unavailable here: {}",
            wrong.join(", ")
        ));
    }
    Ok(names)
}

#[test]
fn unavailable_here_names_only_unavailable_contestants() {
    let known = [("tokio", true), ("haskell-streamly", false)];
    assert_eq!(
        declared_unavailable("haskell-streamly", &known),
        Ok(vec!["haskell-streamly"])
    );
    assert_eq!(declared_unavailable("", &known), Ok(vec![]));
    assert_eq!(
        declared_unavailable("haskell-streamy,tokio,haskell-streamly", &known),
        Err(
            "TASKBENCH_UNAVAILABLE_HERE may name only contestants unavailable here: \
             haskell-streamy (no such contestant), tokio (available here)"
                .to_string()
        )
    );
}

/// `taskbench run` of every scenario at small sizes on `names`, into `out`: its results,
/// every contestant built.
fn run_every_scenario(names: &[String], out: &Path) -> serde_json::Value {
    let scenarios: Vec<&str> = catalogue::SCENARIOS.iter().map(|s| s.name).collect();
    let (scenarios, contestants) = (scenarios.join(","), names.join(","));
    let mut args = vec![
        "run",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
        "--scenario",
        &scenarios,
        "--contestant",
        &contestants,
        "--runs",
        "1",
        "--warmup",
        "0",
        // One idle process a scenario: the idle size is checked (idle_not_ok), its footprint
        // not needed.
        "--idle-runs",
        "1",
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
    let results = read_json(&out.join("results.json"));
    let unavailable: Vec<String> = results["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["unavailable"].is_null())
        .map(|c| format!("{}: {}", c["name"], c["unavailable"]))
        .collect();
    assert!(unavailable.is_empty(), "builds failed: {unavailable:#?}");
    results
}

/// The valid runs of a case whose lines did not all carry `cpu_ns`: the harness keeps each
/// iteration's CPU only when every line of the process has it (0 is a reading: a
/// millisecond clock reads 0 across a short iteration).
fn without_cpu(contestant: &str, scenario: &str, runs: &[&serde_json::Value]) -> Option<String> {
    let missing: Vec<u64> = runs
        .iter()
        .filter(|r| r["status"] == "ok")
        .filter(|r| {
            let cpu = r["figures"]["iterations_cpu_ns"]
                .as_array()
                .map_or(0, Vec::len);
            Some(cpu as u64) != r["iterations"].as_u64()
        })
        .filter_map(|r| r["run"].as_u64())
        .collect();
    (!missing.is_empty())
        .then(|| format!("{contestant} {scenario}: lines without cpu_ns in runs {missing:?}"))
}

/// What is wrong with a case's statuses, if anything: `ok` for a supported scenario (one
/// memory process and one time process, which runs its warm-up first even where it times
/// one iteration), one `not_implemented` for an unsupported one.
fn wrong_statuses(
    manifest: &Manifest,
    scenario: &str,
    runs: &[&serde_json::Value],
) -> Option<String> {
    let statuses: Vec<&str> = runs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    let (expected, count) = if manifest.is_unsupported(scenario) {
        ("not_implemented", 1)
    } else {
        ("ok", 2)
    };
    if statuses == vec![expected; count] {
        return None;
    }
    let tail = runs
        .first()
        .and_then(|r| r["figures"]["stderr_tail"].as_str())
        .unwrap_or("");
    Some(format!(
        "{} {scenario}: {statuses:?} (expected {expected}) {tail}",
        manifest.name
    ))
}

/// The idle processes of a scenario `manifest` supports (the scenario at its idle size)
/// that did not end `ok`; what is wrong, if any.
fn idle_not_ok(manifest: &Manifest, scenario: &str, results: &serde_json::Value) -> Option<String> {
    let has_idle = catalogue::Scenario::new(scenario, &[]).is_ok_and(|s| s.idle().is_some());
    if manifest.is_unsupported(scenario) || !has_idle {
        return None;
    }
    let runs = results["runs"].as_array().unwrap();
    let idle = (runs.iter()).filter(|r| {
        r["contestant"] == manifest.name.as_str()
            && r["scenario"] == scenario
            && r["phase"] == "idle"
    });
    let statuses: Vec<&str> = idle.map(|r| r["status"].as_str().unwrap()).collect();
    (statuses.is_empty() || statuses.iter().any(|s| *s != "ok"))
        .then(|| format!("{} {scenario}: idle processes {statuses:?}", manifest.name))
}

/// The contestant asked for one invocation of `scenario`, answered within a minute.
fn invoke(
    entry: &Surveyed,
    scenario: catalogue::Scenario,
    iterations: u32,
    places: &Places,
) -> Result<std::process::Output, String> {
    let mut command = entry.contestant.run_command(places);
    command.extend(
        catalogue::Invocation {
            scenario,
            warm_up: None,
            inner_warm_up: 0,
            iterations,
        }
        .to_args(),
    );
    output_within(
        Command::new(&command[0])
            .args(&command[1..])
            .current_dir(&entry.contestant.dir),
        Duration::from_secs(60),
    )
}

/// Whether the contestant runs three measured iterations in one process when asked
/// (protocol v2), on the first scenario it supports at a small size: three lines, each
/// with the catalogue's checksum.
fn not_repeating(entry: &Surveyed, places: &Places) -> Option<String> {
    let manifest = &entry.contestant.manifest;
    let spec = catalogue::SCENARIOS
        .iter()
        .find(|s| !manifest.is_unsupported(s.name))?;
    let small: Vec<(&str, u64)> = SMALL
        .chunks(2)
        .map(|pair| (pair[0].trim_start_matches("--"), pair[1].parse().unwrap()))
        .filter(|(name, _)| spec.params.iter().any(|p| p.name == *name))
        .collect();
    let scenario = catalogue::Scenario::new(spec.name, &small).unwrap();
    let out = match invoke(entry, scenario, 3, places) {
        Ok(out) => out,
        Err(e) => {
            return Some(format!(
                "{} {}: --iterations 3: {e}",
                manifest.name, spec.name
            ));
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let checksums: Vec<Option<u64>> = stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["checksum"].as_u64())
        .collect();
    let expected = vec![Some(scenario.checksum()); 3];
    (checksums != expected).then(|| {
        format!(
            "{} {}: asked for 3 iterations, printed checksums {checksums:?} (expected {expected:?})",
            manifest.name, spec.name
        )
    })
}

/// Whether a scenario the manifest declares unsupported is answered with 69 in time.
fn not_answering_69(entry: &Surveyed, scenario: &str, places: &Places) -> Option<String> {
    let manifest = &entry.contestant.manifest;
    let defaults = catalogue::Scenario::new(scenario, &[]).unwrap();
    match invoke(entry, defaults, 1, places) {
        Ok(out) if out.status.code() == Some(catalogue::EXIT_NOT_IMPLEMENTED) => None,
        Ok(out) => Some(format!(
            "{} {scenario}: declared unsupported but exited {}",
            manifest.name, out.status
        )),
        Err(e) => Some(format!(
            "{} {scenario}: declared unsupported, and did not answer 69: {e}",
            manifest.name
        )),
    }
}

/// The Rust contestants build in one cargo invocation; when that fails, each builds alone,
/// so one broken crate makes only itself unavailable — with its own build's reason.
#[test]
fn a_broken_crate_fails_alone_when_the_joint_build_fails() {
    let dir = tempfile::tempdir().unwrap();
    for (name, package) in [
        ("good", "taskbench-fixture"),
        ("broken", "taskbench-no-such-crate"),
    ] {
        let folder = dir.path().join(name);
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(
            folder.join("contestant.toml"),
            format!(
                "name = \"joint-{name}\"\nlanguage = \"Rust\"\nruntime = \"test\"\n\
                 detect = [\"cargo\", \"--version\"]\ninstall = \"install Rust with rustup\"\n\
                 build = [\"cargo\", \"build\", \"--manifest-path\", \"{{root}}/Cargo.toml\", \
                 \"--release\", \"--quiet\", \"-p\", \"{package}\", \"--target-dir\", \"{{target}}\"]\n\
                 run = [\"{{target}}/release/taskbench-fixture\", \"honest\"]\n\
                 version = {{ crate = \"taskbench-catalogue\" }}\n"
            ),
        )
        .unwrap();
    }
    let places = places();
    let surveyed = survey(dir.path(), &places).unwrap();
    let mut steps = Vec::new();
    let (subjects, infos) = prepare(surveyed, &places, &[], &mut |step| {
        steps.push(format!(
            "{}/{}: {}",
            step.index,
            step.total,
            step.names.join(",")
        ));
    });
    assert_eq!(
        steps,
        [
            "1/2: joint-broken,joint-good",
            "1/2: joint-broken",
            "2/2: joint-good"
        ],
        "the joint build, then each alone"
    );
    let names: Vec<&str> = subjects.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["joint-good"]);
    let broken = infos.iter().find(|i| i.name == "joint-broken").unwrap();
    let reason = broken.unavailable.as_deref().unwrap_or_default();
    assert!(
        reason.starts_with("build failed") && reason.contains("taskbench-no-such-crate"),
        "{reason}"
    );
}
