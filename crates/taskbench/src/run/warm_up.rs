//! The one warm-up rule of every contestant's processes, with the data a runtime adds to it
//! — a JIT's measured minimum of warm-up iterations, named by a manifest's `warm_up` — and
//! the rule in words, stated beside each row (results.json, report.html, `taskbench list`).

use super::plan::Phase;

/// A JIT's minimum of in-process warm-up iterations before a time process times its
/// iterations: the curves of docs/FAIRNESS.md (`--inner-warmup 0 --iterations 100`) showed
/// it still tiering up after as many iterations as a time process times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmUp {
    /// The name a manifest gives (`warm_up = "jvm"`).
    pub runtime: &'static str,
    /// Warm-up iterations a time process runs at least, beyond the scenario's own.
    pub iterations: u32,
    /// What the warm-up curves showed: why this minimum.
    pub measured: &'static str,
}

/// The runtimes whose curves asked for more than the common rule (docs/FAIRNESS.md has the
/// curves). JIT tiers are triggered by invocation and loop counts, so the minimum is in
/// iterations: a short iteration (spawn, chain: under 5 ms) needs many, a long one
/// (pingpong: over 50 ms) tiers up within its first few.
pub const MEASURED: &[WarmUp] = &[
    WarmUp {
        runtime: "jvm",
        iterations: JVM_ITERATIONS,
        measured: JVM_MEASURED,
    },
    WarmUp {
        runtime: "v8",
        iterations: V8_ITERATIONS,
        measured: V8_MEASURED,
    },
    WarmUp {
        runtime: "jsc",
        iterations: JSC_ITERATIONS,
        measured: JSC_MEASURED,
    },
    WarmUp {
        runtime: "beam",
        iterations: BEAM_ITERATIONS,
        measured: BEAM_MEASURED,
    },
];

// What the curves showed (docs/FAIRNESS.md#warm-up: quick sizes, two processes of 100
// iterations per case, "steady" = the first iteration whose 10-iteration median is within
// +10 % of the last third's), with a margin above the latest steady iteration seen.
const JVM_ITERATIONS: u32 = 80;
const JVM_MEASURED: &str = "HotSpot tiers up (C1, then C2): times stopped falling by iteration \
     50, 63 and 76 at the latest for java-virtual, java-completable and kotlin-coroutines \
     (iterations under 30 ms); the first iteration took 6-117x a steady one";
const V8_ITERATIONS: u32 = 60;
const V8_MEASURED: &str = "V8 tiers up (Sparkplug, Maglev, TurboFan): node and deno stopped \
     falling by iteration 50 at the latest (node parallel); the first iteration took up to 43x \
     a steady one";
const JSC_ITERATIONS: u32 = 70;
const JSC_MEASURED: &str = "JavaScriptCore tiers up (Baseline, DFG, FTL): bun stopped falling \
     by iteration 61 at the latest (doxbee); the first iteration took up to 55x a steady one";
const BEAM_ITERATIONS: u32 = 30;
const BEAM_MEASURED: &str = "BeamAsm compiles at load, without tiers, but erlang's spawn and \
     doxbee still fell until iteration 25 (the first 2-4x a steady one)";

/// The measured runtime a manifest's `warm_up` names; the error lists the known ones.
pub fn lookup(runtime: &str) -> Result<&'static WarmUp, String> {
    MEASURED
        .iter()
        .find(|w| w.runtime == runtime)
        .ok_or_else(|| {
            let known: Vec<&str> = MEASURED.iter().map(|w| w.runtime).collect();
            let known = known.join(", ");
            format!(
                "warm_up: '{runtime}' is not a measured runtime (known: {known}; leave \
                 `warm_up` out for the common rule)"
            )
        })
}

/// At most this many times a time process's measured iterations are warmed up: the
/// runtime's minimum is capped at `WARM_UP_SPAN × M`. A process's M is calibrated so that its
/// measured part lasts about as long as the rest of the process (run/stopping.rs
/// `calibrate`), so a short iteration (M in the hundreds) gets the whole minimum, while a
/// long one — which tiers up within its first few, each making enough calls (the curves of
/// docs/FAIRNESS.md: mostly 2–17 on parallel and pingpong) — warms up for at most twice its
/// measured part instead of 80 iterations of 50–130 ms. At four times, the quick preset's
/// minimum alone took 310–354 s of its 300-s budget (docs/FAIRNESS.md#warm-up).
pub const WARM_UP_SPAN: u32 = 2;

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
        scenario_warmup + iterations.max(minimum.min(WARM_UP_SPAN * iterations))
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
            format!("≥ {} warm-up iterations ({})", w.iterations, w.runtime),
            format!(
                "as many again as it times and at least {} — but no more than {WARM_UP_SPAN} \
                 times as many as it times (measured: {})",
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
            runtime: "jvm",
            iterations,
            measured: "C2 steady by iteration 30 on spawn",
        }
    }

    #[test]
    fn a_time_process_warms_up_as_many_as_it_times_and_at_least_the_minimum() {
        assert_eq!(warm_up_iterations(1, Phase::Measured, 10, 0), 11);
        assert_eq!(warm_up_iterations(1, Phase::Measured, 20, 40), 41);
        assert_eq!(warm_up_iterations(1, Phase::Measured, 60, 40), 61);
    }

    #[test]
    fn a_long_iteration_s_minimum_is_capped_at_the_span_of_its_measured_part() {
        // M = 5 (a 100 ms pingpong): at most 2 × 5 = 10 warm-up iterations, not 80.
        assert_eq!(warm_up_iterations(1, Phase::Measured, 5, 80), 1 + 10);
        // M = 30: 60 is the cap below 80; M = 40: 80 fits under 2 × 40.
        assert_eq!(warm_up_iterations(1, Phase::Measured, 30, 80), 1 + 60);
        assert_eq!(warm_up_iterations(1, Phase::Measured, 40, 80), 1 + 80);
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
        assert!(jit.starts_with("≥ 40 warm-up iterations (jvm): "), "{jit}");
        assert!(jit.contains("at least 40 — but no more than 2 times as many as it times (measured: C2 steady by iteration 30 on spawn)"));
        assert!(jit.contains("one measured iteration (the seeds' shape)"));
        assert_eq!(short(&jit), "≥ 40 warm-up iterations (jvm)");
        assert_eq!(short("no clause"), "no clause");
        assert_eq!(
            distinct([jit.as_str(), &common, &jit]),
            [jit.clone(), common]
        );
    }

    #[test]
    fn every_measured_runtime_asks_for_some_iterations_and_says_why() {
        for w in MEASURED {
            assert!(w.iterations > 1 && !w.measured.is_empty(), "{w:?}");
            assert_eq!(lookup(w.runtime), Ok(w));
        }
        let err = lookup("v9").unwrap_err();
        assert!(
            err.starts_with("warm_up: 'v9' is not a measured runtime (known: jvm, v8, jsc, beam;"),
            "{err}"
        );
    }
}
