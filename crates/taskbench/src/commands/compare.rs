//! `taskbench compare BASE NEW`: two runs side by side, case by case (see
//! compare/change.rs) — each a results folder, or a session of the store named `last`,
//! a baseline or a tag — their intervals widened by the run-to-run variation of the
//! store's other sessions of each case (analysis/run_to_run.rs); `compare RUN` alone: each
//! variant of that run against its contestant. A terminal table, Markdown (a pull-request
//! comment) and HTML; with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it; with `--confirm`, the
//! failing cases are run again (compare/confirm.rs) and only those failing twice fail it;
//! with `--fail-on-change`, time and peak RSS are gated by the change points of each case's
//! history with NEW last (history/change_gate.rs) rather than by BASE against NEW. Runs of
//! different machines are refused, or with `--mixed-machines` compared with every row
//! marked. `run` ends the same way with `--baseline`, or the gate flags alone.

use crate::cli::CompareArgs;
use crate::compare::conclude::{Outputs, conclude, conclude_confirmed};
use crate::compare::confirm::{Rerun, rerun};
use crate::compare::gate::{Comparison, Side, Thresholds, failing_cases, judge, within};
use crate::compare::sides::{across_sessions, side};
use crate::history::change_gate::judge_changes;
use crate::history::changes::with_newest;
use crate::history::conclude::conclude_changes;
use contestant::Places;
use run::interrupt::outln;
use std::path::{Path, PathBuf};

/// Compares BASE with NEW, or BASE's variants with their contestants, and gates;
/// `contestants`, `places` and `argv` serve a confirmation rerun.
pub(crate) fn compare(
    args: &CompareArgs,
    contestants: &Path,
    places: &Places,
    argv: Vec<String>,
) -> anyhow::Result<()> {
    let thresholds = args.gate.thresholds();
    anyhow::ensure!(
        !args.fail_on_change || thresholds.slower.is_some() || thresholds.bigger.is_some(),
        "--fail-on-change judges steps against --fail-if-slower or --fail-if-bigger: give one"
    );
    anyhow::ensure!(
        !args.confirm || thresholds.any(),
        "--confirm reruns the cases the gate fails: give --fail-if-slower, --fail-if-bigger \
         or --fail-if-more-instructions"
    );
    let base = side(&args.base, &args.store)?;
    let outputs = Outputs {
        markdown: args.export_markdown.as_deref(),
        html: args.export_html.as_deref(),
    };
    let Some(new_name) = &args.new else {
        return conclude(&within(&base)?, &thresholds, &outputs);
    };
    let against = |new: &Side| across_sessions(&base, new, &args.store, args.gate.mixed_machines);
    let new = side(new_name, &args.store)?;
    let comparison = against(&new)?;
    if args.fail_on_change {
        return on_change(args, &comparison, &new, &thresholds, &outputs);
    }
    let failing = failing_cases(&judge(&comparison.found, &thresholds).failures);
    if !args.confirm || failing.is_empty() {
        return conclude(&comparison, &thresholds, &outputs);
    }
    let rerun_of = Rerun {
        cases: &failing,
        measured: comparison.found.len(),
    };
    let again = confirm(Path::new(new_name), &rerun_of, contestants, places, argv)?;
    let again = against(&side(&again.to_string_lossy(), &args.store)?)?;
    conclude_confirmed(&comparison, &again, &thresholds, &outputs)
}

/// `--fail-on-change`: time and peak RSS by the change points of each case's history with
/// NEW last; counts (instructions), which the store has no history of, BASE against NEW.
fn on_change(
    args: &CompareArgs,
    comparison: &Comparison,
    new: &Side,
    thresholds: &Thresholds,
    outputs: &Outputs,
) -> anyhow::Result<()> {
    let gate = judge_changes(with_newest(&args.store, new)?, thresholds);
    let counts = Thresholds {
        more_instructions: thresholds.more_instructions,
        ..Thresholds::default()
    };
    conclude(comparison, &counts, outputs)?;
    conclude_changes(&gate)
}

/// Runs the failing cases of `new` (a results folder) again with its options; the folder
/// of the rerun.
fn confirm(
    new: &Path,
    rerun_of: &Rerun,
    contestants: &Path,
    places: &Places,
    argv: Vec<String>,
) -> anyhow::Result<PathBuf> {
    anyhow::ensure!(
        new.is_dir(),
        "--confirm: NEW must be a results folder, to run its cases again; '{}' is none",
        new.display()
    );
    outln!(
        "confirming {} failing case(s) by running them again …",
        rerun_of.cases.len()
    );
    rerun(new, rerun_of, contestants, places, argv)
}
