//! Change points through the command line: a store of sessions of one fixture run, its time
//! made 30 % slower from a given session on, read back by `history --changes` (the step
//! named at that session, the other cases counted as having none) and gated by `compare
//! --fail-on-change` (a NEW that holds the step fails, exit 1; an unchanged history
//! passes; without a threshold the flag is refused, exit 2).

use super::session::unstored_run;
use super::util::{QUICK, stderr, taskbench_within};
use analysis::{Apart, summarize};
use results::Results;
use stats::SplitMix64;
use std::path::Path;
use store::{Location, Provenance};

/// One run of `fixture-x`, not stored.
fn measured() -> Results {
    unstored_run(&[("x", "touch-1-20")], "10")
}

/// `base` as a session started on `day`, its time × `factor` with ±1 % of seeded noise.
fn session(base: &Results, day: usize, factor: f64, rng: &mut SplitMix64) -> Results {
    let mut results = base.clone();
    let noise = 1.0 + 0.02 * (rng.next_u64() as f64 / u64::MAX as f64 - 0.5);
    let scale = |ns: u64| (ns as f64 * factor * noise) as u64;
    for figures in results.runs.iter_mut().filter_map(|r| r.figures.as_mut()) {
        figures.elapsed_ns = figures.elapsed_ns.map(scale);
        figures.iterations_ns = figures.iterations_ns.iter().map(|&ns| scale(ns)).collect();
        figures.overhead_ns = figures.overhead_ns.map(|ns| scale(ns as u64) as i64);
    }
    results.points = summarize(&results.runs, &Apart::none());
    results.platform.started = format!("2026-11-{day:02}T00:00:00Z");
    results
}

/// A store in `dir` of one session a day, each × its factor.
fn store_of(dir: &Path, base: &Results, factors: &[f64], rng: &mut SplitMix64) -> String {
    let path = dir.join("taskbench.sqlite");
    let mut db = store::open(&Location::Sqlite(path.clone())).unwrap();
    for (day, factor) in factors.iter().enumerate() {
        let results = session(base, day + 1, *factor, rng);
        store::record(&mut db, &results, &Provenance::default()).unwrap();
    }
    path.to_str().unwrap().to_string()
}

/// `results` as a results folder in `dir`.
fn folder(dir: &Path, name: &str, results: &Results) -> String {
    let path = dir.join(name);
    std::fs::create_dir(&path).unwrap();
    let text = serde_json::to_string(results).unwrap();
    std::fs::write(path.join("results.json"), text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn history_names_the_session_where_a_step_starts_and_the_gate_fails_on_it() {
    let base = measured();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = SplitMix64::new(37);
    let mut factors = vec![1.0; 16];
    factors.extend([1.3; 3]);
    let slowed = store_of(dir.path(), &base, &factors, &mut rng);

    let history = taskbench_within(&["history", "--store", &slowed, "--changes"], QUICK);
    let said = String::from_utf8_lossy(&history.stdout);
    assert!(history.status.success(), "{}", stderr(&history));
    let step = said
        .lines()
        .find(|l| l.contains(": step "))
        .unwrap_or_default();
    assert!(
        step.starts_with("spawn tasks=10 · fixture-x · time: step +3")
            && step.contains(" at 2026-11-17 00:00:00, after 2026-11-16 00:00:00 (p=0.00"),
        "{said}"
    );
    assert!(step.ends_with("16 before / 3 after"), "{said}");
    assert!(said.contains("1 of 2 series"), "peak RSS has none: {said}");
    // --min-change past the step leaves it out, and says so.
    let args = [
        "history",
        "--store",
        &slowed,
        "--changes",
        "--min-change",
        "40%",
    ];
    let larger = String::from_utf8_lossy(&taskbench_within(&args, QUICK).stdout).to_string();
    assert!(!larger.contains(": step ") && larger.contains("1 step(s) smaller than 40 % left out"));
    // The trend chart draws the step as its one thick stroke.
    let (page, flat_page) = (dir.path().join("trend.html"), dir.path().join("flat.html"));
    let page_of = |store: &str, path: &Path| {
        let args = [
            "history",
            "--store",
            store,
            "--export-html",
            path.to_str().unwrap(),
        ];
        assert!(taskbench_within(&args, QUICK).status.success());
        std::fs::read_to_string(path).unwrap()
    };
    assert_eq!(
        page_of(&slowed, &page)
            .matches(r#"stroke-width="5""#)
            .count(),
        1
    );

    let base_folder = folder(dir.path(), "base", &base);
    let gate = |store: &str, new: &str, extra: &[&str]| {
        let mut args = vec![
            "compare",
            &base_folder,
            new,
            "--store",
            store,
            "--fail-on-change",
        ];
        args.extend_from_slice(extra);
        taskbench_within(&args, QUICK)
    };
    let slow_new = folder(dir.path(), "slow", &session(&base, 20, 1.3, &mut rng));
    let failed = gate(&slowed, &slow_new, &["--fail-if-slower", "10%"]);
    let error = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{error}");
    assert!(
        error.contains("change point(s) among the newest sessions"),
        "{error}"
    );
    assert!(error.contains("at 2026-11-17 00:00:00"), "{error}");
    let out = String::from_utf8_lossy(&failed.stdout);
    assert!(
        out.contains("gate (--fail-on-change): 1 series judged"),
        "{out}"
    );

    let refused = gate(&slowed, &slow_new, &[]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--fail-if-slower or --fail-if-bigger"));

    let flat_dir = tempfile::tempdir().unwrap();
    let flat = store_of(flat_dir.path(), &base, &[1.0; 19], &mut rng);
    let same_new = folder(dir.path(), "same", &session(&base, 20, 1.0, &mut rng));
    assert!(!page_of(&flat, &flat_page).contains(r#"stroke-width="5""#));
    let passed = gate(&flat, &same_new, &["--fail-if-slower", "10%"]);
    assert_eq!(passed.status.code(), Some(0), "{}", stderr(&passed));
    assert!(String::from_utf8_lossy(&passed.stdout).contains("gate passed: no change point"));
}
