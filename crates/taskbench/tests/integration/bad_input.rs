//! Bad input: one clear line naming the problem, a non-zero exit, nothing written.

use super::util::{QUICK, assert_refused, fixtures, taskbench_within};

fn refused(args: &[&str], expect: &str) {
    assert_refused(&taskbench_within(args, QUICK), args, expect);
}

#[test]
fn unknown_names_are_refused() {
    let dir = fixtures();
    let dir = dir.to_str().unwrap();
    refused(&["run", "--scenario", "nap"], "unknown scenario 'nap'");
    refused(
        &[
            "--contestants",
            dir,
            "run",
            "--scenario",
            "spawn",
            "--contestant",
            "nobody",
        ],
        "unknown contestant 'nobody'",
    );
    refused(
        &[
            "--contestants",
            dir,
            "run",
            "--scenario",
            "spawn",
            "-c",
            "@headline,@nope",
        ],
        "unknown group '@nope' (known: @headline, @bluebird, @rust,",
    );
    refused(
        &["run", "--scenario", "spawn", "--fanout", "3"],
        "--fanout does not apply",
    );
    refused(
        &["run", "--scenario", "skynet", "--size", "20"],
        "power of 10",
    );
}

#[test]
fn malformed_numbers_are_refused() {
    refused(&["run", "--tasks", "10q"], "'10q' is not a whole number");
    refused(&["run", "--delay-ms", "-5"], "'-5' is negative");
    refused(&["run", "--runs", "0"], "--runs");
    refused(&["run", "--timeout", "0"], "--timeout");
    refused(
        &["run", "--scenario", "timer", "--step-us", "0"],
        "--step-us must be at least 1",
    );
}

#[test]
fn an_unwritable_output_path_is_refused_before_anything_runs() {
    let dir = fixtures();
    let base = [
        "--contestants",
        dir.to_str().unwrap(),
        "run",
        "--scenario",
        "spawn",
        "--contestant",
        "fixture-honest",
    ];
    let mut args = base.to_vec();
    args.extend(["--out", "/proc/taskbench-cannot-write-here"]);
    refused(&args, "--out");
    let out = tempfile::tempdir().unwrap();
    let mut args = base.to_vec();
    args.extend([
        "--out",
        out.path().to_str().unwrap(),
        "--export-json",
        "/proc/nope/results.json",
    ]);
    refused(&args, "--export-json");
    assert_eq!(
        std::fs::read_dir(out.path()).unwrap().count(),
        0,
        "nothing half-written"
    );
    // Stdout holds one document: two exports there, or one with a gate's table, are refused.
    let mut args = base.to_vec();
    args.extend(["--out", out.path().to_str().unwrap()]);
    args.extend(["--export-json", "-", "--export-bmf", "-"]);
    refused(&args, "--export-json and --export-bmf ask for it");
    let mut args = base.to_vec();
    args.extend(["--out", out.path().to_str().unwrap()]);
    args.extend(["--export-csv", "-", "--baseline", "main"]);
    refused(&args, "an --export-* to stdout (-) leaves no room there");
    refused(
        &["run", "--mixed-machines"],
        "--mixed-machines lets --baseline NAME",
    );
}

#[test]
fn a_manifest_with_a_missing_field_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken");
    std::fs::create_dir(&broken).unwrap();
    std::fs::write(
        broken.join("contestant.toml"),
        "name = \"broken\"\nlanguage = \"Rust\"\n",
    )
    .unwrap();
    refused(
        &["--contestants", dir.path().to_str().unwrap(), "list"],
        "missing field `runtime`",
    );
}

#[test]
fn bad_variants_cpus_and_baselines_are_refused() {
    let dir = fixtures();
    let dir = dir.to_str().unwrap();
    let run = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["--contestants", dir, "run", "--scenario", "spawn"];
        args.extend_from_slice(extra);
        args.iter().map(|a| a.to_string()).collect()
    };
    let refused_run = |extra: &[&str], expect: &str| {
        let args = run(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, expect);
    };
    refused_run(&["-c", "fixture-honest@latest"], "after @ comes a release");
    refused_run(
        &["-c", "fixture-nobody@1.0.0"],
        "unknown contestant 'fixture-nobody'",
    );
    refused_run(&["--cpus", "0"], "--cpus");
    refused_run(&["--cpus", "4096"], "--cpus 4096: taskbench may use");
    refused_run(&["--cpus", "1,1"], "--cpus: 1 is given twice");
    refused_run(&["--patch", "tokio"], "is not CRATE=PATH");
    refused_run(&["--patch", "tokio=/nonexistent"], "holds no Cargo.toml");
    let here = env!("CARGO_MANIFEST_DIR");
    refused_run(&["--patch", &format!("tokio={here}")], "none is named");
    refused_run(
        &["-c", "fixture-honest@patch"],
        "--patch CRATE=PATH says what to build it with",
    );
    refused_run(&["--fail-if-slower", "5%"], "--baseline NAME compares with");
    refused_run(
        &["-c", "@rust", "--fail-if-slower", "5%"],
        "--baseline NAME compares with",
    );
    let store = tempfile::tempdir().unwrap();
    let store = store.path().join("none.sqlite");
    refused_run(
        &["--baseline", "main", "--store", store.to_str().unwrap()],
        "no store at",
    );
}
