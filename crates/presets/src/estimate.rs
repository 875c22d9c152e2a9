//! How long a plan will take, before it runs: for `--dry-run` and `taskbench presets`.
//!
//! The model, per case: an iteration takes its ideal time (the pure waiting of the
//! scenario) plus [`PER_OPERATION`] for each operation (a spawn, a message, a fake I/O, a
//! yield; [`PER_TIMER_SLEEP`] for a timer's sleep, [`PER_SOCKET_OPERATION`] for a socket
//! operation of echo and connections); a process takes its contestant's
//! start-up (by language, [`startup`](contestant::startup)) plus its iterations (the
//! scenario's own warm-up in a memory process, the contestant's warm-up table's in a time
//! process, contestant/warm_up.rs; then the measured ones). A
//! case makes its idle-footprint, warm-up and memory processes, then time processes sized
//! as run/stopping.rs sizes them, as many as [`EXPECTED_TIME_RUNS`] (within
//! `min_runs`…`max_runs`) unless the time budget ends them first — only `min_runs` when
//! the expected overhead is below run/stopping.rs's floor (a long sleep). Both allowances are rough figures for this project's 2-core machine, checked
//! against real runs of the quick preset (docs/MEASUREMENT.md).
//!
//! With a whole-run budget, the rest of what the cases need beyond their minimum (idle,
//! warm-up, memory and `min_runs` time processes) goes only as far as the budget: a
//! budgeted plan takes min(budget, need). A minimum past the budget is not made whole: the
//! run ends the dearest cases first (run/runner.rs), and the estimate says so.

use super::Plan;
use catalogue::Scenario;
use contestant::ProcessCost;
use run::plan::IDLE_RUNS;
use run::price::LEVEL_RUNS;
use run::progress::MEMORY_LEAST;
pub(crate) use run::stopping::HARNESS_PER_PROCESS;
use run::stopping::{Next, OVERHEAD_FLOOR, calibrate};
use run::{Stopping, Workload};
use std::time::Duration;

/// Cost of one operation (spawn, message, yield, fake I/O) beyond its waiting.
pub const PER_OPERATION: Duration = Duration::from_nanos(300);

/// Cost of one socket operation of echo and connections (a connect, an accept, a read or a
/// write over loopback: a system call, and for a read the wake-up of its task), an order
/// of magnitude past a spawn or a message.
pub const PER_SOCKET_OPERATION: Duration = Duration::from_micros(5);

/// What one sleep of the timer scenario oversleeps, typically (its p50 here is 60 µs to
/// 1.1 ms, by runtime).
pub(crate) const PER_TIMER_SLEEP: Duration = Duration::from_micros(200);

/// Time processes a case typically needs to reach its precision.
pub const EXPECTED_TIME_RUNS: u32 = 20;

/// The expected size and time of a plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Every process: idle-footprint, warm-up and measured runs.
    pub processes: u64,
    /// The measured ones.
    pub measured: u64,
    /// Sum of the ideal times of every iteration of every process.
    pub ideal: Duration,
    /// The estimate.
    pub total: Duration,
    /// What every case's minimum costs: idle-footprint, warm-up, memory and `min_runs`
    /// time processes.
    pub(crate) minimum: Duration,
    /// The processes of the minimum.
    pub(crate) minimum_processes: u64,
    /// What the cases would take with no run budget (`total` without one).
    pub(crate) need: Duration,
}

impl std::ops::AddAssign for Estimate {
    fn add_assign(&mut self, other: Estimate) {
        self.processes += other.processes;
        self.measured += other.measured;
        self.ideal += other.ideal;
        self.total += other.total;
        self.minimum += other.minimum;
        self.minimum_processes += other.minimum_processes;
        self.need += other.need;
    }
}

impl Estimate {
    /// The same processes, all of them part of the minimum.
    fn all_minimum(self) -> Estimate {
        Estimate {
            minimum: self.total,
            minimum_processes: self.processes,
            ..self
        }
    }

    /// Cut to what `budget` lets the run make beyond its minimum: the processes past the
    /// minimum (all measured) in proportion.
    fn within(self, budget: Duration) -> Estimate {
        let total = self.need.min(budget).max(self.minimum);
        let extra = self.need.saturating_sub(self.minimum);
        if extra.is_zero() {
            return Estimate { total, ..self };
        }
        let share = total.saturating_sub(self.minimum).as_secs_f64() / extra.as_secs_f64();
        let extra_processes = self.processes - self.minimum_processes;
        let cut = (extra_processes as f64 * (1.0 - share)).round() as u64;
        Estimate {
            processes: self.processes - cut,
            measured: self.measured - cut,
            total,
            ..self
        }
    }
}

/// The estimate of `plan` over subjects whose processes cost `costs`.
pub fn estimate(plan: &Plan, costs: &[ProcessCost]) -> Estimate {
    let mut total = Estimate::default();
    let mut idle_done: Vec<Scenario> = Vec::new();
    for &workload in &plan.workloads {
        let idle = match workload {
            Workload::Scenario { scenario, .. } => scenario
                .idle()
                .filter(|idle| !idle_done.contains(idle))
                .inspect(|idle| idle_done.push(*idle)),
            Workload::Command => None,
        };
        for cost in costs {
            if let Some(idle) = idle {
                let idle = Workload::Scenario {
                    scenario: idle,
                    inner_warm_up: 0,
                };
                total += processes(idle, cost, Next::MEMORY, plan.idle_runs.min(IDLE_RUNS))
                    .all_minimum();
            }
            total += case_estimate(plan, workload, cost);
        }
    }
    total.need = total.total;
    match plan.stopping.budget {
        Some(budget) => total.within(budget),
        None => total,
    }
}

/// The estimate of one case — `workload` on a subject whose processes cost `cost`:
/// its warm-up and measured processes, without the idle footprint it shares with the
/// scenario's other points.
pub fn case_estimate(plan: &Plan, workload: Workload, cost: &ProcessCost) -> Estimate {
    let mut total = processes(workload, cost, Next::MEMORY, plan.warm_up).all_minimum();
    let mut case = case(workload, cost, plan.stopping);
    case.measured = case.processes;
    total += case;
    total
}

/// The measured processes of one case.
fn case(workload: Workload, cost: &ProcessCost, stopping: Stopping) -> Estimate {
    let iteration = iteration(workload);
    let memory = process(workload, cost, Next::MEMORY);
    let m = calibrate(memory, iteration.as_nanos() as u64, stopping.max_time);
    // An overhead below the floor is judged against the elapsed time, which a long sleep
    // holds steady: such a case stops as soon as its interval is a 95 % one.
    let ideal = Duration::from_nanos(ideal_ns(workload));
    let overhead = iteration.saturating_sub(ideal);
    let steady = !ideal.is_zero() && overhead.as_secs_f64() < OVERHEAD_FLOOR * ideal.as_secs_f64();
    let wanted = if steady {
        LEVEL_RUNS.clamp(stopping.min_runs, stopping.max_runs)
    } else {
        EXPECTED_TIME_RUNS.clamp(stopping.min_runs, stopping.max_runs)
    };
    // The first memory process is in the minimum; the second, which its peak is checked
    // against, comes after it.
    let mut estimate = Estimate::default();
    for made in 0..MEMORY_LEAST.min(stopping.max_runs) {
        let memory = processes(workload, cost, Next::MEMORY, 1);
        estimate += if made == 0 {
            memory.all_minimum()
        } else {
            memory
        };
    }
    for made in 0..wanted {
        if made >= stopping.min_runs && estimate.total >= stopping.max_time {
            break;
        }
        let time = processes(workload, cost, Next::time(m), 1);
        estimate += if made < stopping.min_runs {
            time.all_minimum()
        } else {
            time
        };
    }
    estimate
}

/// `count` processes made as `next`.
fn processes(workload: Workload, cost: &ProcessCost, next: Next, count: u32) -> Estimate {
    let ideal = Duration::from_nanos(ideal_ns(workload)) * in_process(workload, cost, next);
    Estimate {
        processes: count as u64,
        ideal: ideal * count,
        total: process(workload, cost, next) * count,
        ..Estimate::default()
    }
}

/// One process made as `next`.
fn process(workload: Workload, cost: &ProcessCost, next: Next) -> Duration {
    cost.startup + HARNESS_PER_PROCESS + iteration(workload) * in_process(workload, cost, next)
}

fn iteration(workload: Workload) -> Duration {
    match workload {
        Workload::Scenario { scenario, .. } => {
            let per_operation = match scenario {
                Scenario::Timer { .. } => PER_TIMER_SLEEP,
                Scenario::Echo { .. } | Scenario::Connections { .. } => PER_SOCKET_OPERATION,
                _ => PER_OPERATION,
            };
            Duration::from_nanos(scenario.ideal_ns())
                + per_operation * scenario.operations().min(u32::MAX as u64) as u32
        }
        Workload::Command => Duration::ZERO,
    }
}

fn ideal_ns(workload: Workload) -> u64 {
    match workload {
        Workload::Scenario { scenario, .. } => scenario.ideal_ns(),
        Workload::Command => 0,
    }
}

/// Iterations a process runs in all: its warm-up (a memory process the scenario's own, a
/// time process its contestant's, contestant/warm_up.rs) and its measured ones.
fn in_process(workload: Workload, cost: &ProcessCost, next: Next) -> u32 {
    let step = run::Step {
        subject: 0,
        workload,
        phase: run::Phase::Measured,
        run: 1,
        iterations: next.iterations,
        timed: next.timed,
    };
    step.inner_warm_up() + step.lines(&cost.warm_up)
}

#[cfg(test)]
mod tests {
    use super::*;
    use contestant::startup;

    fn plan(workloads: Vec<Workload>, stopping: Stopping, warm_up: u32) -> Plan {
        Plan {
            preset: None,
            workloads,
            seeds: Vec::new(),
            stopping,
            warm_up,
            idle_runs: 3,
            seed: 0,
            held_back: Vec::new(),
        }
    }

    /// A subject of the common warm-up rule whose processes start in `startup`.
    fn common(startup: Duration) -> ProcessCost {
        ProcessCost {
            startup,
            warm_up: contestant::WarmUpTable::common(),
        }
    }

    fn workload(name: &str, values: &[(&str, u64)], inner_warm_up: u32) -> Workload {
        Workload::Scenario {
            scenario: Scenario::new(name, values).unwrap(),
            inner_warm_up,
        }
    }

    #[test]
    fn a_long_iteration_makes_time_processes_of_one_after_their_warm_up() {
        // 100 tasks sleeping 1 s: every time process one measured iteration (1 s is longer
        // than the rest) after the common warm-up; 3 idle + 1 warm-up + 2 memory (the fewest
        // whose peaks can agree) + 5 time processes (exactly 5).
        let sleep = workload("sleep", &[("tasks", 100), ("delay-ms", 1_000)], 0);
        let start = Duration::from_millis(2);
        let p = plan(
            vec![sleep],
            Stopping::exactly(5, Duration::from_secs(60)),
            1,
        );
        let e = estimate(&p, &[common(start)]);
        assert_eq!((e.processes, e.measured), (11, 7));
        let warm = contestant::warm_up::COMMON;
        assert_eq!(
            e.ideal,
            Duration::from_secs(3 + 5 * u64::from(warm + 1)),
            "idle runs sleep 0 tasks"
        );
        let iteration = Duration::from_secs(1) + PER_OPERATION * 100;
        let one = start + HARNESS_PER_PROCESS + iteration;
        let time = start + HARNESS_PER_PROCESS + iteration * (warm + 1);
        let idle = start + HARNESS_PER_PROCESS;
        assert_eq!(e.total, 3 * idle + 3 * one + 5 * time);
    }

    #[test]
    fn the_budget_ends_a_case_after_its_min_runs() {
        // spawn 10k on a 450 ms start-up, 1 s budget: 2 memory processes and a time one
        // already spend it, so the case makes only its 3 time processes.
        let spawn = workload("spawn", &[("tasks", 10_000)], 1);
        let stopping = Stopping {
            min_runs: 3,
            max_runs: 30,
            precision: 0.02,
            max_time: Duration::from_secs(1),
            budget: None,
        };
        let e = estimate(
            &plan(vec![spawn], stopping, 0),
            &[common(startup("Elixir"))],
        );
        assert_eq!(e.measured, 5);
        // Rust: start-up is cheap, the case gets the expected 20 time processes.
        let e = estimate(&plan(vec![spawn], stopping, 0), &[common(startup("Rust"))]);
        assert_eq!(e.measured, 2 + 20);
    }

    #[test]
    fn a_run_budget_cuts_what_comes_after_the_minimums() {
        // 100 tasks sleeping 1 s, 3 memory processes then time processes of one iteration
        // (which serve both): 3–20 of them, each about 1 s.
        let sleep = workload("sleep", &[("tasks", 100), ("delay-ms", 1_000)], 0);
        let stopping = Stopping {
            min_runs: 3,
            max_runs: 30,
            precision: 0.02,
            max_time: Duration::from_secs(60),
            budget: None,
        };
        let start = Duration::from_millis(2);
        let free = estimate(&plan(vec![sleep], stopping, 0), &[common(start)]);
        assert_eq!(free.total, free.need);
        let budgeted = |budget| {
            let stopping = Stopping {
                budget: Some(budget),
                ..stopping
            };
            estimate(&plan(vec![sleep], stopping, 0), &[common(start)])
        };
        // A budget beyond the need changes nothing.
        assert_eq!(budgeted(Duration::from_secs(3_600)), free);
        // A budget below the minimum: the minimum still runs.
        let tight = budgeted(Duration::from_secs(1));
        assert_eq!(tight.total, free.minimum);
        assert_eq!(tight.processes, free.minimum_processes);
        // Between the two: the budget, the processes past the minimum in proportion.
        let half = free.minimum + (free.need - free.minimum) / 2;
        let e = budgeted(half);
        assert_eq!(e.total, half);
        let extra = free.processes - free.minimum_processes;
        assert_eq!(e.processes, free.minimum_processes + extra / 2);
        assert_eq!(e.need, free.need);
    }

    #[test]
    fn a_runtimes_warm_up_lengthens_its_time_processes_only() {
        // spawn 10k: memory processes of 1 + 1 iterations; time processes of the table's
        // warm-up, then m measured iterations, whatever m is.
        let spawn = workload("spawn", &[("tasks", 10_000)], 1);
        let stopping = Stopping::exactly(5, Duration::from_secs(60));
        let common_cost = common(startup("Java"));
        let jit = ProcessCost {
            warm_up: contestant::WarmUpTable {
                measured: [("spawn".to_string(), 200)].into(),
                ..contestant::WarmUpTable::common()
            },
            ..common_cost.clone()
        };
        let memory = process(spawn, &common_cost, Next::MEMORY);
        assert_eq!(
            memory,
            process(spawn, &jit, Next::MEMORY),
            "memory processes keep their shape"
        );
        let m = calibrate(
            memory,
            iteration(spawn).as_nanos() as u64,
            stopping.max_time,
        );
        assert!(m > 1 && m < 200, "{m}");
        let time = |cost: &ProcessCost| process(spawn, cost, Next::time(m));
        let common_warm = contestant::warm_up::COMMON;
        assert_eq!(
            time(&jit) - time(&common_cost),
            iteration(spawn) * (200 - common_warm)
        );
        let plan = plan(vec![spawn], stopping, 0);
        let (e_common, e_jit) = (
            estimate(&plan, std::slice::from_ref(&common_cost)),
            estimate(&plan, std::slice::from_ref(&jit)),
        );
        assert_eq!(e_jit.processes, e_common.processes);
        assert_eq!(
            e_jit.total - e_common.total,
            5 * (time(&jit) - time(&common_cost)),
            "the budget sees the warm-up of its five time processes"
        );
    }
}
