//! Steps of a case's sessions and of a release sweep: where they start, their size, and the
//! gate's newest step.

use super::*;
use crate::history::series::{Observation, Processes, along_releases, along_sessions};
use stats::{CHANGE_SETTINGS, SplitMix64};

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
        processes: Processes::default(),
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

/// A sweep's releases `go@1.23.0` … in order, each with `n` processes around `level(i)`.
fn sweep_with_processes(levels: &[f64], n: usize, rng: &mut SplitMix64) -> Vec<Observation> {
    (levels.iter().enumerate())
        .map(|(i, &level)| {
            let time: Vec<f64> = (0..n).map(|_| noisy(level, rng)).collect();
            Observation {
                processes: Processes {
                    time: time
                        .iter()
                        .map(|t| t * (1.0 + 0.1 * (rng.next_u64() % 2) as f64))
                        .collect(),
                    peak_rss: vec![10e6; n],
                },
                ..observation(&format!("go@1.23.{i}"), 1, level)
            }
        })
        .collect()
}

#[test]
fn a_sweep_with_processes_names_a_release_held_by_one_release_of_them() {
    // go1.23.12 fast between slow releases (as measured here): one figure a side of it is
    // no segment among releases' medians, ten processes are.
    let mut rng = SplitMix64::new(10);
    let mut levels = vec![280e6; 6];
    levels.push(200e6);
    levels.extend([280e6; 5]);
    let observations = sweep_with_processes(&levels, 10, &mut rng);
    let series = along_releases(&observations);
    assert_eq!(series[0].groups.len(), 12, "the processes come along");
    let found = steps(series[0].clone(), &CHANGE_SETTINGS);
    let named: Vec<&str> = (found.steps.iter())
        .map(|s| found.at(s).release.as_deref().unwrap())
        .collect();
    assert_eq!(named, ["go@1.23.6", "go@1.23.7"], "{:?}", found.steps);
    let [into, out] = &found.steps[..] else {
        unreachable!()
    };
    assert!((into.ratio - 200.0 / 280.0).abs() < 0.03, "{}", into.ratio);
    assert_eq!((into.before, into.after, out.after), (6, 1, 5), "releases");
    let medians_only = Series {
        groups: Vec::new(),
        ..series[0].clone()
    };
    assert_eq!(
        steps(medians_only, &CHANGE_SETTINGS).steps,
        [],
        "one figure is no segment"
    );
    let rss = steps(series[1].clone(), &CHANGE_SETTINGS);
    assert_eq!(rss.steps, [], "peak RSS is flat");
}

#[test]
fn a_release_missing_its_processes_leaves_the_sweep_to_its_medians() {
    let mut rng = SplitMix64::new(11);
    let mut observations = sweep_with_processes(&[1.0, 1.0, 1.0, 2.0, 2.0, 2.0], 5, &mut rng);
    observations[2].processes = Processes::default();
    let series = along_releases(&observations);
    assert!(series[0].groups.is_empty());
    assert_eq!(series[0].values.len(), 6);
}

#[test]
fn steps_smaller_than_the_minimum_change_are_left_out_either_way() {
    let step = |before: f64, after: f64| Step {
        index: 1,
        ratio: after / before,
        levels: (before, after),
        p_value: 0.001,
        before: 3,
        after: 3,
    };
    let series = along_sessions(&[observation("tokio", 1, 1.0), observation("tokio", 2, 2.0)]);
    let mut found = [SeriesSteps {
        series: series[0].clone(),
        steps: vec![
            step(100.0, 109.0),
            step(100.0, 111.0),
            step(100.0, 91.5),
            step(100.0, 90.0),
            step(-2.0, 5.0),
        ],
    }];
    assert_eq!(at_least(&mut found, 0.10), 2);
    let kept: Vec<(f64, f64)> = found[0].steps.iter().map(|s| s.levels).collect();
    // 0.90 is 11 % faster on the log scale (1 / 0.9 = 1.11); 0.915 is 9 %.
    assert_eq!(kept, [(100.0, 111.0), (100.0, 90.0), (-2.0, 5.0)]);
    assert_eq!(at_least(&mut found, 0.0), 0, "every step by default");
}
