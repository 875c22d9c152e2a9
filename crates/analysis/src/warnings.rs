//! What a reader should distrust, decided hyperfine-style after the runs: a first run much
//! slower than the rest, cases that missed the target precision, a machine that was busy
//! or had its CPU stolen. At most one warning per point and kind, naming only the
//! contestants concerned; each is printed under the tables (words/warnings.rs words it)
//! and kept in the JSON.

use super::condition::{GaugeShift, drift};
use super::{PointSummary, group};
use catalogue::Point;
use measure::machine::MachineLoad;
use run::{RunRecord, StopReason};
use serde::{Deserialize, Serialize};
use stats::median;

/// The first measured run is flagged when slower than this many times the median of the
/// others (and slower than every one of them).
pub const FIRST_RUN_FACTOR: f64 = 1.5;

/// Without /proc/stat, the machine counts as busy when its 1-minute load average exceeded
/// this many runnable tasks per core before the first run. It is only a fallback: the
/// average lags by a minute, so it still holds the builds and runs just before ours.
pub(crate) const LOAD_PER_CORE_LIMIT: f64 = 0.5;

/// Share of all CPU time other processes may use during the run before we warn.
pub(crate) const OTHERS_LIMIT: f64 = 0.10;

/// Share of CPU time stolen by the hypervisor before we warn.
pub(crate) const STEAL_LIMIT: f64 = 0.01;

/// Something that makes the figures less trustworthy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// At one point, these contestants' first measured run was much slower than the rest.
    FirstRunSlower { point: Point, cases: Vec<FirstRun> },
    /// At one point, these contestants' intervals are wider than the target precision.
    Imprecise {
        point: Point,
        /// The target half-width (0.02 = ±2 %).
        target: f64,
        cases: Vec<Imprecision>,
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
    /// The machine's condition moved beyond the probe's own noise between the run's first
    /// and second half of probes: these gauges, from the first half's median to the second's.
    ConditionChanged { shifts: Vec<GaugeShift> },
}

/// A first run against the rest of its case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstRun {
    pub contestant: String,
    pub first_ns: f64,
    pub rest_median_ns: f64,
}

/// A case that stopped short of the target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Imprecision {
    pub contestant: String,
    /// The half-width it reached.
    pub precision: f64,
    /// What stopped it: the time budget or the run limit.
    pub stop: Option<StopReason>,
}

/// Every warning about `points` (summarised from `records`, measured to `target`
/// precision when there was one) and the machine.
pub fn warnings(
    points: &[PointSummary],
    records: &[RunRecord],
    target: Option<f64>,
    machine: Option<&MachineLoad>,
) -> Vec<Warning> {
    let mut found = Vec::new();
    let grouped = group(records);
    for (point, cases) in points.iter().zip(&grouped) {
        let slow_starts: Vec<FirstRun> = cases
            .cases
            .iter()
            .filter_map(|case| first_run_slower(case))
            .collect();
        if !slow_starts.is_empty() {
            found.push(Warning::FirstRunSlower {
                point: point.point.clone(),
                cases: slow_starts,
            });
        }
        let Some(target) = target.filter(|&t| t > 0.0) else {
            continue;
        };
        let missed: Vec<Imprecision> = point
            .rows
            .iter()
            .filter_map(|row| {
                let precision = row.precision.filter(|&p| p > target)?;
                Some(Imprecision {
                    contestant: row.contestant.clone(),
                    precision,
                    stop: row.stop,
                })
            })
            .collect();
        if !missed.is_empty() {
            found.push(Warning::Imprecise {
                point: point.point.clone(),
                target,
                cases: missed,
            });
        }
    }
    if let Some(machine) = machine {
        found.extend(machine_warnings(machine));
    }
    found
}

/// Every slow first process of `warnings` with its point, the largest first ÷ rest first:
/// the worst of them name the kind on the terminal.
pub fn slow_starts_worst_first(warnings: &[Warning]) -> Vec<(&Point, &FirstRun)> {
    let mut all: Vec<(&Point, &FirstRun)> = warnings
        .iter()
        .flat_map(|w| match w {
            Warning::FirstRunSlower { point, cases } => cases.iter().map(|c| (point, c)).collect(),
            _ => Vec::new(),
        })
        .collect();
    let factor = |c: &FirstRun| c.first_ns / c.rest_median_ns.max(f64::MIN_POSITIVE);
    all.sort_by(|a, b| factor(b.1).total_cmp(&factor(a.1)));
    all
}

/// Every case short of the target with its point and the target, the widest interval first.
pub fn imprecise_widest_first(warnings: &[Warning]) -> Vec<(&Point, f64, &Imprecision)> {
    let mut all: Vec<(&Point, f64, &Imprecision)> = warnings
        .iter()
        .flat_map(|w| match w {
            Warning::Imprecise {
                point,
                target,
                cases,
            } => cases.iter().map(|c| (point, *target, c)).collect(),
            _ => Vec::new(),
        })
        .collect();
    all.sort_by(|a, b| b.2.precision.total_cmp(&a.2.precision));
    all
}

/// The first time process when it is valid and much slower than the valid others.
fn first_run_slower(case: &super::Case) -> Option<FirstRun> {
    let timed: Vec<(u32, f64)> = case
        .time_runs()
        .iter()
        .filter_map(|r| Some((r.run, r.figures.as_ref()?.elapsed_ns? as f64)))
        .collect();
    let (&(_, first), rest) = timed.split_first()?;
    let rest: Vec<f64> = rest.iter().map(|(_, v)| *v).collect();
    let rest_median = median(&rest)?;
    let rest_max = rest.iter().copied().fold(f64::MIN, f64::max);
    (first > FIRST_RUN_FACTOR * rest_median && first > rest_max).then(|| FirstRun {
        contestant: case.contestant.to_string(),
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
    let shifts = machine.condition.as_ref().map(drift).unwrap_or_default();
    if !shifts.is_empty() {
        found.push(Warning::ConditionChanged { shifts });
    }
    found
}
