//! Rows of a point against each other: best (lowest median elapsed) first, the ratio of
//! each median to the best's with a bootstrap interval, and whether the difference is real.
//!
//! The rule for "real" is the plain one a reader can check in the table: a row differs
//! from the best when the 95 % intervals of their medians do not overlap. It is
//! conservative (two separate 95 % intervals mean a difference at well under 5 %), which
//! suits a shared, noisy machine: "n.s." never claims a tie, only that these runs cannot
//! tell the two apart.

use super::{CaseSummary, Outcome};
use crate::stats::{Interval, ratio_of_medians_ci};

/// Whether two medians differ significantly: their 95 % intervals do not overlap.
pub fn differs(a: &Interval, b: &Interval) -> bool {
    !a.overlaps(b)
}

/// Sorts rows best first, then failures, then n/a, and sets each valid row's ratio to the
/// best, its interval and its significance. `samples` are each row's valid elapsed times.
pub(super) fn rank(mut rows: Vec<(CaseSummary, Vec<f64>)>) -> Vec<CaseSummary> {
    let key = |r: &CaseSummary| match (&r.outcome, r.elapsed) {
        (Outcome::Valid, Some(e)) => (0, e.median),
        (Outcome::NotImplemented { .. }, _) => (2, 0.0),
        _ => (1, 0.0),
    };
    rows.sort_by(|(a, _), (b, _)| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    let Some((best, best_samples)) = rows.first().cloned().filter(|(r, _)| r.elapsed.is_some())
    else {
        return rows.into_iter().map(|(row, _)| row).collect();
    };
    let best_elapsed = best.elapsed.expect("filtered");
    rows.into_iter()
        .enumerate()
        .map(|(index, (mut row, samples))| {
            if let Some(elapsed) = row.elapsed
                && best_elapsed.median > 0.0
            {
                row.ratio_to_best = Some(elapsed.median / best_elapsed.median);
                if index > 0 {
                    row.ratio_ci = ratio_of_medians_ci(&samples, &best_samples);
                    row.differs_from_best = elapsed
                        .median_ci
                        .zip(best_elapsed.median_ci)
                        .map(|(mine, best)| differs(&mine, &best));
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
    fn overlapping_intervals_are_not_a_difference() {
        let i = |low, high| Interval { low, high };
        assert!(!differs(&i(10.0, 12.0), &i(11.5, 13.0)));
        assert!(!differs(&i(11.5, 13.0), &i(10.0, 12.0)));
        assert!(differs(&i(10.0, 12.0), &i(12.5, 13.0)));
        assert!(differs(&i(12.5, 13.0), &i(10.0, 12.0)));
    }
}
