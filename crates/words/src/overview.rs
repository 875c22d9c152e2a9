//! The overview's words: column headings short enough for nine points in 100 columns
//! (the scenario, and only the parameters that tell its points apart), the text of a cell,
//! the matrix as a [`Table`] for the terminal and Markdown, and what each scenario
//! measures, one line each.

use super::Table;
use analysis::off_machine;
use analysis::overview::{Cell, Overview, Quantity};
use plot::tick;
use units::{bytes, duration};

/// A column's heading: the scenario, and the parameters that differ between this run's
/// points of it (`tasks 10k`), empty when the scenario has one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub scenario: String,
    pub detail: String,
}

/// The headings of every column.
pub fn headings(overview: &Overview) -> Vec<Heading> {
    let params: Vec<Vec<(&str, u64)>> = (overview.columns.iter())
        .map(|c| c.point.params_in_order())
        .collect();
    overview
        .columns
        .iter()
        .zip(&params)
        .map(|(column, mine)| {
            let siblings: Vec<&Vec<(&str, u64)>> = overview
                .columns
                .iter()
                .zip(&params)
                .filter(|(c, _)| c.point.scenario == column.point.scenario)
                .map(|(_, p)| p)
                .collect();
            let detail: Vec<String> = mine
                .iter()
                .filter(|(k, v)| {
                    siblings
                        .iter()
                        .any(|other| !other.iter().any(|(k2, v2)| k2 == k && v2 == v))
                })
                .map(|(k, v)| format!("{k} {}", tick(*v as f64)))
                .collect();
            Heading {
                scenario: column.point.scenario.clone(),
                detail: detail.join(" "),
            }
        })
        .collect()
}

/// A ratio as the matrix shows it: three significant figures at most.
pub fn ratio(value: f64) -> String {
    match value {
        v if v < 10.0 => format!("{v:.2}"),
        v if v < 100.0 => format!("{v:.1}"),
        v => format!("{v:.0}"),
    }
}

/// A figure of the overview's quantity in human units.
pub fn figure(quantity: Quantity, value: f64) -> String {
    match quantity {
        Quantity::Time | Quantity::CpuPerIteration | Quantity::ColdStart => duration(value),
        Quantity::PeakRss => bytes(value),
    }
}

/// The mark of a cell whose processes fell into modes.
pub(crate) const MODES_MARK: &str = "~";

/// The legend of [`MODES_MARK`].
pub const MODES_NOTE: &str = "~ the contestant's processes fell into two clearly separated \
     groups (modes) at that point: the ratio is of the median of both together, which \
     describes neither; the point's table gives each group's figure and share";

/// The mark of a steady figure whose processes had not settled.
pub(crate) const UNSTEADY_MARK: &str = "⚠";

/// The legend of [`UNSTEADY_MARK`].
pub(crate) const UNSTEADY_NOTE: &str = "⚠ most of the contestant's time processes at that point had \
     not reached a steady state by the end of their warm-up: the figure averages a curve";

/// The mark of an inline cell: the row's tasks ran inside their caller.
pub(crate) const INLINE_MARK: &str = "ⁱ";

/// The legend of [`INLINE_MARK`].
pub const INLINE_NOTE: &str = "ⁱ inline: the row's tasks ran inside their caller at that \
     point, never through its scheduler (futures-joinall's join_all polls every future \
     itself): its ratio is to the best runtime, but it is ranked apart — never the best, \
     outside its row's geometric mean (docs/FAIRNESS.md, \"A task is a task\")";

/// The mark of an overhead that holds the row's timer granularity.
pub(crate) const TIMER_MARK: &str = "†";

/// What a cell shows: its ratio (marked where the processes fell into modes, had not
/// settled, ran inline, or hold the timer's granularity), or the first word of its status
/// (`timeout`, `n/a`).
pub fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Figure {
            ratio: r,
            modes,
            unsteady,
            inline,
            timer,
            ..
        } => {
            let modes = if modes.is_some() { MODES_MARK } else { "" };
            let unsteady = if *unsteady { UNSTEADY_MARK } else { "" };
            let inline = if *inline { INLINE_MARK } else { "" };
            let timer = if timer.as_ref().is_some_and(|t| t.marked()) {
                TIMER_MARK
            } else {
                ""
            };
            format!("{}{modes}{unsteady}{inline}{timer}", ratio(*r))
        }
        Cell::Status(status) => status.split([' ', '(']).next().unwrap_or("").to_string(),
        Cell::Absent => "·".to_string(),
    }
}

/// The caption of an overview.
pub fn title(quantity: Quantity) -> &'static str {
    match quantity {
        Quantity::Time => "overview · time × best (overhead where there is an ideal time)",
        Quantity::CpuPerIteration => "overview · CPU per iteration × best",
        Quantity::PeakRss => "overview · peak RSS × best",
        Quantity::ColdStart => {
            "overview · cold start × best (a fresh process's first iteration; overhead where \
             there is an ideal time)"
        }
    }
}

/// The mean column's text: the geometric mean, and over how many points when not all.
pub fn mean_text(overview: &Overview, row: &analysis::overview::Row) -> String {
    let ran = row.figures;
    match row.mean_ratio {
        None => "–".to_string(),
        Some(mean) if ran == overview.columns.len() => ratio(mean),
        Some(mean) => format!("{}\n({ran}/{})", ratio(mean), overview.columns.len()),
    }
}

/// The overviews the terminal prints: time and peak RSS.
pub(crate) const TERMINAL: [Quantity; 2] = [Quantity::Time, Quantity::PeakRss];

/// The terminal's overviews under `--cold`: cold start ranks instead of the steady state.
pub(crate) const TERMINAL_COLD: [Quantity; 2] = [Quantity::ColdStart, Quantity::PeakRss];

/// The overviews a document (results.md, report.html) shows: time, CPU per iteration where
/// contestants report it, and peak RSS.
pub const DOCUMENT: [Quantity; 4] = [
    Quantity::Time,
    Quantity::ColdStart,
    Quantity::CpuPerIteration,
    Quantity::PeakRss,
];

/// The overviews of `quantities` — per machine, each title naming it, where machines are
/// side by side. The CPU overview is left out where no contestant reported CPU per
/// iteration (older runs, `--command`).
pub fn tables(results: &results::Results, quantities: &[Quantity]) -> Vec<Table> {
    let mut tables = Vec::new();
    for (machine, points) in results.per_machine() {
        if points.is_empty() {
            continue;
        }
        for &quantity in quantities {
            let mut overview = Overview::of(&points, quantity);
            let optional = matches!(quantity, Quantity::CpuPerIteration | Quantity::ColdStart);
            if optional && !overview.has_figures() {
                continue;
            }
            // The title names the machine; the rows, their contestants alone.
            if let Some(machine) = machine {
                for row in overview.rows.iter_mut().chain(&mut overview.references) {
                    row.contestant = off_machine(&row.contestant, &machine.label).to_string();
                }
            }
            let mut table = table(&overview);
            // What each scenario measures, once: under the time overview.
            if quantity != Quantity::Time {
                table.notes.truncate(1);
            }
            if let Some(machine) = machine {
                table.title = format!("{} · {}", table.title, machine.heading());
            }
            tables.push(table);
        }
    }
    tables
}

/// The matrix as a table: a row per contestant, a column per point, then the mean.
pub fn table(overview: &Overview) -> Table {
    let mut headers = vec!["contestant".to_string()];
    headers.extend(
        headings(overview)
            .into_iter()
            .map(|h| match h.detail.as_str() {
                "" => h.scenario,
                detail => format!("{}\n{detail}", h.scenario),
            }),
    );
    headers.push("geo\nmean".into());
    let mut rows = vec![best_row(overview)];
    let references = overview.references.iter().map(|row| (row, true));
    let ranked = overview.rows.iter().map(|row| (row, false));
    rows.extend(references.chain(ranked).map(|(row, reference)| {
        let mut cells = vec![if reference {
            reference_label(&row.contestant)
        } else {
            row.contestant.clone()
        }];
        cells.extend(row.cells.iter().map(cell_text));
        cells.push(mean_text(overview, row));
        cells
    }));
    let mut notes = vec![
        "each cell: the contestant's median ÷ the best runtime's median at that point (1.00 = \
         the best, whose figure the first row gives); rows with a figure at every point first, \
         by the geometric mean of their ratios, then those with fewer points (how many in \
         brackets), most first; · = not run"
            .to_string(),
    ];
    if !overview.references.is_empty() {
        notes.push(REFERENCE_NOTE.to_string());
    }
    if has_modes(overview) {
        notes.push(MODES_NOTE.to_string());
    }
    if has_unsteady(overview) {
        notes.push(UNSTEADY_NOTE.to_string());
    }
    if has_inline(overview) {
        notes.push(INLINE_NOTE.to_string());
    }
    notes.extend(timer_lines(overview));
    notes.extend(scenario_measures(overview));
    Table {
        title: title(overview.quantity).to_string(),
        headers,
        rows,
        notes,
    }
}

/// Whether any cell of the overview is marked as modes.
pub fn has_modes(overview: &Overview) -> bool {
    overview
        .rows
        .iter()
        .chain(&overview.references)
        .flat_map(|r| &r.cells)
        .any(|c| matches!(c, Cell::Figure { modes: Some(_), .. }))
}

/// Whether any cell of the overview is marked as not steady.
pub(crate) fn has_unsteady(overview: &Overview) -> bool {
    overview
        .rows
        .iter()
        .chain(&overview.references)
        .flat_map(|r| &r.cells)
        .any(|c| matches!(c, Cell::Figure { unsteady: true, .. }))
}

/// Whether any cell of the overview ran inline.
pub fn has_inline(overview: &Overview) -> bool {
    cells(overview).any(|(_, _, c)| matches!(c, Cell::Figure { inline: true, .. }))
}

/// Every cell with its row's name and its column's scenario.
fn cells(overview: &Overview) -> impl Iterator<Item = (&str, &str, &Cell)> {
    overview
        .rows
        .iter()
        .chain(&overview.references)
        .flat_map(move |row| {
            overview
                .columns
                .iter()
                .zip(&row.cells)
                .map(move |(column, cell)| {
                    (
                        row.contestant.as_str(),
                        column.point.scenario.as_str(),
                        cell,
                    )
                })
        })
}

/// The legend of [`TIMER_MARK`], then a line per row with a marked cell: how much of each
/// such overhead its timer granularity accounts for, from this run's timer point at the
/// op's length.
pub fn timer_lines(overview: &Overview) -> Vec<String> {
    let mut rows: Vec<(&str, f64, Vec<String>)> = Vec::new();
    for (contestant, scenario, cell) in cells(overview) {
        let Cell::Figure {
            value,
            timer: Some(timer),
            ..
        } = cell
        else {
            continue;
        };
        if !timer.marked() {
            continue;
        }
        let part = format!(
            "≈ {} of {scenario}'s {} overhead ({} waits)",
            duration(timer.ns()),
            duration(*value),
            timer.waits
        );
        match rows.iter_mut().find(|(c, ..)| *c == contestant) {
            Some((.., parts)) => parts.push(part),
            None => rows.push((contestant, timer.oversleep_ns, vec![part])),
        }
    }
    if rows.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![TIMER_NOTE.to_string()];
    lines.extend(rows.into_iter().map(|(contestant, oversleep, parts)| {
        format!(
            "  {contestant}: +{} per sleep, {}",
            duration(oversleep),
            parts.join(", ")
        )
    }));
    lines
}

/// The legend of [`TIMER_MARK`].
pub(crate) const TIMER_NOTE: &str = "† holds the runtime's own timer granularity: doxbee and \
     parallel wait on fake I/O ops in turn (7 and 2), and its timer oversleeps each op's \
     length by a quarter of it or more (this run's timer point at that length, median p50; \
     docs/FAIRNESS.md):";

/// The first row's label.
pub const BEST_LABEL: &str = "best (= 1.00)";

/// Each column's best figure in units, what its 1.00 stands for: the first row's cells
/// after [`BEST_LABEL`].
pub fn best_figures(overview: &Overview) -> Vec<String> {
    overview
        .columns
        .iter()
        .map(|c| {
            c.best
                .map_or_else(|| "–".to_string(), |b| figure(overview.quantity, b))
        })
        .collect()
}

/// The first row: each column's best figure in units, what its 1.00 stands for.
fn best_row(overview: &Overview) -> Vec<String> {
    let mut cells = vec![BEST_LABEL.to_string()];
    cells.extend(best_figures(overview));
    cells.push(String::new());
    cells
}

/// A reference's row label: `floor (reference, not ranked)`.
pub fn reference_label(name: &str) -> String {
    format!("{name} (reference, not ranked)")
}

/// The legend of the reference rows.
pub const REFERENCE_NOTE: &str = "a reference (floor: a hand-written lower bound, not a \
     runtime to choose) stands under the best, outside the ranking: its cells are its median \
     ÷ the best runtime's, what the machine allows";

/// What each scenario of the overview does and measures, once per scenario, in column order
/// (the report's legend).
pub fn scenario_lines(overview: &Overview) -> Vec<String> {
    scenarios(overview)
        .map(|spec| format!("{}: {} — {}", spec.name, spec.summary, spec.measures))
        .collect()
}

/// What each scenario of the overview measures, a line each, in column order: the tables'
/// legend, which the terminal prints whole (what happens in each is in `taskbench list`).
fn scenario_measures(overview: &Overview) -> Vec<String> {
    scenarios(overview)
        .map(|spec| format!("{}: {}", spec.name, spec.measures))
        .collect()
}

/// The scenarios of the overview's columns, each once, in column order.
fn scenarios(overview: &Overview) -> impl Iterator<Item = &'static catalogue::ScenarioSpec> {
    let mut seen: Vec<&str> = Vec::new();
    overview.columns.iter().filter_map(move |column| {
        if seen.contains(&column.point.scenario.as_str()) {
            return None;
        }
        seen.push(&column.point.scenario);
        catalogue::SCENARIOS
            .iter()
            .find(|s| s.name == column.point.scenario)
    })
}

/// The terminal's overviews as tables, per machine where machines are side by side;
/// nothing for a run without points.
pub fn render_terminal(results: &results::Results, width: u16, cold: bool) -> String {
    let quantities = if cold { &TERMINAL_COLD } else { &TERMINAL };
    tables(results, quantities)
        .iter()
        .map(|table| format!("{}\n", super::render_terminal(table, width)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::overview::Column;

    fn column(label: &str) -> Column {
        Column {
            index: 0,
            point: label.parse().unwrap(),
            measure: "elapsed",
            best: None,
        }
    }

    #[test]
    fn headings_keep_only_the_parameters_that_tell_points_apart() {
        let overview = Overview {
            quantity: Quantity::Time,
            columns: vec![
                column("spawn tasks=10000"),
                column("sleep tasks=1000 delay-ms=20"),
                column("sleep tasks=100000 delay-ms=20"),
            ],
            rows: Vec::new(),
            references: Vec::new(),
        };
        let details: Vec<String> = headings(&overview).into_iter().map(|h| h.detail).collect();
        assert_eq!(details, ["", "tasks 1000", "tasks 100k"]);
    }

    #[test]
    fn cells_read_short() {
        assert_eq!(ratio(1.0), "1.00");
        assert_eq!(ratio(12.34), "12.3");
        assert_eq!(ratio(1234.0), "1234");
        assert_eq!(cell_text(&Cell::Status("failed (exit 1)".into())), "failed");
        assert_eq!(cell_text(&Cell::Status("n/a".into())), "n/a");
        assert_eq!(cell_text(&Cell::Absent), "·");
    }

    #[test]
    fn a_cell_of_two_modes_is_marked_and_explained() {
        let mode = |processes: usize, median: f64| stats::Mode {
            share: processes as f64 / 12.0,
            processes,
            median,
            median_ci: None,
        };
        let figure = |modes| Cell::Figure {
            ratio: 1.52,
            value: 4.1e6,
            interval: None,
            ratio_interval: None,
            differs: Some(true),
            modes,
            unsteady: false,
            inline: false,
            timer: None,
        };
        let modal = figure(Some([mode(9, 3.9e6), mode(3, 10e6)]));
        assert_eq!(cell_text(&modal), "1.52~");
        assert_eq!(cell_text(&figure(None)), "1.52");
        let overview = Overview {
            quantity: Quantity::Time,
            columns: vec![column("skynet size=10000")],
            rows: vec![analysis::overview::Row {
                contestant: "tokio".into(),
                cells: vec![modal],
                mean_ratio: Some(1.52),
                figures: 1,
            }],
            references: Vec::new(),
        };
        assert!(has_modes(&overview));
        assert!(table(&overview).notes.iter().any(|n| n == MODES_NOTE));
    }

    #[test]
    fn a_coarse_timer_is_stated_beside_the_overhead_it_bears_on() {
        use analysis::timer_share::TimerShare;
        let cell = |oversleep_ns| Cell::Figure {
            ratio: 8.4,
            value: 9.1e6,
            interval: None,
            ratio_interval: None,
            differs: Some(true),
            modes: None,
            unsteady: false,
            inline: false,
            timer: Some(Box::new(TimerShare {
                oversleep_ns,
                op_ns: 1e6,
                waits: 7,
            })),
        };
        assert_eq!(cell_text(&cell(1.05e6)), "8.40†");
        assert_eq!(
            cell_text(&cell(0.1e6)),
            "8.40",
            "a fine timer is not marked"
        );
        let overview = Overview {
            quantity: Quantity::Time,
            columns: vec![column("doxbee")],
            rows: vec![analysis::overview::Row {
                contestant: "tokio".into(),
                cells: vec![cell(1.05e6)],
                mean_ratio: Some(8.4),
                figures: 1,
            }],
            references: Vec::new(),
        };
        let lines = timer_lines(&overview);
        assert_eq!(lines[0], TIMER_NOTE);
        assert_eq!(
            lines[1],
            "  tokio: +1.05 ms per sleep, ≈ 7.35 ms of doxbee's 9.10 ms overhead (7 waits)"
        );
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn the_reference_stands_under_the_best_row_outside_the_ranking() {
        use analysis::overview::Row;
        let row = |name: &str, ratio: f64| Row {
            contestant: name.into(),
            cells: vec![Cell::Figure {
                ratio,
                value: ratio * 4e6,
                interval: None,
                ratio_interval: None,
                differs: None,
                modes: None,
                unsteady: false,
                inline: false,
                timer: None,
            }],
            mean_ratio: Some(ratio),
            figures: 1,
        };
        let overview = Overview {
            quantity: Quantity::Time,
            columns: vec![Column {
                best: Some(4e6),
                ..column("skynet size=10000")
            }],
            rows: vec![row("tokio", 1.0), row("go", 2.0)],
            references: vec![row("floor", 0.25)],
        };
        let table = table(&overview);
        let names: Vec<&str> = table.rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            names,
            [
                "best (= 1.00)",
                "floor (reference, not ranked)",
                "tokio",
                "go"
            ]
        );
        assert_eq!(table.rows[0][1], "4.00 ms");
        assert_eq!(table.rows[1][1], "0.25");
        assert!(table.notes.iter().any(|n| n == REFERENCE_NOTE));
    }

    /// An inline row's cell is written as its ratio with the inline mark, and the table
    /// says what the mark means.
    #[test]
    fn an_inline_cell_is_marked_and_the_mark_explained() {
        let mut records = Vec::new();
        for tasks in [10, 20] {
            records.extend(analysis::fake::runs("j", tasks, &[40, 40, 40], 1_000));
            records.extend(analysis::fake::runs("a", tasks, &[100, 100, 100], 1_000));
        }
        let apart = analysis::Apart {
            references: Vec::new(),
            inline: vec![("j".into(), records[0].scenario.clone())],
        };
        let points = analysis::summarize(&records, &apart);
        let text = table(&Overview::of(&points, Quantity::Time));
        assert!(text.rows.iter().any(|r| r[0] == "j" && r[1] == "0.40ⁱ"));
        assert!(text.notes.iter().any(|n| n == INLINE_NOTE));
    }
}
