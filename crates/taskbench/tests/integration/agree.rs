//! `taskbench agree` prints what the shared precision script prints (issue 35 item 1): two
//! default runs of 2026-12-05, back to back, kept without their run records
//! (tests/fixtures/agree), and the lines the script printed for them.

use super::util::{fixtures, taskbench};

/// What `precision.py A/results.json` and `precision.py A/results.json B/results.json`
/// printed for the two saved runs.
const PRECISION_A: &str =
    "135 cells: 38% within ±5 %, 18% within ±2 %, median ±7.6 %, worst ±112 %";
const PRECISION_B: &str =
    "135 cells: 36% within ±5 %, 15% within ±2 %, median ±7.2 %, worst ±154 %";
/// The second line of one run: those runs kept three processes a case, a 75 % interval.
const LEVEL: &str = "0 of 135 cells with a 95 % interval; 0% of all cells within ±5 % at 95 %";
const AGREEMENT: &str = "135 cells in both: run-to-run difference median 5.8 %, p90 24.8 %, 48% within 5 %; \
     B's median inside A's interval 64%; 5 of 840 separated pairs flip (0.6%)";
const COMBINED: &str = "combined-interval check: |B - A| within sqrt(hw_A^2 + hw_B^2) for 85% of cells \
     (honest 95 % intervals: about 95 %)";

fn saved(name: &str) -> String {
    fixtures()
        .join("agree")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn stdout(args: &[&str]) -> String {
    let output = taskbench(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn agree_prints_the_shared_scripts_figures() {
    let one = stdout(&["agree", &saved("a.json")]);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines[..2], [PRECISION_A, LEVEL], "{one}");
    assert!(
        one.lines()
            .any(|l| l.starts_with("A: ") && l.contains(" · machine: ")),
        "each run's machine beside it: {one}"
    );
    let two = stdout(&["agree", &saved("a.json"), &saved("b.json")]);
    let lines: Vec<&str> = two.lines().collect();
    assert_eq!(lines[..2], [AGREEMENT, COMBINED], "{two}");
    assert_eq!(lines[2], format!("A: {PRECISION_A}"));
    assert_eq!(lines[3], format!("A: {LEVEL}"));
    assert_eq!(lines[4], format!("B: {PRECISION_B}"));
    let json = stdout(&["agree", &saved("a.json"), &saved("b.json"), "--json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(value["agreement"]["cells"].as_u64() > Some(100), "{value}");
    let markdown = stdout(&["agree", &saved("a.json"), &saved("b.json"), "--markdown"]);
    assert!(
        markdown.contains("| A | ") && markdown.contains("B inside A"),
        "{markdown}"
    );
}

#[test]
fn agree_refuses_what_is_not_a_run_in_one_line() {
    let output = taskbench(&["agree", "/nonexistent/results.json"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
