//! A plan in words: the dry run (`taskbench run --dry-run`: the cases a run would make and
//! an estimate of its time), the line a run opens with, and the line that says what a
//! shard (`--shard K/N`) takes.

use super::{plain_table, terminal_width, wrap};
use comfy_table::CellAlignment;
use contestant::ProcessCost;
use presets::estimate::case_estimate;
use presets::estimate::{EXPECTED_TIME_RUNS, PER_OPERATION, PER_SOCKET_OPERATION};
use presets::{Plan, estimate};
use run::price::LEVEL_RUNS;
use run::{Shard, ShardCases, Stopping, Workload};
use std::time::Duration;
use units::{duration, rough_duration};

/// The dry run of `plan` on `subjects`: each name with what its processes cost.
pub fn dry_run(plan: &Plan, subjects: &[(String, ProcessCost)]) -> String {
    let costs: Vec<ProcessCost> = subjects.iter().map(|(_, cost)| cost.clone()).collect();
    let e = estimate(plan, &costs);
    let subjects: Vec<String> = subjects.iter().map(|(name, _)| name.clone()).collect();
    let commands = plan.workloads == [Workload::Command];
    let what = match (&plan.preset, commands) {
        (Some(preset), _) => format!("preset {preset}"),
        (None, true) => "the commands".to_string(),
        (None, false) => "the named scenarios".to_string(),
    };
    let mut out = format!(
        "{what}: {} and {} warm-up {} per case\n",
        stopping_line(plan),
        plan.warm_up,
        plural(plan.warm_up as usize, "process"),
    );
    out.push_str(&wrap(
        &format!(
            "{} ({}): {}",
            if commands { "commands" } else { "contestants" },
            subjects.len(),
            subjects.join(", ")
        ),
        terminal_width().into(),
    ));
    let mut cases = plain_table(&["#", "case", "seed", "ideal"]);
    for (i, workload) in plan.workloads.iter().enumerate() {
        let (case, seed, ideal) = match workload {
            Workload::Scenario { scenario, .. } => (
                format!("{} · {}", scenario.name(), scenario.label()),
                plan.seed_of(&workload.point()),
                duration(scenario.ideal_ns() as f64),
            ),
            Workload::Command => ("each command".to_string(), None, "–".to_string()),
        };
        cases.add_row([
            (i + 1).to_string(),
            case,
            seed.unwrap_or("–").to_string(),
            ideal,
        ]);
    }
    for index in [0, 3] {
        if let Some(column) = cases.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    out.push_str(&format!("{cases}\n"));
    let points = plan.workloads.len();
    out.push_str(&format!(
        "{points} {} × {} {} = {} cases · about {} measured runs\n{} processes in all, with \
         warm-ups and idle footprints\n",
        plural(points, "point"),
        subjects.len(),
        plural(subjects.len(), "contestant"),
        points * subjects.len(),
        e.measured,
        e.processes,
    ));
    out.push_str(&format!(
        "estimated time: {}\n(ideal {} + each language's start-up per process + {} per task \
         operation, {} per socket one; {EXPECTED_TIME_RUNS} time processes a case unless its \
         budget ends it)\n",
        rough_duration(e.total),
        rough_duration(e.ideal),
        duration(PER_OPERATION.as_nanos() as f64),
        duration(PER_SOCKET_OPERATION.as_nanos() as f64),
    ));
    if let Some(line) = budget_buys(plan, &costs) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What a run budget buys, said before measuring, from the plan's estimate on `costs`:
/// every case's minimum, the 95 % level (six time processes and two memory ones) for
/// every case, and how many cases' levels fit after the minimums, cheapest first —
/// `budget 5 min: minimums ~84 s; the 95 % level for all 135 cases ~7 min, about 130
/// within it`. `None` without a budget.
pub fn budget_buys(plan: &Plan, costs: &[ProcessCost]) -> Option<String> {
    let budget = plan.stopping.budget?;
    let at = |runs: u32| Plan {
        stopping: Stopping {
            budget: None,
            ..Stopping::exactly(runs.min(plan.stopping.max_runs), plan.stopping.max_time)
        },
        ..plan.clone()
    };
    let (minimum, level) = (at(plan.stopping.min_runs.max(1)), at(LEVEL_RUNS));
    let mut extra: Vec<Duration> = Vec::new();
    let mut cases = 0;
    let mut floor = Duration::ZERO;
    for &workload in &plan.workloads {
        for cost in costs {
            let least = case_estimate(&minimum, workload, cost).total;
            floor += least;
            extra.push(
                case_estimate(&level, workload, cost)
                    .total
                    .saturating_sub(least),
            );
            cases += 1;
        }
    }
    extra.sort();
    let mut left = budget.saturating_sub(floor);
    let fit = extra
        .iter()
        .take_while(|&&e| {
            let fits = e <= left;
            left = left.saturating_sub(e);
            fits
        })
        .count();
    let all = floor + extra.iter().sum::<Duration>();
    let reach = if floor > budget {
        "the minimums alone are over it: the dearest cases get no steady figure".into()
    } else if fit == cases {
        "all within it".to_string()
    } else {
        format!("about {fit} within it")
    };
    Some(format!(
        "budget {}: minimums ~{}; the 95 % level for all {cases} cases ~{}, {reach}",
        rough_duration(budget),
        rough_duration(floor),
        rough_duration(all),
    ))
}

/// `3–30 runs until ±2 % or 1 s`, or `exactly 5 runs`; `, in a run budget of 5 min` after
/// either where the run has one.
pub fn stopping_line(plan: &Plan) -> String {
    let s = &plan.stopping;
    let budget = s
        .budget
        .map(|b| format!(", in a run budget of {}", rough_duration(b)))
        .unwrap_or_default();
    if s.min_runs == s.max_runs {
        return format!(
            "exactly {} {}{budget}",
            s.min_runs,
            plural(s.min_runs as usize, "run")
        );
    }
    format!(
        "{}–{} runs until ±{} % or {}{budget}",
        s.min_runs,
        s.max_runs,
        s.precision * 100.0,
        rough_duration(s.max_time)
    )
}

/// `word` with an `s` unless `n` is 1 (`processes` for `process`).
pub fn plural(n: usize, word: &str) -> String {
    match (n, word.ends_with('s')) {
        (1, _) => word.to_string(),
        (_, true) => format!("{word}es"),
        _ => format!("{word}s"),
    }
}

/// `shard 2/3: 165 of 495 cases · estimated 4 min (the parts: 4 min, 4 min, 4 min)`.
pub fn shard_line(shard: Shard, chosen: &ShardCases, subjects: usize) -> String {
    let parts: Vec<String> = chosen.parts.iter().map(|&d| rough_duration(d)).collect();
    format!(
        "shard {shard}: {} of {} cases on {subjects} {} · estimated {} (the parts: {})",
        chosen.cases,
        chosen.total,
        plural(subjects, "contestant"),
        rough_duration(chosen.parts[shard.index as usize - 1]),
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_says_before_measuring_what_it_buys() {
        let plan = |budget: u64| Plan {
            preset: None,
            workloads: vec![Workload::Scenario {
                scenario: catalogue::Scenario::new("spawn", &[("tasks", 1_000)]).unwrap(),
                inner_warm_up: 1,
            }],
            seeds: Vec::new(),
            stopping: Stopping {
                min_runs: 1,
                max_runs: 60,
                precision: 0.05,
                max_time: Duration::from_secs(30),
                budget: Some(Duration::from_secs(budget)),
            },
            warm_up: 0,
            idle_runs: 0,
            seed: 0,
            held_back: Vec::new(),
        };
        let jvm = |startup_ms| ProcessCost {
            startup: Duration::from_millis(startup_ms),
            warm_up: contestant::WarmUpTable::common(),
        };
        // Two contestants of 1 s of start-up a process, whose time processes time 0.3 s
        // more (a tenth of the case's 3 s): a minimum of a memory and a time process each,
        // 2.3 s; the level, two memory and six time processes, 9.8 s. In 15 s one level fits
        // beyond the minimums, in 3 s not even the minimums do.
        let costs = [jvm(1_000), jvm(1_000)];
        let line = |budget| budget_buys(&plan(budget), &costs).unwrap();
        assert!(line(100).ends_with("all within it"), "{}", line(100));
        assert!(line(15).ends_with("about 1 within it"), "{}", line(15));
        assert!(
            line(3).contains("the minimums alone are over it"),
            "{}",
            line(3)
        );
        assert!(
            line(15)
                .starts_with("budget 15 s: minimums ~5 s; the 95 % level for all 2 cases ~20 s"),
            "{}",
            line(15)
        );
        let unbudgeted = Plan {
            stopping: Stopping::exactly(3, Duration::from_secs(1)),
            ..plan(10)
        };
        assert_eq!(budget_buys(&unbudgeted, &costs), None);
    }

    #[test]
    fn the_stopping_line_names_the_run_budget() {
        let plan = |stopping| Plan {
            preset: None,
            workloads: Vec::new(),
            seeds: Vec::new(),
            stopping,
            warm_up: 0,
            idle_runs: 0,
            seed: 0,
            held_back: Vec::new(),
        };
        let stopping = Stopping {
            min_runs: 3,
            max_runs: 60,
            precision: 0.04,
            max_time: Duration::from_secs(8),
            budget: Some(Duration::from_secs(300)),
        };
        assert_eq!(
            stopping_line(&plan(stopping)),
            "3–60 runs until ±4 % or 8 s, in a run budget of 5 min"
        );
        let exactly = Stopping::exactly(2, Duration::from_secs(8));
        assert_eq!(stopping_line(&plan(exactly)), "exactly 2 runs");
    }
}
