//! A case's page (`case/CONTESTANT/POINT.html`): one contestant at one point, per machine
//! (a section each, its id the machine's key: `#m2`) its history across sessions — the
//! time chart with each session's interval and the change points drawn, the steps in
//! words, and a row per session with its figures, version and commit.

use super::data::Site;
use super::frame::{built_from, digits, page, runtime_href};
use super::history::Histories;
use crate::history::change_points::Along;
use crate::history::trend::time_chart;
use crate::history::words::step_line;
use html::table::escape;
use std::fmt::Write;
use store::HistoryRow;
use units::{bytes, duration};

/// The page of `contestant` at the point labelled `label`.
pub(crate) fn case_page(
    site: &mut Site,
    histories: &mut Histories,
    contestant: &str,
    label: &str,
) -> anyhow::Result<String> {
    let mut body = format!(
        r#"<p class="lede">{} at <strong>{}</strong>: each session's figure on each machine it ran on — the median with its 95 % interval, a ring where the version changed, a thick stroke where a change point starts (E-divisive, as <code>taskbench history --changes</code> finds it). The runtime's page: <a href="../../{}">{}</a>.</p>"#,
        escape(contestant),
        escape(label),
        runtime_href(super::data::runtime_of(contestant)),
        escape(super::data::runtime_of(contestant)),
    );
    let mut used = Vec::new();
    let machines: Vec<_> = site.machines.clone();
    for machine in &machines {
        let runtime = super::data::runtime_of(contestant);
        let (rows, found) = histories.of(site, &machine.key, runtime)?;
        let case: Vec<&HistoryRow> = (rows.iter())
            .filter(|r| r.contestant == contestant && r.point.to_string() == label)
            .collect();
        if case.is_empty() {
            continue;
        }
        used.extend(case.iter().map(|r| r.session));
        let _ = write!(
            body,
            r#"<section id="{}"><h2>{} · {}</h2>"#,
            machine.key,
            machine.key,
            escape(&machine.machine.fingerprint())
        );
        let mut sessions: Vec<(&str, i64)> = case
            .iter()
            .map(|r| (r.started.as_str(), r.session))
            .collect();
        sessions.sort_unstable();
        if let Some(chart) = time_chart(&case[0].point, &case, found, &sessions) {
            let _ = write!(body, "<figure>{chart}</figure>");
        }
        let lines: Vec<String> = (found.iter())
            .filter(|f| f.series.contestant == contestant && f.series.along == Along::Sessions)
            .filter(|f| f.series.point.to_string() == label)
            .flat_map(|f| f.steps.iter().map(move |s| step_line(f, s)))
            .collect();
        body.push_str(&steps_list(&lines));
        body.push_str(&sessions_table(&case));
        body.push_str("</section>");
    }
    let sessions: Vec<&store::SessionRow> =
        used.iter().filter_map(|&id| site.session(id)).collect();
    Ok(page(
        &format!("{contestant} · {label}"),
        2,
        &body,
        &built_from(&sessions),
        &[],
    ))
}

/// The change points in words, or that there are none.
pub(crate) fn steps_list(lines: &[String]) -> String {
    if lines.is_empty() {
        return r#"<p class="note">No change point: every session is within the case's run-to-run spread.</p>"#.into();
    }
    let items: String = lines
        .iter()
        .map(|l| format!("<li>{}</li>", escape(l)))
        .collect();
    format!("<h3>Change points</h3><ul>{items}</ul>")
}

/// A row per session, oldest first; its version only where it changed.
fn sessions_table(case: &[&HistoryRow]) -> String {
    let mut table = String::from(
        r#"<div class="frame"><table class="sessions"><caption>Every session (a version where it changed)</caption><thead><tr><th scope="col">session</th><th scope="col">started</th><th scope="col">commit</th><th scope="col">version</th><th scope="col">time</th><th scope="col">95 % interval</th><th scope="col">peak RSS</th><th scope="col">outcome</th></tr></thead><tbody>"#,
    );
    let mut version = None;
    for row in case {
        let interval = match (row.time_low, row.time_high) {
            (Some(low), Some(high)) => format!("{} – {}", duration(low), duration(high)),
            _ => "–".into(),
        };
        let changed = version != Some(&row.version);
        version = Some(&row.version);
        let _ = write!(
            table,
            r#"<tr data-session="{id}"><th scope="row"><a href="../../index.html?session={id}">#{id}</a></th><td>{}</td><td>{}</td><td>{}</td><td data-time="{}">{}</td><td>{interval}</td><td>{}</td><td>{}</td></tr>"#,
            escape(&row.started),
            escape(row.commit.as_deref().map_or("–", |c| &c[..c.len().min(10)])),
            escape(if changed {
                row.version.as_deref().unwrap_or("–")
            } else {
                ""
            }),
            row.time.map_or(String::new(), |t| digits(t).to_string()),
            row.time.map_or("–".into(), duration),
            row.peak_rss.map_or("–".into(), bytes),
            escape(&row.outcome),
            id = row.session,
        );
    }
    table.push_str("</tbody></table></div>");
    table
}
