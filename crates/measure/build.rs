//! Records how Rust contestants are built, for the platform header: the workspace's
//! `[profile.release]`, read from its Cargo.toml at build time so the header cannot drift
//! from the profile it describes.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = workspace_manifest();
    println!("cargo:rerun-if-changed={}", manifest.display());
    let text = std::fs::read_to_string(&manifest).expect("the workspace Cargo.toml is readable");
    let root: toml::Table = text.parse().expect("the workspace Cargo.toml is TOML");
    let release = root
        .get("profile")
        .and_then(|p| p.get("release"))
        .and_then(|r| r.as_table());
    println!(
        "cargo:rustc-env=TASKBENCH_RUST_PROFILE={}",
        describe(release)
    );
}

/// The nearest Cargo.toml above this crate that declares the workspace.
fn workspace_manifest() -> PathBuf {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    Path::new(&crate_dir)
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("Cargo.toml"))
        .find(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("[workspace]")))
        .expect("taskbench is built inside its workspace")
}

/// `release (codegen-units = 1, lto = thin)`: each setting of the table, by name, strings
/// without their quotes; `release` alone when the workspace sets nothing.
fn describe(release: Option<&toml::Table>) -> String {
    let settings: Vec<String> = release
        .into_iter()
        .flatten()
        // Per-package overrides (the harness's own) are no setting of the contestants'.
        .filter(|(_, value)| !value.is_table())
        .map(|(key, value)| match value.as_str() {
            Some(text) => format!("{key} = {text}"),
            None => format!("{key} = {value}"),
        })
        .collect();
    if settings.is_empty() {
        "release".into()
    } else {
        format!("release ({})", settings.join(", "))
    }
}
