//! A case's progress with fixed fake processes: calibration, the two streams of process,
//! memory by need, each reason to stop, and the price of its goal.

use super::*;
use crate::price::PRIOR_PROCESSES;
use crate::stopping::{MAX_ITERATIONS, MIN_MEASURED};

const MS: u64 = 1_000_000;
const MIB: u64 = 1 << 20;

fn stopping(min_runs: u32, max_runs: u32, precision: f64, max_time_ms: u64) -> Stopping {
    Stopping {
        min_runs,
        max_runs,
        precision,
        max_time: Duration::from_millis(max_time_ms),
        budget: None,
    }
}

/// Feeds `case` rounds of processes of `wall` whose iterations take `elapsed(run, iteration)`
/// and whose peak RSS is `peak(memory process)`, until it stops; returns each process asked
/// for, in order, and the reason.
fn drive_with(
    case: &mut CaseProgress,
    wall: Duration,
    elapsed: impl Fn(u32, u32) -> u64,
    peak: impl Fn(u32) -> u64,
) -> (Vec<Next>, StopReason) {
    let mut asked: Vec<Next> = Vec::new();
    loop {
        let wants = case.wants();
        assert!(!wants.is_empty(), "a live case wants something");
        for next in wants.processes() {
            let run = asked.len() as u32;
            let memory = asked.iter().filter(|n| !n.timed).count() as u32;
            asked.push(next);
            let times: Vec<u64> = (0..next.iterations).map(|i| elapsed(run, i)).collect();
            if let Some(reason) = case.record(next, wall, peak(memory), Some(&times)) {
                assert!(case.wants().is_empty(), "a stopped case asks for nothing");
                return (asked, reason);
            }
        }
        assert!(asked.len() < 10_000, "never stopped");
    }
}

/// As [`drive_with`], every memory process peaking at 10 MiB.
fn drive_kinds(
    case: &mut CaseProgress,
    wall: Duration,
    elapsed: impl Fn(u32, u32) -> u64,
) -> (Vec<Next>, StopReason) {
    drive_with(case, wall, elapsed, |_| 10 * MIB)
}

/// As [`drive_kinds`], the iterations asked of each process.
fn drive(
    case: &mut CaseProgress,
    wall: Duration,
    elapsed: impl Fn(u32, u32) -> u64,
) -> (Vec<u32>, StopReason) {
    let (asked, reason) = drive_kinds(case, wall, elapsed);
    (asked.iter().map(|n| n.iterations).collect(), reason)
}

#[test]
fn calibration_balances_the_measured_part_against_the_rest_of_the_process() {
    let budget = Duration::from_secs(10);
    // 50 ms of start-up around a 1 ms iteration: 50 iterations.
    assert_eq!(calibrate(Duration::from_millis(51), MS, budget), 50);
    // A quick process still measures MIN_MEASURED (20 ms of 0.5 ms iterations).
    assert_eq!(MIN_MEASURED, Duration::from_millis(20));
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
fn a_memory_process_comes_first_then_each_round_a_time_one_and_memory_by_need() {
    // Peaks that agree: two memory processes, the second in the second time round.
    let mut case = CaseProgress::new(stopping(5, 5, 0.0, 60_000), 0, 0);
    // 10 ms of process around 0.5 ms iterations → 40 iterations per time process.
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(10), |_, _| MS / 2);
    let (m, t) = (Next::MEMORY, Next::time(40));
    assert_eq!(asked, [m, t, m, t, t, t, t]);
    assert_eq!(reason, StopReason::MaxRuns, "exactly 5 time processes");
    // Peaks 10, 12, 10, 11, 10 MiB: the first two differ by 18 %, more than the 5 % a run
    // without a precision asks; a third, fourth and fifth follow, the most there are.
    let mut case = CaseProgress::new(stopping(6, 6, 0.0, 60_000), 0, 0);
    let peaks = [10, 12, 10, 11, 10, 10];
    let (asked, _) = drive_with(
        &mut case,
        Duration::from_millis(10),
        |_, _| MS / 2,
        |memory| peaks[memory as usize] * MIB,
    );
    let memory = asked.iter().filter(|n| !n.timed).count() as u32;
    assert_eq!(memory, MEMORY_MOST);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 6);
}

#[test]
fn peaks_that_agree_within_the_precision_end_the_memory_processes() {
    // ±5 %: 10.0 and 10.4 MiB differ by 3.9 % of their median — two are enough; 10 and
    // 11 MiB (9.5 %) ask for a third, and 10, 11, 10.2 still span 9.8 %.
    for (peaks, wanted) in [(vec![100, 104], 2), (vec![100, 110, 102, 101, 103], 5)] {
        let mut case = CaseProgress::new(stopping(3, 6, 0.05, 60_000), 0, 0);
        let (asked, _) = drive_with(
            &mut case,
            Duration::from_millis(10),
            |_, _| MS / 2,
            |memory| peaks[(memory as usize).min(peaks.len() - 1)] * MIB / 10,
        );
        let memory = asked.iter().filter(|n| !n.timed).count();
        assert_eq!(memory, wanted, "{peaks:?}: {asked:?}");
    }
}

#[test]
fn long_iterations_still_keep_memory_and_time_processes_apart() {
    // One iteration is longer than the rest of a process: time processes of one measured
    // iteration — after their warm-up, which a memory process's single iteration never has.
    let mut case = CaseProgress::new(stopping(3, 3, 0.0, 60_000), 200 * MS, 1);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(210), |_, _| 205 * MS);
    let (memory, time) = (Next::MEMORY, Next::time(1));
    assert_eq!(asked, [memory, time, memory, time, time]);
    assert_eq!(reason, StopReason::MaxRuns);
}

#[test]
fn a_time_process_times_for_precision_not_as_many_iterations_as_it_warmed_up() {
    // A warm-up of 40 leaves M alone: the measured part lasts about as long as the rest of
    // the memory process (400 ms around a 10 ms iteration: 39).
    let mut case = CaseProgress::new(stopping(3, 3, 0.0, 60_000), 0, 40);
    case.record(
        Next::MEMORY,
        Duration::from_millis(400),
        MIB,
        Some(&[10 * MS]),
    );
    assert_eq!(case.wants().time, Some(Next::time(39)));
}

#[test]
fn a_steady_case_stops_on_precision_after_min_runs() {
    let mut case = CaseProgress::new(stopping(3, 100, 0.02, 60_000), 0, 0);
    // ±0.5 % around 1 ms: well within ±2 % by the third time process, but three processes
    // give a 75 % interval at most; six are the fewest with a 95 % one (stats/order.rs).
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(25), |run, i| {
        MS + ((run * 7 + i) % 11) as u64 * MS / 1_000
    });
    assert_eq!(reason, StopReason::Precision);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 6, "{asked:?}");
}

#[test]
fn a_noisy_case_stops_on_its_budget() {
    let mut case = CaseProgress::new(stopping(3, 1_000, 0.02, 1_000), 0, 0);
    // Processes take 1, 2 or 3 ms in turn: the median's interval spans them.
    let (asked, reason) = drive(&mut case, Duration::from_millis(100), |run, _| {
        MS * (1 + (run % 3) as u64)
    });
    assert_eq!(reason, StopReason::MaxTime);
    assert_eq!(asked.len(), 10, "10 × 100 ms = the 1 s budget");
}

#[test]
fn min_runs_come_before_the_budget() {
    // A 1 ms budget: every process is one iteration (a tenth of the budget is less than
    // one), and the case still gets its four time processes (and a memory one).
    let mut case = CaseProgress::new(stopping(4, 1_000, 0.02, 1), 0, 0);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(100), |run, _| {
        MS * (1 + (run % 3) as u64)
    });
    assert_eq!(reason, StopReason::MaxTime);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 4, "{asked:?}");
    assert!(asked.iter().filter(|n| !n.timed).count() >= 1);
}

#[test]
fn overhead_is_the_quantity_where_there_is_an_ideal_time() {
    // 100 ms ideal, overhead 2 ms ± 0.6 ms: steady elapsed (±0.6 %), noisy overhead (±30 %).
    let mut case = CaseProgress::new(stopping(3, 1_000, 0.02, 2_000), 100 * MS, 0);
    let (_, reason) = drive(&mut case, Duration::from_millis(105), |run, _| {
        102 * MS + [0, 6, 12][run as usize % 3] * MS / 10 - 6 * MS / 10
    });
    assert_eq!(reason, StopReason::MaxTime, "judged on the overhead");
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
    while let Some(next) = case.wants().processes().next() {
        made += 1;
        if let Some(reason) = case.record(next, Duration::from_millis(5), 0, None) {
            assert_eq!(reason, StopReason::NoValidRun);
        }
    }
    assert_eq!((made, case.stopped()), (3, Some(StopReason::NoValidRun)));
}

#[test]
fn exactly_n_runs_ignore_precision() {
    let mut case = CaseProgress::new(Stopping::exactly(7, Duration::from_secs(600)), 0, 0);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_millis(10), |_, _| MS);
    assert_eq!(reason, StopReason::MaxRuns);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 7);
    // -r 1: one process of each kind.
    let mut one = CaseProgress::new(Stopping::exactly(1, Duration::from_secs(600)), 0, 0);
    let (asked, _) = drive_kinds(&mut one, Duration::from_millis(10), |_, _| MS);
    assert_eq!(asked, [Next::MEMORY, Next::time(20)]);
}

#[test]
fn no_between_process_noise_gives_later_processes_as_many_iterations_as_the_cap_allows() {
    // 0.4 and 0.6 ms in turn within every process: processes alike on average (S_b² = 0),
    // so the variance asks for the cap, a tenth of the 2 s case budget: 400 iterations of
    // 0.5 ms. After a pilot of 3 time processes of 50 (calibrated on a first iteration of
    // 0.4 ms), a step of at most 4×: 200 — and the pilot's processes are kept.
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let (asked, _) = drive(&mut case, Duration::from_millis(3), |_, i| {
        [4, 6][i as usize % 2] * MS / 10
    });
    assert_eq!(asked[..6], [1, 50, 1, 50, 50, 200], "{asked:?}");
    let v = case.variance().unwrap();
    assert_eq!(v.between, 0.0);
    assert_eq!(v.iterations_per_process, 400);
    assert_eq!(
        asked.iter().filter(|&&m| m > 1).count(),
        10,
        "the pilot counts among the 10 time processes: {asked:?}"
    );
    // Before a process of 200 is made, its cost is the pilot's process cost and 200 of
    // its iterations (the pilot's wall of 3 ms is less than its 50 iterations: no process
    // cost).
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let within: Vec<u64> = (0..50).map(|i| [4, 6][i % 2] * MS / 10).collect();
    case.record(
        Next::MEMORY,
        Duration::from_millis(3),
        MIB,
        Some(&within[..1]),
    );
    for _ in 0..3 {
        case.record(Next::time(50), Duration::from_millis(3), 0, Some(&within));
    }
    assert_eq!(case.wants().time, Some(Next::time(200)));
    assert_eq!(
        case.cost(Next::time(200)),
        Some(Duration::from_millis(100) + HARNESS_PER_PROCESS)
    );
}

#[test]
fn no_within_process_noise_gives_later_processes_fewer_iterations() {
    // Every iteration of a process alike, processes 0.5, 0.6 or 0.7 ms: only more
    // processes help, each as short as can still tell within from between (two), but at
    // most a step of 4× from the pilot's 40: 10.
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    let (asked, reason) = drive(&mut case, Duration::from_millis(3), |run, _| {
        MS / 2 + u64::from(run % 3) * MS / 10
    });
    assert_eq!(asked[..6], [1, 40, 1, 40, 40, 10], "{asked:?}");
    let v = case.variance().unwrap();
    assert_eq!((v.within, v.iterations_per_process), (0.0, 1));
    assert_eq!(reason, StopReason::MaxRuns);
    assert_eq!(asked.iter().filter(|&&m| m == 10).count(), 7);
}

#[test]
fn the_next_process_costs_what_the_case_s_processes_of_its_kind_cost() {
    let mut case = CaseProgress::new(stopping(3, 10, 0.01, 2_000), 0, 0);
    assert_eq!(
        case.cost(Next::MEMORY),
        None,
        "nothing to go by before the first process"
    );
    assert_eq!(case.price(), None);
    case.record(Next::MEMORY, Duration::from_millis(3), MIB, Some(&[MS / 2]));
    // The next is a time process of 40: none made yet, so the guess is the memory one's
    // wall and its warm-up and measured iterations at the memory one's iteration time.
    assert_eq!(case.wants().time, Some(Next::time(40)));
    assert_eq!(
        case.cost(Next::time(40)),
        Some(Duration::from_millis(3) + Duration::from_micros(500) * 40 + HARNESS_PER_PROCESS)
    );
    case.record(
        Next::time(40),
        Duration::from_millis(23),
        0,
        Some(&[MS / 2; 40]),
    );
    case.record(Next::MEMORY, Duration::from_millis(5), MIB, Some(&[MS / 2]));
    assert_eq!(
        case.cost(Next::time(40)),
        Some(Duration::from_millis(23) + HARNESS_PER_PROCESS)
    );
    assert!(case.in_minimum());
}

#[test]
fn the_price_of_a_goal_follows_the_spread_of_the_case_s_processes() {
    // Processes of 100 ms; time processes of 20 iterations of 1 ms, at 0.9, 1.0 and 1.1 ms.
    let wall = Duration::from_millis(100);
    let pilot = |max_runs: u32| {
        let mut case = CaseProgress::new(stopping(3, max_runs, 0.05, 600_000), 0, 0);
        case.record(Next::MEMORY, Duration::from_millis(21), MIB, Some(&[MS]));
        let m = case.wants().time.unwrap();
        assert_eq!(m, Next::time(20));
        let price = case.price().unwrap();
        let time = case.cost(m).unwrap();
        let memory = case.cost(Next::MEMORY).unwrap();
        // Before a spread: the 95 % level, six time processes, and a second memory one; the
        // target at what the median case needs.
        assert_eq!(price.minimum, time * 3);
        assert_eq!(price.level, time * 6 + memory);
        if max_runs >= PRIOR_PROCESSES {
            assert_eq!(price.target, Some(time * PRIOR_PROCESSES + memory));
        }
        for level in [9, 10, 11] {
            case.record(m, wall, 0, Some(&[level * MS / 10; 20]));
        }
        case
    };
    let case = pilot(60);
    let price = case.price().unwrap();
    let next = case.wants().time.unwrap();
    let (time, memory) = (case.cost(next).unwrap(), case.cost(Next::MEMORY).unwrap());
    assert_eq!(price.minimum, Duration::ZERO);
    // Three processes at 0.9, 1.0 and 1.1 ms, resampled: a ±10 % spread asks for a few
    // dozen processes before an interval of them is within ±5 %.
    let needed = case.processes_needed() as u32;
    assert!((20..=60).contains(&needed), "{needed}");
    assert_eq!(price.target, Some(time * (needed - 3) + memory));
    assert_eq!(price.level, time * 3 + memory);
    // With at most 12 processes the target is out of reach: only the 95 % level has a price.
    let capped = pilot(12);
    let price = capped.price().unwrap();
    assert_eq!(price.target, None);
    let next = capped.wants().time.unwrap();
    assert_eq!(
        price.level,
        capped.cost(next).unwrap() * 3 + capped.cost(Next::MEMORY).unwrap()
    );
}

#[test]
fn exactly_n_is_not_cut_by_the_time_budget_and_keeps_two_memory_processes() {
    // -r 2 with a 3 s case budget, processes of 20 s (a 10 s sleep, its cold start and a
    // steady iteration): two time processes, two memory ones, and the reason is max runs.
    let mut case = CaseProgress::new(Stopping::exactly(2, Duration::from_secs(3)), 0, 1);
    let (asked, reason) = drive_kinds(&mut case, Duration::from_secs(20), |_, _| 10_000 * MS);
    assert_eq!(reason, StopReason::MaxRuns);
    assert_eq!(asked.iter().filter(|n| n.timed).count(), 2, "{asked:?}");
    assert_eq!(asked.iter().filter(|n| !n.timed).count(), 2, "{asked:?}");
}
