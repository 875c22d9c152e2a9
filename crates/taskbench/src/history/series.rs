//! The series change points are looked for in (history/change_points.rs), made from the
//! history's sessions: each case's figures in the order its sessions started, and each
//! release sweep's figures in release order (`go@1.22.0`, `go@1.22.1`, …), so that
//! `history --changes` names the release where a step starts as `bisect` does. Along
//! releases each release's figures are its processes' (where the store kept its runs): a
//! sweep's releases run interleaved in one session, so one process is as good as another
//! between them, and a release measured by ten processes weighs as ten.

use super::change_points::{Along, Figure, Place, Series, SeriesSteps, steps};
use analysis::group;
use catalogue::Point;
use contestant::releases::{is_release_variant, release_order};
use run::RunRecord;
use stats::{CHANGE_SETTINGS, median};

/// The steps of every series of `observations` at the default settings: each case along
/// its sessions, then each release sweep along its releases.
pub(crate) fn history_steps(observations: &[Observation]) -> Vec<SeriesSteps> {
    let mut series = along_sessions(observations);
    series.extend(along_releases(observations));
    (series.into_iter())
        .map(|s| steps(s, &CHANGE_SETTINGS))
        .collect()
}

/// A place's figures.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Figures {
    pub(crate) place: Place,
    pub(crate) time: Option<f64>,
    pub(crate) peak_rss: Option<f64>,
    pub(crate) processes: Processes,
}

/// Each valid process's figure of a case in one session: its time processes' median
/// iteration (less the ideal where the scenario has one, as the history's time is), its
/// memory processes' peak RSS. Empty where the runs are not at hand.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Processes {
    pub(crate) time: Vec<f64>,
    pub(crate) peak_rss: Vec<f64>,
}

/// One session's valid figures of a case, as the history holds them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Observation {
    pub(crate) point: Point,
    pub(crate) contestant: String,
    pub(crate) place: Place,
    pub(crate) time: Option<f64>,
    pub(crate) peak_rss: Option<f64>,
    pub(crate) processes: Processes,
}

/// Each case's processes among one session's `records`, by point and contestant.
pub(crate) fn processes_of(records: &[RunRecord]) -> Vec<(Point, String, Processes)> {
    let mut out = Vec::new();
    for point in group(records) {
        let ideal = point.key.to_scenario().map_or(0, |s| s.ideal_ns()) as f64;
        for case in &point.cases {
            let time = (case.iteration_groups().iter())
                .filter_map(|g| median(g))
                .map(|m| if ideal > 0.0 { m - ideal } else { m })
                .collect();
            let peak_rss = (case.memory_runs().iter())
                .filter_map(|r| Some(r.figures.as_ref()?.peak_rss_bytes as f64))
                .collect();
            let processes = Processes { time, peak_rss };
            out.push((point.key.clone(), case.contestant.to_string(), processes));
        }
    }
    out
}

/// Each case's time and peak RSS in the order its sessions started; `observations` in
/// any order.
pub(crate) fn along_sessions(observations: &[Observation]) -> Vec<Series> {
    let mut sorted: Vec<&Observation> = observations.iter().collect();
    sorted.sort_by(|a, b| {
        (&a.point, &a.contestant, &a.place.started).cmp(&(
            &b.point,
            &b.contestant,
            &b.place.started,
        ))
    });
    let mut out = Vec::new();
    for case in sorted.chunk_by(|a, b| (&a.point, &a.contestant) == (&b.point, &b.contestant)) {
        let places: Vec<Figures> = (case.iter())
            .map(|o| Figures {
                place: o.place.clone(),
                time: o.time,
                peak_rss: o.peak_rss,
                processes: Processes::default(),
            })
            .collect();
        out.extend(both_figures(
            &case[0].point,
            &case[0].contestant,
            Along::Sessions,
            &places,
        ));
    }
    out
}

/// Each release sweep's time and peak RSS, oldest release first: per point, the release
/// variants of one contestant (two or more), each release's figure the median of its
/// sessions' (a sweep run twice is one series) and its processes theirs pooled, its place
/// the newest of them.
pub(crate) fn along_releases(observations: &[Observation]) -> Vec<Series> {
    let mut releases: Vec<(&Point, &str, Vec<u64>, &Observation)> = observations
        .iter()
        .filter(|o| is_release_variant(&o.contestant))
        .filter_map(|o| {
            let order = release_order(&o.contestant)?;
            let (family, _) = o.contestant.split_once('@')?;
            Some((&o.point, family, order, o))
        })
        .collect();
    releases.sort_by(|a, b| {
        (a.0, a.1, &a.2, &a.3.contestant, &a.3.place.started).cmp(&(
            b.0,
            b.1,
            &b.2,
            &b.3.contestant,
            &b.3.place.started,
        ))
    });
    let mut out = Vec::new();
    for sweep in releases.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let places: Vec<Figures> = sweep
            .chunk_by(|a, b| a.3.contestant == b.3.contestant)
            .map(|release| {
                let of = |figure: fn(&Observation) -> Option<f64>| {
                    let values: Vec<f64> = release.iter().filter_map(|r| figure(r.3)).collect();
                    median(&values)
                };
                let newest = release[release.len() - 1].3;
                let place = Place {
                    release: Some(newest.contestant.clone()),
                    ..newest.place.clone()
                };
                let pooled = |figure: fn(&Processes) -> &Vec<f64>| -> Vec<f64> {
                    (release.iter())
                        .flat_map(|r| figure(&r.3.processes).iter().copied())
                        .collect()
                };
                Figures {
                    place,
                    time: of(|o| o.time),
                    peak_rss: of(|o| o.peak_rss),
                    processes: Processes {
                        time: pooled(|p| &p.time),
                        peak_rss: pooled(|p| &p.peak_rss),
                    },
                }
            })
            .collect();
        if places.len() > 1 {
            out.extend(both_figures(
                sweep[0].0,
                sweep[0].1,
                Along::Releases,
                &places,
            ));
        }
    }
    out
}

/// The time series and the peak RSS series of one case, each over the places that have
/// that figure, with each place's processes where every one of them has some.
pub(crate) fn both_figures(
    point: &Point,
    contestant: &str,
    along: Along,
    figures: &[Figures],
) -> [Series; 2] {
    let series = |figure: Figure| {
        let kept: Vec<(Place, f64, &Vec<f64>)> = (figures.iter())
            .filter_map(|f| {
                let (value, processes) = match figure {
                    Figure::Time => (f.time, &f.processes.time),
                    Figure::PeakRss => (f.peak_rss, &f.processes.peak_rss),
                };
                Some((f.place.clone(), value?, processes))
            })
            .collect();
        let groups = if kept.iter().all(|k| !k.2.is_empty()) {
            kept.iter().map(|k| k.2.clone()).collect()
        } else {
            Vec::new()
        };
        Series {
            point: point.clone(),
            contestant: contestant.to_string(),
            figure,
            along,
            values: kept.iter().map(|k| k.1).collect(),
            places: kept.into_iter().map(|k| k.0).collect(),
            groups,
        }
    };
    [series(Figure::Time), series(Figure::PeakRss)]
}
