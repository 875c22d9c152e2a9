//! Every `--export-<flag>` writes its format where asked: the ecosystem's two (bencher.dev's
//! BMF and github-action-benchmark's `customSmallerIsBetter`, each checked against its
//! documented schema) and a copy of the HTML report; and the run reaches the store.
//! `taskbench export DIR` writes any format from a finished folder, to files or one at a
//! time to stdout (`-`), as `run --export-<flag> -` does.

use super::util::{QUICK, fixture_run, read_json, run_fixtures, stderr, taskbench_within};
use serde_json::Value;

/// BMF (bencher.dev/docs/reference/bencher-metric-format): an object of benchmarks, each an
/// object of measures, each with a number `value` and optional number bounds around it.
fn check_bmf(bmf: &Value) {
    for (name, measures) in bmf.as_object().expect("an object of benchmarks") {
        for (slug, metric) in measures.as_object().expect("an object of measures") {
            let fields = metric.as_object().expect("a metric is an object");
            for key in fields.keys() {
                assert!(
                    ["value", "lower_value", "upper_value"].contains(&key.as_str()),
                    "{name} · {slug}: {key}"
                );
            }
            let value = metric["value"].as_f64().expect("a number value");
            let (low, high) = (
                metric["lower_value"].as_f64(),
                metric["upper_value"].as_f64(),
            );
            if let (Some(low), Some(high)) = (low, high) {
                assert!(low <= value && value <= high, "{metric}");
            }
        }
    }
}

/// github-action-benchmark's `customSmallerIsBetter` (its `BenchmarkResult` in
/// src/extract.ts): an array of {name: string, unit: string, value: number, range?: string,
/// extra?: string}. Here a range is `±` a number, as the action parses it; an entry's extra
/// gives the interval's bounds, which hold the value, and the range covers both of them.
fn check_github_benchmark(github: &Value) {
    for entry in github.as_array().expect("an array of entries") {
        let fields = entry.as_object().expect("an entry is an object");
        for key in fields.keys() {
            assert!(
                ["name", "unit", "value", "range", "extra"].contains(&key.as_str()),
                "{entry}: {key}"
            );
        }
        assert!(
            entry["name"].is_string() && entry["unit"].is_string(),
            "{entry}"
        );
        let value = entry["value"].as_f64().expect("a number value");
        let Some(range) = entry.get("range") else {
            assert!(entry.get("extra").is_none(), "{entry}");
            continue;
        };
        let half: f64 = range
            .as_str()
            .unwrap()
            .strip_prefix('±')
            .unwrap()
            .parse()
            .unwrap();
        let extra = entry["extra"].as_str().expect("a string extra");
        let bounds = extra
            .strip_prefix("95 % interval of the median: ")
            .and_then(|b| b.rsplit_once(' '))
            .map(|(b, _unit)| b)
            .unwrap_or_else(|| panic!("{extra}"));
        let (low, high) = bounds.split_once(" – ").unwrap();
        let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
        assert!(low <= value && value <= high, "{entry}");
        // One decimal: the range may round its half-width down by 0.05 at most.
        assert!(
            value - half <= low + 0.05 && high <= value + half + 0.05,
            "{entry}"
        );
    }
}

#[test]
fn the_ecosystem_formats_are_written_as_their_schemas_say() {
    let files = tempfile::tempdir().unwrap();
    let path = |name: &str| files.path().join(name).to_str().unwrap().to_string();
    let (bmf, github, html) = (path("bmf.json"), path("github.json"), path("report.html"));
    let store = path("store.sqlite");
    let (_out, results) = run_fixtures(&[
        "--contestant",
        "fixture-honest,fixture-fail",
        "--scenario",
        "spawn,sleep",
        "--tasks",
        "10",
        "--delay-ms",
        "1",
        "-r",
        "3",
        "-w",
        "0",
        "--export-bmf",
        &bmf,
        "--export-github-benchmark",
        &github,
        "--export-html",
        &html,
        "--store",
        &store,
        "--tag",
        "ci-check",
    ]);
    let bmf = read_json(std::path::Path::new(&bmf));
    check_bmf(&bmf);
    let benchmarks = bmf.as_object().unwrap();
    let names: Vec<&String> = benchmarks.keys().collect();
    assert_eq!(
        names,
        [
            "sleep tasks=10 delay-ms=1 · fixture-honest",
            "spawn tasks=10 · fixture-honest"
        ],
        "one benchmark per point and valid row (the failing fixture has none)"
    );
    for measures in benchmarks.values() {
        let measures = measures.as_object().unwrap();
        assert_eq!(
            measures.keys().collect::<Vec<_>>(),
            ["cold-start", "cpu-per-iteration", "latency", "peak-rss"]
        );
    }
    let spawn = results["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["scenario"] == "spawn")
        .unwrap();
    assert_eq!(
        bmf["spawn tasks=10 · fixture-honest"]["peak-rss"]["value"],
        spawn["rows"][0]["peak_rss"]["median"]
    );
    // The fixture reports CPU per iteration: BMF's measure is that figure, named so.
    assert_eq!(
        bmf["spawn tasks=10 · fixture-honest"]["cpu-per-iteration"]["value"],
        spawn["rows"][0]["cpu_per_iteration"]["median"]
    );
    let github = read_json(std::path::Path::new(&github));
    check_github_benchmark(&github);
    let names: Vec<&str> = (github.as_array().unwrap().iter())
        .map(|e| e["name"].as_str().unwrap())
        .filter(|n| n.starts_with("spawn"))
        .collect();
    assert_eq!(
        names,
        [
            "spawn tasks=10 · fixture-honest · time",
            "spawn tasks=10 · fixture-honest · cold start",
            "spawn tasks=10 · fixture-honest · CPU per iteration",
            "spawn tasks=10 · fixture-honest · peak RSS"
        ],
        "time, cold start, CPU and peak RSS, each its own entry"
    );
    assert_eq!(github.as_array().unwrap().len(), 8);
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));

    // The run is in the store, with its tag.
    let history = taskbench_within(&["history", "--store", &store, "--tag", "ci-check"], QUICK);
    let table = String::from_utf8_lossy(&history.stdout);
    assert!(history.status.success());
    assert_eq!(
        table.matches("ci-check").count(),
        4,
        "two points × two contestants: {table}"
    );
}

#[test]
fn export_writes_any_format_from_a_folder_to_files_and_stdout() {
    // `run --export-json -`: the document on stdout, and nothing else there.
    let (out, run) = fixture_run(&[
        "--contestant",
        "fixture-honest",
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "-r",
        "2",
        "-w",
        "0",
        "--no-store",
        "--export-json",
        "-",
    ]);
    let dir = out.path().to_str().unwrap();
    let printed: Value = serde_json::from_slice(&run.stdout).expect("stdout is the JSON alone");
    assert_eq!(printed, read_json(&out.path().join("results.json")));
    assert!(!std::path::Path::new("-").exists(), "no file named -");

    let files = tempfile::tempdir().unwrap();
    let csv = files.path().join("runs.csv");
    let html = files.path().join("report.html");
    let export = |args: &[&str]| {
        let mut all = vec!["export", dir];
        all.extend_from_slice(args);
        taskbench_within(&all, QUICK)
    };
    let written = export(&[
        "--csv",
        csv.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--bmf",
        "-",
    ]);
    assert!(written.status.success(), "{}", stderr(&written));
    let bmf: Value = serde_json::from_slice(&written.stdout).expect("stdout is the BMF alone");
    check_bmf(&bmf);
    assert_eq!(bmf.as_object().unwrap().len(), 1, "{bmf}");
    assert_eq!(
        std::fs::read(&csv).unwrap(),
        std::fs::read(out.path().join("results.csv")).unwrap()
    );
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
    let github = export(&["--github-benchmark", "-"]);
    assert!(github.status.success(), "{}", stderr(&github));
    check_github_benchmark(&serde_json::from_slice(&github.stdout).unwrap());

    // Two documents cannot share stdout; nothing asked is nothing done: one line each.
    for (args, expected) in [
        (
            &["--json", "-", "--markdown", "-"][..],
            "only one document can go to stdout (-), and --json and --markdown ask for it",
        ),
        (&[][..], "nothing to export: give one or more of --json"),
    ] {
        let refused = export(args);
        assert!(!refused.status.success(), "{args:?}");
        let error = stderr(&refused);
        assert!(error.contains(expected), "{error}");
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(refused.stdout.is_empty());
    }
}
