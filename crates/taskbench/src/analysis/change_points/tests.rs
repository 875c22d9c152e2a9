//! Steps of a case's sessions and of a release sweep: where they start, their size, and the
//! gate's newest step.

use super::*;
use crate::analysis::change_series::{Observation, along_releases, along_sessions};
use crate::stats::{CHANGE_SETTINGS, SplitMix64};

/// A figure `level` with ±1 % of seeded noise.
fn noisy(level: f64, rng: &mut SplitMix64) -> f64 {
    level * (1.0 + 0.02 * (rng.next_u64() as f64 / u64::MAX as f64 - 0.5))
}

fn observation(contestant: &str, day: usize, time: f64) -> Observation {
    Observation {
        point: "pingpong pairs=100 rounds=100000".parse().unwrap(),
        contestant: contestant.into(),
        place: Place {
            started: format!("2026-11-{day:02}T00:00:00Z"),
            commit: Some(format!("c{day:02}")),
            ..Place::default()
        },
        time: Some(time),
        peak_rss: Some(10e6),
    }
}

#[test]
fn a_step_in_a_cases_sessions_names_the_session_where_it_starts() {
    let mut rng = SplitMix64::new(7);
    // Given out of order: the series is made in the order sessions started.
    let observations: Vec<Observation> = (1..=20)
        .rev()
        .map(|day| {
            let level = if day > 12 { 1.5e6 } else { 1e6 };
            observation("tokio", day, noisy(level, &mut rng))
        })
        .collect();
    let series = along_sessions(&observations);
    assert_eq!(series.len(), 2, "time and peak RSS");
    let time = steps(series[0].clone(), &CHANGE_SETTINGS);
    assert_eq!(time.series.figure, Figure::Time);
    let [step] = &time.steps[..] else {
        panic!("{:?}", time.steps)
    };
    assert_eq!((step.index, step.before, step.after), (12, 12, 8));
    assert_eq!(time.at(step).commit.as_deref(), Some("c13"));
    assert_eq!(time.before(step).commit.as_deref(), Some("c12"));
    assert!((step.ratio - 1.5).abs() < 0.02, "{}", step.ratio);
    let rss = steps(series[1].clone(), &CHANGE_SETTINGS);
    assert_eq!(rss.steps, [], "peak RSS is flat");
}

#[test]
fn a_release_sweep_is_ordered_by_release_and_its_step_named_by_release() {
    let mut rng = SplitMix64::new(8);
    // go@1.24.0 … 1.24.13 after go@1.23.0 … 1.23.12: 1.24.10 sorts after 1.24.9.
    let mut releases: Vec<(String, f64)> =
        (0..=12).map(|p| (format!("go@1.23.{p}"), 280e6)).collect();
    releases.extend((0..=13).map(|p| (format!("go@1.24.{p}"), 400e6)));
    let mut observations: Vec<Observation> = releases
        .iter()
        .rev()
        .map(|(name, level)| observation(name, 1, noisy(*level, &mut rng)))
        .collect();
    // A plain contestant and a --cpus subject are no release.
    observations.push(observation("go", 1, 1.0));
    observations.push(observation("go@1.24.0 cpus=2", 1, 1.0));
    let series = along_releases(&observations);
    assert_eq!(series.len(), 2);
    assert_eq!(series[0].along, Along::Releases);
    assert_eq!(series[0].contestant, "go");
    let names: Vec<&str> = (series[0].places.iter())
        .map(|p| p.release.as_deref().unwrap())
        .collect();
    assert_eq!(names.len(), 27);
    assert_eq!(
        (names[12], names[13], names[23]),
        ("go@1.23.12", "go@1.24.0", "go@1.24.10")
    );
    let found = steps(series[0].clone(), &CHANGE_SETTINGS);
    let [step] = &found.steps[..] else {
        panic!("{:?}", found.steps)
    };
    assert_eq!(found.at(step).release.as_deref(), Some("go@1.24.0"));
    assert_eq!(found.before(step).release.as_deref(), Some("go@1.23.12"));
    assert!((step.ratio - 400.0 / 280.0).abs() < 0.02, "{}", step.ratio);
}

#[test]
fn a_release_measured_twice_is_one_figure_the_median() {
    let observations = [
        observation("go@1.22.0", 1, 10.0),
        observation("go@1.22.0", 2, 30.0),
        observation("go@1.22.0", 3, 20.0),
        observation("go@1.23.0", 1, 5.0),
    ];
    let series = along_releases(&observations);
    assert_eq!(series[0].values, [20.0, 5.0]);
    assert_eq!(series[0].places[0].started, "2026-11-03T00:00:00Z");
}

#[test]
fn the_gate_takes_a_step_only_among_the_newest_figures_and_past_the_threshold() {
    let mut rng = SplitMix64::new(9);
    let series = |n: usize, slow_from: usize, factor: f64, rng: &mut SplitMix64| {
        let observations: Vec<Observation> = (1..=n)
            .map(|day| {
                let level = if day > slow_from { factor } else { 1.0 };
                observation("tokio", day, noisy(level * 1e6, rng))
            })
            .collect();
        steps(along_sessions(&observations)[0].clone(), &CHANGE_SETTINGS)
    };
    let recent = series(20, 17, 1.3, &mut rng);
    assert_eq!(newest_step(&recent, 5, 0.05).map(|s| s.index), Some(17));
    assert_eq!(newest_step(&recent, 5, 0.5), None, "30 % is within 50 %");
    let old = series(20, 10, 1.3, &mut rng);
    assert_eq!(old.steps.len(), 1);
    assert_eq!(
        newest_step(&old, 5, 0.05),
        None,
        "a step 10 sessions ago is history"
    );
    let faster = series(20, 17, 0.7, &mut rng);
    assert_eq!(faster.steps.len(), 1);
    assert_eq!(newest_step(&faster, 5, 0.05), None, "faster passes");
}
