//! The results table of one parameter point, as text cells: the terminal renders it with
//! comfy-table, the Markdown export as a pipe table. Cells may hold a line break, which
//! the terminal shows as a second line and Markdown as ` · `.

use super::units::{self, bytes, duration, duration_range};
use crate::analysis::{CaseSummary, Outcome, PointSummary};
use crate::run::StopReason;

/// A table ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// `sleep · tasks=10000 delay-ms=1000 · ideal 1.000 s`
    pub title: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Reasons for n/a rows and details of failures.
    pub notes: Vec<String>,
}

/// Column headers from words.
pub fn headers(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// Builds the table of one point. Where the scenario has an ideal time (sleep, timer,
/// doxbee, parallel) the time column is the overhead above it, which is what differs
/// between contestants; the title gives the ideal. Columns with nothing to show for any
/// row (per task for the timer) are left out, so the table fits 100 columns.
pub fn table(point: &PointSummary) -> Table {
    let ideal = point.rows.first().map_or(0, |r| r.ideal_ns);
    let mut title = point.point.replacen(' ', " · ", 1);
    if ideal > 0 {
        title.push_str(&format!(" · ideal {}", duration(ideal as f64)));
    }
    if let Some(seed) = &point.seed {
        title.push_str(&format!(" · seed {seed}"));
    }
    let layout = Layout {
        overhead: ideal > 0,
        per_task: point
            .rows
            .iter()
            .any(|r| r.ns_per_task.is_some() || r.bytes_per_task.is_some()),
        extra: point.rows.iter().any(|r| !r.extra.is_empty()),
        instructions: point.rows.iter().any(|r| r.instructions.is_some()),
        machine: point.rows.iter().any(|r| r.machine.is_some()),
    };
    let mut columns = vec!["contestant"];
    if layout.machine {
        columns.push(MACHINE_COLUMN);
    }
    columns.extend([
        match layout.overhead {
            true => "overhead\n(95 % CI)",
            false => "elapsed\n(95 % CI)",
        },
        "CPU",
        "peak RSS\nthreads",
    ]);
    if layout.per_task {
        columns.push("per task");
    }
    columns.extend([
        match layout.overhead {
            true => "× best\nelapsed",
            false => "× best",
        },
        "processes\n× iter.",
    ]);
    if layout.extra {
        columns.push("extra");
    }
    if layout.instructions {
        columns.push("instructions\nper iteration");
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
            cells(row, layout)
        })
        .collect();
    if layout.machine {
        notes.push("× best, n.s.: against the best of the row's own machine".into());
    }
    if point
        .rows
        .iter()
        .any(|r| r.differs_from_best == Some(false))
    {
        notes.push(NOT_SIGNIFICANT.to_string());
    }
    if let Some(counter) = point
        .rows
        .iter()
        .find_map(|r| r.instructions.as_ref().map(|i| &i.counter))
    {
        notes.push(format!(
            "instructions: a process of 2 measured iterations minus one of 1, the same \
             warm-up in both, counted by {counter}; per task = that over the size"
        ));
    }
    Table {
        title,
        headers: headers(&columns),
        rows,
        notes,
    }
}

/// The header of the second column where machines are side by side: the first holds the
/// contestant's own name, and `tokio · m2` is the two together.
pub const MACHINE_COLUMN: &str = "machine";

/// The legend of "n.s." under a table that uses it.
pub const NOT_SIGNIFICANT: &str = "n.s.: not significantly slower than the best — the 95 % \
     interval of the ratio holds 1";

/// Which optional columns a point's table has.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// Overhead instead of elapsed.
    overhead: bool,
    per_task: bool,
    extra: bool,
    /// Counted runs (`--instructions`).
    instructions: bool,
    /// Machines side by side (`taskbench merge --mixed-machines`).
    machine: bool,
}

fn cells(row: &CaseSummary, layout: Layout) -> Vec<String> {
    let blank = || "–".to_string();
    let status = row.status_label();
    let time = match layout.overhead {
        true => row.overhead,
        false => row.elapsed,
    };
    let time = match (status, time) {
        (Some(status), _) => status,
        (None, Some(t)) => match t.median_ci {
            Some(ci) => format!(
                "{}\n{}",
                duration(t.median),
                duration_range(ci.low, ci.high)
            ),
            None => duration(t.median),
        },
        (None, None) => blank(),
    };
    let footprint = match row.peak_rss {
        Some(rss) => format!(
            "{}\n{} thread{}",
            bytes(rss.median),
            row.peak_threads,
            if row.peak_threads == 1 { "" } else { "s" }
        ),
        None => blank(),
    };
    let mut cells = match (layout.machine, &row.machine) {
        (true, Some(machine)) => vec![row.name().to_string(), machine.clone()],
        (true, None) => vec![row.contestant.clone(), blank()],
        (false, _) => vec![row.contestant.clone()],
    };
    cells.extend([
        time,
        row.cpu.map_or_else(blank, |s| duration(s.median)),
        footprint,
    ]);
    if layout.per_task {
        cells.push(match (row.ns_per_task, row.bytes_per_task) {
            (None, None) => blank(),
            (t, b) => format!(
                "{}\n{}",
                t.map_or_else(blank, duration),
                b.map_or_else(blank, bytes)
            ),
        });
    }
    cells.extend([versus_best(row), runs(row)]);
    if layout.extra {
        cells.push(extra(row));
    }
    if layout.instructions {
        cells.push(instructions(row));
    }
    cells
}

/// One iteration's instructions, per task, and the whole process's; or why there are none.
fn instructions(row: &CaseSummary) -> String {
    let Some(counted) = &row.instructions else {
        return "–".to_string();
    };
    let mut lines = Vec::new();
    if let Some(iteration) = counted.iteration {
        lines.push(units::count(iteration));
    }
    if let Some(per_task) = counted.per_task {
        lines.push(format!("{}/task", units::count(per_task)));
    }
    if let Some(process) = counted.process {
        lines.push(format!("process {}", units::count(process as f64)));
    }
    if let Some(problem) = &counted.problem {
        lines.push(format!("{problem} counted"));
    }
    lines.join("\n")
}

/// `1.00` for the best; `1.52` over its interval; `1.04 n.s.` when the difference is not
/// significant.
fn versus_best(row: &CaseSummary) -> String {
    let Some(ratio) = row.ratio_to_best else {
        return "–".to_string();
    };
    let mut cell = units::ratio(ratio);
    if row.differs_from_best == Some(false) {
        cell.push_str(" n.s.");
    }
    if let Some(ci) = row.ratio_ci {
        cell.push_str(&format!(
            "\n{}–{}",
            units::ratio(ci.low),
            units::ratio(ci.high)
        ));
    }
    cell
}

/// `12 × 40` (time processes × iterations each), then the interval's half-width and, when
/// the case stopped short of its target, why: `±1.8 %` or `±7.1 %, time budget`. Failed
/// processes and outliers are counted after.
fn runs(row: &CaseSummary) -> String {
    if row.outcome != Outcome::Valid {
        return format!("0/{}", row.runs);
    }
    let mut cell = format!("{} × {}", row.time_runs, row.iterations);
    if row.runs_ok < row.runs {
        cell.push_str(&format!(" · {} failed", row.runs - row.runs_ok));
    }
    let mut second = Vec::new();
    if let Some(precision) = row.precision {
        let mut width = format!("±{}", units::percent(precision));
        if let Some(stop) = row.stop.filter(|s| *s != StopReason::Precision) {
            width.push_str(&format!(", {}", stop.describe()));
        }
        second.push(width);
    }
    match row.outliers.len() {
        0 => {}
        1 => second.push("1 outlier".into()),
        n => second.push(format!("{n} outliers")),
    }
    if !second.is_empty() {
        cell.push_str(&format!("\n{}", second.join(" · ")));
    }
    cell
}

/// Extra figures: `…_ns` values as durations, names shortened (`oversleep_p50_ns` → `p50`).
fn extra(row: &CaseSummary) -> String {
    let mut extras: Vec<(&String, &f64)> = row.extra.iter().collect();
    // Percentiles in rank order, the maximum last (p50, p99, max).
    extras.sort_by_key(|(name, _)| name.contains("max"));
    extras
        .into_iter()
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
    use comfy_table::{
        CellAlignment, ColumnConstraint, ContentArrangement, Width, presets::UTF8_FULL_CONDENSED,
    };
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
    // No word is broken: each column keeps its longest word, of the header and the cells
    // (a name in the first column, up to 24 characters; a figure or an interval elsewhere,
    // up to 12), when the table is squeezed into the width.
    for (index, header) in table.headers.iter().enumerate() {
        let cells = table.rows.iter().filter_map(|r| r.get(index));
        let longest = std::iter::once(header)
            .chain(cells)
            .flat_map(|text| text.split_whitespace())
            .map(|word| word.chars().count())
            .max()
            .unwrap_or(0)
            .min(if index == 0 { 24 } else { 12 });
        // The width counts the cell's padding, one space each side.
        let width = longest as u16 + 2;
        if let Some(column) = t.column_mut(index) {
            column.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(width)));
        }
    }
    let mut out = format!("{}{t}\n", super::wrap(&table.title, usize::from(width)));
    for note in &table.notes {
        let wrapped = super::wrap(note, usize::from(width).saturating_sub(2));
        for line in wrapped.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// Renders as a Markdown section.
pub fn render_markdown(table: &Table) -> String {
    // A cell's lines become one, ` · ` between them; a header's `(…)` line stays a suffix.
    let flat = |c: &str| {
        c.replace("\n(", " (")
            .replace('\n', " · ")
            .replace('|', "\\|")
    };
    let headers: Vec<String> = table.headers.iter().map(|h| flat(h)).collect();
    let mut out = format!("### {}\n\n| {} |\n|", table.title, headers.join(" | "));
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
