//! How long a contestant's process takes to start and exit, by its language: a property of
//! the runtime, not of a plan. The presets' estimates and the lineup's subjects read it,
//! with the warm-up iterations the runtime adds to a time process.

use super::Manifest;
use std::time::Duration;

/// What a process of a subject costs beyond its measured iterations, for estimates: its
/// start-up and exit, and the warm-up iterations of its time processes by scenario
/// (contestant/warm_up.rs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessCost {
    pub startup: Duration,
    pub warm_up: super::WarmUpTable,
}

impl ProcessCost {
    /// A contestant's, from its manifest and its folder's warm-up table (its runtime's
    /// minimum where that cannot be read: an estimate need not fail on it).
    pub fn of(manifest: &Manifest, dir: &std::path::Path) -> ProcessCost {
        ProcessCost {
            startup: startup(&manifest.language),
            warm_up: manifest.warm_up_table(dir).unwrap_or_default(),
        }
    }

    /// A `--command`'s: an unknown start-up, the common warm-up rule.
    pub fn command() -> ProcessCost {
        ProcessCost {
            startup: startup(""),
            warm_up: super::WarmUpTable::common(),
        }
    }
}

/// Start-up and exit of one process of a contestant in `language`, as seen here: a rough
/// figure for this project's 2-core machine, checked against real runs (docs/MEASUREMENT.md).
pub fn startup(language: &str) -> Duration {
    let ms = match language {
        "Rust" | "C++" => 2,
        "Go" | "Haskell" | "Crystal" | "Nim" => 5,
        "Python" => 40,
        "JavaScript" | "TypeScript" => 45,
        "Java" | "Kotlin" => 120,
        // Scala: an IOApp or a ZIOAppDefault loads its library's classes first (1.5–2 s
        // under load here, twice to three times kotlin-coroutines' start in the same minute).
        "Scala" => 600,
        "Elixir" | "Erlang" => 450,
        _ => 100,
    };
    Duration::from_millis(ms)
}
