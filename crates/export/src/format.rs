//! Every format a results document is written in: the four every run writes into its
//! folder (JSON, CSV, Markdown, HTML) and the two the ecosystem reads (bencher.dev's BMF,
//! github-action-benchmark's `customSmallerIsBetter`), each also written wherever its
//! `--export-<flag>` says. One table of values, not a trait: every format is a flag, what
//! it writes, a folder file and a render function; the command line makes its flags from
//! this table (cli/exports.rs), so a new format is one entry here, and nothing else writes
//! results.

use super::{Results, ecosystem, markdown, write_csv};

/// A format: its flag, what it writes, its folder file and how it renders.
#[derive(Debug)]
pub struct Format {
    flag: &'static str,
    what: &'static str,
    folder_file: Option<&'static str>,
    render: fn(&Results) -> anyhow::Result<Vec<u8>>,
}

impl Format {
    /// The name in `--export-<flag>`.
    pub fn flag(&self) -> &'static str {
        self.flag
    }

    /// What it writes, for its flags' help (`the HTML report`).
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The file every run writes into its folder in this format, if it writes one.
    pub(crate) fn folder_file(&self) -> Option<&'static str> {
        self.folder_file
    }

    /// The document in this format.
    pub fn render(&self, results: &Results) -> anyhow::Result<Vec<u8>> {
        (self.render)(results)
    }

    /// The format of `--export-<flag>`.
    pub fn of_flag(flag: &str) -> Option<&'static Format> {
        FORMATS.iter().find(|f| f.flag == flag)
    }
}

/// Every format, in the order the folder's files are written.
pub const FORMATS: &[Format] = &[
    Format {
        flag: "json",
        what: "the JSON results (everything, versioned schema)",
        folder_file: Some("results.json"),
        render: |r| Ok(r.to_json().into_bytes()),
    },
    Format {
        flag: "csv",
        what: "one CSV row per run",
        folder_file: Some("results.csv"),
        render: |r| write_csv(&r.runs),
    },
    Format {
        flag: "markdown",
        what: "the Markdown tables",
        folder_file: Some("results.md"),
        render: |r| Ok(markdown(r).into_bytes()),
    },
    Format {
        flag: "html",
        what: "the HTML report",
        folder_file: Some("report.html"),
        render: |r| Ok(html::render(r).into_bytes()),
    },
    Format {
        flag: "bmf",
        what: "bencher.dev's Bencher Metric Format (BMF) JSON (docs/EXPORTS.md)",
        folder_file: None,
        render: |r| Ok(ecosystem::bmf(r).into_bytes()),
    },
    Format {
        flag: "github-benchmark",
        what: "github-action-benchmark's `customSmallerIsBetter` JSON (docs/EXPORTS.md)",
        folder_file: None,
        render: |r| Ok(ecosystem::github_benchmark(r).into_bytes()),
    },
];
