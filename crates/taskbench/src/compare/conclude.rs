//! How a comparison ends, for `taskbench compare` and `run --baseline` alike: its table
//! printed and written where asked (Markdown, HTML), and the gate's judgement — exit 1
//! (the exit crate) when a change is significantly past its threshold, naming it.

use crate::compare::gate::{Comparison, GateOutcome, Judgement, Thresholds, confirmed, judge};
use crate::compare::words::{failure, gate_line, table, unhistoried_warning};
use exit::{ExitClass, fail};
use run::interrupt::{errln, outln};
use std::path::Path;
use words::condition::condition_block;
use words::{render_markdown, render_terminal, terminal_width};

/// Where a comparison goes besides the terminal.
#[derive(Default)]
pub(crate) struct Outputs<'a> {
    pub(crate) markdown: Option<&'a Path>,
    pub(crate) html: Option<&'a Path>,
}

/// Prints the comparison's table, writes it where `outputs` ask, and fails when a
/// threshold is set and a significant change passes it.
pub(crate) fn conclude(
    comparison: &Comparison,
    thresholds: &Thresholds,
    outputs: &Outputs,
) -> anyhow::Result<()> {
    show(comparison, outputs)?;
    if !thresholds.any() {
        return Ok(());
    }
    let outcome = announce(comparison, thresholds);
    end(&outcome.failures, "")
}

/// [`conclude`] with a confirmation rerun `again` of the failing cases: its table too, and
/// a failure only where the rerun fails the same case as the same thing again.
pub(crate) fn conclude_confirmed(
    comparison: &Comparison,
    again: &Comparison,
    thresholds: &Thresholds,
    outputs: &Outputs,
) -> anyhow::Result<()> {
    show(comparison, outputs)?;
    let outcome = announce(comparison, thresholds);
    outln!("the confirmation rerun of the failing cases:");
    show(again, &Outputs::default())?;
    let rerun = announce(again, thresholds);
    let (confirmed, cleared) = confirmed(&outcome.failures, &rerun.failures);
    for judgement in &cleared {
        outln!("not confirmed (passed the rerun): {}", failure(judgement));
    }
    end(&confirmed, " in both runs")
}

/// The comparison's table and condition block on the terminal, and in the files asked for.
fn show(comparison: &Comparison, outputs: &Outputs) -> anyhow::Result<()> {
    let table = table(comparison);
    let block = (comparison.conditions.as_ref())
        .map(condition_block)
        .unwrap_or_default();
    for line in &block {
        outln!("{line}");
    }
    outln!("{}", render_terminal(&table, terminal_width()));
    if let Some(path) = outputs.markdown {
        let block: String = (block.iter())
            .map(|l| format!("{}  \n", words::markdown::text(l)))
            .collect();
        let text = format!("{block}\n{}", render_markdown(&table));
        export::write_atomically(path, text.trim_start().as_bytes())?;
    }
    if let Some(path) = outputs.html {
        let page = html::standalone(&table.title, &html::figures_table(&table));
        export::write_atomically(path, page.as_bytes())?;
    }
    Ok(())
}

/// Judges the comparison and says how (and, across sessions, what lacked a history).
fn announce<'a>(comparison: &'a Comparison, thresholds: &Thresholds) -> GateOutcome<'a> {
    let outcome = judge(&comparison.found, thresholds);
    outln!("{}", gate_line(&outcome));
    if comparison.across && outcome.unhistoried > 0 {
        errln!("{}", unhistoried_warning(&outcome));
    }
    outcome
}

/// Exit 1 naming `failures` (`how` after "past the threshold"), else the gate passed.
fn end(failures: &[Judgement], how: &str) -> anyhow::Result<()> {
    if failures.is_empty() {
        outln!("gate passed: no significant change past the threshold{how}");
        return Ok(());
    }
    let named: Vec<String> = failures.iter().map(failure).collect();
    Err(fail(
        ExitClass::Regression,
        format!(
            "{} significant change(s) past the threshold{how}: {}",
            named.len(),
            named.join("; ")
        ),
    ))
}
