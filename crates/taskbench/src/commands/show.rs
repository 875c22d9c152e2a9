//! `taskbench show DIR`: the overview of a run written earlier — contestants × points, each
//! cell × best, for time and for peak RSS — as `taskbench run` prints it at its end, from
//! DIR/results.json alone.

use results::read_results;
use std::path::Path;
use words::condition::run_condition_line;
use words::{PlatformHeader, overview, terminal_width};

/// Prints the overviews of `dir`'s results.
pub(crate) fn show(dir: &Path) -> anyhow::Result<()> {
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
    let condition = run_condition_line(results.machine.as_ref());
    for line in results.machine_lines().into_iter().chain(condition) {
        println!("{line}");
    }
    if let Some(line) = results.interrupted_line() {
        println!("{line}");
    }
    println!();
    print!("{}", overview::render_terminal(&results, width, false));
    if let Some(line) = words::budget::run_line(&results) {
        print!("{}", words::wrap(&line, width.into()));
    }
    Ok(())
}
