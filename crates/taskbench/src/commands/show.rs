//! `taskbench show DIR`: the overview of a run written earlier — contestants × points, each
//! cell × best, for time and for peak RSS — as `taskbench run` prints it at its end, from
//! DIR/results.json alone.

use crate::report::{overview, render_terminal, terminal_width};
use crate::results::{Results, read_results};
use std::path::Path;

/// Prints the overviews of `dir`'s results.
pub fn show(dir: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        dir.is_dir(),
        "{} is not a folder (give the folder a run wrote its results.json into)",
        dir.display()
    );
    let results = read_results(&dir.join("results.json"))?;
    let width = terminal_width();
    for line in results.platform.header().into_iter().take(1) {
        println!("{line}");
    }
    for line in results.machine_lines() {
        println!("{line}");
    }
    if let Some(line) = results.interrupted_line() {
        println!("{line}");
    }
    println!();
    print!("{}", overviews(&results, width));
    Ok(())
}

/// The two overviews as terminal tables, per machine where machines are side by side;
/// nothing for a run without points.
pub(super) fn overviews(results: &Results, width: u16) -> String {
    overview::tables(results)
        .iter()
        .map(|table| format!("{}\n", render_terminal(table, width)))
        .collect()
}
