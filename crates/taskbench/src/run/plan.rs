//! The order of runs: idle-footprint runs, warm-up processes, then measured runs, each
//! round interleaved across subjects (A B C A B C …) so that drift of the machine hits
//! every subject alike.

use catalogue::Scenario;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Idle-footprint runs per subject and scenario, at most (they are quick and vary little).
const IDLE_RUNS: u32 = 3;

/// Who is measured: a contestant's run command, or a plain command given with `--command`.
#[derive(Debug, Clone)]
pub struct Subject {
    pub name: String,
    /// Program and leading arguments; protocol arguments are appended for scenarios.
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// Scenarios declared unsupported (never run; shown as n/a).
    pub unsupported: Vec<String>,
}

/// What one run executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Workload {
    /// A catalogue scenario through the contestant protocol.
    Scenario {
        scenario: Scenario,
        inner_warmup: u32,
    },
    /// The subject's command as a whole process, no protocol.
    Command,
}

impl Workload {
    /// Scenario name, or `command`.
    pub fn name(&self) -> &'static str {
        match self {
            Workload::Scenario { scenario, .. } => scenario.name(),
            Workload::Command => "command",
        }
    }
}

/// Why a run is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The scenario at its idle size: the footprint per-task figures are measured above.
    Idle,
    /// A whole process run and thrown away.
    Warmup,
    /// Counted in the statistics.
    Measured,
}

/// One run to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub subject: usize,
    pub workload: Workload,
    pub phase: Phase,
    /// 1-based index of the run within its phase.
    pub run: u32,
}

/// Every run for `subjects` subjects over `workloads`, in execution order.
pub fn schedule(subjects: usize, workloads: &[Workload], runs: u32, warmup: u32) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut idle_done: Vec<Scenario> = Vec::new();
    let round = |steps: &mut Vec<Step>, workload, phase, count| {
        for run in 1..=count {
            for subject in 0..subjects {
                steps.push(Step {
                    subject,
                    workload,
                    phase,
                    run,
                });
            }
        }
    };
    for &workload in workloads {
        if let Workload::Scenario { scenario, .. } = workload
            && let Some(idle) = scenario.idle().filter(|idle| !idle_done.contains(idle))
        {
            idle_done.push(idle);
            let idle_workload = Workload::Scenario {
                scenario: idle,
                inner_warmup: 0,
            };
            round(&mut steps, idle_workload, Phase::Idle, runs.min(IDLE_RUNS));
        }
        round(&mut steps, workload, Phase::Warmup, warmup);
        round(&mut steps, workload, Phase::Measured, runs);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(name: &str, values: &[(&str, u64)]) -> Workload {
        Workload::Scenario {
            scenario: Scenario::new(name, values).unwrap(),
            inner_warmup: 0,
        }
    }

    #[test]
    fn runs_interleave_across_subjects() {
        let steps = schedule(2, &[scenario("timer", &[])], 2, 1);
        let order: Vec<(usize, Phase, u32)> =
            steps.iter().map(|s| (s.subject, s.phase, s.run)).collect();
        assert_eq!(
            order,
            [
                (0, Phase::Warmup, 1),
                (1, Phase::Warmup, 1),
                (0, Phase::Measured, 1),
                (1, Phase::Measured, 1),
                (0, Phase::Measured, 2),
                (1, Phase::Measured, 2),
            ]
        );
    }

    #[test]
    fn a_sweep_measures_the_idle_footprint_once() {
        let sweep = [
            scenario("spawn", &[("tasks", 10)]),
            scenario("spawn", &[("tasks", 100)]),
        ];
        let steps = schedule(1, &sweep, 5, 0);
        let idle: Vec<_> = steps.iter().filter(|s| s.phase == Phase::Idle).collect();
        assert_eq!(idle.len(), 3);
        assert!(
            idle.iter()
                .all(|s| s.workload == scenario("spawn", &[("tasks", 0)]))
        );
        assert_eq!(
            steps.iter().filter(|s| s.phase == Phase::Measured).count(),
            10
        );
        assert_eq!(steps[0].phase, Phase::Idle, "the footprint comes first");
    }
}
