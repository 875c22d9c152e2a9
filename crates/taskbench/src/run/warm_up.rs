//! The one warm-up rule of every contestant's processes, with the data a runtime adds to it:
//! a JIT's measured minimum of warm-up iterations (contestant.toml `warm_up`), and the rule
//! in words, stated beside each row (results.json, report.html, `taskbench list`).

use super::plan::Phase;
use serde::Deserialize;

/// The most warm-up iterations a manifest may ask of a time process.
pub const MAX_WARM_UP_ITERATIONS: u32 = 1_000;

/// A runtime's minimum of in-process warm-up iterations before a time process times its
/// iterations (`warm_up = { iterations = 40, measured = "…" }`): for a JIT that is still
/// tiering up after as many iterations as the process times. Absent: the common rule.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarmUp {
    /// Warm-up iterations a time process runs at least, beyond the scenario's own.
    pub iterations: u32,
    /// What the warm-up curves showed (docs/FAIRNESS.md): why this minimum.
    pub measured: String,
}

impl WarmUp {
    /// Checks a manifest's values; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_WARM_UP_ITERATIONS).contains(&self.iterations) {
            return Err(format!(
                "warm_up.iterations must be 1 to {MAX_WARM_UP_ITERATIONS}, not {} (leave \
                 `warm_up` out for the common rule)",
                self.iterations
            ));
        }
        if self.measured.trim().is_empty() {
            return Err("warm_up.measured must say what the warm-up curves showed".into());
        }
        Ok(())
    }
}

/// In-process warm-up iterations of a process that times `iterations` in `phase`, for a
/// scenario whose own warm-up is `scenario_warmup` and a runtime whose minimum is `minimum`
/// (0 for none): a time process (more than one measured iteration) warms up as many again
/// as it times, at least `minimum`, so that its iterations are timed at steady state — a
/// JIT's later tiers, a grown heap, a thread pool that has settled; a memory process, and a
/// counted one, keep the seeds' shape.
pub fn warm_up_iterations(
    scenario_warmup: u32,
    phase: Phase,
    iterations: u32,
    minimum: u32,
) -> u32 {
    if iterations > 1 && phase == Phase::Measured {
        scenario_warmup + iterations.max(minimum)
    } else {
        scenario_warmup
    }
}

/// The rule a contestant's processes follow, in words: a short clause (what a row shows),
/// then the whole rule.
pub fn describe(warm_up: Option<&WarmUp>) -> String {
    let (short, time) = match warm_up {
        None => (
            "common rule".to_string(),
            "as many again as it times".to_string(),
        ),
        Some(w) => (
            format!("≥ {} warm-up iterations", w.iterations),
            format!(
                "as many again as it times and at least {} (measured: {})",
                w.iterations, w.measured
            ),
        ),
    };
    format!(
        "{short}: a time process runs the scenario's warm-up iterations and {time}, then times \
         its iterations (steady state); a memory process runs the scenario's warm-up \
         iterations, then one measured iteration (the seeds' shape); --warmup throws whole \
         processes away"
    )
}

/// A rule's short clause (`common rule`, `≥ 40 warm-up iterations`): what a row shows.
pub fn short(rule: &str) -> &str {
    rule.split_once(':').map_or(rule, |(short, _)| short)
}

/// The distinct rules of `rules`, in order of first appearance: each stated once in full
/// under a table whose rows give its short clause.
pub fn distinct<'a>(rules: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rule in rules {
        if !out.iter().any(|r| r == rule) {
            out.push(rule.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jit(iterations: u32) -> WarmUp {
        WarmUp {
            iterations,
            measured: "C2 steady by iteration 30 on spawn".into(),
        }
    }

    #[test]
    fn a_time_process_warms_up_as_many_as_it_times_and_at_least_the_minimum() {
        assert_eq!(warm_up_iterations(1, Phase::Measured, 10, 0), 11);
        assert_eq!(warm_up_iterations(1, Phase::Measured, 10, 40), 41);
        assert_eq!(warm_up_iterations(1, Phase::Measured, 60, 40), 61);
    }

    #[test]
    fn memory_counted_and_thrown_away_processes_keep_the_seeds_shape() {
        assert_eq!(warm_up_iterations(1, Phase::Measured, 1, 40), 1);
        assert_eq!(warm_up_iterations(0, Phase::Counted, 2, 40), 0);
        assert_eq!(warm_up_iterations(1, Phase::Warmup, 1, 40), 1);
        assert_eq!(warm_up_iterations(0, Phase::Idle, 1, 40), 0);
    }

    #[test]
    fn each_rule_says_which_it_is() {
        let common = describe(None);
        assert!(common.starts_with("common rule: "), "{common}");
        assert!(common.contains("as many again as it times, then times"));
        let jit = describe(Some(&jit(40)));
        assert!(jit.starts_with("≥ 40 warm-up iterations: "), "{jit}");
        assert!(jit.contains("at least 40 (measured: C2 steady by iteration 30 on spawn)"));
        assert!(jit.contains("one measured iteration (the seeds' shape)"));
        assert_eq!(short(&jit), "≥ 40 warm-up iterations");
        assert_eq!(short("no clause"), "no clause");
        assert_eq!(
            distinct([jit.as_str(), &common, &jit]),
            [jit.clone(), common]
        );
    }

    #[test]
    fn a_minimum_outside_its_range_or_unjustified_is_refused() {
        assert!(jit(40).check().is_ok());
        let zero = jit(0).check().unwrap_err();
        assert!(
            zero.contains("warm_up.iterations must be 1 to 1000, not 0"),
            "{zero}"
        );
        assert!(jit(MAX_WARM_UP_ITERATIONS + 1).check().is_err());
        let bare = WarmUp {
            measured: " ".into(),
            ..jit(40)
        };
        assert!(bare.check().unwrap_err().contains("warm_up.measured"));
    }
}
