//! Processes whose own spread is negligible, for tests: this crate's, and (feature
//! `test-support`, which the dev-dependencies of the crates above it turn on) theirs.

/// One process per median, each of three iterations ±0.1 % about it, in `unit`s (1e6 for
/// medians given in ms and iterations in ns): processes whose own spread is negligible.
pub fn tight_processes(medians: &[f64], unit: f64) -> Vec<Vec<f64>> {
    medians
        .iter()
        .map(|&m| vec![m * 0.999 * unit, m * unit, m * 1.001 * unit])
        .collect()
}
