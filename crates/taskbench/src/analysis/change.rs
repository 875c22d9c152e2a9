//! Two runs of the same cases against each other (`taskbench compare BASE NEW`): for each
//! point and contestant both have, the ratio NEW / BASE of the pooled medians — elapsed
//! over the time processes' iterations, peak RSS and CPU over the memory processes — with
//! its two-level bootstrap interval (processes, then iterations, each side resampled on
//! its own, as the tables' × best), and a verdict: a change only when the interval
//! excludes 1.

use super::cases::{Case, PointKey, group};
use crate::run::RunRecord;
use crate::stats::{Interval, RESAMPLES, nested_ratio_ci, pooled_median};

/// What a ratio says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// NEW is lower (faster, smaller): the interval lies below 1.
    Lower,
    /// NEW is higher (slower, bigger): the interval lies above 1.
    Higher,
    /// The interval holds 1: these runs cannot tell the two apart.
    NoChange,
}

/// NEW / BASE of one figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub ratio: f64,
    pub interval: Option<Interval>,
    pub verdict: Verdict,
}

/// The changes of one point and contestant.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseChange {
    pub point: String,
    pub contestant: String,
    pub time: Option<Change>,
    pub peak_rss: Option<Change>,
    pub cpu: Option<Change>,
}

/// Every point and contestant both `base` and `new` measured validly.
pub fn changes(base: &[RunRecord], new: &[RunRecord]) -> Vec<CaseChange> {
    let base_points = group(base);
    let mut out = Vec::new();
    for point in group(new) {
        let Some(base_point) = base_points.iter().find(|p| p.key == point.key) else {
            continue;
        };
        for case in &point.cases {
            let Some(base_case) = base_point
                .cases
                .iter()
                .find(|c| c.contestant == case.contestant)
            else {
                continue;
            };
            let memory = |c: &Case, figure: fn(&RunRecord) -> Option<f64>| -> Vec<Vec<f64>> {
                c.memory_runs()
                    .into_iter()
                    .filter_map(figure)
                    .map(|v| vec![v])
                    .collect()
            };
            let rss = |r: &RunRecord| r.figures.as_ref().map(|f| f.peak_rss_bytes as f64);
            let cpu = |r: &RunRecord| r.figures.as_ref().map(|f| f.cpu_ns as f64);
            out.push(CaseChange {
                point: label(&point.key, case),
                contestant: case.contestant.to_string(),
                time: change(&base_case.iteration_groups(), &case.iteration_groups()),
                peak_rss: change(&memory(base_case, rss), &memory(case, rss)),
                cpu: change(&memory(base_case, cpu), &memory(case, cpu)),
            });
        }
    }
    out
}

fn label(key: &PointKey, case: &Case) -> String {
    match key {
        PointKey::Scenario(_) => case.records[0].point_label(),
        PointKey::Command => "command".into(),
    }
}

/// Processes each side needs before a verdict: one process's spread says nothing of the
/// next one's, and a bootstrap of one group gives an interval of no width.
pub const MIN_PROCESSES: usize = 2;

/// NEW / BASE of pooled medians with its interval; `None` without values on both sides.
pub fn change(base: &[Vec<f64>], new: &[Vec<f64>]) -> Option<Change> {
    let (b, n) = (pooled_median(base)?, pooled_median(new)?);
    if b <= 0.0 {
        return None;
    }
    let enough =
        |groups: &[Vec<f64>]| groups.iter().filter(|g| !g.is_empty()).count() >= MIN_PROCESSES;
    let interval = if enough(base) && enough(new) {
        nested_ratio_ci(new, base, RESAMPLES)
    } else {
        None
    };
    let verdict = match interval {
        Some(i) if i.low > 1.0 => Verdict::Higher,
        Some(i) if i.high < 1.0 => Verdict::Lower,
        _ => Verdict::NoChange,
    };
    Some(Change {
        ratio: n / b,
        interval,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three processes of five iterations around `centre`.
    fn processes(centre: f64) -> Vec<Vec<f64>> {
        (0..3)
            .map(|p| {
                (0..5)
                    .map(|i| centre * (1.0 + 0.01 * (p * 5 + i) as f64 / 15.0))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_same_figures_are_no_change_and_a_doubling_is_one() {
        let same = change(&processes(100.0), &processes(100.0)).unwrap();
        assert_eq!(same.ratio, 1.0);
        assert_eq!(same.verdict, Verdict::NoChange);
        let slower = change(&processes(100.0), &processes(200.0)).unwrap();
        // Pooled medians: the 8th of 15 values, 100 × (1 + 0.01 × 7/15) and twice that.
        assert!((slower.ratio - 2.0).abs() < 1e-12);
        assert_eq!(slower.verdict, Verdict::Higher);
        let faster = change(&processes(100.0), &processes(90.0)).unwrap();
        assert_eq!(faster.verdict, Verdict::Lower);
        // Spread wider than the difference: no verdict.
        let noisy = vec![vec![80.0], vec![100.0], vec![120.0]];
        let shifted = vec![vec![82.0], vec![102.0], vec![122.0]];
        assert_eq!(change(&noisy, &shifted).unwrap().verdict, Verdict::NoChange);
        assert!(change(&[], &processes(1.0)).is_none());
        // One process a side: a ratio, never a verdict.
        let one = change(&[vec![100.0]], &[vec![150.0]]).unwrap();
        assert_eq!(
            (one.ratio, one.interval, one.verdict),
            (1.5, None, Verdict::NoChange)
        );
    }
}
