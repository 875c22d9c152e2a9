//! The series change points are looked for in (analysis/change_points.rs), made from the
//! history's sessions: each case's figures in the order its sessions started, and each
//! release sweep's figures in release order (`go@1.22.0`, `go@1.22.1`, …), so that
//! `history --changes` names the release where a step starts as `bisect` does.

use super::change_points::{Along, Figure, Place, Series, SeriesSteps, steps};
use super::releases::release_order;
use crate::stats::{CHANGE_SETTINGS, median};
use catalogue::Point;

/// The steps of every series of `observations` at the default settings: each case along
/// its sessions, then each release sweep along its releases.
pub fn history_steps(observations: &[Observation]) -> Vec<SeriesSteps> {
    let mut series = along_sessions(observations);
    series.extend(along_releases(observations));
    (series.into_iter())
        .map(|s| steps(s, &CHANGE_SETTINGS))
        .collect()
}

/// A place's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    pub place: Place,
    pub time: Option<f64>,
    pub peak_rss: Option<f64>,
}

/// One session's valid figures of a case, as the history holds them.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub point: Point,
    pub contestant: String,
    pub place: Place,
    pub time: Option<f64>,
    pub peak_rss: Option<f64>,
}

/// Each case's time and peak RSS in the order its sessions started; `observations` in
/// any order.
pub fn along_sessions(observations: &[Observation]) -> Vec<Series> {
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
/// sessions' (a sweep run twice is one series), its place the newest of them.
pub fn along_releases(observations: &[Observation]) -> Vec<Series> {
    let mut releases: Vec<(&Point, &str, Vec<u64>, &Observation)> = observations
        .iter()
        .filter(|o| !o.contestant.contains(' '))
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
                Figures {
                    place,
                    time: of(|o| o.time),
                    peak_rss: of(|o| o.peak_rss),
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
/// that figure.
pub fn both_figures(
    point: &Point,
    contestant: &str,
    along: Along,
    figures: &[Figures],
) -> [Series; 2] {
    let series = |figure: Figure| {
        let kept: Vec<(Place, f64)> = (figures.iter())
            .filter_map(|f| {
                let value = match figure {
                    Figure::Time => f.time,
                    Figure::PeakRss => f.peak_rss,
                };
                Some((f.place.clone(), value?))
            })
            .collect();
        Series {
            point: point.clone(),
            contestant: contestant.to_string(),
            figure,
            along,
            values: kept.iter().map(|k| k.1).collect(),
            places: kept.into_iter().map(|k| k.0).collect(),
        }
    };
    [series(Figure::Time), series(Figure::PeakRss)]
}
