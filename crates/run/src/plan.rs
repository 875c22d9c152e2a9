//! The order of runs within a point: idle-footprint runs, warm-up processes, then measured
//! runs, each round interleaved across subjects (A B C A B C …) so that drift of the
//! machine hits every subject alike. The measured rounds go on while any case still needs
//! runs (run/stopping.rs); this file fixes the rest.

use catalogue::{Point, Scenario};
use contestant::WarmUpTable;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Idle-footprint runs per subject and scenario, at most (they are quick and vary little).
pub const IDLE_RUNS: u32 = 3;

/// Who is measured: a contestant's run command, or a plain command given with `--command`.
#[derive(Debug, Clone)]
pub struct Subject {
    pub name: String,
    /// Program and leading arguments; protocol arguments are appended for scenarios.
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// Scenarios declared unsupported (never run; shown as n/a).
    pub unsupported: Vec<String>,
    /// What a process of it takes to start and exit, roughly: for estimates only.
    pub startup: std::time::Duration,
    /// Warm-up iterations of its time processes, by scenario (contestant/warm_up.rs).
    pub warm_up: WarmUpTable,
    /// For a command run through a shell: the shell with an empty command, whose times are
    /// subtracted from the command's (measured in the idle phase).
    pub baseline: Option<Vec<String>>,
    /// `--cpus N`: pinned to N cores, with the environment that tells its runtime so.
    pub cpus: Option<u32>,
    pub env: Vec<(String, String)>,
}

impl Subject {
    /// What a process of it costs beyond its measured iterations, for estimates.
    pub fn cost(&self) -> contestant::ProcessCost {
        contestant::ProcessCost {
            startup: self.startup,
            warm_up: self.warm_up.clone(),
        }
    }

    /// This subject pinned to `cpus` cores, its runtime told so by `env`: `tokio cpus=2`.
    pub fn pinned(&self, cpus: u32, env: Vec<(String, String)>) -> Subject {
        Subject {
            name: pinned_name(&self.name, cpus),
            cpus: Some(cpus),
            env,
            ..self.clone()
        }
    }
}

/// The name of a subject under `--cpus N`.
pub fn pinned_name(name: &str, cpus: u32) -> String {
    format!("{name} cpus={cpus}")
}

impl Step {
    /// Warm-up iterations the step's process runs before its measured ones: a time
    /// process, its subject's warm-up for the scenario (contestant/warm_up.rs), whatever
    /// its measured count; any other process, the scenario's own.
    pub(crate) fn warm_up(&self, table: &WarmUpTable) -> u32 {
        match self.workload {
            Workload::Scenario { scenario, .. } if self.timed => table.at(&scenario).iterations,
            _ => self.inner_warm_up(),
        }
    }

    /// The `--inner-warmup` the process is given: the scenario's own warm-up, run unreported
    /// (a memory, idle, counted or thrown-away process); 0 for a time process, whose warm-up
    /// iterations are reported lines, so that its cold start and curve are seen.
    pub fn inner_warm_up(&self) -> u32 {
        match self.workload {
            Workload::Scenario { inner_warm_up, .. } if !self.timed => inner_warm_up,
            _ => 0,
        }
    }

    /// The lines the process prints: its measured iterations, after a time process's
    /// warm-up iterations.
    pub fn lines(&self, table: &WarmUpTable) -> u32 {
        if self.timed {
            self.warm_up(table) + self.iterations
        } else {
            self.iterations
        }
    }
}

/// Runs of a command's shell baseline (quick: a shell starts in about a millisecond).
pub(crate) const BASELINE_RUNS: u32 = 10;

/// What one run executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Workload {
    /// A catalogue scenario through the contestant protocol.
    Scenario {
        scenario: Scenario,
        inner_warm_up: u32,
    },
    /// The subject's command as a whole process, no protocol.
    Command,
}

impl Workload {
    /// Scenario name, or `command`.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Workload::Scenario { scenario, .. } => scenario.name(),
            Workload::Command => Point::COMMAND,
        }
    }

    /// The point its runs are recorded under (`spawn tasks=1000`, `command`).
    pub fn point(&self) -> Point {
        match self {
            Workload::Scenario { scenario, .. } => Point::from(scenario),
            Workload::Command => Point::command(),
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
    #[serde(rename = "warmup")]
    WarmUp,
    /// Counted in the statistics.
    Measured,
    /// Run under an instruction counter (`--instructions`): one process of one measured
    /// iteration and one of two, with the same warm-up, whose difference is one iteration.
    Counted,
}

/// One run to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub subject: usize,
    pub workload: Workload,
    pub phase: Phase,
    /// 1-based index of the run within its phase.
    pub run: u32,
    /// Measured iterations the process runs: what its figures are made of.
    pub iterations: u32,
    /// A time process: it runs its subject's warm-up iterations as reported lines, then its
    /// measured ones, and gives the steady and cold figures; else (a memory, idle, counted
    /// or thrown-away process) it runs the scenario's own warm-up unreported.
    pub timed: bool,
}

/// The runs of `workload` that come before its measured ones, in execution order: the
/// idle footprint (`idle_runs`, unless `idle_done` has it already) and `warmup` rounds.
pub(crate) fn before_measuring(
    subjects: usize,
    workload: Workload,
    idle_runs: u32,
    warm_up: u32,
    idle_done: &mut Vec<Scenario>,
) -> Vec<Step> {
    let mut steps = Vec::new();
    let round = |steps: &mut Vec<Step>, workload, phase, count| {
        for run in 1..=count {
            for subject in 0..subjects {
                steps.push(Step {
                    subject,
                    workload,
                    phase,
                    run,
                    iterations: 1,
                    timed: false,
                });
            }
        }
    };
    if workload == Workload::Command {
        round(&mut steps, workload, Phase::Idle, BASELINE_RUNS);
    }
    if let Workload::Scenario { scenario, .. } = workload
        && let Some(idle) = scenario.idle().filter(|idle| !idle_done.contains(idle))
    {
        idle_done.push(idle);
        let idle_workload = Workload::Scenario {
            scenario: idle,
            inner_warm_up: 0,
        };
        round(
            &mut steps,
            idle_workload,
            Phase::Idle,
            idle_runs.min(IDLE_RUNS),
        );
    }
    round(&mut steps, workload, Phase::WarmUp, warm_up);
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(name: &str, values: &[(&str, u64)]) -> Workload {
        Workload::Scenario {
            scenario: Scenario::new(name, values).unwrap(),
            inner_warm_up: 0,
        }
    }

    #[test]
    fn warm_ups_interleave_across_subjects() {
        let steps = before_measuring(2, scenario("timer", &[]), 3, 2, &mut Vec::new());
        let order: Vec<(usize, Phase, u32)> =
            steps.iter().map(|s| (s.subject, s.phase, s.run)).collect();
        assert_eq!(
            order,
            [
                (0, Phase::WarmUp, 1),
                (1, Phase::WarmUp, 1),
                (0, Phase::WarmUp, 2),
                (1, Phase::WarmUp, 2),
            ]
        );
    }

    #[test]
    fn a_sweep_measures_the_idle_footprint_once() {
        let mut idle_done = Vec::new();
        let first = before_measuring(1, scenario("spawn", &[("tasks", 10)]), 5, 0, &mut idle_done);
        let second = before_measuring(
            1,
            scenario("spawn", &[("tasks", 100)]),
            5,
            0,
            &mut idle_done,
        );
        assert_eq!(first.len(), IDLE_RUNS as usize);
        assert!(
            first
                .iter()
                .all(|s| s.phase == Phase::Idle
                    && s.workload == scenario("spawn", &[("tasks", 0)]))
        );
        assert!(
            second.is_empty(),
            "the footprint is measured once per sweep"
        );
    }
}
