//! The Markdown export: the platform header and one table per parameter point.

use super::Results;
use crate::report::{render_markdown, table};

/// The whole Markdown document.
pub fn markdown(results: &Results) -> String {
    let mut out = String::from("# taskbench results\n\n");
    for line in results.platform.header() {
        out.push_str(&format!("{line}  \n"));
    }
    out.push_str(&format!("\n`{}`\n\n", results.command.join(" ")));
    for point in &results.points {
        out.push_str(&render_markdown(&table(point)));
    }
    let unavailable: Vec<String> = results
        .contestants
        .iter()
        .filter_map(|c| {
            c.unavailable
                .as_ref()
                .map(|why| format!("- {}: {why}", c.name))
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
