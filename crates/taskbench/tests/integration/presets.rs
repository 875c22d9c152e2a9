//! Presets, dry runs and what a sweep stores: the case count of `--dry-run --preset
//! seeds`, user presets from TOML (and their mistakes, named), and a real sweep of the
//! honest fixture with its seed tags, fits, outliers, warnings and machine load.

use super::util::{fixtures, read_json, stderr, taskbench};

const TINY: &str = r#"
[tiny]
about = "a three-point spawn sweep"
runs = 3
warmup = 0

[[tiny.case]]
scenario = "spawn"
tasks = [10, 100, "1k"]
seed = "skynet"   # a real tag (unknown ones are refused); no skynet point here
"#;

#[test]
fn a_dry_run_of_seeds_prints_its_cases_and_runs_nothing() {
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("never");
    let fixtures = fixtures();
    let output = taskbench(&[
        "--contestants",
        fixtures.to_str().unwrap(),
        "run",
        "--preset",
        "seeds",
        "--contestant",
        "fixture-honest",
        "--dry-run",
        "--out",
        folder.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("11 points × 1 contestant = 11 cases · about "),
        "{text}"
    );
    for seed in [
        "concurrency-benchmarks",
        "bluebird-doxbee",
        "bluebird-parallel",
        "async-bench",
        "ghc-1523",
    ] {
        assert!(text.contains(seed), "{seed}: {text}");
    }
    assert!(text.contains("estimated time: "), "{text}");
    assert!(!folder.exists(), "a dry run writes nothing");
}

#[test]
fn presets_lists_user_presets_and_names_a_bad_field() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(&good, TINY).unwrap();
    let output = taskbench(&["presets", "--preset-file", good.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).unwrap();
    for name in ["quick", "seeds", "million", "runtime", "tiny"] {
        assert!(text.contains(name), "{name}: {text}");
    }
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, TINY.replace("tasks =", "taks =")).unwrap();
    let output = taskbench(&["presets", "--preset-file", bad.to_str().unwrap()]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("preset 'tiny': case 1: unknown field `taks` (spawn takes tasks"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn a_sweep_stores_seed_tags_fits_outliers_warnings_and_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.toml");
    std::fs::write(&file, TINY).unwrap();
    let out = dir.path().join("out");
    let fixtures = fixtures();
    let output = taskbench(&[
        "--contestants",
        fixtures.to_str().unwrap(),
        "run",
        "--preset-file",
        file.to_str().unwrap(),
        "--preset",
        "tiny",
        "--contestant",
        "fixture-honest",
        // The per-point and per-task tables are on the terminal only when asked for.
        "--tables",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = read_json(&out.join("results.json"));
    let points = results["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for point in points {
        assert_eq!(point["seed"], "skynet");
        let row = &point["rows"][0];
        assert_eq!(
            row["runs_ok"], row["runs"],
            "every run is valid: {}",
            row["problems"]
        );
        assert_eq!(row["time_runs"], 3, "the preset's runs = 3: {row}");
        assert!(row["outliers"].is_array(), "{row}");
        assert!(row["elapsed"]["median_ci"]["low"].is_number(), "{row}");
    }
    let text = String::from_utf8(output.stdout).unwrap();
    // Piped, the terminal width is unknown: tables, notes and warnings keep to 100 columns.
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(
        widest <= 100,
        "piped tables fit 100 columns ({widest}):\n{text}"
    );
    assert!(
        text.contains("spawn · per-task cost · tasks = 10, 100, 1000"),
        "{text}"
    );

    let fits = results["fits"].as_array().unwrap();
    let metrics: Vec<&str> = fits.iter().map(|f| f["metric"].as_str().unwrap()).collect();
    assert_eq!(metrics, ["overhead_ns", "cpu_ns", "peak_rss_bytes"]);
    for fit in fits {
        assert_eq!(
            (&fit["contestant"], &fit["scenario"], &fit["param"]),
            (&"fixture-honest".into(), &"spawn".into(), &"tasks".into())
        );
        let sizes: Vec<u64> = fit["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["n"].as_u64().unwrap())
            .collect();
        assert_eq!(sizes, [10, 100, 1_000]);
    }
    assert!(results["warnings"].is_array());
    let machine = &results["machine"];
    assert!(machine["cores"].as_u64().unwrap() >= 1);
    assert!(
        machine["load_during"].as_array().unwrap().len() >= 3,
        "{machine}"
    );
    // The condition probe: at the start, as points begin (a few seconds apart), at the end;
    // one line of it.
    let probes = machine["condition"]["samples"].as_array().unwrap();
    let at: Vec<&str> = probes.iter().map(|p| p["case"].as_str().unwrap()).collect();
    assert_eq!(
        (at.first(), at.last()),
        (Some(&"start"), Some(&"end")),
        "{machine}"
    );
    assert!(
        at.len() <= machine["load_during"].as_array().unwrap().len() + 2,
        "{machine}"
    );
    for probe in probes {
        assert!(
            probe["timer_20ms_late_ns"].as_f64().unwrap() >= 0.0,
            "{probe}"
        );
        assert!(probe["cpu_loop_ns"].as_f64().unwrap() > 0.0, "{probe}");
    }
    let condition_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("machine: timer 1 ms +"))
        .collect();
    assert_eq!(condition_lines.len(), 1, "{text}");
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("### spawn · per-task cost"), "{md}");
}
