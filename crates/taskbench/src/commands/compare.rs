//! `taskbench compare BASE NEW`: two runs side by side, case by case (see
//! analysis/change.rs) — each a results folder, or a session of the store named `last`,
//! a baseline or a tag — their intervals widened by the run-to-run variation of the
//! store's other sessions of each case (analysis/run_to_run.rs); `compare RUN` alone: each
//! variant of that run against its contestant. A terminal table, Markdown (a pull-request
//! comment) and HTML; with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it. Runs of different
//! machines are refused, or with `--mixed-machines` compared with every row marked. `run`
//! ends the same way with `--baseline`, or the gate flags alone.

use crate::analysis::gate::within;
use crate::cli::CompareArgs;
use crate::export::comparison::{Outputs, conclude};
use crate::store::{across_sessions, side};

/// Compares BASE with NEW, or BASE's variants with their contestants, and gates.
pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    let base = side(&args.base, &args.store)?;
    let outputs = Outputs {
        markdown: args.export_markdown.as_deref(),
        html: args.export_html.as_deref(),
    };
    let comparison = match &args.new {
        Some(new) => across_sessions(
            &base,
            &side(new, &args.store)?,
            &args.store,
            args.gate.mixed_machines,
        )?,
        None => within(&base)?,
    };
    conclude(&comparison, &args.gate.thresholds(), &outputs)
}
