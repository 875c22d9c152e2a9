//! The runtimes: their list (`runtimes.html`, by family) and a runtime's page
//! (`runtime/NAME.html`): what it is (language, family, build, toolchain
//! age, its FAIRNESS.md entry), then per machine every scenario across sizes (each point's
//! newest figures, the growth curves and fitted per-task cost), its releases side by side
//! (the newest release sweep), its change points, and the bisects of its releases.

use super::bisect::{answer_lines, bisect_href, runtime_of_range};
use super::case::steps_list;
use super::data::{Described, Site, point_order};
use super::frame::{built_from, case_href, page, runtime_href};
use super::history::Histories;
use crate::history::change_points::Along;
use crate::history::words::step_line;
use analysis::{CaseSummary, PointSummary};
use contestant::releases::release_sweeps;
use html::table::escape;
use plot::Palette;
use std::collections::BTreeMap;
use std::fmt::Write;
use units::{bytes, duration};

/// The page of `runtime`.
pub(crate) fn runtime_page(
    site: &mut Site,
    histories: &mut Histories,
    runtime: &str,
) -> anyhow::Result<String> {
    let described = site.described(runtime);
    let terms = super::fairness::row(&site.fairness, runtime);
    let mut body = about(&described, terms.as_deref());
    let mut used: Vec<i64> = Vec::new();
    for machine in site.machines.clone() {
        let newest = newest_rows(site, &machine.key, runtime, &mut used)?;
        if newest.is_empty() {
            continue;
        }
        let _ = write!(
            body,
            r#"<section id="{key}"><h2>{key} · {}</h2>"#,
            escape(&machine.machine.fingerprint()),
            key = machine.key
        );
        body.push_str(&scenarios_table(&newest));
        body.push_str(&growth(runtime, &described, &newest));
        body.push_str(&releases(site, &machine.key, runtime, &mut used)?);
        let (_, found) = histories.of(site, &machine.key, runtime)?;
        let lines: Vec<String> = (found.iter())
            .filter(|f| match f.series.along {
                Along::Sessions => super::data::runtime_of(&f.series.contestant) == runtime,
                Along::Releases => f.series.contestant == runtime,
            })
            .flat_map(|f| f.steps.iter().map(move |s| step_line(f, s)))
            .collect();
        body.push_str(&steps_list(&lines));
        body.push_str("</section>");
    }
    body.push_str(&bisects(site, runtime));
    let sessions: Vec<&store::SessionRow> =
        used.iter().filter_map(|&id| site.session(id)).collect();
    Ok(page(runtime, 1, &body, &built_from(&sessions), &[]))
}

/// What the runtime is, as the newest session that ran it described it, and its row of
/// docs/FAIRNESS.md.
fn about(described: &Described, terms: Option<&[(String, String)]>) -> String {
    let mut facts = vec![
        ("language", described.language.clone()),
        ("family", described.family.clone()),
    ];
    if let Some(info) = &described.info {
        facts.push(("runtime", info.runtime.clone()));
        facts.push(("version", info.version.clone()));
        if let Some(build) = &info.build_flags {
            facts.push(("build", build.clone()));
        }
        for t in &info.toolchains {
            facts.push((
                "toolchain",
                format!(
                    "{} {} ({}); newest stable {} as checked {} ({})",
                    t.name, t.runs, t.via, t.newest, t.checked, t.source
                ),
            ));
        }
        if let Some(warm_up) = &info.warm_up {
            facts.push(("warm-up", warm_up.clone()));
        }
    }
    let mut out = String::from(r#"<h2>About</h2><dl class="facts">"#);
    for (term, text) in facts {
        let _ = write!(out, "<dt>{term}</dt><dd>{}</dd>", escape(&text));
    }
    out.push_str("</dl>");
    out.push_str("<h3>Its terms (docs/FAIRNESS.md)</h3>");
    match terms {
        Some(row) => {
            out.push_str(r#"<dl class="facts fairness">"#);
            for (header, cell) in row {
                let _ = write!(out, "<dt>{}</dt><dd>{cell}</dd>", escape(header));
            }
            out.push_str("</dl>");
        }
        None => out.push_str(r#"<p class="note">docs/FAIRNESS.md has no row of it in the project this site was built in.</p>"#),
    }
    out
}

/// Each point's newest valid summary of `runtime` itself on `machine`, in the order of
/// the newest session's points; the sessions read are added to `used`.
fn newest_rows(
    site: &mut Site,
    machine: &str,
    runtime: &str,
    used: &mut Vec<i64>,
) -> anyhow::Result<Vec<CaseSummary>> {
    let mut newest: Vec<(String, i64)> = Vec::new();
    for session in site.sessions.iter().rev() {
        if site.machine_of[&session.id] != machine {
            continue;
        }
        for m in site.summaries_of(session.id) {
            let fresh = !newest.iter().any(|(p, _)| *p == m.point);
            if m.contestant == runtime && m.outcome == "valid" && fresh {
                newest.push((m.point.clone(), session.id));
            }
        }
    }
    let mut rows = Vec::new();
    for (label, session) in newest {
        let found = (site.summaries(session)?.iter())
            .find(|r| r.contestant == runtime && r.point.to_string() == label)
            .cloned();
        rows.extend(found);
        used.push(session);
    }
    rows.sort_by_cached_key(|r| point_order(&r.point));
    Ok(rows)
}

/// A row per point: its newest figures, each with its interval, and the case's page.
fn scenarios_table(rows: &[CaseSummary]) -> String {
    let mut table = String::from(
        r#"<h3>Every scenario across sizes</h3><div class="frame"><table class="scenarios"><caption>Each point's newest session on this machine</caption><thead><tr><th scope="col">point</th><th scope="col">steady time</th><th scope="col">95 % interval</th><th scope="col">cold start</th><th scope="col">CPU per iteration</th><th scope="col">peak RSS</th><th scope="col">time per task</th><th scope="col">memory per task</th></tr></thead><tbody>"#,
    );
    for row in rows {
        let label = row.point.to_string();
        let median = |s: Option<&stats::Summary>, unit: fn(f64) -> String| {
            s.map_or("–".into(), |s| unit(s.median))
        };
        let time = row.headline();
        let interval = time.and_then(|s| s.median_ci).map_or("–".into(), |c| {
            format!("{} – {}", duration(c.low), duration(c.high))
        });
        let _ = write!(
            table,
            r#"<tr><th scope="row"><a href="../{}">{}</a></th><td data-point="{}" data-figure="time" data-value="{}">{}</td><td>{interval}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            case_href(&row.contestant, &label),
            escape(&label),
            escape(&label),
            time.map_or(String::new(), |s| s.median.to_string()),
            median(time, duration),
            median(row.cold_headline(), duration),
            median(row.cpu_per_iteration.as_ref(), duration),
            median(row.peak_rss.as_ref(), bytes),
            row.ns_per_task.map_or("–".into(), duration),
            row.bytes_per_task.map_or("–".into(), bytes),
        );
    }
    table.push_str("</tbody></table></div>");
    table
}

/// The growth curves and per-task fits of every scenario swept among `rows`.
fn growth(runtime: &str, described: &Described, rows: &[CaseSummary]) -> String {
    let points: Vec<PointSummary> = (rows.iter())
        .map(|r| PointSummary {
            point: r.point.clone(),
            seed: None,
            rows: vec![r.clone()],
        })
        .collect();
    let fits = analysis::fits::fits(&points);
    if fits.is_empty() {
        return String::new();
    }
    let palette = Palette::new([(runtime.to_string(), described.language.clone())]);
    html::growth(&points, &fits, &palette, 3)
}

/// The newest session on `machine` holding two or more releases of `runtime` (a bisect's
/// steps are not sweeps): a row per point, a column per release, oldest first.
fn releases(
    site: &mut Site,
    machine: &str,
    runtime: &str,
    used: &mut Vec<i64>,
) -> anyhow::Result<String> {
    let newest = (site.sessions.iter().rev())
        .filter(|s| site.machine_of[&s.id] == machine && !site.bisect_step(s))
        .find_map(|s| {
            let names = site.summaries_of(s.id).map(|m| m.contestant.as_str());
            let sweep = release_sweeps(names)
                .into_iter()
                .find(|w| w.contestant == runtime)?;
            Some((s.id, sweep))
        });
    let Some((session, sweep)) = newest else {
        return Ok(String::new());
    };
    used.push(session);
    let rows = site.summaries(session)?.to_vec();
    let mut points: Vec<&catalogue::Point> = (rows.iter())
        .filter(|r| sweep.releases.contains(&r.contestant))
        .map(|r| &r.point)
        .collect();
    points.sort_by_cached_key(|p| point_order(p));
    points.dedup();
    let labels: Vec<String> = points.iter().map(|p| p.to_string()).collect();
    let mut table = format!(
        r#"<h3>Its releases side by side</h3><p class="note">Session <a href="../index.html?session={session}">#{session}</a>: {} releases run interleaved in one session; each cell the steady time's median, its 95 % interval on hover.</p><div class="frame"><table class="releases"><caption>{} releases</caption><thead><tr><th scope="col">point</th>"#,
        sweep.releases.len(),
        escape(runtime)
    );
    for release in &sweep.releases {
        let _ = write!(table, r#"<th scope="col">{}</th>"#, escape(release));
    }
    table.push_str("</tr></thead><tbody>");
    for label in &labels {
        let _ = write!(table, r#"<tr><th scope="row">{}</th>"#, escape(label));
        for release in &sweep.releases {
            let row =
                (rows.iter()).find(|r| r.contestant == *release && r.point.to_string() == *label);
            let cell = row
                .and_then(|r| r.headline())
                .map_or("<td>–</td>".into(), |s| {
                    let title = s.median_ci.map_or(String::new(), |c| {
                        format!("95 % interval {} – {}", duration(c.low), duration(c.high))
                    });
                    format!(
                        r#"<td title="{title}" data-release="{}" data-value="{}">{}</td>"#,
                        escape(release),
                        s.median,
                        duration(s.median)
                    )
                });
            table.push_str(&cell);
        }
        table.push_str("</tr>");
    }
    table.push_str("</tbody></table></div>");
    Ok(table)
}

/// The bisects of `runtime`'s releases, each answer in a line with its page.
fn bisects(site: &Site, runtime: &str) -> String {
    let mut items = String::new();
    for bisect in &site.bisects {
        if runtime_of_range(&bisect.record) != Some(runtime) {
            continue;
        }
        let answer = answer_lines(&bisect.record).join(" ");
        let _ = write!(
            items,
            r#"<li><a href="../{}">{} · {}</a>: {}</li>"#,
            bisect_href(bisect),
            escape(bisect.record["range"].as_str().unwrap_or("")),
            escape(&bisect.started),
            escape(&answer)
        );
    }
    if items.is_empty() {
        return String::new();
    }
    format!("<h2>Bisects</h2><ul>{items}</ul>")
}

/// runtimes.html: every runtime, by family, each with its cases.
pub(crate) fn runtimes_page(site: &Site) -> String {
    let mut by_family: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for runtime in site.runtimes() {
        let family = site.described(&runtime).family;
        by_family.entry(family).or_default().push(runtime);
    }
    let mut body = String::from(
        r#"<p class="lede">Every runtime the store holds, by language family; each page has its scenarios across sizes, its releases side by side, its change points and its bisects. A case is one runtime at one point: its page has its history.</p>"#,
    );
    for (family, runtimes) in by_family {
        body.push_str(&format!(
            r#"<h2>{}</h2><ul class="links">"#,
            escape(&family)
        ));
        for runtime in runtimes {
            let mut cases: Vec<(&str, &str)> = (site.summaries.iter())
                .filter(|m| super::data::runtime_of(&m.contestant) == runtime)
                .map(|m| (m.contestant.as_str(), m.point.as_str()))
                .collect();
            cases.sort_unstable();
            cases.dedup();
            body.push_str(&format!(
                r#"<li><a href="{}">{}</a> ({} cases)</li>"#,
                runtime_href(&runtime),
                escape(&runtime),
                cases.len()
            ));
        }
        body.push_str("</ul>");
    }
    let all: Vec<&store::SessionRow> = site.sessions.iter().collect();
    page("Runtimes", 0, &body, &built_from(&all), &[])
}
