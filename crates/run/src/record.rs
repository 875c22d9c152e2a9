//! One run as stored: who, what, its status and every figure measured. This is the row of
//! runs.jsonl, of the JSON export's `runs` and of the CSV.

use super::plan::Phase;
use super::status::RunStatus;
use super::stopping::StopReason;
use catalogue::Point;
use measure::Sample;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A finished (or skipped-as-n/a) run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub contestant: String,
    /// Scenario name, or `command` for `--command` runs.
    pub scenario: String,
    /// Every scenario parameter with its value (empty for commands).
    pub params: BTreeMap<String, u64>,
    /// Warm-up iterations the process ran before its measured ones: a time process's
    /// (reported, `Figures::warm_up_ns`), else the scenario's own.
    #[serde(rename = "inner_warmup")]
    pub inner_warm_up: u32,
    pub phase: Phase,
    /// 1-based within the phase.
    pub run: u32,
    /// Measured iterations asked of the process: 1 for the processes whose peak RSS is
    /// reported (docs/MEASUREMENT.md).
    #[serde(default = "one")]
    pub iterations: u32,
    /// Whether it is a time process (run/plan.rs `Step::timed`): its measured iterations
    /// are the steady figure, its first warm-up iteration the cold start; else a memory,
    /// idle, counted or thrown-away process. Absent in results from before the two kinds
    /// were told apart by this flag (a time process then ran more than one iteration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed: Option<bool>,
    #[serde(flatten)]
    pub status: RunStatus,
    /// Absent when the run was never started (declared unsupported, or could not start).
    pub figures: Option<Figures>,
    /// On the last measured record of a case: why the case stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopReason>,
    /// The machine it ran on, where results of several are merged side by side
    /// (`taskbench merge --mixed-machines`): its label there (`m2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
}

fn one() -> u32 {
    1
}

/// What was measured of a process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The median of `iterations_ns`; absent when the run gave no valid line.
    pub elapsed_ns: Option<u64>,
    /// The contestant's own elapsed time of each measured iteration (the process wall
    /// for plain commands), ns.
    #[serde(default)]
    pub iterations_ns: Vec<u64>,
    /// A time process's warm-up iterations, as reported, ns: the first is its cold start
    /// (the first iteration of a fresh process after start-up); never in the steady figure.
    #[serde(rename = "warmup_ns", default, skip_serializing_if = "Vec::is_empty")]
    pub warm_up_ns: Vec<u64>,
    /// The process CPU time (user + system, every thread) of each measured iteration, as
    /// the contestant reported it, ns; empty for plain commands and older contestants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iterations_cpu_ns: Vec<u64>,
    /// The scenario's pure waiting time, ns.
    pub ideal_ns: u64,
    /// elapsed − ideal, ns.
    pub overhead_ns: Option<i64>,
    /// Harness wall clock around the whole process, ns.
    pub wall_ns: u64,
    pub user_ns: u64,
    pub sys_ns: u64,
    /// user + sys of the whole process (start-up and warm-up included), ns.
    pub cpu_ns: u64,
    /// `ru_maxrss` of the process, bytes.
    pub peak_rss_bytes: u64,
    /// Most threads seen by the sampler.
    pub peak_threads: u32,
    pub voluntary_switches: u64,
    pub involuntary_switches: u64,
    pub checksum: Option<u64>,
    pub expected_checksum: Option<u64>,
    /// Scenario-specific figures from the contestant (timer oversleep, …), each the
    /// median over the process's iterations.
    pub extra: BTreeMap<String, f64>,
    /// CPU the harness's sampler used while watching this run, ns.
    pub sampler_cpu_ns: u64,
    /// The end of stderr, kept for runs that did not succeed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
    /// RSS and thread count over time.
    pub timeline: Vec<Sample>,
    /// Instructions of the whole process and its children, in a counted run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    /// What counted them (`valgrind-3.19.0 cachegrind --cache-sim=no`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<String>,
}

impl Figures {
    /// The median of `iterations_cpu_ns`, ns; `None` where the lines did not carry it.
    pub fn cpu_per_iteration_ns(&self) -> Option<u64> {
        let values: Vec<f64> = self.iterations_cpu_ns.iter().map(|&c| c as f64).collect();
        stats::median(&values).map(|m| m.round() as u64)
    }
}

impl RunRecord {
    /// The point the run is of: its scenario and parameters, as recorded.
    pub fn point(&self) -> Point {
        Point::new(&self.scenario, &self.params)
    }
}

/// A scenario's parameters as a record stores them.
pub fn record_params(scenario: &catalogue::Scenario) -> BTreeMap<String, u64> {
    Point::from(scenario).params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json() {
        let record = RunRecord {
            machine: None,
            contestant: "tokio".into(),
            scenario: "spawn".into(),
            params: BTreeMap::from([("tasks".into(), 10)]),
            inner_warm_up: 1,
            phase: Phase::Measured,
            run: 2,
            iterations: 1,
            timed: Some(false),
            status: RunStatus::WrongChecksum {
                expected: 45,
                got: 44,
            },
            figures: None,
            stop: Some(StopReason::MaxRuns),
        };
        let json = serde_json::to_string(&record).unwrap();
        assert!(
            json.contains(r#""status":"wrong_checksum","expected":45,"got":44"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<RunRecord>(&json).unwrap(), record);
        assert_eq!(record.point().to_string(), "spawn tasks=10");
    }
}
