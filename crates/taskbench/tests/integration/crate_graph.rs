//! The pipeline's crates as Cargo builds them (issue 47): each of taskbench's crates may
//! depend only on crates before it in the pipeline, read from `cargo metadata` — the
//! manifests' own graph, not the sources' text — so that a dependency added against the
//! pipeline (the words on the store, the store on a feature) fails here, where Cargo alone
//! would take any edge that closes no circle.

use std::collections::BTreeMap;
use std::process::Command;

/// The crates in the pipeline's order (docs/ARCHITECTURE.md): leaves, then catalogue (and
/// the Rust contestants' protocol kit on it) → contestants → measure → run → analysis →
/// results → store and words/export, the harness on top. `measure` sits under the
/// contestants (their builds and probes are processes it runs), the presets and the lineup
/// over the run's types they fill in. Each crate may depend (normally, to build, or for its
/// tests) only on crates before it here.
#[rustfmt::skip]
const PIPELINE: &[&str] = &[
    "testkit", "units", "exit", "stats", "catalogue", "kit", "measure", "contestant", "seeds",
    "plot", "run", "presets", "lineup", "analysis", "results", "store", "words", "html",
    "export", "fixture", "taskbench",
];

/// Each of the workspace's own crates (its library's name) and the workspace crates it
/// depends on, of any kind.
fn graph() -> BTreeMap<String, Vec<String>> {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .args(["--manifest-path", root])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let ours = |package: &str| package == "taskbench" || package.starts_with("taskbench-");
    let name = |package: &str| package.trim_start_matches("taskbench-").to_string();
    let mut graph = BTreeMap::new();
    for package in metadata["packages"].as_array().unwrap() {
        let package_name = package["name"].as_str().unwrap();
        if !ours(package_name) {
            continue;
        }
        let deps = (package["dependencies"].as_array().unwrap().iter())
            .filter_map(|d| d["name"].as_str())
            .filter(|d| ours(d))
            .map(name)
            .collect();
        graph.insert(name(package_name), deps);
    }
    graph
}

#[test]
fn every_crate_depends_only_on_crates_before_it_in_the_pipeline() {
    let graph = graph();
    let place = |name: &str| PIPELINE.iter().position(|p| *p == name);
    let mut wrong = Vec::new();
    for (name, deps) in &graph {
        let Some(at) = place(name) else {
            wrong.push(format!(
                "{name}: a crate the pipeline does not place (PIPELINE)"
            ));
            continue;
        };
        for dep in deps {
            if place(dep).is_none_or(|d| d >= at) {
                wrong.push(format!("{name} depends on {dep}, which is not before it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(
        graph.len(),
        PIPELINE.len(),
        "every crate of the pipeline is in the workspace"
    );
    assert!(graph["words"].iter().all(|d| d != "store" && d != "html"));
    assert!(graph["taskbench"].contains(&"export".to_string()));
}
