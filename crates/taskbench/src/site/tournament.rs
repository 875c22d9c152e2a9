//! The tournament: index.html, one page whose script draws any session's overview —
//! contestants × points by a measure (steady time, cold start, CPU per iteration, peak
//! RSS), filtered by language, family, scenario and size, floor apart, each cell's
//! interval and coverage on hover — with every choice in the URL. The figures are data
//! files beside it, one per session (`data/session-N.js`) and one listing the sessions
//! (`data/sessions.js`): scripts rather than JSON files, because a page opened from
//! `file://` may load a script but not fetch a file.

use super::data::{Site, point_order, runtime_of};
use super::frame::{built_from, digits, page, runtime_href, slug};
use analysis::{CaseSummary, Outcome};
use serde_json::{Value, json};
use stats::Summary;

/// The measures the tournament shows, as the URL and the data name them.
pub(crate) const MEASURES: [(&str, &str); 4] = [
    ("time", "steady time"),
    ("cold", "cold start"),
    ("cpu", "CPU per iteration"),
    ("rss", "peak RSS"),
];

/// index.html: the controls and an empty table the script fills.
pub(crate) fn index_page(site: &Site) -> String {
    let measures: String = MEASURES
        .iter()
        .map(|(key, name)| format!(r#"<option value="{key}">{name}</option>"#))
        .collect();
    let filters: String = [
        ("language", "Language"),
        ("family", "Family"),
        ("scenario", "Scenario"),
        ("size", "Size"),
    ]
    .iter()
    .map(|(key, label)| {
        format!(
            r#"<label>{label} <select id="filter-{key}" data-filter="{key}"><option value="">all</option></select></label>"#
        )
    })
    .collect();
    let body = format!(
        r#"<p class="lede">Every contestant at every point of one session, by one measure: each cell the median with its 95 % interval and coverage on hover (or focus), shaded by its ratio to the best runtime of its column; rows ranked by the geometric mean of those ratios. Steady time and cold start are the overhead (the time less the ideal) where the scenario has an ideal time, as in report.html. floor, the reference, stands apart below the ranking. Each choice below is kept in the page's address, so a link opens the same view; a machine alone opens its newest run (a bisect's steps are sessions too, of two releases each).</p>
<form class="controls" aria-label="view">
<label>Machine <select id="machine"></select></label>
<label>Session <select id="session"></select></label>
<label>Measure <select id="measure">{measures}</select></label>
{filters}
</form>
<p id="session-line" class="muted"></p>
<div class="frame"><table id="tournament"><caption id="caption">Loading…</caption><thead></thead><tbody id="ranked"></tbody><tbody id="apart"></tbody></table></div>
<noscript><p>The tournament is drawn by a script: the runtimes', cases' and machines' pages work without one.</p></noscript>"#
    );
    let sessions: Vec<&store::SessionRow> = site.sessions.iter().collect();
    page(
        "Tournament",
        0,
        &body,
        &built_from(&sessions),
        &["tournament.js", "data/sessions.js"],
    )
}

/// data/sessions.js: every session, newest first, with its machine, and each machine's
/// fingerprint.
pub(crate) fn sessions_data(site: &Site) -> String {
    let sessions: Vec<Value> = (site.sessions.iter().rev())
        .map(|s| {
            json!({
                "id": s.id,
                "started": s.started,
                "machine": site.machine_of[&s.id],
                "kind": if site.bisect_step(s) { "bisect" } else { "run" },
                "commit": s.commit.as_deref().map(|c| &c[..c.len().min(10)]),
                "tags": s.tags,
                "cases": site.summaries_of(s.id).count(),
            })
        })
        .collect();
    let machines: Vec<Value> = (site.machines.iter())
        .map(|m| json!({"key": m.key, "fingerprint": m.machine.fingerprint()}))
        .collect();
    script(
        "sessions",
        &json!({"sessions": sessions, "machines": machines}),
    )
}

/// data/session-N.js: the session's points (each with its page's file name) and each
/// contestant's cells, one per point, in the points' order.
pub(crate) fn session_data(site: &mut Site, id: i64) -> anyhow::Result<String> {
    let mut summaries = site.summaries(id)?.to_vec();
    summaries.sort_by_cached_key(|r| point_order(&r.point));
    let mut labels: Vec<String> = Vec::new();
    let mut points: Vec<Value> = Vec::new();
    for row in &summaries {
        let label = row.point.to_string();
        if !labels.contains(&label) {
            points.push(json!({
                "label": label,
                "slug": slug(&label),
                "scenario": row.point.scenario,
                "size": row.point.to_scenario().and_then(|s| s.size()),
            }));
            labels.push(label);
        }
    }
    let mut names: Vec<&str> = summaries.iter().map(|r| r.contestant.as_str()).collect();
    names.dedup();
    let mut contestants: Vec<Value> = Vec::new();
    for name in names
        .iter()
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
    {
        let described = site.described(name);
        let rows: Vec<&CaseSummary> = summaries.iter().filter(|r| r.contestant == name).collect();
        let cells: Vec<Value> = (labels.iter())
            .map(|label| {
                let row = rows.iter().find(|r| r.point.to_string() == *label);
                row.map_or(Value::Null, |r| cell(r))
            })
            .collect();
        contestants.push(json!({
            "name": name,
            "slug": slug(name),
            "href": runtime_href(runtime_of(name)),
            "language": described.language,
            "family": described.family,
            "reference": rows.iter().any(|r| r.reference),
            "cells": cells,
        }));
    }
    let session = site.session(id).expect("a listed session");
    let data = json!({
        "id": id,
        "started": session.started,
        "machine": site.machine_of[&id],
        "fingerprint": session.machine.fingerprint(),
        "commit": session.commit,
        "built": built_from(&[session]),
        "points": points,
        "contestants": contestants,
    });
    Ok(script("session", &data))
}

/// A cell: `[status, time, cold, cpu, rss]`, the status null for a valid row, each figure
/// `[median, low, high, coverage, processes]` (coverage null at 95 %; low and high null
/// without an interval) or null. The steady figures' summaries are of iterations, the cold
/// start's and peak RSS's of processes: each gives the processes it came from. Figures
/// keep four significant digits: the page shows three.
fn cell(row: &CaseSummary) -> Value {
    let figure = |summary: Option<&Summary>, processes: Option<usize>| {
        summary.map(|s| {
            let ci = s.median_ci;
            json!([
                digits(s.median),
                ci.map(|c| digits(c.low)),
                ci.map(|c| digits(c.high)),
                ci.and_then(|c| c.coverage).map(digits),
                processes.unwrap_or(s.n)
            ])
        })
    };
    let status = match &row.outcome {
        Outcome::Valid => None,
        _ => row.status_label(),
    };
    json!([
        status,
        figure(row.headline(), Some(row.time_runs)),
        figure(row.cold_headline(), None),
        figure(row.cpu_per_iteration.as_ref(), Some(row.time_runs)),
        figure(row.peak_rss.as_ref(), None),
    ])
}

/// `value` as a script handing it to the page's loader.
fn script(kind: &str, value: &Value) -> String {
    format!("taskbench.{kind}({});\n", value)
}
