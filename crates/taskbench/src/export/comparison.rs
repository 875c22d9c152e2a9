//! How a comparison ends, for `taskbench compare` and `run --baseline` alike: its table
//! printed and written where asked (Markdown, HTML), and the gate's judgement — exit 1
//! (crate::exit) when a change is significantly past its threshold, naming it.

use crate::analysis::gate::{Comparison, Thresholds, judge};
use crate::exit::{ExitClass, fail};
use crate::report::comparison::{failure, gate_line, table, unhistoried_warning};
use crate::report::condition::condition_block;
use crate::report::{render_markdown, render_terminal, terminal_width};
use crate::run::interrupt::{errln, outln};
use std::path::Path;

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
        super::write_atomically(path, text.trim_start().as_bytes())?;
    }
    if let Some(path) = outputs.html {
        let page = crate::html::standalone(&table.title, &crate::html::figures_table(&table));
        super::write_atomically(path, page.as_bytes())?;
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
