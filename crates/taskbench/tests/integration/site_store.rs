//! Stores for the site's tests, made from one real run of three fixtures (`spawn` at two
//! sizes): sessions on two machines, a release sweep, and a bisect with its two steps —
//! each a copy of the run renamed, re-dated or re-machined and summarised again — and, for
//! the site's size and build time, a store of many sessions of many cases.

use super::session::unstored_run;
use analysis::{Apart, summarize};
use results::Results;
use serde_json::json;
use std::path::{Path, PathBuf};
use store::{Location, Provenance};

/// One run of fixtures x, y and z (z the reference, y written in Go), not stored.
pub(crate) fn measured() -> Results {
    let fixtures = [("x", "honest"), ("y", "touch-1-20"), ("z", "honest")];
    let mut results = unstored_run(&fixtures, "10,100");
    for info in &mut results.contestants {
        info.reference = info.name == "fixture-z";
        if info.name == "fixture-y" {
            info.language = "Go".into();
        }
    }
    results
}

/// `base` started on `day`, on machine `cpu`, its contestants renamed by `rename` (a name
/// not listed is dropped), only the runs at `tasks` where given, its times × `factor`.
pub(crate) struct Variant<'a> {
    pub(crate) day: u32,
    pub(crate) cpu: &'a str,
    pub(crate) rename: &'a [(&'a str, &'a str)],
    pub(crate) tasks: Option<u64>,
    pub(crate) factor: f64,
}

pub(crate) fn variant(base: &Results, v: &Variant) -> Results {
    let mut results = base.clone();
    let new_name = |name: &str| {
        v.rename
            .iter()
            .find(|(from, _)| *from == name)
            .map(|(_, to)| to.to_string())
    };
    results.runs.retain(|r| {
        new_name(&r.contestant).is_some()
            && v.tasks.is_none_or(|t| r.params.get("tasks") == Some(&t))
    });
    for run in &mut results.runs {
        run.contestant = new_name(&run.contestant).unwrap();
        if let Some(figures) = run.figures.as_mut() {
            let scale = |ns: u64| (ns as f64 * v.factor) as u64;
            figures.elapsed_ns = figures.elapsed_ns.map(scale);
            figures.iterations_ns = figures.iterations_ns.iter().map(|&ns| scale(ns)).collect();
            figures.overhead_ns = figures.overhead_ns.map(|ns| scale(ns as u64) as i64);
        }
    }
    results.contestants.retain(|c| new_name(&c.name).is_some());
    for info in &mut results.contestants {
        info.name = new_name(&info.name).unwrap();
        info.reference = info.name == "fixture-z";
    }
    results.points = summarize(&results.runs, &Apart::of(&results.contestants));
    results.platform.started = format!("2026-11-{:02}T00:00:00Z", v.day);
    results.platform.cpu = v.cpu.into();
    results
}

pub(crate) const MACHINE_A: &str = "Test CPU A";
pub(crate) const MACHINE_B: &str = "Test CPU B";
const SAME: &[(&str, &str)] = &[
    ("fixture-x", "fixture-x"),
    ("fixture-y", "fixture-y"),
    ("fixture-z", "fixture-z"),
];
const SWEEP: &[(&str, &str)] = &[
    ("fixture-x", "fixture-x@1.0.0"),
    ("fixture-y", "fixture-x@1.1.0"),
    ("fixture-z", "fixture-x@1.2.0"),
];

/// A store in `dir`: three sessions of the run on two machines (days 1 and 3 on A, 2 on
/// B), a sweep of three releases of fixture-x (day 4), a bisect of them whose two steps
/// are sessions in its folder (days 5 and 6), and a session of a seed's workload (#7,
/// started first); its path and the bisect's folder.
pub(crate) fn example_store(dir: &Path, base: &Results) -> (PathBuf, String) {
    let path = dir.join("taskbench.sqlite");
    let mut db = store::open(&Location::Sqlite(path.clone())).unwrap();
    let plain = |day, cpu, factor| Variant {
        day,
        cpu,
        rename: SAME,
        tasks: None,
        factor,
    };
    for v in [
        plain(1, MACHINE_A, 1.0),
        plain(2, MACHINE_B, 1.3),
        plain(3, MACHINE_A, 1.1),
    ] {
        store::record(&mut db, &variant(base, &v), &Provenance::default()).unwrap();
    }
    let sweep = Variant {
        day: 4,
        cpu: MACHINE_A,
        rename: SWEEP,
        tasks: None,
        factor: 1.0,
    };
    store::record(&mut db, &variant(base, &sweep), &Provenance::default()).unwrap();
    let folder = dir.join("bisect").display().to_string();
    let steps = [
        ("01-fixture-x@1.0.0-fixture-x@1.2.0", [SWEEP[0], SWEEP[2]]),
        ("02-fixture-x@1.0.0-fixture-x@1.1.0", [SWEEP[0], SWEEP[1]]),
    ];
    for (k, (name, rename)) in steps.iter().enumerate() {
        let step = Variant {
            day: 5 + k as u32,
            cpu: MACHINE_A,
            rename,
            tasks: Some(100),
            factor: 1.0,
        };
        let provenance = Provenance {
            folder: Some(format!("{folder}/{name}")),
            ..Provenance::default()
        };
        store::record(&mut db, &variant(base, &step), &provenance).unwrap();
    }
    let comparison = |base: &str, new: &str, ratio: f64| {
        json!({"base": base, "new": new, "ratio": ratio, "interval": {"low": ratio * 0.95, "high": ratio * 1.05},
               "decision": "changed", "runs": 1, "processes": 3})
    };
    let record = json!({
        "range": "fixture-x@1.0.0..1.2.0",
        "scenario": "spawn",
        "figure": "time",
        "threshold": 0.1,
        "probes": 1,
        "wall_seconds": 42.0,
        "releases": ["fixture-x@1.0.0", "fixture-x@1.1.0", "fixture-x@1.2.0"],
        "steps": [comparison("fixture-x@1.0.0", "fixture-x@1.2.0", 1.5), comparison("fixture-x@1.0.0", "fixture-x@1.1.0", 1.5)],
        "found": [comparison("fixture-x@1.0.0", "fixture-x@1.1.0", 1.5)],
        "undecided": [],
        "drifts": [],
        "skipped": [],
        "stopped": false,
        "runs": steps.iter().map(|(name, _)| format!("{folder}/{name}")).collect::<Vec<_>>(),
    });
    store::record_bisect(&mut db, "2026-11-05T00:00:00Z", &folder, &record).unwrap();
    store::record(&mut db, &as_seed(base), &Provenance::default()).unwrap();
    (path, folder)
}

/// The run's `spawn tasks=100` as a session of skynet's seed workload (`skynet
/// size=1000000`, the seed's own), on machine A, started before every other session: what
/// seeds.html shows beside the seed's published figures.
fn as_seed(base: &Results) -> Results {
    let same = Variant {
        day: 1,
        cpu: MACHINE_A,
        rename: SAME,
        tasks: Some(100),
        factor: 1.0,
    };
    let mut seed = variant(base, &same);
    for run in &mut seed.runs {
        run.scenario = "skynet".into();
        run.params.clear();
        run.params.insert("size".into(), 1_000_000);
    }
    seed.points = summarize(&seed.runs, &Apart::of(&seed.contestants));
    seed.platform.started = "2026-10-31T00:00:00Z".into();
    seed
}

/// Adds to the store at `path` the sessions numbered `sessions` (each with `cases` cases:
/// the run's fixture-x at `spawn tasks=100` copied to contestants `rt-01`, … at sizes 100,
/// 200, …), on one machine, a day apart, each's figures × a factor of seeded noise.
pub(crate) fn many_sessions(
    path: &Path,
    base: &Results,
    sessions: std::ops::Range<usize>,
    cases: (usize, usize),
) {
    let mut template = base.clone();
    let one: Vec<_> = (base.runs.iter())
        .filter(|r| r.contestant == "fixture-x" && r.params.get("tasks") == Some(&100))
        .cloned()
        .collect();
    template.runs.clear();
    template.contestants.clear();
    let info = base
        .contestants
        .iter()
        .find(|c| c.name == "fixture-x")
        .unwrap();
    for c in 1..=cases.0 {
        let name = format!("rt-{c:02}");
        let mut described = info.clone();
        described.name = name.clone();
        template.contestants.push(described);
        for p in 1..=cases.1 {
            for run in &one {
                let mut run = run.clone();
                run.contestant = name.clone();
                run.params.insert("tasks".into(), 100 * p as u64);
                template.runs.push(run);
            }
        }
    }
    template.points = summarize(&template.runs, &Apart::none());
    let points = serde_json::to_value(&template.points).unwrap();
    let mut db = store::open(&Location::Sqlite(path.to_path_buf())).unwrap();
    let mut rng = stats::SplitMix64::new(7 + sessions.start as u64);
    for s in sessions {
        let mut results = template.clone();
        let factor = 1.0 + 0.04 * (rng.next_u64() as f64 / u64::MAX as f64 - 0.5);
        results.points = serde_json::from_value(scaled(&points, factor)).unwrap();
        let (month, day) = (1 + s / 28 % 12, 1 + s % 28);
        results.platform.started = format!("{}-{month:02}-{day:02}T00:00:00Z", 2026 + s / 336);
        store::record(&mut db, &results, &Provenance::default()).unwrap();
    }
}

/// Every figure of a summary (medians, bounds, extremes) × `factor`.
fn scaled(value: &serde_json::Value, factor: f64) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let figure = [
                        "median",
                        "low",
                        "high",
                        "min",
                        "max",
                        "overhead_ns",
                        "ns_per_task",
                    ]
                    .contains(&k.as_str());
                    let v = match v.as_f64() {
                        Some(x) if figure => json!(x * factor),
                        _ => scaled(v, factor),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| scaled(v, factor)).collect()),
        other => other.clone(),
    }
}
