//! The gate step, and the comparison `taskbench compare` makes too: two sides compared
//! case by case (analysis/gate.rs) with the store's other sessions as their run-to-run
//! spread, the table printed and written where asked, and the gate's judgement — exit 1
//! (crate::exit) when a change is significantly past its threshold, naming it.

use super::Finished;
use crate::analysis::gate::{Comparison, Side, Thresholds, across, judge, within};
use crate::exit::{ExitClass, cannot_compare, fail};
use crate::export::write_atomically;
use crate::report::comparison::{failure, gate_line, table, unhistoried_warning};
use crate::report::condition::condition_block;
use crate::report::{render_markdown, render_terminal, terminal_width};
use crate::run::interrupt::{errln, outln};
use crate::store::Location;
use std::path::Path;

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

/// BASE against NEW, each case widened by the store's other sessions of it on NEW's machine;
/// sides of different machines only with `mixed_machines`.
pub fn across_sessions(
    base: &Side,
    new: &Side,
    store: &Location,
    mixed_machines: bool,
) -> anyhow::Result<Comparison> {
    if !store.exists() {
        return across(base, new, None, mixed_machines);
    }
    let mut db = crate::store::open(store).map_err(cannot_compare)?;
    let exclude = [base.started.clone(), new.started.clone()];
    across(
        base,
        new,
        Some(&mut |point, contestant| {
            crate::store::spreads(&mut db, &new.machine, point, contestant, &exclude)
        }),
        mixed_machines,
    )
    .map_err(cannot_compare)
}

/// Where a comparison goes besides the terminal.
#[derive(Default)]
pub struct Outputs<'a> {
    pub markdown: Option<&'a Path>,
    pub html: Option<&'a Path>,
}

/// Prints the comparison's table, writes it where `outputs` ask, and fails when a
/// threshold is set and a significant change passes it.
pub fn conclude(
    comparison: &Comparison,
    thresholds: &Thresholds,
    outputs: &Outputs,
) -> anyhow::Result<()> {
    let table = table(comparison);
    let block = (comparison.conditions.as_ref())
        .map(condition_block)
        .unwrap_or_default();
    for line in &block {
        outln!("{line}");
    }
    outln!("{}", render_terminal(&table, terminal_width()));
    if let Some(path) = outputs.markdown {
        let block: String = block.iter().map(|l| format!("{l}\n")).collect();
        let text = format!("{block}\n{}", render_markdown(&table));
        write_atomically(path, text.trim_start().as_bytes())?;
    }
    if let Some(path) = outputs.html {
        let page = crate::html::standalone(&table.title, &crate::html::figures_table(&table));
        write_atomically(path, page.as_bytes())?;
    }
    if !thresholds.any() {
        return Ok(());
    }
    let outcome = judge(&comparison.found, thresholds);
    outln!("{}", gate_line(&outcome));
    if comparison.across && outcome.unhistoried > 0 {
        errln!("{}", unhistoried_warning(&outcome));
    }
    let failures: Vec<String> = outcome.failures.iter().map(failure).collect();
    if !failures.is_empty() {
        return Err(fail(
            ExitClass::Regression,
            format!(
                "{} significant change(s) past the threshold: {}",
                failures.len(),
                failures.join("; ")
            ),
        ));
    }
    outln!("gate passed: no significant change past the threshold");
    Ok(())
}
