//! What machine, kernel and toolchains a result was measured on, read from /proc and
//! `rustc`: a measurement like any other, stored with every result (taskbench's words/platform.rs
//! writes it as the header above the tables).

use super::machine::{Machine, load_average};
use serde::{Deserialize, Serialize};

/// How the workspace builds its Rust contestants: its `[profile.release]`, read by this
/// crate's build.rs (`release (codegen-units = 1, lto = thin)`); the platform header shows
/// it, and the contestants' manifests build with it.
pub const RUST_PROFILE: &str = env!("TASKBENCH_RUST_PROFILE");

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
            rust_profile: RUST_PROFILE.into(),
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
