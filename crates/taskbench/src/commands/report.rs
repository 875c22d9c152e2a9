//! `taskbench report DIR`: writes DIR/report.html again from DIR/results.json without
//! running anything — after an upgrade of the report, or for results copied from elsewhere.

use crate::export::{self, read_results};
use crate::html;
use anyhow::Context;
use std::path::Path;

/// Reads `dir`/results.json and writes `dir`/report.html; prints the page's path.
pub fn report(dir: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        dir.is_dir(),
        "{} is not a folder (give the folder a run wrote its results.json into)",
        dir.display()
    );
    let results = read_results(&dir.join("results.json"))?;
    let path = dir.join("report.html");
    export::write_atomically(&path, html::render(&results).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("{}", path.display());
    Ok(())
}
