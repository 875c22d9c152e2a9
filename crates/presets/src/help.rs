//! The defaults `taskbench run --help` states, made from the presets and constants they
//! come from, so that the help cannot drift from what a run does: the quick preset's (the
//! default run's) and `--scenario`'s ([`DEFAULT_STOPPING`], [`DEFAULT_WARM_UP`]).

use super::{DEFAULT_STOPPING, DEFAULT_WARM_UP, Preset, builtin};
use run::Stopping;
use units::{percent, rough_duration};

/// The built-in preset `run` runs when nothing says otherwise.
fn quick() -> Preset {
    builtin::presets().remove(0)
}

/// `(default: the preset's; quick: 3; --scenario: 5)`, a setting read from both.
fn defaults(setting: impl Fn(&Stopping, u32) -> String) -> String {
    let quick = quick();
    format!(
        "(default: the preset's; {}: {}; --scenario: {})",
        quick.name,
        setting(&quick.stopping, quick.warm_up),
        setting(&DEFAULT_STOPPING, DEFAULT_WARM_UP)
    )
}

/// `--preset`.
pub fn preset() -> String {
    let mut names: Vec<String> = builtin::presets().into_iter().map(|p| p.name).collect();
    names[0].push_str(" (the default)");
    format!(
        "A named set of cases: {}, or one of --preset-file's (`taskbench presets` lists them)",
        names.join(", ")
    )
}

/// `--min-runs`.
pub fn min_runs() -> String {
    let note = defaults(|s, _| s.min_runs.to_string());
    format!("At least N time processes per case {note}")
}

/// `--max-runs`.
pub fn max_runs() -> String {
    let note = defaults(|s, _| s.max_runs.to_string());
    format!("At most N time processes per case {note}")
}

/// `--precision`.
pub fn precision() -> String {
    let note = defaults(|s, _| format!("±{}", percent(s.precision)));
    format!(
        "Stop a case once the 95 % interval of its median is within ±PCT of it, `2%` or `2` {note}"
    )
}

/// `--max-time`.
pub fn max_time() -> String {
    let note = defaults(|s, _| rough_duration(s.max_time));
    format!("Time budget of each case's measured processes, e.g. 2s, 500ms {note}")
}

/// `--budget`.
pub fn budget() -> String {
    let note = defaults(|s, _| s.budget.map_or("none".into(), rough_duration));
    format!(
        "Time budget of the whole run's measuring, e.g. 5m, 30m {note}: every case gets its \
         minimum, then each next process goes to the case furthest from its precision per \
         second its process costs, never past the budget"
    )
}

/// `--warmup`.
pub fn warm_up() -> String {
    let note = defaults(|_, warm_up| warm_up.to_string());
    format!("Whole processes run and thrown away before the measured runs of each case {note}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_states_the_quick_presets_own_figures() {
        let quick = quick();
        assert_eq!(quick.name, "quick");
        let max = max_runs();
        assert!(
            max.contains(&format!("quick: {};", quick.stopping.max_runs)),
            "{max}"
        );
        assert!(
            max.contains(&format!("--scenario: {})", DEFAULT_STOPPING.max_runs)),
            "{max}"
        );
        let precision = precision();
        assert!(
            precision.contains(&format!("quick: ±{};", percent(quick.stopping.precision))),
            "{precision}"
        );
        assert!(
            budget().contains("quick: 5 min; --scenario: none"),
            "{}",
            budget()
        );
        assert!(preset().starts_with("A named set of cases: quick (the default), seeds, million,"));
    }
}
