//! machines.html: each machine sessions ran on — its fingerprint, the kernels and
//! governors it ran with — and every session it ran, each with the condition line the run
//! printed (`machine: timer 1 ms +71 µs · … · steady`), its commit and tags, linked to
//! its tournament.

use super::data::Site;
use super::frame::{built_from, page, plural};
use html::table::escape;
use std::fmt::Write;

pub(crate) fn machines_page(site: &Site) -> String {
    let mut body = String::from(
        r#"<p class="lede">A machine is known by its fingerprint (CPU, cores, memory): sessions of one fingerprint are compared with each other, and the figures of two machines never are. Each session's condition line is what the run measured of the machine around it: how late a 1 ms and a 20 ms timer fire, how long a fixed CPU loop takes, the steal, and whether they moved during the run.</p>"#,
    );
    for machine in &site.machines {
        let sessions: Vec<&store::SessionRow> = (site.sessions.iter().rev())
            .filter(|s| site.machine_of[&s.id] == machine.key)
            .collect();
        let mut kernels: Vec<&str> = sessions.iter().map(|s| s.kernel.as_str()).collect();
        kernels.sort_unstable();
        kernels.dedup();
        let mut governors: Vec<&str> = sessions
            .iter()
            .filter_map(|s| s.governor.as_deref())
            .collect();
        governors.sort_unstable();
        governors.dedup();
        let _ = write!(
            body,
            r#"<section id="{key}"><h2>{key} · {}</h2><dl class="facts"><dt>CPU</dt><dd>{}</dd><dt>cores</dt><dd>{}</dd><dt>memory</dt><dd>{}</dd><dt>kernels</dt><dd>{}</dd><dt>governors</dt><dd>{}</dd><dt>sessions</dt><dd>{}</dd></dl>"#,
            escape(&machine.machine.fingerprint()),
            escape(&machine.machine.cpu),
            machine.machine.cores,
            units::bytes(machine.machine.memory_bytes as f64),
            escape(&kernels.join(", ")),
            escape(&if governors.is_empty() {
                "not told".to_string()
            } else {
                governors.join(", ")
            }),
            plural(sessions.len(), "session"),
            key = machine.key,
        );
        body.push_str(r#"<div class="frame"><table class="sessions"><caption>Its sessions, newest first</caption><thead><tr><th scope="col">session</th><th scope="col">started</th><th scope="col">commit</th><th scope="col">tags</th><th scope="col">taskbench</th><th scope="col">condition</th></tr></thead><tbody>"#);
        for s in &sessions {
            let condition = s.condition.as_ref().map_or_else(
                || "not probed (recorded before the condition was)".to_string(),
                words::condition::condition_text,
            );
            let commit = s.commit.as_deref().map_or("–".to_string(), |c| {
                format!(
                    "{}{}",
                    &c[..c.len().min(10)],
                    if s.dirty == Some(true) {
                        " (dirty)"
                    } else {
                        ""
                    }
                )
            });
            let _ = write!(
                body,
                r#"<tr><th scope="row"><a href="index.html?session={id}">#{id}</a></th><td class="text">{}</td><td class="text">{}</td><td class="text">{}</td><td class="text">{}</td><td class="text">{}</td></tr>"#,
                escape(&s.started),
                escape(&commit),
                escape(&s.tags.join(", ")),
                escape(&s.taskbench),
                escape(&condition),
                id = s.id,
            );
        }
        body.push_str("</tbody></table></div></section>");
    }
    let all: Vec<&store::SessionRow> = site.sessions.iter().collect();
    page("Machines", 0, &body, &built_from(&all), &[])
}
