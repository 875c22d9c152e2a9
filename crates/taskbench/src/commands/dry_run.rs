//! `taskbench run --dry-run`: the cases a run would make and an estimate of its time,
//! without building or running anything.

use super::list::table;
use crate::presets::estimate::{EXPECTED_TIME_RUNS, PER_OPERATION};
use crate::presets::{Plan, estimate, point_of};
use crate::report::units::{duration, rough_duration};
use crate::report::{terminal_width, wrap};
use crate::run::Workload;
use comfy_table::CellAlignment;
use std::time::Duration;

/// The dry run of `plan` on `subjects`: each name with its processes' start-up.
pub fn dry_run(plan: &Plan, subjects: &[(String, Duration)]) -> String {
    let startups: Vec<Duration> = subjects.iter().map(|(_, start)| *start).collect();
    let e = estimate(plan, &startups);
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
        plan.warmup,
        plural(plan.warmup as usize, "process"),
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
    let mut cases = table(&["#", "case", "seed", "ideal"]);
    for (i, workload) in plan.workloads.iter().enumerate() {
        let (case, seed, ideal) = match workload {
            Workload::Scenario { scenario, .. } => (
                format!("{} · {}", scenario.name(), scenario.label()),
                plan.seed_of(&point_of(scenario)),
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
         operation; {EXPECTED_TIME_RUNS} time processes a case unless its budget ends it)\n",
        rough_duration(e.total),
        rough_duration(e.ideal),
        duration(PER_OPERATION.as_nanos() as f64),
    ));
    out
}

/// `3–30 runs until ±2 % or 1 s`, or `exactly 5 runs`.
pub(super) fn stopping_line(plan: &Plan) -> String {
    let s = &plan.stopping;
    if s.min_runs == s.max_runs {
        return format!(
            "exactly {} {}",
            s.min_runs,
            plural(s.min_runs as usize, "run")
        );
    }
    format!(
        "{}–{} runs until ±{} % or {}",
        s.min_runs,
        s.max_runs,
        s.precision * 100.0,
        rough_duration(s.max_time)
    )
}

/// `word` with an `s` unless `n` is 1 (`processes` for `process`).
pub(super) fn plural(n: usize, word: &str) -> String {
    match (n, word.ends_with('s')) {
        (1, _) => word.to_string(),
        (_, true) => format!("{word}es"),
        _ => format!("{word}s"),
    }
}
