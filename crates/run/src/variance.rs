//! Where a case's noise lies — between the iterations of one process or between processes —
//! and how many iterations a process should run to beat it at least cost: Kalibera and
//! Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013), for two levels
//! (docs/STATISTICS.md has the formula and a worked example).

use serde::{Deserialize, Serialize};

/// A case's two variance components and what each level of repetition costs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Variance {
    /// Variance between the iterations of one process, ns² (S_w²: the mean of each
    /// process's sample variance).
    pub(crate) within: f64,
    /// Variance between processes beyond what the within part explains, ns² (S_b²: the
    /// sample variance of the processes' means less S_w² / n, at least 0).
    pub(crate) between: f64,
    /// Iterations per time process that reach a precision at least cost.
    pub(crate) iterations_per_process: u32,
    /// What one more process costs apart from its measured iterations: start-up, inner
    /// warm-up and exit, from its wall clock (ns).
    pub(crate) process_cost_ns: f64,
    /// What one more measured iteration costs (ns).
    pub(crate) iteration_cost_ns: f64,
}

/// The variance components of processes that each ran the same number of iterations
/// (`groups`, elapsed ns, one list per process) and took `walls_ns` each, with the
/// iterations per process that reach a precision cheapest, at most `cap`. `None` with
/// fewer than two processes or fewer than two iterations in one.
pub fn components(groups: &[Vec<f64>], walls_ns: &[f64], cap: u32) -> Option<Variance> {
    let n = groups.first()?.len();
    if groups.len() < 2 || n < 2 || groups.iter().any(|g| g.len() != n) {
        return None;
    }
    let within = mean(
        &groups
            .iter()
            .map(|g| sample_variance(g))
            .collect::<Vec<_>>(),
    );
    let means: Vec<f64> = groups.iter().map(|g| mean(g)).collect();
    let between = (sample_variance(&means) - within / n as f64).max(0.0);
    let iteration_cost_ns = mean(&means);
    let process_cost_ns = (mean(walls_ns) - n as f64 * iteration_cost_ns).max(0.0);
    Some(Variance {
        within,
        between,
        iterations_per_process: optimal_iterations(
            within,
            between,
            process_cost_ns,
            iteration_cost_ns,
            cap,
        ),
        process_cost_ns,
        iteration_cost_ns,
    })
}

/// Kalibera and Jones's optimum, `sqrt(c_process · S_w² / (c_iteration · S_b²))` rounded,
/// within 1…`cap`: no within-process noise needs one iteration per process (only more
/// processes help); no between-process noise, as many iterations as the cap allows.
pub(crate) fn optimal_iterations(
    within: f64,
    between: f64,
    process_cost_ns: f64,
    iteration_cost_ns: f64,
    cap: u32,
) -> u32 {
    let cap = cap.max(1);
    if within <= 0.0 {
        return 1;
    }
    if between <= 0.0 || iteration_cost_ns <= 0.0 {
        return cap;
    }
    let n = (process_cost_ns * within / (iteration_cost_ns * between)).sqrt();
    if n >= f64::from(cap) {
        cap
    } else {
        (n.round() as u32).clamp(1, cap)
    }
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// The unbiased sample variance (0 for fewer than two values).
fn sample_variance(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let m = mean(values);
    values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (values.len() - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_components() {
        // Two processes of two iterations: [10, 12] and [20, 22] ns.
        // Within: each process's variance is 2 → S_w² = 2.
        // Means 11 and 21: their variance 50, less S_w² / 2 = 1 → S_b² = 49.
        // Iteration cost: the mean of the means, 16 ns; walls 132 ns → process cost 100 ns.
        let v = components(&[vec![10.0, 12.0], vec![20.0, 22.0]], &[132.0, 132.0], 1000).unwrap();
        assert_eq!((v.within, v.between), (2.0, 49.0));
        assert_eq!((v.iteration_cost_ns, v.process_cost_ns), (16.0, 100.0));
        // sqrt(100 · 2 / (16 · 49)) = 0.505 → one iteration per process.
        assert_eq!(v.iterations_per_process, 1);
    }

    #[test]
    fn no_between_noise_means_as_many_iterations_as_the_cap_allows() {
        // Both processes alike on average: all the noise is within, so few processes of
        // many iterations reach the target cheapest.
        let v = components(&[vec![9.0, 11.0], vec![11.0, 9.0]], &[1_000.0; 2], 250).unwrap();
        assert_eq!(v.between, 0.0);
        assert_eq!(v.iterations_per_process, 250);
    }

    #[test]
    fn no_within_noise_means_one_iteration_and_many_processes() {
        let v = components(&[vec![10.0, 10.0], vec![30.0, 30.0]], &[1_000.0; 2], 250).unwrap();
        assert_eq!(v.within, 0.0);
        assert_eq!(v.iterations_per_process, 1);
    }

    #[test]
    fn the_optimum_weighs_costs_and_variances() {
        // c_p = 400 ms, S_w² = 1, c_i = 1 ms, S_b² = 0.01: sqrt(400 · 1 / (1 · 0.01)) = 200.
        assert_eq!(optimal_iterations(1.0, 0.01, 400e6, 1e6, 1000), 200);
        // The same beyond the cap is the cap.
        assert_eq!(optimal_iterations(1.0, 0.01, 400e6, 1e6, 50), 50);
        // Start-up as cheap as an iteration and equal variances: one iteration.
        assert_eq!(optimal_iterations(1.0, 1.0, 1e6, 1e6, 1000), 1);
    }

    #[test]
    fn too_few_processes_or_iterations_give_nothing() {
        assert_eq!(components(&[vec![1.0, 2.0]], &[10.0], 10), None);
        assert_eq!(components(&[vec![1.0], vec![2.0]], &[10.0, 10.0], 10), None);
        assert_eq!(
            components(&[vec![1.0, 2.0], vec![2.0]], &[10.0, 10.0], 10),
            None
        );
    }
}
