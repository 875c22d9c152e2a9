//! `taskbench run --dry-run`: the cases a run would make and an estimate of its time,
//! without building or running anything.

use super::list::table;
use crate::presets::estimate::{PER_OPERATION, PER_PROCESS};
use crate::presets::{Plan, estimate, point_of};
use crate::report::units::{duration, rough_duration};
use crate::report::{terminal_width, wrap};
use crate::run::{Workload, schedule};
use comfy_table::CellAlignment;

/// The dry run of `plan` on the subjects named `subjects`.
pub fn dry_run(plan: &Plan, subjects: &[String]) -> String {
    let steps = schedule(subjects.len(), &plan.workloads, plan.runs, plan.warmup);
    let e = estimate(&steps);
    let commands = plan.workloads == [Workload::Command];
    let what = match (&plan.preset, commands) {
        (Some(preset), _) => format!("preset {preset}"),
        (None, true) => "the commands".to_string(),
        (None, false) => "the named scenarios".to_string(),
    };
    let mut out = format!(
        "{what}: {} {} and {} warm-up {} per case\n",
        plan.runs,
        plural(plan.runs as usize, "run"),
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
        "{points} {} × {} {} = {} cases · {} measured runs\n{} processes in all, with \
         warm-ups and idle footprints\n",
        plural(points, "point"),
        subjects.len(),
        plural(subjects.len(), "contestant"),
        points * subjects.len(),
        e.measured,
        e.processes,
    ));
    out.push_str(&format!(
        "estimated time: {}\n(ideal {} + {} per process + {} per task operation)\n",
        rough_duration(e.total),
        rough_duration(e.ideal),
        duration(PER_PROCESS.as_nanos() as f64),
        duration(PER_OPERATION.as_nanos() as f64),
    ));
    out
}

/// `word` with an `s` unless `n` is 1 (`processes` for `process`).
pub(super) fn plural(n: usize, word: &str) -> String {
    match (n, word.ends_with('s')) {
        (1, _) => word.to_string(),
        (_, true) => format!("{word}es"),
        _ => format!("{word}s"),
    }
}
