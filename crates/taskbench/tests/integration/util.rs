//! Helpers: run the taskbench binary, read what it wrote.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The fixture contestants (tests/fixtures/<behaviour>).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Runs `taskbench ARGS`.
pub fn taskbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taskbench"))
        .args(args)
        .output()
        .expect("taskbench runs")
}

/// Runs `taskbench run` on the fixtures into a fresh folder; the parsed results.json.
pub fn run_fixtures(args: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let fixtures = fixtures();
    let mut all = vec![
        "--contestants",
        fixtures.to_str().unwrap(),
        "run",
        "--quiet",
        "--out",
        out.path().to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let output = taskbench(&all);
    assert!(
        output.status.success(),
        "taskbench failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = read_json(&out.path().join("results.json"));
    (out, results)
}

pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The measured runs of one contestant in a results document.
pub fn measured<'a>(
    results: &'a serde_json::Value,
    contestant: &str,
) -> Vec<&'a serde_json::Value> {
    results["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["contestant"] == contestant && r["phase"] == "measured")
        .collect()
}

/// stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
