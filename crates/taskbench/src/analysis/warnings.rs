//! What a reader should distrust, decided hyperfine-style after the runs: a first run much
//! slower than the rest, runs that vary a lot, a machine that was busy or had its CPU
//! stolen. Each warning is printed under the tables (report/warnings.rs words it) and kept
//! in the JSON.

use super::PointSummary;
use crate::measure::machine::MachineLoad;
use crate::run::{Phase, RunRecord, counts};
use crate::stats::median;
use serde::{Deserialize, Serialize};

/// The first measured run is flagged when slower than this many times the median of the
/// others (and slower than every one of them).
pub const FIRST_RUN_FACTOR: f64 = 1.5;

/// Coefficient of variation of elapsed above which runs are said to vary a lot.
pub const CV_LIMIT: f64 = 0.10;

/// Without /proc/stat, the machine counts as busy when its 1-minute load average exceeded
/// this many runnable tasks per core before the first run. It is only a fallback: the
/// average lags by a minute, so it still holds the builds and runs just before ours.
pub const LOAD_PER_CORE_LIMIT: f64 = 0.5;

/// Share of all CPU time other processes may use during the run before we warn.
pub const OTHERS_LIMIT: f64 = 0.10;

/// Share of CPU time stolen by the hypervisor before we warn.
pub const STEAL_LIMIT: f64 = 0.01;

/// Something that makes the figures less trustworthy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// At one point, these contestants' first measured run was much slower than the rest.
    FirstRunSlower { point: String, cases: Vec<FirstRun> },
    /// At one point, these contestants' elapsed times varied more than [`CV_LIMIT`].
    HighVariation {
        point: String,
        cases: Vec<Variation>,
    },
    /// Others used the machine: load before the run, or CPU used by other processes.
    BusyMachine {
        cores: usize,
        load_start: f64,
        load_max: f64,
        /// Share of all CPU time other processes used while taskbench ran.
        others_share: Option<f64>,
    },
    /// The hypervisor took this share of CPU time.
    CpuSteal { share: f64 },
}

/// A first run against the rest of its case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstRun {
    pub contestant: String,
    pub first_ns: f64,
    pub rest_median_ns: f64,
}

/// A case's spread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variation {
    pub contestant: String,
    /// Coefficient of variation of elapsed (stddev / mean).
    pub cv: f64,
}

/// Every warning about `points` (summarised from `records`) and the machine.
pub fn warnings(
    points: &[PointSummary],
    records: &[RunRecord],
    machine: Option<&MachineLoad>,
) -> Vec<Warning> {
    let mut found = Vec::new();
    for point in points {
        let slow_starts: Vec<FirstRun> = point
            .rows
            .iter()
            .filter_map(|row| first_run_slower(records, &row.contestant, &point.point))
            .collect();
        if !slow_starts.is_empty() {
            found.push(Warning::FirstRunSlower {
                point: point.point.clone(),
                cases: slow_starts,
            });
        }
        let noisy: Vec<Variation> = point
            .rows
            .iter()
            .filter_map(|row| {
                let elapsed = row.elapsed.filter(|e| e.n >= 2 && e.cv() > CV_LIMIT)?;
                Some(Variation {
                    contestant: row.contestant.clone(),
                    cv: elapsed.cv(),
                })
            })
            .collect();
        if !noisy.is_empty() {
            found.push(Warning::HighVariation {
                point: point.point.clone(),
                cases: noisy,
            });
        }
    }
    if let Some(machine) = machine {
        found.extend(machine_warnings(machine));
    }
    found
}

/// The first measured run when it is valid and much slower than the valid others.
fn first_run_slower(records: &[RunRecord], contestant: &str, point: &str) -> Option<FirstRun> {
    let mut timed: Vec<(u32, f64)> = records
        .iter()
        .filter(|r| r.contestant == contestant && r.phase == Phase::Measured && counts(r))
        .filter(|r| r.point_label() == point)
        .filter_map(|r| Some((r.run, r.figures.as_ref()?.elapsed_ns? as f64)))
        .collect();
    timed.sort_by_key(|(run, _)| *run);
    let (&(1, first), rest) = timed.split_first()? else {
        return None;
    };
    let rest: Vec<f64> = rest.iter().map(|(_, v)| *v).collect();
    let rest_median = median(&rest)?;
    let rest_max = rest.iter().copied().fold(f64::MIN, f64::max);
    (first > FIRST_RUN_FACTOR * rest_median && first > rest_max).then(|| FirstRun {
        contestant: contestant.to_string(),
        first_ns: first,
        rest_median_ns: rest_median,
    })
}

fn machine_warnings(machine: &MachineLoad) -> Vec<Warning> {
    let mut found = Vec::new();
    let others = machine.cpu.map(|c| c.others);
    let busy = match others {
        // What other processes really used while we ran.
        Some(share) => share > OTHERS_LIMIT,
        None => machine.load_start > LOAD_PER_CORE_LIMIT * machine.cores as f64,
    };
    if busy {
        found.push(Warning::BusyMachine {
            cores: machine.cores,
            load_start: machine.load_start,
            load_max: machine.load_max(),
            others_share: others,
        });
    }
    if let Some(cpu) = machine.cpu.filter(|c| c.steal > STEAL_LIMIT) {
        found.push(Warning::CpuSteal { share: cpu.steal });
    }
    found
}
