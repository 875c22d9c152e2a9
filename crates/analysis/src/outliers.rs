//! Outliers among a case's measured runs: flagged by modified z-score, listed with the run
//! they came from, counted in the table, and never dropped from the statistics (a slow run
//! on a busy machine is a fact about that run, and the median already resists it).

use serde::{Deserialize, Serialize};
use stats::modified_z_scores;

/// |modified z| above this flags a run (Iglewicz & Hoaglin's recommended cut-off).
pub(crate) const OUTLIER_Z: f64 = 3.5;

/// A measured run far from its case's median elapsed time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outlier {
    /// The run's 1-based index among the measured runs.
    pub(crate) run: u32,
    pub(crate) elapsed_ns: f64,
    /// Its modified z-score: positive when slower than the median.
    pub(crate) z: f64,
}

/// The outliers among `(run, elapsed)` pairs.
pub(super) fn outliers(runs: &[(u32, f64)]) -> Vec<Outlier> {
    let values: Vec<f64> = runs.iter().map(|(_, v)| *v).collect();
    runs.iter()
        .zip(modified_z_scores(&values))
        .filter(|(_, z)| z.abs() > OUTLIER_Z)
        .map(|(&(run, elapsed_ns), z)| Outlier { run, elapsed_ns, z })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_slow_run_is_flagged_with_its_run_number() {
        let runs = [(1, 10.0), (2, 10.1), (3, 10.2), (4, 10.3), (5, 20.0)];
        let found = outliers(&runs);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].run, found[0].elapsed_ns), (5, 20.0));
        assert!((found[0].z - 66.101).abs() < 1e-9);
    }

    #[test]
    fn ordinary_spread_is_not_an_outlier() {
        // median 10.2, MAD 0.1: z(10.6) = 0.6745 · 0.4 / 0.1 = 2.70 < 3.5.
        assert!(outliers(&[(1, 10.0), (2, 10.1), (3, 10.2), (4, 10.3), (5, 10.6)]).is_empty());
        assert!(
            outliers(&[(1, 1.0), (2, 100.0)]).is_empty(),
            "two runs: |z| = 0.6745"
        );
    }
}
