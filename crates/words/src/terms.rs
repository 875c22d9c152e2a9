//! The terms each contestant's figures stand on, in words: the toolchain it ran on and how
//! far that is behind the newest release, how it was built, what its processes ran before
//! measuring, whether it is a reference, and its entry in docs/FAIRNESS.md — the
//! contestants table of report.html and results.md.

use super::Table;
use contestant::ContestantInfo;

use contestant::warm_up;

/// A row per contestant: language, runtime and version, its toolchains' ages, its build,
/// its warm-up, its entry in docs/FAIRNESS.md; `–` where older results do not say. Each warm-up rule in full in
/// the notes.
pub fn contestants_table(infos: &[&ContestantInfo]) -> Table {
    let blank = || "–".to_string();
    let rows = infos
        .iter()
        .map(|c| {
            let name = if c.reference {
                format!("{}\n{}", c.name, super::table::REFERENCE_MARK)
            } else {
                c.name.clone()
            };
            vec![
                name,
                c.language.clone(),
                format!("{}\n{}", c.runtime, c.version),
                toolchains(c).unwrap_or_else(blank),
                c.build_flags.clone().unwrap_or_else(blank),
                c.warm_up
                    .as_deref()
                    .map_or_else(blank, |w| warm_up::short(w).to_string()),
                c.fairness
                    .as_deref()
                    .map_or_else(blank, |f| f.replace("docs/FAIRNESS.md", "")),
            ]
        })
        .collect();
    Table {
        title: "Contestants".into(),
        headers: super::table::headers(&[
            "contestant",
            "language",
            "runtime · version",
            "toolchain · newest",
            "built",
            "warm-up",
            "docs/FAIRNESS.md",
        ]),
        rows,
        notes: warm_up::distinct(infos.iter().filter_map(|c| c.warm_up.as_deref()))
            .into_iter()
            .map(|rule| format!("warm-up — {rule}"))
            .collect(),
    }
}

/// Each toolchain a row ran on with the newest release and the gap, a line each.
fn toolchains(info: &ContestantInfo) -> Option<String> {
    let lines: Vec<String> = info.toolchains.iter().map(|t| t.summary()).collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_states_its_toolchain_build_warm_up_and_entry() {
        let rust = results::fake::rust_toolchain();
        let floor = ContestantInfo {
            name: "floor".into(),
            language: "Rust".into(),
            runtime: "floor".into(),
            version: "0.1.0".into(),
            build_flags: Some("cargo --release".into()),
            toolchains: vec![rust],
            warm_up: Some("same for every runtime: and the rest".into()),
            fairness: Some("docs/FAIRNESS.md#floor".into()),
            reference: true,
            ..Default::default()
        };
        let old = ContestantInfo {
            name: "tokio".into(),
            ..Default::default()
        };
        let table = contestants_table(&[&floor, &old]);
        assert_eq!(
            table.rows[0],
            [
                "floor\n(reference)",
                "Rust",
                "floor\n0.1.0",
                "Rust 1.95.0 (newest ≥ 1.99.0: 1.95 → 1.99 or later)",
                "cargo --release",
                "same for every runtime",
                "#floor"
            ]
        );
        assert_eq!(
            table.rows[1][3..],
            ["–", "–", "–", "–"],
            "older results say nothing"
        );
        assert_eq!(
            contestants_table(&[&floor, &old, &floor]).notes,
            ["warm-up — same for every runtime: and the rest"]
        );
        // A JIT's row states its own warm-up; each distinct rule is stated once in full.
        let jit = warm_up::WarmUpTable {
            measured: [("spawn".to_string(), 40)].into(),
            fallback: 80,
            runtime: Some("jvm"),
            when: Some("2026-12-05".into()),
        };
        let java = ContestantInfo {
            warm_up: Some(jit.describe()),
            ..floor.clone()
        };
        let table = contestants_table(&[&java, &floor, &java]);
        assert_eq!(
            table.rows[0][5],
            "warm-up spawn 40 (measured), else 80 (jvm minimum)"
        );
        assert_eq!(table.notes.len(), 2, "{:?}", table.notes);
        assert!(
            table.notes[0]
                .contains("the first of them its cold start (curves measured 2026-12-05)")
        );
    }
}
