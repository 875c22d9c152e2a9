//! `taskbench compare BASE NEW`: two result folders side by side, case by case (see
//! analysis/change.rs), as a terminal table (and Markdown with `--export-markdown`, for a
//! pull-request comment); with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it.

use crate::analysis::change::{CaseChange, Change, Verdict, changes};
use crate::cli::CompareArgs;
use crate::export::{read_results, write_atomically};
use crate::report::{Table, render_markdown, render_terminal, terminal_width};
use std::path::Path;

pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    let read = |dir: &Path| read_results(&dir.join("results.json"));
    let (base, new) = (read(&args.base)?, read(&args.new)?);
    let found = changes(&base.runs, &new.runs);
    anyhow::ensure!(
        !found.is_empty(),
        "{} and {} have no point and contestant in common",
        args.base.display(),
        args.new.display()
    );
    let table = table(&found, &args.base, &args.new);
    println!("{}", render_terminal(&table, terminal_width()));
    if let Some(path) = &args.export_markdown {
        write_atomically(path, render_markdown(&table).as_bytes())?;
    }
    let mut failures = Vec::new();
    for case in &found {
        let gates = [
            ("slower", args.fail_if_slower, case.time),
            ("bigger", args.fail_if_bigger, case.peak_rss),
        ];
        for (what, threshold, change) in gates {
            if let (Some(threshold), Some(change)) = (threshold, change)
                && change.verdict == Verdict::Higher
                && change.ratio > 1.0 + threshold
            {
                failures.push(format!(
                    "{} · {}: {what} by {:.1} % (more than {:.1} %)",
                    case.point,
                    case.contestant,
                    (change.ratio - 1.0) * 100.0,
                    threshold * 100.0
                ));
            }
        }
    }
    anyhow::ensure!(
        failures.is_empty(),
        "{} significant change(s) past the threshold: {}",
        failures.len(),
        failures.join("; ")
    );
    Ok(())
}

fn table(found: &[CaseChange], base: &Path, new: &Path) -> Table {
    let rows = found
        .iter()
        .map(|c| {
            vec![
                c.point.clone(),
                c.contestant.clone(),
                cell(c.time, ("faster", "slower")),
                cell(c.peak_rss, ("smaller", "bigger")),
                cell(c.cpu, ("less", "more")),
            ]
        })
        .collect();
    Table {
        title: format!("compare · {} → {}", base.display(), new.display()),
        headers: vec![
            "point",
            "contestant",
            "time\nnew / base",
            "peak RSS\nnew / base",
            "CPU\nnew / base",
        ],
        rows,
        notes: vec![
            "ratio of pooled medians with its 95 % two-level bootstrap interval; a verdict only \
             when the interval excludes 1, and no interval with fewer than 2 processes a side"
                .into(),
        ],
    }
}

/// `1.12 slower` over `1.05–1.19`, or `1.01` over its interval when it holds 1.
fn cell(change: Option<Change>, (lower, higher): (&str, &str)) -> String {
    let Some(change) = change else {
        return "–".into();
    };
    let verdict = match change.verdict {
        Verdict::Lower => format!(" {lower}"),
        Verdict::Higher => format!(" {higher}"),
        Verdict::NoChange => String::new(),
    };
    match change.interval {
        Some(i) => format!("{:.3}{verdict}\n{:.3}–{:.3}", change.ratio, i.low, i.high),
        None => format!("{:.3}{verdict}", change.ratio),
    }
}
