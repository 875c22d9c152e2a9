//! How long a schedule will take, before it runs: for `--dry-run`, `taskbench presets` and
//! the progress bar's ETA (which weighs each run by its estimate rather than counting runs,
//! so that a 10 s sleep and a 5 ms spawn do not move the bar alike).
//!
//! The model, per process: its ideal time (the pure waiting of the scenario) times the
//! iterations it runs (inner warm-up + the measured one), plus [`PER_OPERATION`] for each
//! operation of those iterations (a spawn, a message, a fake I/O, a yield), plus
//! [`PER_PROCESS`] for start-up, exit and the harness. Both allowances are rough figures
//! for a compiled runtime on this project's 2-core machine; slow runtimes take longer.

use crate::run::{Step, Workload};
use catalogue::{DOXBEE_STEPS, Scenario};
use std::time::Duration;

/// Start-up, exit and the harness's own work, per process.
pub const PER_PROCESS: Duration = Duration::from_millis(250);

/// Cost of one operation (spawn, message, yield, fake I/O) beyond its waiting.
pub const PER_OPERATION: Duration = Duration::from_micros(1);

/// The expected size and time of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Every process: idle-footprint, warm-up and measured runs.
    pub processes: u64,
    /// The measured ones.
    pub measured: u64,
    /// Sum of the ideal times of every iteration of every process.
    pub ideal: Duration,
    /// The estimate: ideal + operations + per-process allowance.
    pub total: Duration,
}

/// Adds up [`step_cost`] over `steps`.
pub fn estimate(steps: &[Step]) -> Estimate {
    let mut estimate = Estimate {
        processes: steps.len() as u64,
        measured: 0,
        ideal: Duration::ZERO,
        total: Duration::ZERO,
    };
    for step in steps {
        if step.phase == crate::run::Phase::Measured {
            estimate.measured += 1;
        }
        estimate.ideal += ideal(step.workload);
        estimate.total += step_cost(step.workload);
    }
    estimate
}

/// The expected time of one process running `workload`.
pub fn step_cost(workload: Workload) -> Duration {
    let work = match workload {
        Workload::Scenario {
            scenario,
            inner_warmup,
        } => {
            let per_iteration = Duration::from_nanos(scenario.ideal_ns())
                + PER_OPERATION * operations(&scenario).min(u32::MAX as u64) as u32;
            per_iteration * (inner_warmup + 1)
        }
        Workload::Command => Duration::ZERO,
    };
    work + PER_PROCESS
}

fn ideal(workload: Workload) -> Duration {
    match workload {
        Workload::Scenario {
            scenario,
            inner_warmup,
        } => Duration::from_nanos(scenario.ideal_ns()) * (inner_warmup + 1),
        Workload::Command => Duration::ZERO,
    }
}

/// Operations of one iteration: tasks spawned, messages sent, fake I/O ops, yields.
fn operations(scenario: &Scenario) -> u64 {
    match *scenario {
        Scenario::Spawn { tasks } | Scenario::Sleep { tasks, .. } => tasks,
        Scenario::Timer { step_us, total_ms } => Scenario::timer_count(step_us, total_ms),
        Scenario::Doxbee { requests, .. } => requests * DOXBEE_STEPS,
        Scenario::Parallel {
            requests, fanout, ..
        } => requests * (fanout + 1),
        // 10 children per inner node: 1.111… tasks per leaf.
        Scenario::Skynet { size } => size + size / 9,
        Scenario::Pingpong { pairs, rounds } => 2 * pairs * rounds,
        Scenario::Chain { length } => length,
        Scenario::Yield { tasks, yields } => tasks * yields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{Phase, schedule};

    fn workload(name: &str, values: &[(&str, u64)], inner_warmup: u32) -> Workload {
        Workload::Scenario {
            scenario: Scenario::new(name, values).unwrap(),
            inner_warmup,
        }
    }

    #[test]
    fn a_process_costs_its_ideal_its_operations_and_the_allowance() {
        // 10,000 tasks sleeping 1 s, one iteration: 1 s + 10,000 × 1 µs + 0.25 s.
        let sleep = workload("sleep", &[("tasks", 10_000), ("delay-ms", 1_000)], 0);
        assert_eq!(step_cost(sleep), Duration::from_millis(1_260));
        // spawn 10,000 with one inner warm-up: 2 × 10 ms + 0.25 s.
        let spawn = workload("spawn", &[("tasks", 10_000)], 1);
        assert_eq!(step_cost(spawn), Duration::from_millis(270));
        assert_eq!(step_cost(Workload::Command), PER_PROCESS);
    }

    #[test]
    fn a_schedule_counts_idle_warmup_and_measured_processes() {
        let sleep = workload("sleep", &[("tasks", 100), ("delay-ms", 1_000)], 0);
        // 2 subjects × (3 idle + 1 warm-up + 5 measured) = 18 processes.
        let steps = schedule(2, &[sleep], 5, 1);
        let e = estimate(&steps);
        assert_eq!((e.processes, e.measured), (18, 10));
        assert_eq!(e.ideal, Duration::from_secs(12), "idle runs sleep 0 tasks");
        let idle = workload("sleep", &[("tasks", 0), ("delay-ms", 1_000)], 0);
        assert_eq!(
            e.total,
            6 * step_cost(idle) + 12 * step_cost(sleep),
            "{:?}",
            steps.iter().map(|s| s.phase).collect::<Vec<Phase>>()
        );
    }
}
