//! `taskbench report DIR`: writes DIR/report.html again from DIR/results.json without
//! running anything — after an upgrade of the report, or for results copied from elsewhere.
//! When results.json is missing (the run was interrupted or killed before its end), the
//! results are rebuilt from DIR/runs.jsonl and DIR/run.json and written too, marked
//! interrupted.

use anyhow::Context;
use results::read_results;
use std::path::Path;

/// Reads `dir`/results.json (or rebuilds it from runs.jsonl) and writes `dir`/report.html;
/// prints the page's path.
pub(crate) fn report(dir: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        dir.is_dir(),
        "{} is not a folder (give the folder a run wrote its results.json into)",
        dir.display()
    );
    let json = dir.join("results.json");
    let log = dir.join("runs.jsonl");
    if json.exists() || !log.exists() {
        let results = read_results(&json)?;
        let path = dir.join("report.html");
        export::write_atomically(&path, html::render(&results).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
        return Ok(());
    }
    // A run still writing into the folder is left alone.
    let _lock = export::lock(dir)?;
    let runs = export::rebuild(dir)?;
    println!(
        "{} (rebuilt from runs.jsonl: {runs} runs)",
        dir.join("report.html").display(),
    );
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

    #[test]
    fn without_results_json_the_records_are_enough() {
        let dir = tempfile::tempdir().unwrap();
        let record = r#"{"contestant":"tokio","scenario":"spawn","params":{"tasks":10},"inner_warmup":0,"phase":"measured","run":1,"iterations":1,"status":"ok","figures":{"elapsed_ns":1000,"iterations_ns":[1000],"ideal_ns":0,"overhead_ns":1000,"wall_ns":2000000,"user_ns":1,"sys_ns":1,"cpu_ns":2,"peak_rss_bytes":4096,"peak_threads":1,"voluntary_switches":0,"involuntary_switches":0,"checksum":45,"expected_checksum":45,"extra":{},"sampler_cpu_ns":0,"timeline":[]},"stop":"max_runs"}"#;
        // The last line was cut short by a kill mid-write.
        let log = format!("{record}\n{}", &record[..40]);
        std::fs::write(dir.path().join("runs.jsonl"), log).unwrap();
        report(dir.path()).unwrap();
        let results = read_results(&dir.path().join("results.json")).unwrap();
        assert!(results.interrupted);
        assert_eq!(results.runs.len(), 1);
        assert_eq!(results.points.len(), 1);
        for file in ["results.csv", "results.md", "report.html"] {
            assert!(dir.path().join(file).exists(), "{file}");
        }
        let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        assert!(page.contains(r#"<p class="interrupted">"#));
        let markdown = std::fs::read_to_string(dir.path().join("results.md")).unwrap();
        assert!(markdown.contains("**interrupted: only the runs that finished are here"));
    }
}
