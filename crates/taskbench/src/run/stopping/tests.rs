//! The stopping rules with fixed fake processes: calibration, the two kinds of process,
//! each reason to stop.

use super::*;

const MS: u64 = 1_000_000;

fn stopping(min_runs: u32, max_runs: u32, precision: f64, max_time_ms: u64) -> Stopping {
    Stopping {
        min_runs,
        max_runs,
        precision,
        max_time: Duration::from_millis(max_time_ms),
        budget: None,
    }
}

/// Feeds `case` processes of `wall` whose iterations take `elapsed(run, iteration)` until it
/// stops; returns the iterations asked of each process and the reason.
fn drive(
    case: &mut CaseProgress,
    wall: Duration,
    elapsed: impl Fn(u32, u32) -> u64,
) -> (Vec<u32>, StopReason) {
    let (asked, reason) = drive_kinds(case, wall, elapsed);
    (asked.iter().map(|n| n.iterations).collect(), reason)
}

/// As [`drive`], each process asked for as it was: its kind and iterations.
fn drive_kinds(
    case: &mut CaseProgress,
    wall: Duration,
    elapsed: impl Fn(u32, u32) -> u64,
) -> (Vec<Next>, StopReason) {
    let mut asked = Vec::new();
    while let Some(next) = case.next() {
        let run = asked.len() as u32;
        asked.push(next);
        let times: Vec<u64> = (0..next.iterations).map(|i| elapsed(run, i)).collect();
        if let Some(reason) = case.record(next, wall, Some(&times)) {
            assert_eq!(case.next(), None, "a stopped case asks for nothing");
            return (asked, reason);
        }
        assert!(asked.len() < 10_000, "never stopped");
    }
    unreachable!("next() gave None before a reason")
}

#[test]
fn calibration_balances_the_measured_part_against_the_rest_of_the_process() {
    let budget = Duration::from_secs(10);
    // 50 ms of start-up around a 1 ms iteration: 50 iterations.
    assert_eq!(calibrate(Duration::from_millis(51), MS, budget), 50);
    // A quick process still measures MIN_MEASURED (20 ms of 0.5 ms iterations).
    assert_eq!(calibrate(Duration::from_millis(3), MS / 2, budget), 40);
    // An iteration longer than the rest: one, the process serves both kinds.
    assert_eq!(calibrate(Duration::from_millis(300), 250 * MS, budget), 1);
    // At most a tenth of the budget: 1 s budget, 500 ms start-up, 1 ms iterations.
    assert_eq!(
        calibrate(Duration::from_millis(501), MS, Duration::from_secs(1)),
        100
    );
    assert_eq!(calibrate(Duration::from_secs(1), 1, budget), MAX_ITERATIONS);
}

#[test]
fn memory_and_time_processes_alternate_until_three_memory_ones() {
    let mut case = CaseProgress::new(stopping(5, 5, 0.0, 60_000), 0, 0);
    // 10 ms of process around 0.5 ms iterations → 40 iterations per time process.
    let (asked, reason) = drive(&mut case, Duration::from_millis(10), |_, _| MS / 2);
    assert_eq!(asked, [1, 40, 1, 40, 1, 40, 40, 40]);
    assert_eq!(reason, StopReason::MaxRuns, "exactly 5 time processes");
}

#[test]
fn long_iterations_still_keep_memory_and_time_processes_apart() {
    // One iteration is longer than the rest of a process: time processes of one measured
    // iteration — after their warm-up, which a memory process's single iteration never has.
    let mut case = CaseProgress::new(stopping(3, 3, 0.0, 60_000), 200 * MS, 1);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(210), |_, _| 205 * MS);
    let (memory, time) = (Next::MEMORY, Next::time(1));
    assert_eq!(asked, [memory, time, memory, time, memory, time]);
    assert_eq!(reason, StopReason::MaxRuns);
}

#[test]
fn a_time_process_times_at_least_as_many_iterations_as_it_warmed_up() {
    // A cold first iteration of 150 ms in a 400 ms process would ask for 2; a warm-up of
    // 40 makes it 40, in every run, whatever the cold iteration took.
    for cold_ms in [150, 90, 300] {
        let mut case = CaseProgress::new(stopping(3, 3, 0.0, 60_000), 0, 40);
        case.record(
            Next::MEMORY,
            Duration::from_millis(400),
            Some(&[cold_ms * MS]),
        );
        assert_eq!(case.next(), Some(Next::time(40)), "cold {cold_ms} ms");
    }
}

#[test]
fn a_steady_case_stops_on_precision_after_min_runs() {
    let mut case = CaseProgress::new(stopping(3, 100, 0.02, 60_000), 0, 0);
    // ±0.5 % around 1 ms: well within ±2 % by the third time process, but three processes
    // give a 75 % interval at most; six are the fewest with a 95 % one (stats/order.rs).
    let (asked, reason) = drive(&mut case, Duration::from_millis(25), |run, i| {
        MS + ((run * 7 + i) % 11) as u64 * MS / 1_000
    });
    assert_eq!(reason, StopReason::Precision);
    assert_eq!(asked.iter().filter(|&&m| m > 1).count(), 6, "{asked:?}");
}

#[test]
fn a_noisy_case_stops_on_its_budget() {
    let mut case = CaseProgress::new(stopping(3, 1_000, 0.02, 1_000), 0, 0);
    // Processes take 1, 2 or 3 ms in turn: the median's interval spans them.
    let (asked, reason) = drive(&mut case, Duration::from_millis(100), |run, _| {
        MS * (1 + (run % 3) as u64)
    });
    assert_eq!(reason, StopReason::TimeBudget);
    assert_eq!(asked.len(), 10, "10 × 100 ms = the 1 s budget");
}

#[test]
fn min_runs_come_before_the_budget() {
    // A 1 ms budget: every process is one iteration (a tenth of the budget is less than
    // one), and the case still gets its four time processes (and three memory ones).
    let mut case = CaseProgress::new(stopping(4, 1_000, 0.02, 1), 0, 0);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(100), |run, _| {
        MS * (1 + (run % 3) as u64)
    });
    assert_eq!(reason, StopReason::TimeBudget);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 4, "{asked:?}");
    assert_eq!(asked.len(), 7);
}

#[test]
fn overhead_is_the_quantity_where_there_is_an_ideal_time() {
    // 100 ms ideal, overhead 2 ms ± 0.6 ms: steady elapsed (±0.6 %), noisy overhead (±30 %).
    let mut case = CaseProgress::new(stopping(3, 1_000, 0.02, 2_000), 100 * MS, 0);
    let (_, reason) = drive(&mut case, Duration::from_millis(105), |run, _| {
        102 * MS + [0, 6, 12][run as usize % 3] * MS / 10 - 6 * MS / 10
    });
    assert_eq!(reason, StopReason::TimeBudget, "judged on the overhead");
    // An overhead of almost nothing (below 1 % of elapsed) is judged against elapsed.
    let mut tiny = CaseProgress::new(stopping(3, 1_000, 0.02, 2_000), 100 * MS, 0);
    let (_, reason) = drive(&mut tiny, Duration::from_millis(105), |run, _| {
        100 * MS + [1, 5, 9][run as usize % 3] * 10_000
    });
    assert_eq!(reason, StopReason::Precision);
}

#[test]
fn a_case_that_never_succeeds_stops_after_min_runs() {
    let mut case = CaseProgress::new(stopping(3, 100, 0.02, 60_000), 0, 0);
    let mut made = 0;
    while case.next().is_some() {
        made += 1;
        if let Some(reason) = case.record(Next::MEMORY, Duration::from_millis(5), None) {
            assert_eq!(reason, StopReason::NoValidRun);
        }
    }
    assert_eq!((made, case.stopped()), (3, Some(StopReason::NoValidRun)));
}

#[test]
fn exactly_n_runs_ignore_precision() {
    let mut case = CaseProgress::new(Stopping::exactly(7, Duration::from_secs(600)), 0, 0);
    let (asked, reason) = drive(&mut case, Duration::from_millis(10), |_, _| MS);
    assert_eq!(reason, StopReason::MaxRuns);
    assert_eq!(asked.iter().filter(|&&m| m > 1).count(), 7);
}

#[test]
fn no_between_process_noise_gives_later_processes_as_many_iterations_as_the_cap_allows() {
    // 0.4 and 0.6 ms in turn within every process: processes alike on average (S_b² = 0),
    // so the variance asks for the cap, a tenth of the 2 s case budget: 400 iterations of
    // 0.5 ms. After a pilot of 3 time processes of 50 (calibrated on a first iteration of
    // 0.4 ms), a step of at most 4×: 200.
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let (asked, _) = drive(&mut case, Duration::from_millis(3), |_, i| {
        [4, 6][i as usize % 2] * MS / 10
    });
    assert_eq!(asked[..7], [1, 50, 1, 50, 1, 50, 200], "{asked:?}");
    let v = case.variance().unwrap();
    assert_eq!(v.between, 0.0);
    assert_eq!(v.iterations_per_process, 400);
    // Before a process of 200 is made, its cost is the pilot's process cost and 200 of
    // its iterations (the pilot's wall of 3 ms is less than its 50 iterations: no process
    // cost).
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let within: Vec<u64> = (0..50).map(|i| [4, 6][i % 2] * MS / 10).collect();
    for _ in 0..3 {
        case.record(Next::MEMORY, Duration::from_millis(3), Some(&within[..1]));
        case.record(Next::time(50), Duration::from_millis(3), Some(&within));
    }
    assert_eq!(case.next(), Some(Next::time(200)));
    assert_eq!(
        case.next_cost(),
        Some(Duration::from_millis(100) + HARNESS_PER_PROCESS)
    );
}

#[test]
fn no_within_process_noise_gives_later_processes_two_iterations() {
    // Every iteration of a process alike, processes 0.5, 0.6 or 0.7 ms: only more
    // processes help, each as short as can still tell within from between (two), but at
    // most a step of 4× from the pilot's 40: 10.
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let (asked, reason) = drive(&mut case, Duration::from_millis(3), |run, _| {
        MS / 2 + u64::from(run % 3) * MS / 10
    });
    assert_eq!(asked[..7], [1, 40, 1, 40, 1, 40, 10], "{asked:?}");
    let v = case.variance().unwrap();
    assert_eq!((v.within, v.iterations_per_process), (0.0, 1));
    // The time sample starts again at two iterations: its 10 processes come after the pilot.
    assert_eq!(reason, StopReason::MaxRuns);
    assert_eq!(asked.iter().filter(|&&m| m == 10).count(), 10);
}

#[test]
fn the_next_process_costs_what_the_case_s_processes_of_its_kind_cost() {
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    assert_eq!(
        case.next_cost(),
        None,
        "nothing to go by before the first process"
    );
    case.record(Next::MEMORY, Duration::from_millis(3), Some(&[MS / 2]));
    // The next is a time process of 40: none made yet, so the guess is the memory one's
    // wall and its warm-up and measured iterations at the memory one's iteration time.
    assert_eq!(case.next(), Some(Next::time(40)));
    assert_eq!(
        case.next_cost(),
        Some(Duration::from_millis(3) + Duration::from_micros(500) * 40 + HARNESS_PER_PROCESS)
    );
    case.record(
        Next::time(40),
        Duration::from_millis(23),
        Some(&[MS / 2; 40]),
    );
    case.record(Next::MEMORY, Duration::from_millis(5), Some(&[MS / 2]));
    assert_eq!(
        case.next_cost(),
        Some(Duration::from_millis(23) + HARNESS_PER_PROCESS)
    );
    assert!(case.in_minimum());
}
