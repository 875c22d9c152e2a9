//! What machine, kernel and toolchains a result was measured on, read from /proc and
//! `rustc`: a measurement like any other, stored with every result (taskbench's words/platform.rs
//! writes it as the header above the tables).

use super::machine::{Machine, load_average};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// The workspace's Cargo.toml, compiled in: the header describes the profile this
/// harness's contestants are built with, not whatever a later checkout says (and cargo
/// rebuilds the harness when the file changes).
const WORKSPACE_MANIFEST: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml"));

/// The profile every Rust contestant's manifest builds with (`--profile contestant`).
const CONTESTANT_PROFILE: &str = "contestant";

/// How the workspace builds its Rust contestants: its `[profile.contestant]` as cargo
/// merges it over the built-in profile it inherits (`release (codegen-units = 1, lto =
/// thin, opt-level = 3)`). The platform header shows it, and each Rust contestant's
/// `build_flags` names it.
pub fn rust_profile() -> &'static str {
    static PROFILE: LazyLock<String> =
        LazyLock::new(|| describe_profile(WORKSPACE_MANIFEST, CONTESTANT_PROFILE));
    &PROFILE
}

/// Profile `name` of a workspace manifest, in words: the built-in profile it comes down
/// from, then each setting by name as cargo merges them (each profile's own over those of
/// the one it inherits), strings without their quotes. It names what a contestant is built
/// as, cargo's release profile and the changes to it, rather than the repository's name
/// for that profile.
fn describe_profile(manifest: &str, name: &str) -> String {
    let profiles = toml::from_str::<toml::Table>(manifest)
        .ok()
        .and_then(|root| root.get("profile")?.as_table().cloned())
        .unwrap_or_default();
    let Some((base, settings)) = resolve_profile(&profiles, name) else {
        return format!("unknown (the workspace has no [profile.{name}] that inherits release)");
    };
    let settings: Vec<String> = settings
        .iter()
        .map(|(key, value)| match value.as_str() {
            Some(text) => format!("{key} = {text}"),
            None => format!("{key} = {value}"),
        })
        .collect();
    if settings.is_empty() {
        base
    } else {
        format!("{base} ({})", settings.join(", "))
    }
}

/// The built-in profile `name` comes down from, and its merged settings; none when a
/// profile of the chain is missing or inherits nothing.
fn resolve_profile(profiles: &toml::Table, name: &str) -> Option<(String, toml::Table)> {
    let table = profiles.get(name).and_then(toml::Value::as_table);
    let (base, mut settings) = if matches!(name, "release" | "dev") {
        (name.to_string(), toml::Table::new())
    } else {
        let parent = table?.get("inherits")?.as_str()?;
        resolve_profile(profiles, parent)?
    };
    for (key, value) in table.into_iter().flatten() {
        // Per-package and build-script overrides (tables) are left out: the workspace's
        // name the harness's crates (its own, the bundled SQLite), none of a contestant's.
        if key != "inherits" && !value.is_table() {
            settings.insert(key.clone(), value.clone());
        }
    }
    Some((base, settings))
}

/// Facts of the machine and the toolchains, stored with every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    pub taskbench: String,
    /// When the run started, RFC 3339 UTC.
    pub started: String,
    pub cpu: String,
    pub cores: usize,
    pub memory_bytes: u64,
    pub kernel: String,
    pub rustc: String,
    /// Profile every Rust contestant is built with.
    pub rust_profile: String,
    /// 1-minute load average when the run started.
    pub load_average: f64,
    /// Each contestant's runtime version, by contestant name.
    pub versions: Vec<(String, String)>,
}

impl Platform {
    /// The machine, as the store and comparisons tell machines apart.
    pub fn machine(&self) -> Machine {
        Machine {
            cpu: self.cpu.clone(),
            cores: self.cores as u32,
            memory_bytes: self.memory_bytes,
        }
    }

    /// What tells machines apart ([`Machine::fingerprint`]).
    pub fn fingerprint(&self) -> String {
        self.machine().fingerprint()
    }

    /// Reads the machine, for `taskbench` (the harness's version); `versions` is filled by
    /// the caller.
    pub fn probe(taskbench: &str) -> Platform {
        let cpuinfo = read("/proc/cpuinfo");
        let cpu = cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")
                    .and_then(|r| r.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());

        let rustc = std::process::Command::new("rustc")
            .arg("--version")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "rustc not found".into());
        Platform {
            taskbench: taskbench.to_string(),
            started: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_bytes: Platform::probe_memory_bytes(),
            kernel: read("/proc/sys/kernel/osrelease").trim().to_string(),
            rustc,
            rust_profile: rust_profile().into(),
            load_average: load_average(),
            versions: Vec::new(),
        }
    }

    /// Physical memory (MemTotal), bytes; 0 if unknown.
    pub fn probe_memory_bytes() -> u64 {
        read("/proc/meminfo")
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kib| kib * 1024)
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contestants_profile_is_release_and_what_it_changes() {
        // The workspace's own: what the header says every Rust contestant is built as.
        assert_eq!(
            rust_profile(),
            "release (codegen-units = 1, lto = thin, opt-level = 3)"
        );
        let manifest = r#"
            [profile.release]
            opt-level = 1
            [profile.release.package.taskbench]
            incremental = true
            [profile.fast]
            inherits = "release"
            lto = "thin"
            [profile.contestant]
            inherits = "fast"
            codegen-units = 1
        "#;
        assert_eq!(
            describe_profile(manifest, "contestant"),
            "release (codegen-units = 1, lto = thin, opt-level = 1)",
            "inherited settings count, per-package overrides do not"
        );
        assert_eq!(describe_profile("", "release"), "release");
        for missing in ["", "[profile.contestant]\nlto = true"] {
            assert!(
                describe_profile(missing, "contestant").starts_with("unknown"),
                "{missing}"
            );
        }
    }
}
