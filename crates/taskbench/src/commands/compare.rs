//! `taskbench compare BASE NEW`: two runs side by side, case by case (see
//! analysis/change.rs) — each a results folder, or a session of the store named `last`,
//! a baseline or a tag — their intervals widened by the run-to-run variation of the
//! store's other sessions of each case (analysis/run_to_run.rs); `compare RUN` alone: each
//! variant of that run against its contestant. A terminal table, Markdown (a pull-request
//! comment) and HTML; with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it; with `--confirm`, the
//! failing cases are run again (scheduler/confirm.rs) and only those failing twice fail it.
//! Runs of different machines are refused, or with `--mixed-machines` compared with every
//! row marked. `run` ends the same way with `--baseline`, or the gate flags alone.

use crate::analysis::gate::{Comparison, failing_cases, judge, within};
use crate::cli::CompareArgs;
use crate::contestant::Places;
use crate::export::comparison::{Outputs, conclude, conclude_confirmed};
use crate::run::interrupt::outln;
use crate::scheduler::{Rerun, rerun};
use crate::store::{across_sessions, side};
use std::path::Path;

/// Compares BASE with NEW, or BASE's variants with their contestants, and gates;
/// `contestants`, `places` and `argv` serve a confirmation rerun.
pub fn compare(
    args: &CompareArgs,
    contestants: &Path,
    places: &Places,
    argv: Vec<String>,
) -> anyhow::Result<()> {
    let base = side(&args.base, &args.store)?;
    let outputs = Outputs {
        markdown: args.export_markdown.as_deref(),
        html: args.export_html.as_deref(),
    };
    let against = |new: &str| {
        across_sessions(
            &base,
            &side(new, &args.store)?,
            &args.store,
            args.gate.mixed_machines,
        )
    };
    let comparison = match &args.new {
        Some(new) => against(new)?,
        None => within(&base)?,
    };
    let thresholds = args.gate.thresholds();
    let new = args.new.as_deref().filter(|_| args.confirm);
    let Some(new) = new else {
        return conclude(&comparison, &thresholds, &outputs);
    };
    anyhow::ensure!(
        thresholds.any(),
        "--confirm reruns the cases the gate fails: give --fail-if-slower, --fail-if-bigger \
         or --fail-if-more-instructions"
    );
    let failing = failing_cases(&judge(&comparison.found, &thresholds).failures);
    if failing.is_empty() {
        return conclude(&comparison, &thresholds, &outputs);
    }
    let again = confirm(
        &comparison,
        &failing,
        Path::new(new),
        contestants,
        places,
        argv,
    )?;
    let again = against(&again.to_string_lossy())?;
    conclude_confirmed(&comparison, &again, &thresholds, &outputs)
}

/// Runs `failing` again with NEW's options; the folder of the rerun.
fn confirm(
    comparison: &Comparison,
    failing: &[(String, String)],
    new: &Path,
    contestants: &Path,
    places: &Places,
    argv: Vec<String>,
) -> anyhow::Result<std::path::PathBuf> {
    anyhow::ensure!(
        new.is_dir(),
        "--confirm: NEW must be a results folder, to run its cases again; '{}' is none",
        new.display()
    );
    outln!(
        "confirming {} failing case(s) by running them again …",
        failing.len()
    );
    let rerun_of = Rerun {
        cases: failing,
        measured: comparison.found.len(),
    };
    rerun(new, &rerun_of, contestants, places, argv)
}
