//! The gate step of `taskbench run`: the finished session against its baseline across the
//! store's sessions (store/spread.rs), or its variants against their contestants,
//! concluded as `taskbench compare` concludes ([`super::conclude`]).

use crate::compare::conclude::{Outputs, conclude};
use crate::compare::gate::{Side, within};
use crate::compare::sides::across_sessions;
use crate::scheduler::Finished;
use run::interrupt::outln;

/// The run against its baseline, or its variants against their contestants; nothing for
/// an interrupted run, or one with neither to compare.
pub(crate) fn gate(finished: Finished) -> anyhow::Result<()> {
    if run::interrupt::requested() {
        return Ok(());
    }
    let gate = &finished.options.gate;
    let gated = gate.thresholds.any();
    let this = Side::of(
        finished.results,
        format!("this run ({})", finished.out.display()),
    );
    let comparison = match finished.baseline {
        Some(baseline) => across_sessions(&baseline, &this, &finished.store, gate.mixed_machines)?,
        // A run of variants whose contestants it does not hold has nothing to gate.
        None if gated => within(&this)?,
        // Stdout holds an export: the table of the variants is left to `compare DIR`.
        None if finished.options.exports_to_stdout() => return Ok(()),
        None => match within(&this) {
            Ok(comparison) => comparison,
            Err(_) => return Ok(()),
        },
    };
    outln!();
    conclude(&comparison, &gate.thresholds, &Outputs::default())
}
