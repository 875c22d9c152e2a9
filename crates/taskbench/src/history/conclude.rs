//! How `compare --fail-on-change` ends: the change-point gate's lines (history/words.rs)
//! printed, and exit 1 (the exit crate) when a case's newest step fails it, naming the step.

use crate::history::change_gate::ChangeGate;
use crate::history::words::change_gate_lines;
use exit::{ExitClass, fail};
use run::interrupt::outln;

/// Prints what the change-point gate judged, and fails when a series failed it.
pub(crate) fn conclude_changes(gate: &ChangeGate) -> anyhow::Result<()> {
    let (lines, failure) = change_gate_lines(gate);
    for line in lines {
        outln!("{line}");
    }
    if let Some(failure) = failure {
        return Err(fail(ExitClass::Regression, failure));
    }
    outln!("gate passed: no change point among the newest sessions past the threshold");
    Ok(())
}
