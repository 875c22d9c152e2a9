//! report.html: a finished run as one self-contained page — inline CSS and SVG, no script,
//! nothing fetched. It opens with the answer: under a one-line platform header, the
//! overview (contestants × points, × best on a colour scale, for time and for peak RSS)
//! and what each scenario measures; then the warnings and the contestants (versions, and
//! why some could not run) folded away; then for every point its table, the seed's
//! published figures where it re-runs one, and its charts; after each sweep its per-task
//! fits and their charts. Everything shown comes from the results document. A crate of its
//! own, over the words and the charts: it cannot name the exports (which write it), a
//! feature or a command.

pub mod charts;
mod overview;
pub mod table;

use analysis::PointSummary;
use analysis::fits::Fit;
use analysis::overview::{Overview, Quantity};
use plot::{Palette, marker_svg};
use results::Results;
use std::fmt::Write;
use table::{Kind, escape};
use words::Table;
use words::condition::run_condition_line;

const STYLE: &str = include_str!("style.css");

/// The whole page.
pub fn render(results: &Results) -> String {
    let palette = palette(results);
    let swatch = |name: &str| {
        palette
            .knows(name)
            .then(|| marker_svg(palette.identity(name), 11))
    };
    let mut page = String::new();
    header(&mut page, results);
    overview(&mut page, results, &palette);
    warnings(&mut page, results);
    contestants(&mut page, results, &swatch);
    contents(&mut page, results);
    let mut fit_tables = words::fits::fit_tables(&results.points, &results.fits);
    let mut sweeps = sweeps(&results.fits, &results.points);
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
            let at = (&results.points[..], 2);
            sweep_section(&mut page, table, fits, at, &palette, &swatch);
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

/// Every contestant of the results with its language, for colours by family.
fn palette(results: &Results) -> Palette {
    let language = |name: &str| {
        results
            .contestants
            .iter()
            .find(|c| c.name == name)
            .map_or_else(String::new, |c| c.language.clone())
    };
    Palette::new(
        results
            .contestants
            .iter()
            .map(|c| (c.name.clone(), c.language.clone()))
            .chain(
                results
                    .points
                    .iter()
                    .flat_map(|p| &p.rows)
                    .map(|r| (r.contestant.clone(), language(&r.contestant))),
            ),
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

/// Every sweep among `points` (a scenario at several sizes): its per-task fits as a table,
/// its growth charts (overhead and peak RSS against N, the fitted line and the 95 % band)
/// and their legend, each sweep a section, in the order [`sweep_section`] draws them for
/// report.html, under headings of `level`; `palette` names every contestant of `fits`.
pub fn growth(points: &[PointSummary], fits: &[Fit], palette: &Palette, level: u8) -> String {
    let swatch = |name: &str| {
        palette
            .knows(name)
            .then(|| marker_svg(palette.identity(name), 11))
    };
    let tables = words::fits::fit_tables(points, fits);
    let groups = sweeps(fits, points);
    let mut page = String::new();
    for ((_, table), (_, group)) in tables.iter().zip(&groups) {
        sweep_section(&mut page, table, group, (points, level), palette, &swatch);
    }
    page
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
    let table = words::table(point);
    let _ = write!(
        page,
        r#"<section class="point" id="point-{}"><h2>{}</h2>{}"#,
        index + 1,
        escape(&table.title),
        table::render(&table, Kind::Figures, false, swatch)
    );
    for comparison in words::seeds::comparisons(point, &results.platform) {
        let _ = write!(
            page,
            r#"<div class="seeds">{}</div>"#,
            table::render(&comparison, Kind::Figures, true, swatch)
        );
    }
    let timelines = charts::timelines(point, &results.runs);
    figures(
        page,
        charts::point_charts(point, &timelines, &results.releases, palette),
    );
    let multiples = charts::timeline_multiples(&timelines, palette);
    if multiples.len() > 3 {
        let _ = write!(
            page,
            r#"<details class="multiples"><summary>RSS over time of all {} contestants, on the same axes</summary><div class="small-multiples">"#,
            multiples.len()
        );
        for chart in multiples {
            let _ = write!(page, "<figure>{chart}</figure>");
        }
        page.push_str("</div></details>");
    }
    page.push_str("</section>\n");
}

/// A sweep: its per-task fits and their charts.
/// A sweep's section: its fit table, charts and legend, under a heading of `level` (2: an
/// `h2`) among `points`.
fn sweep_section(
    page: &mut String,
    table: &Table,
    fits: &[&Fit],
    (points, level): (&[PointSummary], u8),
    palette: &Palette,
    swatch: &dyn Fn(&str) -> Option<String>,
) {
    let _ = write!(
        page,
        r#"<section class="sweep"><h{level}>{}</h{level}>{}"#,
        escape(&table.title),
        table::render(table, Kind::Figures, false, swatch)
    );
    figures(page, charts::sweep_charts(fits, points, palette));
    let mut names: Vec<&str> = fits.iter().map(|f| f.contestant.as_str()).collect();
    names.dedup();
    page.push_str(r#"<ul class="legend">"#);
    for name in names {
        let _ = write!(
            page,
            "<li>{}{}</li>",
            marker_svg(palette.identity(name), 11),
            escape(name)
        );
    }
    page.push_str("</ul></section>\n");
}

fn warnings(page: &mut String, results: &Results) {
    if results.warnings.is_empty() {
        return;
    }
    let _ = write!(
        page,
        r#"<details class="warnings"><summary>{} warning{}: the figures they name are less sure</summary><ul>"#,
        results.warnings.len(),
        if results.warnings.len() == 1 { "" } else { "s" }
    );
    for warning in &results.warnings {
        let _ = write!(
            page,
            "<li>{}</li>",
            escape(&words::warnings::Said(warning).to_string())
        );
    }
    page.push_str("</ul></details>\n");
}

fn header(page: &mut String, results: &Results) {
    let platform = &results.platform;
    let started = platform.started.replacen('T', " ", 1).replace('Z', " UTC");
    let _ = write!(
        page,
        r#"<header><h1>taskbench report</h1><p class="platform">{} · {} cores · {} · Linux {} · load {:.2} · {} · taskbench {}</p>"#,
        escape(&platform.cpu),
        platform.cores,
        escape(&units::bytes(platform.memory_bytes as f64)),
        escape(&platform.kernel),
        platform.load_average,
        escape(&started),
        escape(&platform.taskbench),
    );
    let condition = run_condition_line(results.machine.as_ref());
    for line in results.machine_lines().into_iter().chain(condition) {
        let _ = write!(page, r#"<p class="platform">{}</p>"#, escape(&line));
    }
    if let Some(line) = results.interrupted_line() {
        let _ = write!(
            page,
            r#"<p class="interrupted"><strong>{}</strong></p>"#,
            escape(&line)
        );
    }
    page.push_str("</header>\n");
}

/// The overviews of time, CPU per iteration (where contestants report it) and peak RSS,
/// and what each scenario measures.
fn overview(page: &mut String, results: &Results, palette: &Palette) {
    if results.points.is_empty() {
        return;
    }
    page.push_str(r#"<section class="summary">"#);
    // Machines side by side: an overview each, headed by the machine, ids ending in its
    // label (`overview-m2`).
    let mut lines = Vec::new();
    for (machine, points) in results.per_machine() {
        let time = Overview::of(&points, Quantity::Time);
        let cold = Overview::of(&points, Quantity::ColdStart);
        let cpu = Overview::of(&points, Quantity::CpuPerIteration);
        let memory = Overview::of(&points, Quantity::PeakRss);
        let suffix = match machine {
            Some(machine) => {
                let heading = escape(&machine.heading());
                let _ = write!(page, r#"<h2 class="machine">{heading}</h2>"#);
                format!("-{}", machine.label)
            }
            None => String::new(),
        };
        page.push_str(&overview::matrix(
            &time,
            &format!("overview{suffix}"),
            palette,
        ));
        page.push_str(&overview::scale_legend());
        if cold.has_figures() {
            page.push_str(&overview::matrix(
                &cold,
                &format!("overview-cold{suffix}"),
                palette,
            ));
        }
        if cpu.has_figures() {
            page.push_str(&overview::matrix(
                &cpu,
                &format!("overview-cpu{suffix}"),
                palette,
            ));
        }
        page.push_str(&overview::matrix(
            &memory,
            &format!("overview-rss{suffix}"),
            palette,
        ));
        if lines.is_empty() {
            lines = words::overview::scenario_lines(&time);
        }
    }
    page.push_str(r#"<dl class="scenarios">"#);
    for line in lines {
        let (name, what) = line.split_once(": ").unwrap_or((&line, ""));
        let _ = write!(page, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(what));
    }
    page.push_str("</dl></section>\n");
}

/// The contestants, folded: language, runtime, version, build, warm-up and entry in
/// docs/FAIRNESS.md of those that ran; those that could not, with a short reason each and
/// the whole error a click further.
fn contestants(page: &mut String, results: &Results, swatch: &dyn Fn(&str) -> Option<String>) {
    if results.contestants.is_empty() {
        return;
    }
    let (ran, unavailable): (Vec<_>, Vec<_>) = results
        .contestants
        .iter()
        .partition(|c| c.unavailable.is_none());
    let _ = write!(
        page,
        r#"<details class="contestants"><summary>{} contestant{} ran{} · versions, builds, warm-up and the command</summary>"#,
        ran.len(),
        if ran.len() == 1 { "" } else { "s" },
        match unavailable.len() {
            0 => String::new(),
            n => format!(" · {n} unavailable"),
        }
    );
    let platform = &results.platform;
    let _ = write!(
        page,
        r#"<p class="platform">{} · Rust contestants: {}</p><p>Reproduce this run: <code>{}</code></p>"#,
        escape(&platform.rustc),
        escape(&platform.rust_profile),
        escape(&shell_line(&results.command))
    );
    let terms = words::terms::contestants_table(&ran);
    page.push_str(&table::render(&terms, Kind::Text, false, swatch));
    if !unavailable.is_empty() {
        let names: Vec<&str> = unavailable.iter().map(|c| c.name.as_str()).collect();
        let _ = write!(
            page,
            r#"<details class="unavailable"><summary>unavailable: {}</summary><table class="text"><tbody>"#,
            escape(&names.join(", "))
        );
        for contestant in unavailable {
            let reason = contestant.unavailable.as_deref().unwrap_or_default();
            let _ = write!(
                page,
                r#"<tr><th scope="row">{}</th><td>{}<details><summary>the whole error</summary><pre>{}</pre></details></td></tr>"#,
                escape(&contestant.name),
                escape(&short_reason(reason)),
                escape(reason)
            );
        }
        page.push_str("</tbody></table></details>");
    }
    page.push_str("</details>\n");
}

/// The first clause of a reason, at most 100 characters.
fn short_reason(reason: &str) -> String {
    let first = reason.split([';', '\n']).next().unwrap_or_default().trim();
    match first.chars().count() {
        n if n <= 100 => first.to_string(),
        _ => format!("{}…", first.chars().take(99).collect::<String>()),
    }
}

fn contents(page: &mut String, results: &Results) {
    page.push_str("<nav><h2>Points</h2><ol>");
    for (index, point) in results.points.iter().enumerate() {
        let _ = write!(
            page,
            r##"<li><a href="#point-{}">{}</a></li>"##,
            index + 1,
            escape(&point.point.to_string())
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
fn sweeps<'a>(fits: &'a [Fit], points: &[PointSummary]) -> Vec<(usize, Vec<&'a Fit>)> {
    let mut groups: Vec<Vec<&Fit>> = Vec::new();
    for fit in fits {
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
            let last = points.iter().rposition(|p| group[0].covers(p))?;
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
        .map(|a| {
            if plain(a) {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
