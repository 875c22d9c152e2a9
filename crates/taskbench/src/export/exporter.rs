//! Every format a results document is written in, behind one trait: the four every run
//! writes into its folder (JSON, CSV, Markdown, HTML) and the two the ecosystem reads
//! (bencher.dev's BMF, github-action-benchmark's `customSmallerIsBetter`), each also
//! written wherever its `--export-<flag>` says.

use super::{Results, ecosystem, markdown, write_csv};

/// One way to write a results document.
pub trait Exporter: Sync {
    /// The name in `--export-<flag>`.
    fn flag(&self) -> &'static str;
    /// The file every run writes into its folder in this format, if it writes one.
    fn folder_file(&self) -> Option<&'static str>;
    /// The document in this format.
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>>;
}

struct Json;
struct Csv;
struct Markdown;
struct Html;
struct Bmf;
struct GithubBenchmark;

/// Every exporter, in the order the folder's files are written.
pub const EXPORTERS: &[&dyn Exporter] = &[&Json, &Csv, &Markdown, &Html, &Bmf, &GithubBenchmark];

/// The exporter of `--export-<flag>`.
pub fn exporter(flag: &str) -> Option<&'static dyn Exporter> {
    EXPORTERS.iter().copied().find(|e| e.flag() == flag)
}

impl Exporter for Json {
    fn flag(&self) -> &'static str {
        "json"
    }
    fn folder_file(&self) -> Option<&'static str> {
        Some("results.json")
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        Ok(results.to_json().into_bytes())
    }
}

impl Exporter for Csv {
    fn flag(&self) -> &'static str {
        "csv"
    }
    fn folder_file(&self) -> Option<&'static str> {
        Some("results.csv")
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        write_csv(&results.runs)
    }
}

impl Exporter for Markdown {
    fn flag(&self) -> &'static str {
        "markdown"
    }
    fn folder_file(&self) -> Option<&'static str> {
        Some("results.md")
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        Ok(markdown(results).into_bytes())
    }
}

impl Exporter for Html {
    fn flag(&self) -> &'static str {
        "html"
    }
    fn folder_file(&self) -> Option<&'static str> {
        Some("report.html")
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        Ok(crate::html::render(results).into_bytes())
    }
}

impl Exporter for Bmf {
    fn flag(&self) -> &'static str {
        "bmf"
    }
    fn folder_file(&self) -> Option<&'static str> {
        None
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        Ok(ecosystem::bmf(results).into_bytes())
    }
}

impl Exporter for GithubBenchmark {
    fn flag(&self) -> &'static str {
        "github-benchmark"
    }
    fn folder_file(&self) -> Option<&'static str> {
        None
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        Ok(ecosystem::github_benchmark(results).into_bytes())
    }
}
