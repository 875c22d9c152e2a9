//! Every `--export-<flag>` writes its format where asked: the ecosystem's two (bencher.dev's
//! BMF, checked against its documented schema; github-action-benchmark's
//! `customSmallerIsBetter`) and a copy of the HTML report; and the run reaches the store.

use super::util::{QUICK, read_json, run_fixtures, taskbench_within};

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
    // BMF (bencher.dev/bmf.json): an object of benchmarks, each an object of measures, each
    // with a number `value` and optional number bounds.
    let bmf = read_json(std::path::Path::new(&bmf));
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
            ["cpu", "latency", "peak-rss"]
        );
        for metric in measures.values() {
            let value = metric["value"].as_f64().unwrap();
            let (low, high) = (
                metric["lower_value"].as_f64(),
                metric["upper_value"].as_f64(),
            );
            if let (Some(low), Some(high)) = (low, high) {
                assert!(low <= value && value <= high, "{metric}");
            }
        }
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
    // The fixture reports CPU per iteration: BMF's `cpu` is that figure, not the process's.
    assert_eq!(
        bmf["spawn tasks=10 · fixture-honest"]["cpu"]["value"],
        spawn["rows"][0]["cpu_per_iteration"]["median"]
    );
    // customSmallerIsBetter: a list of {name, unit, value}.
    let github = read_json(std::path::Path::new(&github));
    let entries = github.as_array().unwrap();
    assert_eq!(entries.len(), 6, "time, CPU and peak RSS of two benchmarks");
    for entry in entries {
        assert!(entry["name"].is_string() && entry["unit"].is_string());
        assert!(entry["value"].is_number());
    }
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
