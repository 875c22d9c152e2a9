//! What a contestant's process costs beyond its iterations: its start-up and exit, by its
//! language (contestant/language.rs), a property of the runtime, not of a plan, and the
//! warm-up iterations the runtime adds to a time process. The presets' estimates and the
//! lineup's subjects read it.

use super::Manifest;
use super::language::startup;
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
