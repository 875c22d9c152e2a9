//! The overview's words: column headings short enough for nine points in 100 columns
//! (the scenario, and only the parameters that tell its points apart), the text of a cell,
//! the matrix as a [`Table`] for the terminal and Markdown, and what each scenario
//! measures, one line each.

use super::Table;
use super::units::{bytes, duration};
use crate::analysis::off_machine;
use crate::analysis::overview::{Cell, Overview, Quantity};
use crate::plot::tick;

/// A column's heading: the scenario, and the parameters that differ between this run's
/// points of it (`tasks 10k`), empty when the scenario has one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub scenario: String,
    pub detail: String,
}

/// The headings of every column.
pub fn headings(overview: &Overview) -> Vec<Heading> {
    let params: Vec<Vec<(&str, &str)>> = overview
        .columns
        .iter()
        .map(|c| {
            c.label
                .split(' ')
                .skip(1)
                .filter_map(|p| p.split_once('='))
                .collect()
        })
        .collect();
    overview
        .columns
        .iter()
        .zip(&params)
        .map(|(column, mine)| {
            let siblings: Vec<&Vec<(&str, &str)>> = overview
                .columns
                .iter()
                .zip(&params)
                .filter(|(c, _)| c.scenario == column.scenario)
                .map(|(_, p)| p)
                .collect();
            let detail: Vec<String> = mine
                .iter()
                .filter(|(k, v)| {
                    siblings
                        .iter()
                        .any(|other| !other.iter().any(|(k2, v2)| k2 == k && v2 == v))
                })
                .map(|(k, v)| {
                    let value = v.parse::<f64>().map_or(v.to_string(), tick);
                    format!("{k} {value}")
                })
                .collect();
            Heading {
                scenario: column.scenario.clone(),
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
        Quantity::Time => duration(value),
        Quantity::PeakRss => bytes(value),
    }
}

/// What a cell shows: its ratio, or the first word of its status (`timeout`, `n/a`).
pub fn cell_text(cell: &Cell) -> String {
    match cell {
        Cell::Figure { ratio: r, .. } => ratio(*r),
        Cell::Status(status) => status.split([' ', '(']).next().unwrap_or("").to_string(),
        Cell::Absent => "·".to_string(),
    }
}

/// The caption of an overview.
pub fn title(quantity: Quantity) -> &'static str {
    match quantity {
        Quantity::Time => "overview · time × best (overhead where there is an ideal time)",
        Quantity::PeakRss => "overview · peak RSS × best",
    }
}

/// The mean column's text: the geometric mean, and over how many points when not all.
pub fn mean_text(overview: &Overview, row: &crate::analysis::overview::Row) -> String {
    let ran = row
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::Figure { .. }))
        .count();
    match row.mean_ratio {
        None => "–".to_string(),
        Some(mean) if ran == overview.columns.len() => ratio(mean),
        Some(mean) => format!("{}\n({ran}/{})", ratio(mean), overview.columns.len()),
    }
}

/// The overviews of time and of peak RSS — per machine, each title naming it, where
/// machines are side by side.
pub fn tables(results: &crate::results::Results) -> Vec<Table> {
    let mut tables = Vec::new();
    for (machine, points) in results.per_machine() {
        if points.is_empty() {
            continue;
        }
        for quantity in [Quantity::Time, Quantity::PeakRss] {
            let mut table = table(&Overview::of(&points, quantity));
            // The title names the machine; the rows, their contestants alone.
            if let Some(machine) = machine {
                table.title = format!("{} · {}", table.title, machine.heading());
                for row in &mut table.rows {
                    row[0] = off_machine(&row[0], &machine.label).to_string();
                }
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
    let rows = overview
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![row.contestant.clone()];
            cells.extend(row.cells.iter().map(cell_text));
            cells.push(mean_text(overview, row));
            cells
        })
        .collect();
    let mut notes = vec![
        "each cell: the contestant's median ÷ the best median at that point (1.00 = the best); \
         rows by the geometric mean over the points a contestant ran, with how many when not \
         all; · = not run"
            .to_string(),
    ];
    notes.extend(scenario_lines(overview));
    Table {
        title: title(overview.quantity).to_string(),
        headers,
        rows,
        notes,
    }
}

/// What each scenario of the overview measures, once per scenario, in column order.
pub fn scenario_lines(overview: &Overview) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    overview
        .columns
        .iter()
        .filter_map(|column| {
            if seen.contains(&column.scenario.as_str()) {
                return None;
            }
            seen.push(&column.scenario);
            let spec = catalogue::SCENARIOS
                .iter()
                .find(|s| s.name == column.scenario)?;
            Some(format!(
                "{}: {} — {}",
                spec.name, spec.summary, spec.measures
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::overview::Column;

    fn column(label: &str) -> Column {
        Column {
            point: 0,
            label: label.into(),
            scenario: label.split(' ').next().unwrap().into(),
            measure: "elapsed",
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
}
