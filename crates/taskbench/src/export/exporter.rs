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

/// A format: its flag, its folder file and how it renders; every exporter is one.
struct Format {
    flag: &'static str,
    folder_file: Option<&'static str>,
    render: fn(&Results) -> anyhow::Result<Vec<u8>>,
}

impl Exporter for Format {
    fn flag(&self) -> &'static str {
        self.flag
    }
    fn folder_file(&self) -> Option<&'static str> {
        self.folder_file
    }
    fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        (self.render)(results)
    }
}

/// Every exporter, in the order the folder's files are written.
pub const EXPORTERS: &[&dyn Exporter] = &[
    &Format {
        flag: "json",
        folder_file: Some("results.json"),
        render: |r| Ok(r.to_json().into_bytes()),
    },
    &Format {
        flag: "csv",
        folder_file: Some("results.csv"),
        render: |r| write_csv(&r.runs),
    },
    &Format {
        flag: "markdown",
        folder_file: Some("results.md"),
        render: |r| Ok(markdown(r).into_bytes()),
    },
    &Format {
        flag: "html",
        folder_file: Some("report.html"),
        render: |r| Ok(crate::html::render(r).into_bytes()),
    },
    &Format {
        flag: "bmf",
        folder_file: None,
        render: |r| Ok(ecosystem::bmf(r).into_bytes()),
    },
    &Format {
        flag: "github-benchmark",
        folder_file: None,
        render: |r| Ok(ecosystem::github_benchmark(r).into_bytes()),
    },
];

/// The exporter of `--export-<flag>`.
pub fn exporter(flag: &str) -> Option<&'static dyn Exporter> {
    EXPORTERS.iter().copied().find(|e| e.flag() == flag)
}
