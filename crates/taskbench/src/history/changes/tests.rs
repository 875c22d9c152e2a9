//! `compare --fail-on-change` on a store filled with the crate's fixture: a step held by the
//! newest sessions fails the gate, an unchanged history passes, and one slow session alone
//! is too short to be a step.

use super::*;
use crate::compare::gate::{Side, Thresholds};
use crate::history::change_gate::judge_changes;
use results::Results;
use stats::SplitMix64;
use store::{Provenance, STORE_FILE, open, record};

/// The fixture as a session started on `day`, every time figure × `factor` and ±1 % noise.
fn session(day: usize, factor: f64, rng: &mut SplitMix64) -> Results {
    let mut results = results::fake::results();
    let noise = 1.0 + 0.02 * (rng.next_u64() as f64 / u64::MAX as f64 - 0.5);
    let scale = |ns: u64| (ns as f64 * factor * noise) as u64;
    for run in &mut results.runs {
        let Some(figures) = run.figures.as_mut() else {
            continue;
        };
        figures.elapsed_ns = figures.elapsed_ns.map(scale);
        figures.iterations_ns = figures.iterations_ns.iter().map(|&ns| scale(ns)).collect();
        figures.overhead_ns = figures.overhead_ns.map(|ns| scale(ns as u64) as i64);
    }
    results.points = analysis::summarize(&results.runs, &analysis::Apart::none());
    results.platform.started = format!("2026-11-{day:02}T00:00:00Z");
    results
}

/// A store of `factors.len()` sessions, one a day, each × its factor; the last is NEW,
/// left out of the store as a results folder is. The gate at 10 % slower.
fn gate(factors: &[f64]) -> crate::history::change_gate::ChangeGate {
    let dir = tempfile::tempdir().unwrap();
    let location = Location::Sqlite(dir.path().join(STORE_FILE));
    let mut store = open(&location).unwrap();
    let mut rng = SplitMix64::new(37);
    let (newest, earlier) = factors.split_last().unwrap();
    for (day, factor) in earlier.iter().enumerate() {
        let results = session(day + 1, *factor, &mut rng);
        record(&mut store, &results, &Provenance::default()).unwrap();
    }
    let new = Side::of(session(factors.len(), *newest, &mut rng), "new".into());
    let series = with_newest(&location, &new).unwrap();
    assert!(series.iter().all(|s| s.values.len() == factors.len()));
    let thresholds = Thresholds {
        slower: Some(0.10),
        ..Thresholds::default()
    };
    judge_changes(series, &thresholds)
}

#[test]
fn a_step_held_by_the_newest_sessions_fails_the_change_gate() {
    let mut factors = vec![1.0; 17];
    factors.extend([1.3; 3]);
    let gate = gate(&factors);
    assert_eq!(
        gate.judged, 10,
        "ten cases' time; peak RSS has no threshold"
    );
    assert_eq!(gate.failures.len(), 10, "{:?}", gate.failures);
    for (found, step) in &gate.failures {
        assert_eq!(step.index, 17);
        assert_eq!(found.at(step).started, "2026-11-18T00:00:00Z");
        assert!((step.ratio - 1.3).abs() < 0.03, "{}", step.ratio);
    }
}

#[test]
fn an_unchanged_history_passes_and_one_slow_session_is_no_step() {
    assert_eq!(gate(&[1.0; 20]).failures, []);
    let mut one_slow = vec![1.0; 19];
    one_slow.push(1.3);
    assert_eq!(gate(&one_slow).failures, [], "one session cannot be a step");
    let too_short = gate(&[1.0, 1.0, 1.3, 1.3]);
    assert_eq!(too_short.too_short, too_short.judged);
}
