//! Ordinary least squares of y on x: the straight line through a sweep's medians whose
//! slope is the cost per task and whose intercept is the fixed cost.

use serde::{Deserialize, Serialize};

/// `y ≈ slope · x + intercept`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LinearFit {
    pub slope: f64,
    pub intercept: f64,
    /// Coefficient of determination, 1 − SS_res / SS_tot; `None` when every y is equal
    /// (SS_tot = 0: there is no variance to explain).
    pub r2: Option<f64>,
    /// Points fitted.
    pub n: usize,
}

impl LinearFit {
    /// The least-squares line through `points` (x, y); `None` with fewer than two points
    /// or when every x is the same (the slope is undefined).
    pub fn of(points: &[(f64, f64)]) -> Option<LinearFit> {
        let n = points.len();
        if n < 2 {
            return None;
        }
        let mean = |f: fn(&(f64, f64)) -> f64| points.iter().map(f).sum::<f64>() / n as f64;
        let (mean_x, mean_y) = (mean(|p| p.0), mean(|p| p.1));
        let sxx: f64 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
        if sxx == 0.0 {
            return None;
        }
        let sxy: f64 = points
            .iter()
            .map(|(x, y)| (x - mean_x) * (y - mean_y))
            .sum();
        let slope = sxy / sxx;
        let intercept = mean_y - slope * mean_x;
        let ss_tot: f64 = points.iter().map(|(_, y)| (y - mean_y).powi(2)).sum();
        let ss_res: f64 = points
            .iter()
            .map(|(x, y)| (y - (slope * x + intercept)).powi(2))
            .sum();
        Some(LinearFit {
            slope,
            intercept,
            r2: (ss_tot > 0.0).then(|| 1.0 - ss_res / ss_tot),
            n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn an_exact_line_is_recovered() {
        // 300 B per task on top of 2 MiB, at sweep sizes spanning four decades.
        let points: Vec<(f64, f64)> = [1.0, 1e4, 1e5, 1e6]
            .iter()
            .map(|&n| (n, 300.0 * n + 2_097_152.0))
            .collect();
        let fit = LinearFit::of(&points).unwrap();
        assert!(close(fit.slope, 300.0), "{fit:?}");
        assert!(close(fit.intercept, 2_097_152.0), "{fit:?}");
        assert!(close(fit.r2.unwrap(), 1.0), "{fit:?}");
        assert_eq!(fit.n, 4);
    }

    #[test]
    fn a_noisy_set_matches_the_hand_computation() {
        // x̄ = 3, ȳ = 4; Sxx = 10, Sxy = 6 → slope 0.6, intercept 4 − 1.8 = 2.2.
        // Fitted 2.8 3.4 4.0 4.6 5.2; residuals −0.8 0.6 1 −0.6 −0.2 → SS_res = 2.4;
        // SS_tot = 4 + 0 + 1 + 0 + 1 = 6 → R² = 1 − 2.4/6 = 0.6.
        let fit =
            LinearFit::of(&[(1.0, 2.0), (2.0, 4.0), (3.0, 5.0), (4.0, 4.0), (5.0, 5.0)]).unwrap();
        assert!(close(fit.slope, 0.6), "{fit:?}");
        assert!(close(fit.intercept, 2.2), "{fit:?}");
        assert!(close(fit.r2.unwrap(), 0.6), "{fit:?}");
    }

    #[test]
    fn two_points_make_an_exact_line() {
        let fit = LinearFit::of(&[(1.0, 5.0), (3.0, 9.0)]).unwrap();
        assert_eq!((fit.slope, fit.intercept, fit.r2), (2.0, 3.0, Some(1.0)));
    }

    #[test]
    fn degenerate_sets_have_no_line_or_no_r2() {
        assert_eq!(LinearFit::of(&[(1.0, 1.0)]), None);
        assert_eq!(LinearFit::of(&[(2.0, 1.0), (2.0, 3.0)]), None, "one x");
        let flat = LinearFit::of(&[(1.0, 4.0), (2.0, 4.0), (3.0, 4.0)]).unwrap();
        assert_eq!((flat.slope, flat.intercept, flat.r2), (0.0, 4.0, None));
    }
}
