//! The scenario table of docs/SCENARIOS.md, written from the catalogue; a test keeps the
//! document and the code in step (tests only).

use crate::{SCENARIOS, Scenario};

/// The Markdown table: scenario, parameters with defaults, checksum and ideal at defaults.
fn markdown_table() -> String {
    let mut out = String::from(
        "| scenario | parameters (default) | what happens | checksum at defaults | ideal at defaults |\n|---|---|---|---|---|\n",
    );
    for spec in SCENARIOS {
        let scenario = Scenario::new(spec.name, &[]).expect("defaults are valid");
        let params: Vec<String> = spec
            .params
            .iter()
            .map(|p| format!("`--{}` {}", p.name, p.default))
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} ms |\n",
            spec.name,
            params.join(", "),
            spec.summary,
            scenario.checksum(),
            scenario.ideal_ns() / 1_000_000
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn docs_scenarios_md_holds_the_catalogue_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/SCENARIOS.md");
        let doc = std::fs::read_to_string(path).expect("docs/SCENARIOS.md exists");
        let table = super::markdown_table();
        assert!(
            doc.contains(&table),
            "docs/SCENARIOS.md is out of date; its table should be:\n{table}"
        );
    }
}
