//! The Markdown export: the platform header, the overviews (contestants × points), one
//! table per parameter point, the per-task fits after each sweep, the seeds' published
//! figures beside ours, the warnings, and the contestants with their terms (build,
//! warm-up, entry in docs/FAIRNESS.md). Every line of text is escaped
//! ([`words::markdown`]): most of it names what a contestant or a user wrote.

use super::Results;
use words::condition::run_condition_line;
use words::fits::tables;
use words::markdown::{code, text};
use words::{PlatformHeader, overview, render_markdown, seeds, side_by_side, terms};

/// The whole Markdown document.
pub(crate) fn markdown(results: &Results) -> String {
    let mut out = String::from("# taskbench results\n\n");
    for line in results
        .platform
        .header()
        .into_iter()
        .chain(results.machine_lines())
        .chain(run_condition_line(results.machine.as_ref()))
    {
        out.push_str(&format!("{}  \n", text(&line)));
    }
    if let Some(line) = results.interrupted_line() {
        out.push_str(&format!("**{}**  \n", text(&line)));
    }
    out.push_str(&format!("\n{}\n\n", code(&results.command.join(" "))));
    for table in overview::tables(results, &overview::DOCUMENT) {
        out.push_str(&render_markdown(&table));
    }
    for table in tables(&results.points, &results.fits) {
        out.push_str(&render_markdown(&table));
    }
    if let Some(table) = side_by_side(&results.points) {
        out.push_str(&render_markdown(&table));
    }
    for point in &results.points {
        for comparison in seeds::comparisons(point, &results.platform) {
            out.push_str(&render_markdown(&comparison));
        }
    }
    if !results.warnings.is_empty() {
        out.push_str("Warnings:\n\n");
        for warning in &results.warnings {
            out.push_str(&format!(
                "- {}\n",
                text(&words::warnings::Said(warning).to_string())
            ));
        }
        out.push('\n');
    }
    let ran: Vec<_> = (results.contestants.iter())
        .filter(|c| c.unavailable.is_none())
        .collect();
    if !ran.is_empty() {
        out.push_str(&render_markdown(&terms::contestants_table(&ran)));
    }
    let unavailable: Vec<String> = results
        .contestants
        .iter()
        .filter_map(|c| {
            c.unavailable
                .as_ref()
                .map(|why| format!("- {}: {}", text(&c.name), text(why)))
        })
        .collect();
    if !unavailable.is_empty() {
        out.push_str(&format!(
            "Unavailable contestants:\n\n{}\n",
            unavailable.join("\n")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_md_holds_the_cpu_overview_and_how_each_side_of_a_seed_was_measured() {
        let markdown = markdown(&results::fake::results());
        assert!(markdown.contains("### overview · CPU per iteration × best"));
        assert!(markdown.contains("delay-0ms-10k — published figures beside ours"));
        assert!(
            markdown.contains("how they were measured: gauge (nfIO), one benchmark per process")
        );
        assert!(markdown.contains("how ours were measured: time is each contestant"));
    }
}
