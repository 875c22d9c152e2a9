//! Rows of a point against each other: the references apart, then the best runtime (lowest
//! median elapsed) first, the inline cells after the runtimes, the ratio of
//! each median to the best's with a two-level bootstrap interval (processes, then
//! iterations, each row resampled on its own), and whether the difference is real: the
//! ratio's 95 % interval excludes 1. "n.s." never claims a tie, only that these runs
//! cannot tell the two apart.

use super::{CaseSummary, Outcome};
use stats::{Interval, RESAMPLES, ratio_interval};

/// Whether a ratio of medians differs from 1 significantly: its interval excludes 1.
pub(crate) fn differs(ratio: &Interval) -> bool {
    !ratio.contains(1.0)
}

/// Sorts rows: the references (`floor`) first, then the runtimes best first, then the inline
/// cells (tasks run inside their caller), then failures, then n/a; and sets each valid row's
/// ratio to the best runtime, its interval and its significance. A reference or an inline
/// cell is never the best: "best" means the best runtime whose tasks went through its
/// scheduler; a reference's ratio says how far below it the machine allows, an inline
/// cell's what skipping the scheduler saves. `samples` are each row's elapsed iterations,
/// grouped by time process.
pub(super) fn rank(mut rows: Vec<(CaseSummary, Vec<Vec<f64>>)>) -> Vec<CaseSummary> {
    let key = |r: &CaseSummary| match (&r.outcome, r.elapsed) {
        (Outcome::Valid, Some(e)) if r.reference => (0, e.median),
        (Outcome::Valid, Some(e)) if r.inline => (2, e.median),
        (Outcome::Valid, Some(e)) => (1, e.median),
        (Outcome::NotImplemented { .. }, _) => (4, 0.0),
        _ => (3, 0.0),
    };
    rows.sort_by(|(a, _), (b, _)| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    let Some((best, best_samples)) = rows
        .iter()
        .find(|(r, _)| !r.reference && !r.inline && r.elapsed.is_some())
        .cloned()
    else {
        return rows.into_iter().map(|(row, _)| row).collect();
    };
    let best_elapsed = best.elapsed.expect("filtered");
    rows.into_iter()
        .map(|(mut row, samples)| {
            if let Some(elapsed) = row.elapsed
                && best_elapsed.median > 0.0
            {
                row.ratio_to_best = Some(elapsed.median / best_elapsed.median);
                if row.contestant != best.contestant {
                    row.ratio_ci = ratio_interval(&samples, &best_samples, RESAMPLES);
                    row.differs_from_best = row.ratio_ci.as_ref().map(differs);
                }
            }
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_whose_interval_holds_1_is_not_a_difference() {
        let i = Interval::new;
        assert!(!differs(&i(0.9, 1.2)));
        assert!(!differs(&i(1.0, 1.2)), "an end at 1 is no difference");
        assert!(differs(&i(1.01, 1.2)));
        assert!(differs(&i(0.5, 0.99)));
    }
}
