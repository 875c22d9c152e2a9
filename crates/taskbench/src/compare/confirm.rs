//! The confirmation rerun of `compare --confirm`: the cases a gate failed, measured again with
//! the options of the run that failed them, so that the gate fails only a case that fails
//! twice. A false alarm of one comparison seldom repeats; a real change does
//! (docs/HISTORY.md measures both).

use crate::scheduler::{Scheduler, SessionOptions};
use anyhow::{Context, anyhow};
use contestant::Places;
use std::path::{Path, PathBuf};

/// The cases to measure again, as (contestant, point label) — each contestant named runs
/// every point named — and how many cases the run that failed them measured.
pub(crate) struct Rerun<'a> {
    pub(crate) cases: &'a [(String, String)],
    pub(crate) measured: usize,
}

/// Runs `rerun`'s cases again with the options `new` (a results folder) was run with,
/// into `<new>-confirm`, its share of `new`'s run budget, kept out of the store (it is no
/// session of its own); returns that folder. `contestants_dir` is where contestants are
/// found unless `new` was run with `--contestants`; `command` is kept in its run.json.
pub(crate) fn rerun(
    new: &Path,
    rerun: &Rerun,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
) -> anyhow::Result<PathBuf> {
    let kept = SessionOptions::read(new)?.ok_or_else(|| {
        anyhow!(
            "--confirm: {} keeps no options.json, so its run cannot be repeated: confirm a \
             results folder this version of `taskbench run` wrote",
            new.display()
        )
    })?;
    let out = confirm_dir(new);
    let options = rerun_options(kept, rerun, &out);
    let contestants_dir = (options.contestants_dir.clone()).unwrap_or(contestants_dir.into());
    Scheduler::plan(&options, &contestants_dir, places)?
        .prepare(command, None)?
        .build()?
        .measure()?
        .finish()
        .with_context(|| format!("--confirm: the rerun in {}", out.display()))?;
    Ok(out)
}

/// `results/pr` → `results/pr-confirm`, or `-confirm-2`, `-confirm-3`, … when it is taken:
/// an earlier rerun is never written over.
fn confirm_dir(new: &Path) -> PathBuf {
    let name = new.file_name().unwrap_or_default().to_string_lossy();
    (1..)
        .map(|n| match n {
            1 => new.with_file_name(format!("{name}-confirm")),
            n => new.with_file_name(format!("{name}-confirm-{n}")),
        })
        .find(|dir| !dir.exists())
        .expect("a free name")
}

/// `kept` narrowed to `rerun`'s contestants and points, with their share of its budget,
/// writing only its folder: no exports, no store, no gate, nothing on stdout.
fn rerun_options(mut options: SessionOptions, rerun: &Rerun, out: &Path) -> SessionOptions {
    let mut contestants: Vec<String> = Vec::new();
    let mut points: Vec<String> = Vec::new();
    for (contestant, point) in rerun.cases {
        if !contestants.contains(contestant) {
            contestants.push(contestant.clone());
        }
        if !points.contains(point) {
            points.push(point.clone());
        }
    }
    // Every contestant named runs every point named: their share of the budget is theirs.
    let cases = contestants.len() * points.len();
    let share = cases as f64 / rerun.measured.max(cases) as f64;
    options.contestants = contestants;
    options.plan.points = points;
    options.plan.budget = (options.plan.budget).map(|budget| budget.mul_f64(share));
    options.out = Some(out.to_path_buf());
    options.exports.clear();
    options.keep = crate::scheduler::Keep {
        no_store: true,
        ..crate::scheduler::Keep::default()
    };
    options.gate = crate::scheduler::Gate::default();
    options.shard = None;
    options.show.quiet = true;
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rerun_keeps_the_runs_settings_for_the_failing_cases_and_their_share_of_budget() {
        let argv = "taskbench run --budget 300s --min-runs 5 --tag pr --baseline main";
        let argv: Vec<String> = argv.split(' ').map(String::from).collect();
        let kept = crate::cli::run_options_of(&argv).unwrap();
        let cases = [
            ("go".to_string(), "spawn tasks=10000".to_string()),
            ("go".to_string(), "pingpong messages=100000".to_string()),
            ("tokio".to_string(), "spawn tasks=10000".to_string()),
        ];
        let rerun = Rerun {
            cases: &cases,
            measured: 150,
        };
        let options = rerun_options(kept, &rerun, Path::new("results/pr-confirm"));
        assert_eq!(options.contestants, ["go", "tokio"]);
        assert_eq!(
            options.plan.points,
            ["spawn tasks=10000", "pingpong messages=100000"]
        );
        assert_eq!(options.plan.budget, Some(std::time::Duration::from_secs(8)));
        assert_eq!(options.plan.min_runs, Some(5), "the run's own settings");
        assert!(options.keep.no_store && options.keep.tags.is_empty());
        assert!(options.gate.baseline.is_none() && options.show.quiet);
    }

    #[test]
    fn a_rerun_never_writes_over_an_earlier_one() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("pr");
        assert_eq!(confirm_dir(&new), dir.path().join("pr-confirm"));
        std::fs::create_dir(dir.path().join("pr-confirm")).unwrap();
        assert_eq!(confirm_dir(&new), dir.path().join("pr-confirm-2"));
    }
}
