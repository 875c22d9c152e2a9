//! seeds.html: each seed benchmark's published figures beside ours at its own workload —
//! for every point of the store that reproduces one of its experiments, the newest session
//! of each machine that ran it, in the tables report.html gives such a point (the
//! published rows with their year and machine, ours with the same columns, and each
//! published figure beside our row of the same workload).

use super::data::Site;
use super::frame::{built_from, page};
use analysis::PointSummary;
use catalogue::Point;
use html::table::escape;
use measure::Platform;
use std::fmt::Write;

pub(crate) fn seeds_page(site: &mut Site) -> anyhow::Result<String> {
    let mut body = String::from(
        r#"<p class="lede">The four public benchmarks taskbench grows from (docs/SEEDS.md), each experiment's published figures beside ours at the same workload. They are not the same experiment until the reader knows how each side was measured: each table says.</p>"#,
    );
    let mut used = Vec::new();
    let mut labels: Vec<&str> = site.summaries.iter().map(|m| m.point.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    let reproducing: Vec<Point> = (labels.iter())
        .filter_map(|l| l.parse::<Point>().ok())
        .filter(|p| !seeds::experiments_for(p, None).is_empty())
        .collect();
    if reproducing.is_empty() {
        body.push_str(r#"<p class="note">No session of the store ran a seed's workload (<code>taskbench run --preset seeds</code> runs them all).</p>"#);
    }
    for point in reproducing {
        let label = point.to_string();
        let experiments = seeds::experiments_for(&point, None);
        let seed = seeds::seed(experiments[0].seed);
        let _ = write!(
            body,
            r#"<section><h2>{} · {}</h2><p class="note">Published at {}.</p>"#,
            escape(seed.title),
            escape(&label),
            escape(seed.source)
        );
        for machine in site.machines.clone() {
            let newest = (site.sessions.iter().rev())
                .filter(|s| site.machine_of[&s.id] == machine.key)
                .find(|s| site.summaries_of(s.id).any(|m| m.point == label))
                .cloned();
            let Some(session) = newest else { continue };
            used.push(session.id);
            let rows = (site.summaries(session.id)?.iter())
                .filter(|r| r.point == point)
                .cloned()
                .collect();
            let summary = PointSummary {
                point: point.clone(),
                seed: None,
                rows,
            };
            let _ = write!(
                body,
                r#"<h3>{} · session <a href="index.html?session={id}">#{id}</a></h3>"#,
                escape(&machine.machine.fingerprint()),
                id = session.id
            );
            for table in words::seeds::comparisons(&summary, &platform(&session)) {
                body.push_str(&html::figures_table(&table));
            }
        }
        body.push_str("</section>");
    }
    let sessions: Vec<&store::SessionRow> =
        used.iter().filter_map(|&id| site.session(id)).collect();
    Ok(page("Seeds", 0, &body, &built_from(&sessions), &[]))
}

/// The platform a comparison table names, from what the store kept of the session.
fn platform(session: &store::SessionRow) -> Platform {
    Platform {
        taskbench: session.taskbench.clone(),
        started: session.started.clone(),
        cpu: session.machine.cpu.clone(),
        cores: session.machine.cores as usize,
        memory_bytes: session.machine.memory_bytes,
        kernel: session.kernel.clone(),
        rustc: String::new(),
        rust_profile: String::new(),
        load_average: 0.0,
        versions: Vec::new(),
    }
}
