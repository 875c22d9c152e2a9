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

#[cfg(test)]
mod tests {
    use super::*;

    fn error(dir: &Path) -> String {
        format!("{:#}", report(dir).unwrap_err())
    }

    #[test]
    fn a_bad_folder_or_document_is_one_line_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        assert!(
            error(&missing).ends_with(
                "nope is not a folder (give the folder a run wrote its results.json into)"
            )
        );
        assert!(error(dir.path()).starts_with(&format!(
            "cannot read {}",
            dir.path().join("results.json").display()
        )));
        let results = dir.path().join("results.json");
        std::fs::write(&results, r#"{"schema":"taskbench/0"}"#).unwrap();
        assert!(error(dir.path()).ends_with("schema 'taskbench/0', expected 'taskbench/2'"));
        std::fs::write(&results, "not json").unwrap();
        assert!(error(dir.path()).contains("results.json is not JSON"));
        for message in [error(&missing), error(dir.path())] {
            assert_eq!(message.lines().count(), 1, "{message}");
        }
        assert!(!dir.path().join("report.html").exists());
    }
}
