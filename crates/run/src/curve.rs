//! Warm-up curves: fresh processes that time every iteration from the first, with no
//! warm-up of their own, so that where each settles can be seen — what `taskbench warmup`
//! measures and writes into a contestant's warm-up table (contestant/warm_up.rs).

use super::attempt::run_one;
use super::executor::{Executor, Limits};
use super::plan::{Phase, Step, Subject, Workload};
use super::record::RunRecord;
use catalogue::Scenario;
use measure::ExecError;
use std::time::Duration;

/// How many curves of how many iterations, and how long each may take.
#[derive(Debug, Clone, Copy)]
pub struct CurvePlan {
    /// Processes per case.
    pub processes: u32,
    /// Iterations per process, at most.
    pub iterations: u32,
    /// The least iterations a process runs, however long its iterations.
    pub min_iterations: u32,
    /// What one process's iterations should take at most, going by its first.
    pub per_process: Duration,
}

/// Iterations a curve process runs: as many as fit in `per_process` at the cold first
/// iteration's time (`first_ns`, an overestimate of the rest), within the plan's bounds.
pub fn iterations_for(plan: CurvePlan, first_ns: u64) -> u32 {
    let fits = plan.per_process.as_nanos() / u128::from(first_ns.max(1));
    let fits = u32::try_from(fits).unwrap_or(u32::MAX);
    fits.clamp(plan.min_iterations.min(plan.iterations), plan.iterations)
}

/// One curve process: `scenario` from a cold start, `iterations` timed, none warmed up.
pub fn curve_process(
    executor: &mut dyn Executor,
    subject: &Subject,
    scenario: Scenario,
    iterations: u32,
    limits: Limits,
) -> Result<RunRecord, ExecError> {
    let step = Step {
        subject: 0,
        workload: Workload::Scenario {
            scenario,
            inner_warm_up: 0,
        },
        phase: Phase::Measured,
        run: 1,
        iterations,
        timed: false,
    };
    run_one(executor, subject, &step, limits, &|| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_is_as_long_as_its_first_iteration_allows_within_bounds() {
        let plan = CurvePlan {
            processes: 2,
            iterations: 100,
            min_iterations: 30,
            per_process: Duration::from_secs(10),
        };
        assert_eq!(iterations_for(plan, 1_000_000), 100, "1 ms: all 100");
        assert_eq!(
            iterations_for(plan, 200_000_000),
            50,
            "200 ms: 50 fit in 10 s"
        );
        assert_eq!(iterations_for(plan, 2_000_000_000), 30, "2 s: the least");
        assert_eq!(iterations_for(plan, 0), 100);
    }
}
