//! Whether a case's time processes reached a steady state by the end of their warm-up:
//! each process's series (warm-up, then measured iterations) classified by its change
//! points (stats/steady.rs, after Barrett et al.), counted per case, so that a cell whose
//! processes had not settled says so where its figure is read.

use serde::{Deserialize, Serialize};
use stats::steady::{SeriesClass, classify};

/// How many of a case's time processes fell in each class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Steadiness {
    /// No change point: the same level from the first iteration.
    pub(crate) flat: u32,
    /// Faster after the warm-up's change points, and settled before the measured part.
    pub(crate) warmed_up: u32,
    /// Slower at the end than earlier.
    pub(crate) slowdown: u32,
    /// A change point inside the measured part: not settled by the warm-up's end.
    pub(crate) no_steady_state: u32,
    /// The most warm-up iterations any process needed before its last level (its last
    /// change point): what `taskbench warmup` would measure.
    pub(crate) settled_at: u32,
}

impl Steadiness {
    /// Processes classified.
    pub(crate) fn processes(&self) -> u32 {
        self.flat + self.warmed_up + self.slowdown + self.no_steady_state
    }

    /// Whether more than half of the processes were not at a steady state while measured.
    pub(crate) fn unsteady(&self) -> bool {
        2 * (self.slowdown + self.no_steady_state) > self.processes()
    }

    /// `2 flat, 3 warmed up, 1 no steady state`: the classes present.
    #[cfg(test)]
    pub(crate) fn describe(&self) -> String {
        [
            (self.flat, SeriesClass::Flat),
            (self.warmed_up, SeriesClass::WarmedUp),
            (self.slowdown, SeriesClass::Slowdown),
            (self.no_steady_state, SeriesClass::NoSteadyState),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, class)| format!("{n} {}", class.label()))
        .collect::<Vec<_>>()
        .join(", ")
    }
}

/// The classes of `series` (each process's whole series, with the index its measured
/// iterations begin at); `None` when there is none.
pub(crate) fn of(series: &[(Vec<f64>, usize)]) -> Option<Steadiness> {
    if series.is_empty() {
        return None;
    }
    let mut counts = Steadiness::default();
    for (values, steady_from) in series {
        let classified = classify(values, *steady_from);
        counts.settled_at = counts.settled_at.max(classified.settled_at as u32);
        match classified.class {
            SeriesClass::Flat => counts.flat += 1,
            SeriesClass::WarmedUp => counts.warmed_up += 1,
            SeriesClass::Slowdown => counts.slowdown += 1,
            SeriesClass::NoSteadyState => counts.no_steady_state += 1,
        }
    }
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A series of `warm` iterations at `factor` × 1 ms, then `steady` at 1 ms, with a
    /// little deterministic noise.
    fn curve(warm: usize, factor: f64, steady: usize) -> Vec<f64> {
        let noise = |i: usize| 1.0 + 0.01 * ((i * 7919 % 11) as f64 - 5.0) / 5.0;
        (0..warm + steady)
            .map(|i| if i < warm { factor } else { 1.0 } * 1e6 * noise(i))
            .collect()
    }

    #[test]
    fn a_case_settled_before_its_measured_part_is_steady() {
        let settled = of(&[(curve(10, 8.0, 90), 30), (curve(0, 1.0, 100), 30)]).unwrap();
        assert_eq!((settled.warmed_up, settled.flat), (1, 1), "{settled:?}");
        assert!(!settled.unsteady());
        assert!((9..=11).contains(&settled.settled_at), "{settled:?}");
        assert_eq!(settled.describe(), "1 flat, 1 warmed up");
    }

    #[test]
    fn a_case_still_warming_while_measured_says_so() {
        // Warm until iteration 60; measured from 30: two of three processes not settled.
        let late = curve(60, 8.0, 60);
        let counts = of(&[(late.clone(), 30), (late, 30), (curve(10, 8.0, 110), 30)]).unwrap();
        assert_eq!(counts.no_steady_state, 2, "{counts:?}");
        assert!(counts.unsteady());
        assert_eq!(of(&[]), None);
    }
}
