//! report.html: a finished run as one self-contained page — inline CSS and SVG, no script,
//! nothing fetched — with the platform header, the command that reproduces the run, the
//! contestants (and why some could not run), the warnings, and for every point its table,
//! the seed's published figures where it re-runs one, and its charts; after each sweep its
//! per-task fits and their charts. Everything shown comes from the results document.

mod charts;
mod table;
mod trend;

pub use trend::trend_page;

use crate::analysis::{Fit, PointSummary};
use crate::plot::Palette;
use crate::report::{self, Table};
use crate::results::Results;
use std::fmt::Write;
use table::{Kind, escape};

const STYLE: &str = include_str!("style.css");

/// The whole page.
pub fn render(results: &Results) -> String {
    let palette = Palette::new(
        results.contestants.iter().map(|c| c.name.clone()).chain(
            results
                .points
                .iter()
                .flat_map(|p| p.rows.iter().map(|r| r.contestant.clone())),
        ),
    );
    let swatch = |name: &str| {
        palette
            .names()
            .iter()
            .any(|n| n == name)
            .then(|| palette.css(name))
    };
    let mut page = String::new();
    header(&mut page, results);
    contestants(&mut page, results, &swatch);
    warnings(&mut page, results);
    contents(&mut page, results);
    let mut fit_tables = report::fits::fit_tables(&results.points, &results.fits);
    let mut sweeps = sweeps(results);
    for (index, point) in results.points.iter().enumerate() {
        point_section(&mut page, index, point, results, &palette, &swatch);
        let tables: Vec<Table> = fit_tables
            .extract_if(.., |(after, _)| *after == index)
            .map(|(_, t)| t)
            .collect();
        let fits: Vec<Vec<&Fit>> = sweeps
            .extract_if(.., |(after, _)| *after == index)
            .map(|(_, f)| f)
            .collect();
        for (k, table) in tables.iter().enumerate() {
            let fits = fits.get(k).map_or(&[][..], Vec::as_slice);
            sweep_section(&mut page, table, fits, &palette, &swatch);
        }
    }
    let _ = writeln!(
        page,
        "<footer>Written by taskbench {} from results.json ({}); every table and chart on \
         this page is drawn from that file, and <code>taskbench report DIR</code> writes it \
         again.</footer>",
        escape(env!("CARGO_PKG_VERSION")),
        escape(&results.schema)
    );
    standalone(
        &format!("taskbench report · {}", results.platform.started),
        &page,
    )
}

/// A self-contained page around `body`: the style inline, no script, nothing fetched.
pub fn standalone(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body><main>\n{body}</main></body></html>\n",
        escape(title)
    )
}

/// A table of figures with its caption and notes, as a page's section.
pub fn figures_table(table: &Table) -> String {
    table::render(table, Kind::Figures, true, &|_| None)
}

/// A point: its table, the seeds' published figures beside it, its charts.
fn point_section(
    page: &mut String,
    index: usize,
    point: &PointSummary,
    results: &Results,
    palette: &Palette,
    swatch: &dyn Fn(&str) -> Option<String>,
) {
    let table = report::table(point);
    let _ = write!(
        page,
        r#"<section class="point" id="point-{}"><h2>{}</h2>{}"#,
        index + 1,
        escape(&table.title),
        table::render(&table, Kind::Figures, false, swatch)
    );
    for comparison in report::seeds::comparisons(point, &results.platform) {
        let _ = write!(
            page,
            r#"<div class="seeds">{}</div>"#,
            table::render(&comparison, Kind::Figures, true, swatch)
        );
    }
    figures(page, charts::point_charts(point, &results.runs, palette));
    page.push_str("</section>\n");
}

/// A sweep: its per-task fits and their charts.
fn sweep_section(
    page: &mut String,
    table: &Table,
    fits: &[&Fit],
    palette: &Palette,
    swatch: &dyn Fn(&str) -> Option<String>,
) {
    let _ = write!(
        page,
        r#"<section class="sweep"><h2>{}</h2>{}"#,
        escape(&table.title),
        table::render(table, Kind::Figures, false, swatch)
    );
    figures(page, charts::sweep_charts(fits, palette));
    page.push_str("</section>\n");
}

fn warnings(page: &mut String, results: &Results) {
    if results.warnings.is_empty() {
        return;
    }
    page.push_str(r#"<section class="warnings"><h2>Warnings</h2><ul>"#);
    for warning in &results.warnings {
        let _ = write!(page, "<li>{}</li>", escape(&warning.to_string()));
    }
    page.push_str("</ul></section>\n");
}

fn header(page: &mut String, results: &Results) {
    page.push_str("<header><h1>taskbench report</h1>");
    for line in results.platform.header() {
        let _ = write!(page, r#"<p class="platform">{}</p>"#, escape(&line));
    }
    if let Some(line) = results.interrupted_line() {
        let _ = write!(
            page,
            r#"<p class="interrupted"><strong>{}</strong></p>"#,
            escape(&line)
        );
    }
    let _ = writeln!(
        page,
        "<p>Reproduce this run: <code>{}</code></p></header>",
        escape(&shell_line(&results.command))
    );
}

fn contestants(page: &mut String, results: &Results, swatch: &dyn Fn(&str) -> Option<String>) {
    if results.contestants.is_empty() {
        return;
    }
    let table = Table {
        title: "Contestants".into(),
        headers: vec!["contestant", "language", "runtime", "version", "status"],
        rows: results
            .contestants
            .iter()
            .map(|c| {
                let status = match &c.unavailable {
                    Some(reason) => format!("unavailable: {reason}"),
                    None => "ran".to_string(),
                };
                vec![
                    c.name.clone(),
                    c.language.clone(),
                    c.runtime.clone(),
                    c.version.clone(),
                    status,
                ]
            })
            .collect(),
        notes: Vec::new(),
    };
    let _ = write!(
        page,
        r#"<section class="contestants"><h2>Contestants</h2>{}</section>"#,
        table::render(&table, Kind::Text, false, swatch)
    );
    page.push('\n');
}

fn contents(page: &mut String, results: &Results) {
    page.push_str("<nav><h2>Points</h2><ol>");
    for (index, point) in results.points.iter().enumerate() {
        let _ = write!(
            page,
            r##"<li><a href="#point-{}">{}</a></li>"##,
            index + 1,
            escape(&point.point)
        );
    }
    page.push_str("</ol></nav>\n");
}

fn figures(page: &mut String, charts: Vec<String>) {
    page.push_str(r#"<div class="charts">"#);
    for chart in charts {
        let _ = write!(page, "<figure>{chart}</figure>");
    }
    page.push_str("</div>");
}

/// The run's fits grouped by sweep (scenario, swept parameter, fixed parameters), each with
/// the index of the sweep's last point, in the order the fits come.
fn sweeps(results: &Results) -> Vec<(usize, Vec<&Fit>)> {
    let mut groups: Vec<Vec<&Fit>> = Vec::new();
    for fit in &results.fits {
        let same = |f: &&Fit| {
            f.scenario == fit.scenario && f.param == fit.param && f.other_params == fit.other_params
        };
        match groups.iter_mut().find(|g| same(&g[0])) {
            Some(group) => group.push(fit),
            None => groups.push(vec![fit]),
        }
    }
    groups
        .into_iter()
        .filter_map(|group| {
            let last = results.points.iter().rposition(|p| group[0].covers(p))?;
            Some((last, group))
        })
        .collect()
}

/// The command line as a shell would take it back: arguments quoted where needed.
fn shell_line(argv: &[String]) -> String {
    let plain = |a: &str| {
        !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    };
    argv.iter()
        .map(|a| match plain(a) {
            true => a.clone(),
            false => format!("'{}'", a.replace('\'', r"'\''")),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub(crate) mod tests;
