//! The results table of one parameter point, as text cells: the terminal renders it with
//! comfy-table, the Markdown export as a pipe table. Cells may hold a line break, which
//! the terminal shows as a second line and Markdown as a space.

use super::units::{bytes, duration};
use crate::analysis::{CaseSummary, Outcome, PointSummary};

/// A table ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// `sleep · tasks=10000 delay-ms=1000 · ideal 1.000 s`
    pub title: String,
    pub headers: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Reasons for n/a rows and details of failures.
    pub notes: Vec<String>,
}

/// Builds the table of one point.
pub fn table(point: &PointSummary) -> Table {
    let ideal = point.rows.first().map_or(0, |r| r.ideal_ns);
    let mut title = point.point.replacen(' ', " · ", 1);
    if ideal > 0 {
        title.push_str(&format!(" · ideal {}", duration(ideal as f64)));
    }
    let with_extra = point.rows.iter().any(|r| !r.extra.is_empty());
    let mut headers = vec![
        "contestant",
        "elapsed (min–max)",
        "overhead",
        "CPU",
        "peak RSS",
        "per task",
        "threads",
        "× best",
        "runs",
    ];
    if with_extra {
        headers.push("extra");
    }
    let mut notes = Vec::new();
    let rows = point
        .rows
        .iter()
        .map(|row| {
            match &row.outcome {
                Outcome::NotImplemented { reason } => {
                    notes.push(format!("{}: n/a — {reason}", row.contestant))
                }
                _ => notes.extend(
                    row.problems
                        .iter()
                        .map(|p| format!("{}: {p}", row.contestant)),
                ),
            }
            let mut cells = cells(row);
            if with_extra {
                cells.push(extra(row));
            }
            cells
        })
        .collect();
    Table {
        title,
        headers,
        rows,
        notes,
    }
}

fn cells(row: &CaseSummary) -> Vec<String> {
    let blank = || "–".to_string();
    let status = match &row.outcome {
        Outcome::Valid => None,
        Outcome::NotImplemented { .. } => Some("n/a".to_string()),
        Outcome::Failed { status } => Some(status.clone()),
    };
    let elapsed = match (status.clone(), row.elapsed) {
        (Some(status), _) => status,
        (None, Some(e)) => format!(
            "{}\n({}–{})",
            duration(e.median),
            duration(e.min),
            duration(e.max)
        ),
        (None, None) => blank(),
    };
    let median = |s: Option<crate::stats::Summary>, f: fn(f64) -> String| {
        s.map_or_else(blank, |s| f(s.median))
    };
    let per_task = match (row.ns_per_task, row.bytes_per_task) {
        (None, None) => blank(),
        (t, b) => format!(
            "{}\n{}",
            t.map_or_else(blank, duration),
            b.map_or_else(blank, bytes)
        ),
    };
    vec![
        row.contestant.clone(),
        elapsed,
        row.overhead_ns.map_or_else(blank, duration),
        median(row.cpu, duration),
        median(row.peak_rss, bytes),
        per_task,
        if row.runs_ok > 0 {
            row.peak_threads.to_string()
        } else {
            blank()
        },
        row.ratio_to_best.map_or_else(blank, |r| format!("{r:.2}")),
        format!("{}/{}", row.runs_ok, row.runs),
    ]
}

/// Extra figures: `…_ns` values as durations, names shortened (`oversleep_p50_ns` → `p50`).
fn extra(row: &CaseSummary) -> String {
    row.extra
        .iter()
        .map(|(name, value)| {
            let short = name.trim_start_matches("oversleep_");
            match short.strip_suffix("_ns") {
                Some(short) => format!("{short} {}", duration(*value)),
                None => format!("{short} {value}"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Renders for the terminal at `width` columns.
pub fn render_terminal(table: &Table, width: u16) -> String {
    use comfy_table::{CellAlignment, ContentArrangement, presets::UTF8_FULL_CONDENSED};
    let mut t = comfy_table::Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width)
        .set_header(&table.headers);
    for row in &table.rows {
        t.add_row(row);
    }
    for index in 1..table.headers.len() {
        if let Some(column) = t.column_mut(index) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = format!("{}\n{t}\n", table.title);
    for note in &table.notes {
        out.push_str(&format!("  {note}\n"));
    }
    out
}

/// Renders as a Markdown section.
pub fn render_markdown(table: &Table) -> String {
    let flat = |c: &str| c.replace('\n', " ").replace('|', "\\|");
    let mut out = format!(
        "### {}\n\n| {} |\n|",
        table.title,
        table.headers.join(" | ")
    );
    out.push_str(&"---|".repeat(table.headers.len()));
    out.push('\n');
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| flat(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if !table.notes.is_empty() {
        out.push('\n');
        for note in &table.notes {
            out.push_str(&format!("- {}\n", flat(note)));
        }
    }
    out.push('\n');
    out
}
