//! `run --shard K/N` and `taskbench merge`: three shards of a run on the fixtures, merged,
//! hold exactly the unsharded run's cases; a missing shard, a repeated case and a second
//! machine are each named; machines side by side get a machine column and an overview each.

use super::util::{QUICK, fixtures, read_json, run_fixtures, stderr, taskbench_within};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const RUN: &[&str] = &[
    "--contestant",
    "fixture-honest,fixture-na,fixture-fail",
    "--scenario",
    "spawn,sleep",
    "--tasks",
    "10,100",
    "--delay-ms",
    "1",
    "--runs",
    "2",
    "--warmup",
    "0",
    "--no-store",
];

/// `taskbench run RUN EXTRA` on the fixtures into a folder of its own: the folder and the
/// results document.
fn run(extra: &[&str]) -> (tempfile::TempDir, Value) {
    run_fixtures(&[RUN, extra].concat())
}

fn merge(dirs: &[&Path], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["merge", "--quiet", "--out", out.to_str().unwrap()];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend_from_slice(extra);
    taskbench_within(&args, QUICK)
}

/// (contestant, point, outcome) of every row.
fn rows(results: &Value) -> BTreeSet<(String, String, String)> {
    let mut rows = BTreeSet::new();
    for point in results["points"].as_array().unwrap() {
        for row in point["rows"].as_array().unwrap() {
            rows.insert((
                row["contestant"].as_str().unwrap().to_string(),
                row["point"].as_str().unwrap().to_string(),
                row["outcome"].as_str().unwrap().to_string(),
            ));
        }
    }
    rows
}

/// (contestant, scenario, params, phase, run) of every record.
fn runs(results: &Value) -> BTreeSet<String> {
    let runs = results["runs"].as_array().unwrap().iter();
    runs.map(|r| {
        format!(
            "{} {} {} {} {}",
            r["contestant"], r["scenario"], r["params"], r["phase"], r["run"]
        )
    })
    .collect()
}

#[test]
fn three_shards_merged_are_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let (whole_dir, whole) = run(&[]);
    let whole_dir = whole_dir.path();
    let shards: Vec<_> = (1..=3)
        .map(|k| run(&["--shard", &format!("{k}/3")]))
        .collect();
    let parts: Vec<&Path> = shards.iter().map(|(dir, _)| dir.path()).collect();
    let mut seen = BTreeSet::new();
    for (k, (_, results)) in shards.iter().enumerate() {
        let mine = rows(results);
        assert!(!mine.is_empty(), "shard {} ran nothing", k + 1);
        assert!(seen.is_disjoint(&mine), "shards overlap: {mine:?}");
        seen.extend(mine);
    }
    assert_eq!(seen, rows(&whole), "the shards' cases are the run's");

    let merged_dir = dir.path().join("merged");
    let output = merge(&parts, &merged_dir, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let merged = read_json(&merged_dir.join("results.json"));
    assert_eq!(rows(&merged), rows(&whole));
    // Every measured, warm-up and idle run once, as in the unsharded run.
    assert_eq!(runs(&merged), runs(&whole));
    assert_eq!(merged["interrupted"], false);
    let command: Vec<&str> = merged["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(!command.contains(&"--shard"), "{command:?}");
    for file in [
        "results.md",
        "results.csv",
        "report.html",
        "runs.jsonl",
        "run.json",
    ] {
        assert!(merged_dir.join(file).exists(), "{file}");
    }
    // The merged folder reads like any run's.
    let shown = taskbench_within(&["show", merged_dir.to_str().unwrap()], QUICK);
    assert!(shown.status.success(), "{}", stderr(&shown));

    // A missing shard is named, and the merge is marked as not whole.
    let partial_dir = dir.path().join("partial");
    let output = merge(&[parts[0], parts[2]], &partial_dir, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("shard 2/3 is missing"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        read_json(&partial_dir.join("results.json"))["interrupted"],
        true
    );

    // A case in two folders of one machine is a repeat, not a part.
    let output = merge(&[whole_dir, parts[0]], &dir.path().join("x"), &[]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(error.contains("is in both"), "{error}");

    machines_side_by_side(whole_dir, dir.path());
}

/// A copy of `whole` that claims another CPU: refused, then merged side by side.
fn machines_side_by_side(whole: &Path, dir: &Path) {
    let other = dir.join("other");
    std::fs::create_dir(&other).unwrap();
    let mut results = read_json(&whole.join("results.json"));
    results["platform"]["cpu"] = "Fake CPU 9000".into();
    results["platform"]["cores"] = 64.into();
    std::fs::write(other.join("results.json"), results.to_string()).unwrap();

    let out = dir.join("mixed");
    let output = merge(&[whole, &other], &out, &[]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(error.contains("ran on 2 machines"), "{error}");
    assert!(error.contains("Fake CPU 9000 · 64 cores"), "{error}");
    assert!(error.contains("--mixed-machines"), "{error}");

    let output = merge(&[whole, &other], &out, &["--mixed-machines"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let merged = read_json(&out.join("results.json"));
    let labels: Vec<&str> = merged["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["m1", "m2"]);
    assert_eq!(
        rows(&merged).len(),
        2 * rows(&read_json(&whole.join("results.json"))).len()
    );
    let honest = rows(&merged)
        .into_iter()
        .filter(|(c, _, _)| c.starts_with("fixture-honest"))
        .map(|(c, _, _)| c)
        .collect::<BTreeSet<_>>();
    assert_eq!(
        honest.into_iter().collect::<Vec<_>>(),
        ["fixture-honest · m1", "fixture-honest · m2"]
    );
    // Ratios never cross machines: each machine's best row is the best of its point.
    for point in merged["points"].as_array().unwrap() {
        for machine in ["m1", "m2"] {
            let best = point["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["machine"] == machine && r["outcome"] == "valid")
                .expect("a valid row of each machine");
            assert_eq!(best["ratio_to_best"], 1.0, "{}", point["point"]);
            assert!(best["differs_from_best"].is_null(), "{}", point["point"]);
        }
    }
    let markdown = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(
        markdown.contains("| contestant | machine |"),
        "no machine column"
    );
    for machine in ["m1: ", "m2: Fake CPU 9000 · 64 cores"] {
        assert!(
            markdown.contains(&format!(
                "### overview · time × best (overhead where there is an ideal time) · {machine}"
            )),
            "no time overview of {machine}"
        );
    }
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    for id in ["overview-m1", "overview-m2", "overview-rss-m2"] {
        assert!(page.contains(&format!(r#"id="{id}""#)), "no {id}");
    }
}

#[test]
fn a_bad_shard_is_one_line_naming_it() {
    let fixtures = fixtures();
    let base = [
        "--contestants",
        fixtures.to_str().unwrap(),
        "run",
        "--dry-run",
    ];
    for (shard, expected) in [
        ("0/3", "'0/3': a shard is K/N with 1 ≤ K ≤ N"),
        ("2", "'2': a shard is K/N"),
        (
            "13/13",
            "--shard 13/13: the run has 12 cases, so part 13 would have none",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(RUN);
        args.extend(["--shard", shard]);
        let output = taskbench_within(&args, QUICK);
        assert!(!output.status.success(), "{shard}");
        let error = stderr(&output);
        assert!(error.contains(expected), "{shard}: {error}");
        let lines = error.trim().lines().filter(|l| !l.is_empty()).count();
        assert!(lines <= 3, "{shard}: {error}");
    }
    // A dry run of a shard says what it takes.
    let mut args = base.to_vec();
    args.extend_from_slice(RUN);
    args.extend(["--shard", "2/3"]);
    let output = taskbench_within(&args, QUICK);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("shard 2/3: 4 of 12 cases"), "{text}");
}
