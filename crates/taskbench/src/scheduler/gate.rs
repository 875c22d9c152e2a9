//! The gate step: this run against its baseline across the store's sessions
//! (store/spread.rs), or its variants against their contestants, concluded as `taskbench
//! compare` concludes (export/comparison.rs).

use super::Finished;
use crate::analysis::gate::within;
use crate::export::comparison::{Outputs, conclude};
use crate::run::interrupt::outln;
use crate::store::across_sessions;

impl Finished<'_> {
    /// The run against its baseline, or its variants against their contestants; nothing
    /// for an interrupted run, or one with neither to compare.
    pub fn gate(self) -> anyhow::Result<()> {
        if crate::run::interrupt::requested() {
            return Ok(());
        }
        let gate = &self.options.gate;
        let gated = gate.thresholds.any();
        let this = self
            .results
            .into_side(format!("this run ({})", self.out.display()));
        let comparison = match self.baseline {
            Some(baseline) => across_sessions(&baseline, &this, &self.store, gate.mixed_machines)?,
            // A run of variants whose contestants it does not hold has nothing to gate.
            None if gated => within(&this)?,
            // Stdout holds an export: the table of the variants is left to `compare DIR`.
            None if self.options.exports_to_stdout() => return Ok(()),
            None => match within(&this) {
                Ok(comparison) => comparison,
                Err(_) => return Ok(()),
            },
        };
        outln!();
        conclude(&comparison, &gate.thresholds, &Outputs::default())
    }
}
