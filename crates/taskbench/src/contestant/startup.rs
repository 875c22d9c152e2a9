//! How long a contestant's process takes to start and exit, by its language: a property of
//! the runtime, not of a plan. The presets' estimates and the lineup's subjects read it.

use std::time::Duration;

/// Start-up and exit of one process of a contestant in `language`, as seen here: a rough
/// figure for this project's 2-core machine, checked against real runs (docs/MEASUREMENT.md).
pub fn startup(language: &str) -> Duration {
    let ms = match language {
        "Rust" | "C++" => 2,
        "Go" | "Haskell" => 5,
        "Python" => 40,
        "JavaScript" | "TypeScript" => 45,
        "Java" | "Kotlin" => 120,
        "Elixir" | "Erlang" => 450,
        _ => 100,
    };
    Duration::from_millis(ms)
}
