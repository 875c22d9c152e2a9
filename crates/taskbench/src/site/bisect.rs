//! A bisect's page (`bisect/N.html`) and the list of bisects: the answer first, then a
//! ladder of every release it measured, in release order, each with its figure and 95 %
//! interval from the sessions of the bisect's steps and each step found marked on the
//! release it starts at with its ratio and interval, then the search in the order made.

use super::data::Site;
use super::frame::{built_from, page, plural};
use crate::bisect::search::{Bisect, Comparison, Decision, Figure};
use crate::bisect::words::{answer, path_table};
use analysis::CaseSummary;
use contestant::releases::release_order;
use html::table::escape;
use plot::{Marks, Palette, Quantity, Row, RowChart};
use serde::Deserialize;
use std::fmt::Write;
use std::time::Duration;
use store::StoredBisect;
use units::{bytes, duration};

/// bisect.json as the store keeps it.
#[derive(Deserialize)]
struct Record {
    range: String,
    scenario: String,
    figure: Figure,
    threshold: f64,
    wall_seconds: f64,
    #[serde(flatten)]
    bisect: Bisect,
}

fn read(record: &serde_json::Value) -> Option<Record> {
    serde_json::from_value(record.clone()).ok()
}

/// The page of a bisect, from the root.
pub(crate) fn bisect_href(bisect: &StoredBisect) -> String {
    format!("bisect/{}.html", bisect.id)
}

/// The contestant whose releases `record` bisected (`go` of `go@1.22..1.26`).
pub(crate) fn runtime_of_range(record: &serde_json::Value) -> Option<&str> {
    record["range"].as_str()?.split_once('@').map(|(c, _)| c)
}

/// The answer in words, as `taskbench bisect` printed it.
pub(crate) fn answer_lines(record: &serde_json::Value) -> Vec<String> {
    read(record).map_or_else(
        || vec!["(a bisect.json this taskbench does not read)".into()],
        |r| {
            let wall = Duration::from_secs_f64(r.wall_seconds.max(0.0));
            answer(&r.bisect, &r.scenario, r.figure, r.threshold, wall)
        },
    )
}

/// bisects.html: every bisect, newest first, its answer beside it.
pub(crate) fn bisects_page(site: &Site) -> String {
    let mut body = String::from(
        r#"<p class="lede">Each <code>taskbench bisect</code> kept in the store: the release range searched, and where the figure changed.</p>"#,
    );
    if site.bisects.is_empty() {
        body.push_str(r#"<p class="note">The store holds no bisect.</p>"#);
    }
    body.push_str("<ul>");
    for b in site.bisects.iter().rev() {
        let _ = write!(
            body,
            r#"<li><a href="{}">{} · {}</a>, {}: {}</li>"#,
            bisect_href(b),
            escape(b.record["range"].as_str().unwrap_or("?")),
            escape(b.record["scenario"].as_str().unwrap_or("?")),
            escape(&b.started),
            escape(&answer_lines(&b.record).join(" "))
        );
    }
    body.push_str("</ul>");
    let steps: Vec<&store::SessionRow> = site
        .sessions
        .iter()
        .filter(|s| site.bisect_step(s))
        .collect();
    page("Bisects", 0, &body, &built_from(&steps), &[])
}

/// The page of `bisect`.
pub(crate) fn bisect_page(site: &mut Site, bisect: &StoredBisect) -> anyhow::Result<String> {
    let Some(record) = read(&bisect.record) else {
        let body = format!(
            r#"<p class="note">The store's bisect of {} ({}) does not read as a bisect.json of this taskbench: another version wrote it.</p>"#,
            escape(&bisect.folder),
            escape(&bisect.started)
        );
        let title = format!("bisect #{}", bisect.id);
        return Ok(page(&title, 1, &body, &built_from(&[]), &[]));
    };
    let title = format!("bisect {} · {}", record.range, record.scenario);
    let lines = answer_lines(&bisect.record);
    let mut body = String::from(r#"<section class="answer" aria-label="answer">"#);
    for line in &lines {
        let _ = write!(body, "<p>{}</p>", escape(line));
    }
    body.push_str("</section>");
    let (ladder, used) = ladder(site, bisect, &record)?;
    body.push_str(&ladder);
    let _ = write!(
        body,
        "<h2>The search, in the order made</h2>{}",
        html::figures_table(&path_table(&record.bisect, &title, &lines))
    );
    let sessions: Vec<&store::SessionRow> =
        used.iter().filter_map(|&id| site.session(id)).collect();
    Ok(page(&title, 1, &body, &built_from(&sessions), &[]))
}

/// Each release measured: its figure from the newest step session that ran it.
struct Rung {
    release: String,
    figure: Option<stats::Summary>,
    session: i64,
    /// The step found between the release before and this one.
    step: Option<Comparison>,
    /// The last comparison of the release before on the ladder with this one, where the
    /// search made one.
    compared: Option<Comparison>,
}

/// The ladder chart and table, and the sessions they read.
fn ladder(
    site: &mut Site,
    bisect: &StoredBisect,
    record: &Record,
) -> anyhow::Result<(String, Vec<i64>)> {
    let steps: Vec<i64> = site.steps_of(bisect).iter().map(|s| s.id).collect();
    let mut measured: Vec<&str> = (record.bisect.steps.iter())
        .flat_map(|c| [c.base.as_str(), c.new.as_str()])
        .collect();
    measured.sort_by_key(|r| release_order(r));
    measured.dedup();
    let mut rungs: Vec<Rung> = Vec::new();
    for release in measured {
        let mut figure = None;
        let mut from = 0;
        for &session in steps.iter().rev() {
            let found = (site.summaries(session)?.iter()).find(|r| r.contestant == release);
            if let Some(row) = found.and_then(|r| of(record.figure, r)) {
                figure = Some(row);
                from = session;
                break;
            }
        }
        let step = (record.bisect.found.iter())
            .find(|c| c.new == release)
            .cloned();
        let before = rungs.last().map(|r: &Rung| r.release.as_str());
        let compared = (record.bisect.steps.iter().rev())
            .find(|c| Some(c.base.as_str()) == before && c.new == release)
            .cloned();
        rungs.push(Rung {
            release: release.to_string(),
            figure,
            session: from,
            step,
            compared,
        });
    }
    let used = rungs.iter().map(|r| r.session).filter(|&s| s > 0).collect();
    Ok((ladder_html(&rungs, record), used))
}

/// The figure a bisect follows, in a summary.
fn of(figure: Figure, row: &CaseSummary) -> Option<stats::Summary> {
    match figure {
        Figure::Time => row.elapsed,
        Figure::Rss => row.peak_rss,
        Figure::Cpu => row.cpu_per_iteration,
    }
}

fn ladder_html(rungs: &[Rung], record: &Record) -> String {
    let (quantity, unit): (Quantity, fn(f64) -> String) = match record.figure {
        Figure::Rss => (Quantity::Memory, bytes),
        _ => (Quantity::Time, duration),
    };
    let name = |r: &Rung| match &r.step {
        Some(step) => format!("{} ◀ step ×{:.2}", r.release, step.ratio),
        None => r.release.clone(),
    };
    let rows: Vec<Row> = (rungs.iter())
        .map(|r| Row {
            name: name(r),
            marks: r.figure.as_ref().map_or(Marks::Status("–".into()), |s| {
                let ci = s.median_ci;
                Marks::Interval {
                    median: s.median,
                    low: ci.map_or(s.median, |c| c.low),
                    high: ci.map_or(s.median, |c| c.high),
                }
            }),
        })
        .collect();
    let palette = Palette::unlabelled(rows.iter().map(|r| r.name.clone()));
    let chart = RowChart {
        title: format!("{} · {} per release", record.scenario, record.figure.name()),
        axis: record.figure.name().into(),
        quantity,
        rows,
        reference: None,
        width: 900,
    };
    let mut out = format!(
        r#"<h2>Every release measured, in release order</h2><p class="note">{} of the range's {}; each the median of the newest step that ran it, with its 95 % interval; a step found is marked on the release it starts at.</p><figure>{}</figure>"#,
        plural(rungs.len(), "release"),
        record.bisect.releases.len(),
        html::charts::svg(plot::rows(&chart, &palette))
    );
    out.push_str(
        r#"<div class="frame"><table class="ladder"><caption>The ladder</caption><thead><tr><th scope="col">release</th><th scope="col">median</th><th scope="col">95 % interval</th><th scope="col">NEW / the release before, 95 % interval</th></tr></thead><tbody>"#,
    );
    for r in rungs {
        let (median, interval) = r.figure.as_ref().map_or(("–".into(), "–".into()), |s| {
            let ci = s.median_ci.map_or("–".into(), |c| {
                format!("{} – {}", unit(c.low), unit(c.high))
            });
            (unit(s.median), ci)
        });
        let step = r
            .compared
            .as_ref()
            .or(r.step.as_ref())
            .map_or(String::new(), |c| {
                let ci = c
                    .interval
                    .map_or(String::new(), |i| format!(" ({:.2}–{:.2})", i.low, i.high));
                let verdict = match (r.step.is_some(), c.decision) {
                    (true, _) => "the step",
                    (false, Decision::Changed) => "changed",
                    (false, Decision::Same) => "same",
                    (false, Decision::Undecided) => "undecided",
                };
                format!("×{:.2}{ci}, {verdict}", c.ratio)
            });
        let _ = write!(
            out,
            r#"<tr><th scope="row">{}</th><td data-release="{}" data-value="{}">{median}</td><td>{interval}</td><td class="text">{}</td></tr>"#,
            escape(&r.release),
            escape(&r.release),
            r.figure
                .as_ref()
                .map_or(String::new(), |s| s.median.to_string()),
            escape(&step),
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bisect::BisectRecord;

    #[test]
    fn a_kept_bisect_json_reads_back_as_its_answer() {
        let found = Bisect {
            releases: vec!["go@1.22.0".into(), "go@1.22.1".into()],
            ..Bisect::default()
        };
        let record = BisectRecord {
            range: "go@1.22..1.22",
            scenario: "pingpong",
            figure: Figure::Rss,
            threshold: 0.1,
            probes: 1,
            wall_seconds: 3.0,
            bisect: &found,
            runs: &[],
        };
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(runtime_of_range(&json), Some("go"));
        let wall = Duration::from_secs(3);
        let expected = answer(&found, "pingpong", Figure::Rss, 0.1, wall);
        assert_eq!(answer_lines(&json), expected);
        assert_eq!(read(&json).map(|r| r.bisect), Some(found));
    }
}
