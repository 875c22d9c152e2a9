//! `taskbench compare` as a gate: a contestant made slower fails it with exit 1 and is
//! named; the same contestant run twice, or made faster, passes. The same through the
//! store: a baseline saved by one run gates the next, and sessions are found by tag and
//! `last`. Runs of different machines are refused (3, could not compare), or compared with
//! every row marked.

use super::session::fixture_contestants;
use super::util::{QUICK, read_json, stderr, taskbench, taskbench_within};
use std::process::Output;

/// `taskbench run` of `fixture-x` behaving as `behaviour` (it sleeps, then answers) into
/// `out`, with `extra` arguments.
fn run_x(behaviour: &str, out: &std::path::Path, extra: &[&str]) -> Output {
    let contestants = fixture_contestants(&[("x", behaviour)]);
    let mut args = vec![
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "-r",
        "4",
        "-w",
        "0",
    ];
    args.extend_from_slice(extra);
    taskbench(&args)
}

/// A results folder of `fixture-x` behaving as `behaviour`.
fn measured(behaviour: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let run = run_x(behaviour, out.path(), &[]);
    assert!(run.status.success(), "{}", stderr(&run));
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
    // One run without variants has nothing to compare within it: "could not compare", 3.
    let alone = taskbench_within(&["compare", base.path().to_str().unwrap()], QUICK);
    let said = super::util::stderr(&alone);
    assert_eq!(alone.status.code(), Some(3), "{said}");
    assert!(said.contains("has no variant"), "{said}");
}

#[test]
fn a_confirmation_rerun_fails_only_a_case_that_fails_again() {
    // Its sessions stay out of the suite's store and its comparisons read a store of their
    // own: sessions of the same case at 20 and 80 ms would widen the other tests'
    // intervals across sessions (a_slower_contestant_fails_the_gate… failed so).
    let base = tempfile::tempdir().unwrap();
    let run = run_x("touch-1-20", base.path(), &["--no-store"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let contestants = fixture_contestants(&[("x", "touch-1-80")]);
    let folder = tempfile::tempdir().unwrap();
    let new = folder.path().join("pr");
    let (dir, new_path) = (contestants.path().to_str().unwrap(), new.to_str().unwrap());
    let args = [
        "run",
        "--quiet",
        "--no-store",
        "--out",
        new_path,
        "-s",
        "spawn",
    ];
    let args = [
        &["--contestants", dir][..],
        &args,
        &["--tasks", "10", "-r", "4", "-w", "0"],
    ];
    let run = taskbench(&args.concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let base = base.path().to_str().unwrap();
    let own = folder.path().join("own.sqlite");
    let own = own.to_str().unwrap();
    let compare = || {
        let args = [
            "compare",
            base,
            new_path,
            "--fail-if-slower",
            "5%",
            "--confirm",
        ];
        taskbench_within(&[&args[..], &["--store", own]].concat(), QUICK)
    };
    // Still slower when run again: the gate fails, naming the case, and the rerun is kept.
    let confirmed = compare();
    let said = stderr(&confirmed);
    assert_eq!(confirmed.status.code(), Some(1), "{said}");
    assert!(
        said.contains("threshold in both runs: spawn tasks=10 · fixture-x: slower by"),
        "{said}"
    );
    assert!(String::from_utf8_lossy(&confirmed.stdout).contains("the confirmation rerun"));
    assert!(folder.path().join("pr-confirm/results.json").is_file());
    // The cause gone by the rerun (as a false alarm's is): the rerun passes, so the gate does.
    super::session::write_fixture(contestants.path(), "x", "touch-1-20");
    let cleared = compare();
    let table = String::from_utf8_lossy(&cleared.stdout);
    assert_eq!(cleared.status.code(), Some(0), "{}", stderr(&cleared));
    assert!(
        table.contains("not confirmed (passed the rerun): spawn tasks=10 · fixture-x: slower"),
        "{table}"
    );
    assert!(folder.path().join("pr-confirm-2/results.json").is_file());
    // A folder of results alone (no options.json) cannot be run again: one line says so.
    let bare = folder.path().join("bare");
    std::fs::create_dir(&bare).unwrap();
    std::fs::copy(new.join("results.json"), bare.join("results.json")).unwrap();
    let bare = bare.to_str().unwrap();
    let args = [
        "compare",
        base,
        bare,
        "--fail-if-slower",
        "5%",
        "--confirm",
        "--store",
        own,
    ];
    let refused = taskbench_within(&args, QUICK);
    let said = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(said.contains("keeps no options.json"), "{said}");
}

/// A copy of `dir`'s results.json that claims a 64-core CPU of another make.
fn on_another_machine(dir: &std::path::Path) -> tempfile::TempDir {
    let other = tempfile::tempdir().unwrap();
    let mut results = read_json(&dir.join("results.json"));
    results["platform"]["cpu"] = "Fake Xeon 9000".into();
    results["platform"]["cores"] = 64.into();
    std::fs::write(other.path().join("results.json"), results.to_string()).unwrap();
    other
}

#[test]
fn runs_of_different_machines_are_refused_or_compared_marked() {
    let base = measured("touch-1-20");
    let other = on_another_machine(base.path());
    let (a, b) = (
        base.path().to_str().unwrap(),
        other.path().to_str().unwrap(),
    );
    let compare = |extra: &[&str]| {
        let mut args = vec!["compare", a, b, "--fail-if-slower", "50%"];
        args.extend_from_slice(extra);
        taskbench_within(&args, QUICK)
    };
    // Could not compare: 3, as for two runs with nothing in common, not 2 (an error).
    let refused = compare(&[]);
    let error = stderr(&refused);
    assert_eq!(refused.status.code(), Some(3), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(
        error.contains("Fake Xeon 9000 · 64 cores") && error.contains("different machines"),
        "{error}"
    );
    assert!(error.contains("--mixed-machines"), "{error}");
    assert!(!String::from_utf8_lossy(&refused.stdout).contains("gate passed"));

    let mixed = compare(&["--mixed-machines"]);
    let table = String::from_utf8_lossy(&mixed.stdout);
    assert_eq!(mixed.status.code(), Some(0), "{}", stderr(&mixed));
    assert!(table.contains("fixture-x · m1 → m2"), "{table}");
    assert!(table.contains("m1 → m2: different machines"), "{table}");
    assert!(table.contains("Fake Xeon 9000 · 64 cores"), "{table}");

    // The gate of a run against a baseline of another machine: the same, refused before
    // the run.
    let gate = |extra: &[&str]| {
        let out = tempfile::tempdir().unwrap();
        let mut args = vec!["--baseline", b, "--fail-if-slower", "50%"];
        args.extend_from_slice(extra);
        let output = run_x("touch-1-20", out.path(), &args);
        (out, output)
    };
    let (out, refused) = gate(&[]);
    let error = stderr(&refused);
    assert_eq!(refused.status.code(), Some(3), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(
        error.contains("and this run on ") && error.contains("different machines"),
        "{error}"
    );
    assert!(
        !out.path().join("runs.jsonl").exists(),
        "refused before anything runs"
    );
    let (_out, mixed) = gate(&["--mixed-machines"]);
    assert_eq!(mixed.status.code(), Some(0), "{}", stderr(&mixed));
    assert!(String::from_utf8_lossy(&mixed.stdout).contains("fixture-x · m1 → m2"));
}

#[test]
fn a_baseline_saved_in_the_store_gates_a_later_run() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite");
    let store = store.to_str().unwrap();
    let saved = run_x(
        "touch-1-20",
        &dir.path().join("a"),
        &[
            "--store",
            store,
            "--save-baseline",
            "main",
            "--tag",
            "before",
        ],
    );
    assert!(saved.status.success(), "{}", stderr(&saved));
    let gated = run_x(
        "touch-1-80",
        &dir.path().join("b"),
        &[
            "--store",
            store,
            "--baseline",
            "main",
            "--fail-if-slower",
            "5%",
        ],
    );
    let err = stderr(&gated);
    assert_eq!(gated.status.code(), Some(1), "{err}");
    assert!(err.contains("fixture-x: slower by"), "{err}");
    assert!(
        dir.path().join("b/results.json").is_file(),
        "a run that fails the gate keeps its results"
    );
    // The second session of the case in the store: its folder gets the trend page.
    assert!(!dir.path().join("a/trend.html").exists());
    let trend = std::fs::read_to_string(dir.path().join("b/trend.html")).unwrap();
    assert!(
        trend.contains("2 sessions") && trend.contains("<svg"),
        "{trend}"
    );
    let compare =
        |base: &str, new: &str| taskbench_within(&["compare", base, new, "--store", store], QUICK);
    let by_name = compare("before", "last");
    let out = String::from_utf8_lossy(&by_name.stdout);
    assert_eq!(by_name.status.code(), Some(0), "{}", stderr(&by_name));
    assert!(
        out.contains("tag before") && out.contains("slower"),
        "{out}"
    );
    // Both sessions were probed: their conditions side by side before the table.
    assert!(out.contains("machine condition, base → new"), "{out}");
    assert_eq!(compare("main", "last~1").status.code(), Some(0));
    let (html, md) = (dir.path().join("c.html"), dir.path().join("c.md"));
    let exported = taskbench_within(
        &[
            "compare",
            "main",
            dir.path().join("b").to_str().unwrap(),
            "--store",
            store,
            "--export-html",
            html.to_str().unwrap(),
            "--export-markdown",
            md.to_str().unwrap(),
        ],
        QUICK,
    );
    assert_eq!(exported.status.code(), Some(0), "{}", stderr(&exported));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.starts_with("<!doctype html>") && page.contains("slower"),
        "{page}"
    );
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .contains("| fixture-x |")
    );
    let unknown = compare("main", "nothing");
    assert_eq!(unknown.status.code(), Some(3), "could not compare");
    let err = stderr(&unknown);
    assert!(
        err.contains("'nothing'") && err.contains("baselines: main"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn cpus_pin_each_contestant_as_a_sweep() {
    let out = tempfile::tempdir().unwrap();
    let run = run_x("touch-1-20", out.path(), &["--cpus", "1", "--no-store"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let results = super::util::read_json(&out.path().join("results.json"));
    let names: Vec<&str> = results["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["fixture-x cpus=1"]);
    assert_eq!(results["contestants"][0]["cpus"], 1);
    assert!(!super::util::measured(&results, "fixture-x cpus=1").is_empty());
}
