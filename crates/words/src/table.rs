//! The results table of one parameter point, as text cells: the terminal renders it with
//! comfy-table, the Markdown export as a pipe table. Cells may hold a line break, which
//! the terminal shows as a second line and Markdown as ` · `.

use analysis::{CaseSummary, Outcome, PointSummary};
use run::StopReason;
use stats::{Mode, Summary, by_share};
use units::{bytes, duration, duration_range};

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
    let layout = Layout {
        overhead: ideal > 0,
        per_task: point
            .rows
            .iter()
            .any(|r| r.ns_per_task.is_some() || r.bytes_per_task.is_some()),
        extra: point.rows.iter().any(|r| !r.extra.is_empty()),
        instructions: point.rows.iter().any(|r| r.instructions.is_some()),
        cpu_per_iteration: point.rows.iter().any(|r| r.cpu_per_iteration.is_some()),
        machine: point.rows.iter().any(|r| r.machine.is_some()),
        cold: point.rows.iter().any(|r| r.cold.is_some()),
    };
    let columns = columns(layout);
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
    notes.extend(legends(point, layout));
    Table {
        title: title(point, ideal),
        headers: headers(&columns),
        rows,
        notes,
    }
}

/// `spawn · tasks=10000 · ideal 1.00 ms · seed …`.
fn title(point: &PointSummary, ideal: u64) -> String {
    let mut title = point.point.to_string().replacen(' ', " · ", 1);
    if ideal > 0 {
        title.push_str(&format!(" · ideal {}", duration(ideal as f64)));
    }
    if let Some(seed) = &point.seed {
        title.push_str(&format!(" · seed {seed}"));
    }
    title
}

/// The columns of a point's table in `layout`.
fn columns(layout: Layout) -> Vec<&'static str> {
    let mut columns = vec!["contestant"];
    if layout.machine {
        columns.push(MACHINE_COLUMN);
    }
    columns.extend([if layout.overhead {
        "overhead\n(95 % CI)"
    } else {
        "elapsed\n(95 % CI)"
    }]);
    if layout.cold {
        columns.push("cold start\n(95 % CI)");
    }
    columns.extend([
        if layout.cpu_per_iteration {
            "CPU/iter.\n(95 % CI)"
        } else {
            "CPU"
        },
        "peak RSS\nthreads",
    ]);
    if layout.per_task {
        columns.push("per task");
    }
    columns.extend([
        if layout.overhead {
            "× best\nelapsed"
        } else {
            "× best"
        },
        "processes\n× iter.",
    ]);
    if layout.extra {
        columns.push("extra");
    }
    if layout.instructions {
        columns.push("instructions\nper iteration");
    }
    columns
}

/// The legends under a point's table: what its marks and short figures mean.
fn legends(point: &PointSummary, layout: Layout) -> Vec<String> {
    let mut notes = Vec::new();
    if layout.machine {
        notes.push("× best, n.s.: against the best of the row's own machine".into());
    }
    if point.rows.iter().any(|r| r.reference) {
        notes.push(REFERENCE.to_string());
    }
    if point
        .rows
        .iter()
        .any(|r| r.differs_from_best == Some(false))
    {
        notes.push(NOT_SIGNIFICANT.to_string());
    }
    if point.rows.iter().any(|r| headline_modes(r).is_some()) {
        notes.push(MODES.to_string());
    }
    if point.rows.iter().any(|r| shown_coverage(r).is_some()) {
        notes.push(SHORT_OF_THE_LEVEL.to_string());
    }
    if layout.cold {
        notes.push(COLD_START.to_string());
    }
    if point.rows.iter().any(|r| r.across_sessions.is_some()) {
        notes.push(ACROSS_SESSIONS.to_string());
    } else {
        notes.push(WITHIN_ONE_RUN.to_string());
    }
    if point.rows.iter().any(CaseSummary::unsteady) {
        notes.push(UNSTEADY.to_string());
    }
    if layout.cpu_per_iteration {
        notes.push(CPU_PER_ITERATION.to_string());
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
    notes
}

/// The header of the second column where machines are side by side: the first holds the
/// contestant's own name, and `tokio · m2` is the two together.
pub const MACHINE_COLUMN: &str = "machine";

/// The second line of a reference's name (`floor`): not a runtime, not ranked.
pub const REFERENCE_MARK: &str = "(reference)";

/// The legend of [`REFERENCE_MARK`].
pub(crate) const REFERENCE: &str = "(reference): a hand-written lower bound, not a runtime to choose: \
     listed first, never the best; its × best is against the best runtime";

/// The legend of "n.s." under a table that uses it.
pub(crate) const NOT_SIGNIFICANT: &str = "n.s.: not significantly slower than the best — the 95 % \
     interval of the ratio holds 1";

/// The legend of a row whose processes fell into modes.
pub(crate) const MODES: &str = "two figures: the processes fell into two clearly separated groups \
     (modes): each group's median, the second with how many processes it holds; ±…, modes: \
     the interval of all processes together, which describes neither group";

/// The legend of an interval of fewer than six processes.
pub(crate) const SHORT_OF_THE_LEVEL: &str = "±… (75 %: 3 processes): too few processes for a 95 % \
     interval; the range of their medians, and how often such a range holds the median";

/// The legend of the CPU column where contestants report it per iteration.
pub(crate) const CPU_PER_ITERATION: &str =
    "CPU/iter.: user + sys of all threads in one iteration; \"process\": the whole process's";

/// The legend of the cold-start column and of the warm-up in the processes column.
pub(crate) const COLD_START: &str = "steady state: the iterations each time process timed after its \
     warm-up (processes × iterations, + warm-up iterations); cold start: each time process's \
     first iteration after start-up, the median over the processes";

/// The legend of a row's interval across the store's sessions.
pub(crate) const ACROSS_SESSIONS: &str = "±… across N sessions: the interval with the run-to-run \
     variation of the store's N earlier sessions of the case on this machine taken in (the \
     row's own ±… is within this run)";

/// The legend of intervals that are within one run.
pub(crate) const WITHIN_ONE_RUN: &str = "±…: within this run — its processes' spread; another run \
     may differ by more (the store has fewer than three earlier sessions of these cases on \
     this machine)";

/// The mark of a steady figure most of whose processes had not settled by the end of their
/// warm-up (a change point while timed, or slower at the end).
pub(crate) const UNSTEADY_MARK: &str = " ⚠";

/// The legend of [`UNSTEADY_MARK`].
pub(crate) const UNSTEADY: &str = "⚠: most of its time processes had not reached a steady state by \
     the end of their warm-up (their series still changed level while timed, or slowed \
     down): the figure averages a curve — `taskbench warmup` shows it";

/// Which optional columns a point's table has.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// Overhead instead of elapsed.
    overhead: bool,
    per_task: bool,
    extra: bool,
    /// Counted runs (`--instructions`).
    instructions: bool,
    /// CPU per measured iteration, where any row has it, instead of the whole process's.
    cpu_per_iteration: bool,
    /// Machines side by side (`taskbench merge --mixed-machines`).
    machine: bool,
    /// Cold-start figures, where any row has them.
    cold: bool,
}

fn cells(row: &CaseSummary, layout: Layout) -> Vec<String> {
    let blank = || "–".to_string();
    let status = row.status_label();
    let time = if layout.overhead {
        row.overhead
    } else {
        row.elapsed
    };
    let cold = match (&status, row.cold_headline()) {
        (Some(_), _) | (None, None) => blank(),
        (None, Some(c)) => figure_cell(c),
    };
    let time = match (status, time) {
        (Some(status), _) => status,
        (None, Some(t)) if row.unsteady() => marked(&figure_cell(&t), UNSTEADY_MARK),
        (None, Some(t)) => figure_cell(&t),
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
    let name = if row.reference {
        format!("{}\n{REFERENCE_MARK}", row.name())
    } else {
        row.name().to_string()
    };
    let mut cells = match (layout.machine, &row.machine) {
        (true, Some(machine)) => vec![name, machine.clone()],
        (true, None) => vec![name, blank()],
        (false, _) => vec![name],
    };
    cells.push(time);
    if layout.cold {
        cells.push(cold);
    }
    cells.extend([cpu(row, layout), footprint]);
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

/// A time over its interval; where the processes fell into modes, each mode's time and
/// share instead: `3.60 ms` over `10.0 ms in 3 of 12 processes`.
pub(crate) fn figure_cell(summary: &Summary) -> String {
    if let Some((main, other)) = summary.modes.map(modes_text) {
        return format!("{main}\n{other}");
    }
    match summary.median_ci {
        Some(ci) => format!(
            "{}\n{}",
            duration(summary.median),
            duration_range(ci.low, ci.high)
        ),
        None => duration(summary.median),
    }
}

/// `cell` with `mark` after its first line.
pub(crate) fn marked(cell: &str, mark: &str) -> String {
    match cell.split_once('\n') {
        Some((first, rest)) => format!("{first}{mark}\n{rest}"),
        None => format!("{cell}{mark}"),
    }
}

/// `3.60 ms` and `10.0 ms in 3 of 12 processes`: the time of the mode holding more
/// processes, then the other's with its share.
pub fn modes_text(modes: [Mode; 2]) -> (String, String) {
    let [main, other] = by_share(modes);
    (
        duration(main.median),
        format!(
            "{} in {} of {} processes",
            duration(other.median),
            other.processes,
            main.processes + other.processes
        ),
    )
}

/// A coverage short of 95 %, exactly: `75 %`, `87.5 %`, `93.75 %`.
pub fn coverage_text(coverage: f64) -> String {
    format!("{} %", (coverage * 10_000.0).round() / 100.0)
}

/// The modes of the row's headline figure, if any.
fn headline_modes(row: &CaseSummary) -> Option<[Mode; 2]> {
    row.headline()?.modes
}

/// The coverage of the row's headline interval where it falls short of 95 %.
fn shown_coverage(row: &CaseSummary) -> Option<f64> {
    row.headline()?.median_ci?.coverage
}

/// CPU per measured iteration where the table shows it and the row has it; else the whole
/// process's, named as such in a table of per-iteration figures.
fn cpu(row: &CaseSummary, layout: Layout) -> String {
    match (row.cpu_per_iteration, row.cpu) {
        (Some(per_iteration), _) if layout.cpu_per_iteration => figure_cell(&per_iteration),
        (_, Some(process)) if layout.cpu_per_iteration => {
            format!("process {}", duration(process.median))
        }
        (_, Some(process)) => duration(process.median),
        (_, None) => "–".to_string(),
    }
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

/// `1.00` for the best; `1.52` over its interval (with its coverage where processes are too
/// few for 95 %); `1.04 n.s.` when the difference is not significant.
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
        if let Some(coverage) = ci.coverage {
            cell.push_str(&format!(" ({})", coverage_text(coverage)));
        }
    }
    cell
}

/// `12 × 40` (time processes × iterations each), then the interval's half-width — with its
/// coverage where too few processes give 95 % — and, when the case stopped short of its
/// target, why, or `modes` when its processes fell into two groups: `±1.8 %`,
/// `±7.1 %, time budget`, `±9 % (75 %: 3 processes)`, `±31 %, modes`. Failed processes
/// and outliers are counted after.
fn runs(row: &CaseSummary) -> String {
    if row.outcome != Outcome::Valid {
        return format!("0/{}", row.runs);
    }
    let mut cell = format!("{} × {}", row.time_runs, row.iterations);
    if let Some(warm_up) = row.warm_up {
        cell.push_str(&format!(" +{warm_up}"));
    }
    if row.runs_ok < row.runs {
        cell.push_str(&format!(" · {} failed", row.runs - row.runs_ok));
    }
    let mut second = Vec::new();
    if let Some(precision) = row.precision {
        second.push(width(row, precision));
    } else if let Some(price) = super::budget::row_price(row) {
        second.push(format!("no interval · {price}"));
    }
    if let (Some(across), Some(headline)) = (row.across_sessions, row.headline()) {
        second.push(format!(
            "±{} across {} sessions",
            units::percent(across.relative_half_width(headline.median)),
            across.sessions
        ));
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

/// `±9 % (75 %: 3 processes), time budget`: the half-width of the row's interval and what
/// it can claim.
fn width(row: &CaseSummary, precision: f64) -> String {
    let mut width = format!("±{}", units::percent(precision));
    if let Some(coverage) = shown_coverage(row) {
        width.push_str(&format!(
            " ({}: {} process{})",
            coverage_text(coverage),
            row.time_runs,
            if row.time_runs == 1 { "" } else { "es" }
        ));
    }
    if headline_modes(row).is_some() {
        width.push_str(", modes");
    } else if let Some(stop) = row.stop.filter(|s| *s != StopReason::Precision) {
        width.push_str(&format!(", {}", stop.describe()));
    }
    if let Some(price) = super::budget::row_price(row) {
        width.push_str(&format!(" · {price}"));
    }
    width
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

/// Renders as a Markdown section, every string escaped ([`super::markdown::text`]): a
/// table's text comes from contestants and users as much as from taskbench.
pub fn render_markdown(table: &Table) -> String {
    // A cell's lines become one, ` · ` between them; a header's `(…)` line stays a suffix.
    let flat = |c: &str| super::markdown::text(&c.replace("\n(", " ("));
    let headers: Vec<String> = table.headers.iter().map(|h| flat(h)).collect();
    let title = flat(&table.title);
    let mut out = format!("### {title}\n\n| {} |\n|", headers.join(" | "));
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

/// A plain table at the terminal's width, cells left-aligned.
pub fn plain_table(headers: &[&str]) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
        .set_width(super::terminal_width())
        .set_header(headers);
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn processes(medians: &[f64]) -> Vec<Vec<f64>> {
        stats::tight_processes(medians, 1e6)
    }

    /// tokio's skynet on two vCPUs: nine processes at 3.5–4.7 ms, three at 9.7–10.4 ms.
    fn skynet() -> Summary {
        let ms = [3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.2, 4.5, 4.7, 9.7, 10.0, 10.4];
        Summary::nested(&processes(&ms)).unwrap()
    }

    /// The spawn row of the fixture's first point with its time figures replaced (processes
    /// of three iterations).
    fn row(elapsed: Summary, precision: f64, stop: StopReason) -> CaseSummary {
        let mut point = results::fake::results().points.remove(0);
        let mut row = point.rows.remove(0);
        row.ideal_ns = 0;
        row.time_runs = elapsed.n / 3;
        row.elapsed = Some(elapsed);
        row.precision = Some(precision);
        row.stop = Some(stop);
        row
    }

    #[test]
    fn modes_give_each_figure_and_share() {
        let summary = skynet();
        assert_eq!(
            figure_cell(&summary),
            "3.90 ms\n10.0 ms in 3 of 12 processes"
        );
        let row = row(summary, 0.31, StopReason::MaxTime);
        assert_eq!(runs(&row).lines().nth(1), Some("±31 %, modes"));
        let table = table(&PointSummary {
            point: "skynet size=10000".parse().unwrap(),
            seed: None,
            rows: vec![row],
        });
        assert!(table.notes.iter().any(|n| n == MODES), "{:?}", table.notes);
        assert!(!table.notes.iter().any(|n| n == SHORT_OF_THE_LEVEL));
    }

    #[test]
    fn one_mode_keeps_its_interval() {
        let summary = Summary::nested(&processes(&[4.0, 4.1, 3.9, 4.0, 4.2, 3.8])).unwrap();
        assert_eq!(figure_cell(&summary), "4.00 ms\n3.80–4.20 ms");
        let row = row(summary, 0.05, StopReason::MaxTime);
        assert_eq!(runs(&row).lines().nth(1), Some("±5.0 %, time budget"));
    }

    #[test]
    fn few_processes_say_what_their_interval_can_claim() {
        let summary = Summary::nested(&processes(&[4.0, 4.4, 3.6])).unwrap();
        assert_eq!(summary.median_ci.unwrap().coverage, Some(0.75));
        let row = row(summary, 0.09, StopReason::MaxTime);
        assert_eq!(
            runs(&row).lines().nth(1),
            Some("±9.0 % (75 %: 3 processes), time budget")
        );
        let table = table(&PointSummary {
            point: "spawn tasks=10".parse().unwrap(),
            seed: None,
            rows: vec![row],
        });
        assert!(table.notes.iter().any(|n| n == SHORT_OF_THE_LEVEL));
        assert_eq!(coverage_text(0.9375), "93.75 %");
        assert_eq!(coverage_text(0.875), "87.5 %");
    }

    #[test]
    fn cpu_is_per_iteration_with_its_interval_where_reported_else_the_whole_process() {
        let results = results::fake::results();
        let point = results
            .points
            .iter()
            .find(|p| p.point.to_string() == "spawn tasks=10")
            .unwrap();
        let t = table(point);
        let column = t
            .headers
            .iter()
            .position(|h| h == "CPU/iter.\n(95 % CI)")
            .unwrap();
        let cell = |name: &str| {
            let row = t.rows.iter().find(|r| r[0] == name).unwrap();
            row[column].clone()
        };
        let tokio = point.rows.iter().find(|r| r.contestant == "tokio").unwrap();
        let cpu = tokio.cpu_per_iteration.unwrap();
        assert_eq!(cell("tokio"), figure_cell(&cpu));
        assert!(
            cell("tokio").contains('\n'),
            "three processes give an interval"
        );
        let threads = point
            .rows
            .iter()
            .find(|r| r.contestant == "threads")
            .unwrap();
        assert_eq!(
            cell("threads"),
            format!("process {}", duration(threads.cpu.unwrap().median))
        );
        assert!(t.notes.iter().any(|n| n == CPU_PER_ITERATION));
    }
}
