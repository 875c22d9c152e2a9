//! `taskbench compare BASE NEW`: two runs side by side, case by case (see
//! analysis/change.rs) — each a results folder, or a session of the store named `last`,
//! a baseline or a tag — their intervals widened by the run-to-run variation of the
//! store's other sessions of each case (analysis/run_to_run.rs); `compare RUN` alone: each
//! variant of that run against its contestant. A terminal table, Markdown (a pull-request
//! comment) and HTML; with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it. Runs of different
//! machines are refused, or with `--mixed-machines` compared with every row marked. `run`
//! ends the same way with `--baseline`, or the gate flags alone. With `--fail-on-change`,
//! time and peak RSS are gated by the change points of each case's history with NEW last
//! (analysis/change_gate.rs) rather than by BASE against NEW.

use crate::analysis::change_gate::judge_changes;
use crate::analysis::gate::{Thresholds, within};
use crate::cli::CompareArgs;
use crate::export::change_gate::conclude_changes;
use crate::export::comparison::{Outputs, conclude};
use crate::store::{across_sessions, side, with_newest};

/// Compares BASE with NEW, or BASE's variants with their contestants, and gates.
pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    let thresholds = args.gate.thresholds();
    anyhow::ensure!(
        !args.fail_on_change || thresholds.slower.is_some() || thresholds.bigger.is_some(),
        "--fail-on-change judges steps against --fail-if-slower or --fail-if-bigger: give one"
    );
    let base = side(&args.base, &args.store)?;
    let outputs = Outputs {
        markdown: args.export_markdown.as_deref(),
        html: args.export_html.as_deref(),
    };
    let Some(new) = &args.new else {
        return conclude(&within(&base)?, &thresholds, &outputs);
    };
    let new = side(new, &args.store)?;
    let comparison = across_sessions(&base, &new, &args.store, args.gate.mixed_machines)?;
    if !args.fail_on_change {
        return conclude(&comparison, &thresholds, &outputs);
    }
    let gate = judge_changes(with_newest(&args.store, &new)?, &thresholds);
    // Counts (instructions) have no history in the store: still judged BASE against NEW.
    let counts = Thresholds {
        more_instructions: thresholds.more_instructions,
        ..Thresholds::default()
    };
    conclude(&comparison, &counts, &outputs)?;
    conclude_changes(&gate)
}
