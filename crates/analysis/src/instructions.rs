//! What a case's counted runs say (`--instructions`): the instructions of a whole process
//! of one measured iteration, and of one iteration alone — the process of two measured
//! iterations minus the process of one, with the same warm-up, so that start-up, warm-up
//! and teardown cancel — and that per task. No interval: a single-threaded runtime's count
//! repeats to the instruction, and a multi-threaded one's moves by its scheduling only.

use super::cases::read_point;
use catalogue::Point;
use run::{Phase, RunRecord};
use serde::{Deserialize, Serialize};

/// A case's instruction counts, or why it has none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instructions {
    /// What counted (`valgrind-3.19.0 cachegrind --cache-sim=no`, `perf stat …`).
    pub counter: String,
    /// The process of one measured iteration, whole.
    pub process: Option<u64>,
    /// One iteration: the process of two measured iterations minus the process of one.
    pub iteration: Option<f64>,
    /// `iteration` over the scenario's size (tasks, requests …).
    pub per_task: Option<f64>,
    /// Why a count is missing: the counted run's status (`timeout`, `failed (exit 1)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// The counts of `contestant` at `point` among `records` (each record's point read as
/// analysis/cases.rs groups them); `None` when the case was not counted.
pub fn counted(
    records: &[RunRecord],
    contestant: &str,
    point: &Point,
    size: Option<u64>,
) -> Option<Instructions> {
    let mine: Vec<&RunRecord> = records
        .iter()
        .filter(|r| {
            r.phase == Phase::Counted
                && r.contestant == contestant
                && read_point(r).as_ref() == Some(point)
        })
        .collect();
    let counter = mine
        .iter()
        .find_map(|r| r.figures.as_ref()?.counter.clone())?;
    let count = |iterations: u32| {
        mine.iter()
            .find(|r| r.iterations == iterations && r.status.is_ok())
            .and_then(|r| r.figures.as_ref()?.instructions)
    };
    let (one, two) = (count(1), count(2));
    let iteration = one.zip(two).map(|(a, b)| b as f64 - a as f64);
    Some(Instructions {
        counter,
        process: one,
        iteration,
        per_task: iteration
            .zip(size.filter(|&n| n > 0))
            .map(|(i, n)| i / n as f64),
        problem: mine
            .iter()
            .find(|r| !r.status.is_ok())
            .map(|r| r.status.label()),
    })
}
