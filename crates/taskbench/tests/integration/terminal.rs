//! The default run's terminal output is an answer, not a wall (issue 24): at most 120
//! lines over many points, the overview with each point's best figure, the per-point
//! tables only with `--tables`, and the path of report.html last.

use super::util::fixture_run;

/// `taskbench run` of the quick preset's nine points on two fixtures, with `extra`; stdout.
fn quick_run(extra: &[&str]) -> String {
    let mut args = vec!["-c", "fixture-honest,fixture-na", "-r", "2"];
    args.extend_from_slice(extra);
    let (_out, output) = fixture_run(&args);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.trim_end()
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("report: ") && l.contains("report.html")),
        "the last line names report.html:\n{text}"
    );
    text
}

#[test]
fn the_default_run_prints_at_most_120_lines_and_tables_only_when_asked() {
    let text = quick_run(&[]);
    let lines = text.lines().count();
    assert!(lines <= 120, "{lines} lines:\n{text}");
    let header = text.lines().take_while(|l| !l.is_empty()).count();
    assert!(
        header <= 6,
        "a header of at most 6 lines, {header}:\n{text}"
    );
    assert!(text.contains("toolchains: Rust"), "{text}");
    assert!(text.contains("overview · time × best"), "{text}");
    assert!(
        text.contains("best (= 1.00)"),
        "each point's best figure:\n{text}"
    );
    // A per-point table's title is the point with ` · ` after its scenario.
    assert!(
        !text.contains("spawn · tasks=10000"),
        "no per-point table:\n{text}"
    );
    let tables = quick_run(&["--tables"]);
    assert!(tables.contains("spawn · tasks=10000"), "{tables}");
    assert!(tables.lines().count() > lines, "{tables}");
}
