//! How many iterations a contestant's time process runs before the ones it times, per
//! scenario — fixed before a case's first process, never from how many it times: measured
//! from iteration curves at the scenario's reference point, the quick size (`taskbench
//! warmup --write` writes the contestant's `warm-up.toml`), else its runtime's measured
//! minimum (a manifest's `warm_up`), else the common minimum. At another point the warm-up
//! is bounded by what it is for: never more work than the measured one did (its iterations
//! × the reference's operations), never more waiting (× the reference's ideal time), so
//! that a 1M-task iteration or a 10-second sleep is not run sixty times over.

use catalogue::Scenario;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file beside a contestant's manifest that holds its measured warm-up per scenario.
pub const FILE: &str = "warm-up.toml";

/// Warm-up iterations of a time process whose contestant and runtime have no measured
/// figure: the cold first iteration alone. The compiled and interpreted runtimes' curves
/// (tokio, go, python-asyncio, haskell-forkio; docs/FAIRNESS.md#warm-up) were within 2× of
/// steady from their first iteration and flat after it; their first iteration faults in
/// pages, fills allocator caches and grows thread pools. Never less than one: the first
/// iteration of a fresh process is the cold start, a figure of its own, and never part of
/// the steady one.
pub const COMMON: u32 = 1;

/// A JIT's minimum of warm-up iterations where its contestant's curves of a scenario were
/// not measured: the most any of its rows needed (docs/FAIRNESS.md#warm-up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RuntimeMinimum {
    /// The name a manifest gives (`warm_up = "jvm"`).
    pub(crate) runtime: &'static str,
    /// Warm-up iterations a time process runs at least.
    pub(crate) iterations: u32,
    /// What the warm-up curves showed: why this minimum.
    pub(crate) measured: &'static str,
}

/// The runtimes whose curves asked for more than the common minimum.
pub(crate) const RUNTIMES: &[RuntimeMinimum] = &[
    RuntimeMinimum {
        runtime: "jvm",
        iterations: 80,
        measured: "HotSpot tiers up (C1, then C2): times stopped falling by iteration 50, 63 \
                   and 76 at the latest for java-virtual, java-completable and \
                   kotlin-coroutines; the first iteration took 6-117x a steady one",
    },
    RuntimeMinimum {
        runtime: "v8",
        iterations: 60,
        measured: "V8 tiers up (Sparkplug, Maglev, TurboFan): node and deno stopped falling \
                   by iteration 50 at the latest; the first iteration took up to 43x a \
                   steady one",
    },
    RuntimeMinimum {
        runtime: "jsc",
        iterations: 70,
        measured: "JavaScriptCore tiers up (Baseline, DFG, FTL): bun stopped falling by \
                   iteration 61 at the latest; the first iteration took up to 55x a steady one",
    },
    RuntimeMinimum {
        runtime: "beam",
        iterations: 30,
        measured: "BeamAsm compiles at load, without tiers, but erlang's spawn and doxbee \
                   still fell until iteration 25",
    },
];

/// The measured runtime a manifest's `warm_up` names; the error lists the known ones.
pub(crate) fn lookup(runtime: &str) -> Result<&'static RuntimeMinimum, String> {
    RUNTIMES
        .iter()
        .find(|w| w.runtime == runtime)
        .ok_or_else(|| {
            let known: Vec<&str> = RUNTIMES.iter().map(|w| w.runtime).collect();
            format!(
                "warm_up: '{runtime}' is not a measured runtime (known: {}; leave `warm_up` out \
             for the common minimum)",
                known.join(", ")
            )
        })
}

/// A contestant's warm-up iterations by scenario: what its time processes run before the
/// iterations they time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WarmUpTable {
    /// Measured from its own curves, by scenario name.
    pub measured: BTreeMap<String, u32>,
    /// Where no scenario figure was measured: its runtime's minimum, or [`COMMON`].
    pub fallback: u32,
    /// The runtime whose minimum is the fallback (`jvm`), if any.
    pub runtime: Option<&'static str>,
    /// When and where the curves were measured (the file's `measured` line).
    pub when: Option<String>,
}

/// A time process's warm-up at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarmUp {
    /// Iterations run before the timed ones, the cold start first.
    pub iterations: u32,
    /// The warm-up at the scenario's reference point, the quick size.
    pub(crate) at_reference: u32,
    /// What bounded it below that, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bound: Option<WarmUpBound>,
}

/// What bounds a warm-up at a point below the reference point's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WarmUpBound {
    /// Each iteration does more work (operations) than at the reference point.
    Work,
    /// Each iteration waits longer (ideal time) than at the reference point.
    Waiting,
}

impl WarmUp {
    /// `18`, or `1 (18 at the quick size, bounded by its work)`.
    #[cfg(test)]
    pub(crate) fn describe(&self) -> String {
        match self.bound {
            None => self.iterations.to_string(),
            Some(bound) => format!(
                "{} ({} at the quick size, bounded by its {})",
                self.iterations,
                self.at_reference,
                match bound {
                    WarmUpBound::Work => "work",
                    WarmUpBound::Waiting => "waiting",
                }
            ),
        }
    }
}

/// What a `warm-up.toml` holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WarmUpFile {
    measured: String,
    scenarios: BTreeMap<String, u32>,
}

impl WarmUpTable {
    /// The common minimum alone (a plain `--command`, a test's subject).
    pub fn common() -> WarmUpTable {
        WarmUpTable {
            fallback: COMMON,
            ..WarmUpTable::default()
        }
    }

    /// A contestant's table: its folder's [`FILE`] over its runtime's minimum (`runtime`,
    /// the manifest's `warm_up`). A file that does not parse, or names a scenario the
    /// catalogue lacks, is an error naming the file.
    pub fn load(dir: &Path, runtime: Option<&str>) -> anyhow::Result<WarmUpTable> {
        let minimum = runtime
            .map(lookup)
            .transpose()
            .map_err(anyhow::Error::msg)?;
        let mut table = WarmUpTable {
            fallback: minimum.map_or(COMMON, |m| m.iterations.max(1)),
            runtime: minimum.map(|m| m.runtime),
            ..WarmUpTable::default()
        };
        let path = dir.join(FILE);
        if !path.exists() {
            return Ok(table);
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let file: WarmUpFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message()))?;
        for scenario in file.scenarios.keys() {
            catalogue::spec(scenario).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        table.measured = file.scenarios;
        table.when = Some(file.measured);
        Ok(table)
    }

    /// Warm-up iterations of a time process of `scenario` at its reference point (the quick
    /// size): at least one (the cold start).
    pub fn iterations(&self, scenario: &str) -> u32 {
        self.measured
            .get(scenario)
            .copied()
            .unwrap_or(self.fallback)
            .max(1)
    }

    /// The warm-up of a time process of `scenario` at its own parameters: the reference
    /// point's iterations, bounded by the work and the waiting they did there.
    pub fn at(&self, scenario: &Scenario) -> WarmUp {
        let measured = self.iterations(scenario.name());
        let reference = scenario.at_reference();
        // ceil(measured × of the reference ÷ of this point), or `measured` where this point
        // has none of it.
        let scaled = |there: u64, here: u64| -> u32 {
            if here == 0 || there == 0 {
                return measured;
            }
            let wanted = (u128::from(measured) * u128::from(there)).div_ceil(u128::from(here));
            u32::try_from(wanted).unwrap_or(u32::MAX)
        };
        let by_work = scaled(reference.operations(), scenario.operations());
        let by_waiting = scaled(reference.ideal_ns(), scenario.ideal_ns());
        let iterations = measured.min(by_work).min(by_waiting).max(1);
        let bound = if iterations == measured {
            None
        } else if by_work <= by_waiting {
            Some(WarmUpBound::Work)
        } else {
            Some(WarmUpBound::Waiting)
        };
        WarmUp {
            iterations,
            at_reference: measured,
            bound,
        }
    }

    /// Where `scenario`'s figure comes from, in words.
    pub fn source(&self, scenario: &str) -> String {
        match (self.measured.contains_key(scenario), self.runtime) {
            (true, _) => "measured".to_string(),
            (false, Some(runtime)) => format!("{runtime} minimum"),
            (false, None) => "common minimum".to_string(),
        }
    }

    /// The rule in words, stated beside the contestant's figures (results.json, report.html,
    /// `taskbench list`): a short clause, then the whole rule.
    pub fn describe(&self) -> String {
        let fallback = match self.runtime {
            Some(runtime) => format!("{} ({runtime} minimum)", self.fallback),
            None => format!("{} (common minimum)", self.fallback),
        };
        let measured: Vec<String> = self
            .measured
            .iter()
            .map(|(scenario, n)| format!("{scenario} {n}"))
            .collect();
        let short = if measured.is_empty() {
            format!("{fallback} warm-up iterations")
        } else {
            format!(
                "warm-up {} (measured), else {fallback}",
                measured.join(", ")
            )
        };
        let when = self
            .when
            .as_deref()
            .map(|w| format!(" (curves measured {w})"))
            .unwrap_or_default();
        format!(
            "{short}: a time process runs that many iterations of the scenario at its quick \
             size, the first of them its cold start{when}, then times its iterations (steady \
             state), however many it times; at other sizes no more work (iterations × \
             operations) and no more waiting (iterations × ideal time) than that, at least 1; \
             a memory process runs the scenario's own warm-up, then one measured iteration \
             (the seeds' shape)"
        )
    }
}

/// A rule's short clause (what a row shows).
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

/// The text of `dir`'s [`FILE`] with `new` put in — each a scenario, its warm-up and the
/// evidence it came from: they replace the file's figures of those scenarios, the others
/// stay.
pub fn merged(
    dir: &Path,
    measured: &str,
    new: Vec<(String, u32, String)>,
) -> anyhow::Result<String> {
    let old = WarmUpTable::load(dir, None)?;
    let text = std::fs::read_to_string(dir.join(FILE)).unwrap_or_default();
    let mut scenarios: Vec<(String, u32, String)> = old
        .measured
        .iter()
        .filter(|(name, _)| !new.iter().any(|(scenario, ..)| scenario == *name))
        .map(|(name, n)| (name.clone(), *n, evidence_of(&text, name)))
        .collect();
    scenarios.extend(new);
    scenarios.sort_by_key(|(name, _, _)| catalogue_order(name));
    Ok(render(measured, &scenarios))
}

/// The comment above `scenario`'s line in a file's text: the evidence it was written with.
fn evidence_of(text: &str, scenario: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .position(|l| l.split('=').next().is_some_and(|k| k.trim() == scenario))
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| lines[i].strip_prefix("# "))
        .unwrap_or("measured earlier")
        .to_string()
}

/// A scenario's place in the catalogue, for the file's order.
fn catalogue_order(name: &str) -> usize {
    catalogue::SCENARIOS
        .iter()
        .position(|s| s.name == name)
        .unwrap_or(usize::MAX)
}

/// The text of a contestant's [`FILE`]: `measured` says when and where, each scenario's
/// figure with the evidence it came from as a comment above it.
pub(crate) fn render(measured: &str, scenarios: &[(String, u32, String)]) -> String {
    let mut text = format!(
        "# Warm-up iterations of this contestant's time processes, by scenario: measured from\n\
         # iteration curves by `taskbench warmup --write` (docs/MEASUREMENT.md#warm-up).\n\
         measured = {measured:?}\n\n[scenarios]\n"
    );
    for (scenario, iterations, evidence) in scenarios {
        text.push_str(&format!("# {evidence}\n{scenario} = {iterations}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_figure_wins_then_the_runtime_then_the_common_minimum() {
        let dir = tempfile::tempdir().unwrap();
        let text = render(
            "2026-12-05",
            &[
                ("spawn".into(), 40, "settled at 31, 35".into()),
                ("sleep".into(), 0, "flat".into()),
            ],
        );
        std::fs::write(dir.path().join(FILE), text).unwrap();
        let table = WarmUpTable::load(dir.path(), Some("v8")).unwrap();
        assert_eq!(table.iterations("spawn"), 40);
        assert_eq!(table.iterations("sleep"), 1, "never below the cold start");
        assert_eq!(table.iterations("chain"), 60, "the V8 minimum");
        assert_eq!(table.source("chain"), "v8 minimum");
        assert_eq!(table.source("spawn"), "measured");
        let common = WarmUpTable::load(&dir.path().join("none"), None).unwrap();
        assert_eq!(common.iterations("spawn"), COMMON);
        assert_eq!(common, WarmUpTable::common());
        assert!(
            table
                .describe()
                .starts_with("warm-up sleep 0, spawn 40 (measured), else 60 (v8 minimum): ")
        );
        assert_eq!(
            short(&common.describe()),
            "1 (common minimum) warm-up iterations"
        );
    }

    #[test]
    fn a_warm_up_is_bounded_by_the_work_and_the_waiting_it_did_at_the_quick_size() {
        let jvm = WarmUpTable::load(Path::new("/nonexistent"), Some("jvm")).unwrap();
        let at = |name: &str, values: &[(&str, u64)]| jvm.at(&Scenario::new(name, values).unwrap());
        // The quick size itself: the measured figure, whole.
        let quick = at("spawn", &[("tasks", 10_000)]);
        assert_eq!((quick.iterations, quick.bound), (80, None));
        assert_eq!(quick.describe(), "80");
        // 100× the work an iteration: 80 × 10,000 ÷ 1,000,000 = 0.8, so the cold start alone.
        let million = at("skynet", &[("size", 1_000_000)]);
        assert_eq!(
            (million.iterations, million.bound),
            (1, Some(WarmUpBound::Work))
        );
        // Ten times the tasks: a tenth of the iterations, rounded up.
        assert_eq!(at("spawn", &[("tasks", 100_000)]).iterations, 8);
        // A 10 s sleep waits 500× the quick 20 ms: 80 × 20 ms ÷ 10 s → 1.
        let long = at("sleep", &[("tasks", 10_000), ("delay-ms", 10_000)]);
        assert_eq!(
            (long.iterations, long.bound),
            (1, Some(WarmUpBound::Waiting))
        );
        assert_eq!(
            long.describe(),
            "1 (80 at the quick size, bounded by its waiting)"
        );
        // Less work or waiting than at the quick size never asks for more than measured.
        assert_eq!(at("spawn", &[("tasks", 10)]).iterations, 80);
        assert_eq!(at("sleep", &[("delay-ms", 1)]).iterations, 80);
        // A point with no waiting or no work keeps the measured figure on that side.
        assert_eq!(at("sleep", &[("tasks", 0)]).iterations, 80);
    }

    #[test]
    fn a_bad_file_or_runtime_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FILE),
            "measured = \"x\"\n[scenarios]\nspwan = 3\n",
        )
        .unwrap();
        let err = WarmUpTable::load(dir.path(), None).unwrap_err().to_string();
        assert!(
            err.contains("warm-up.toml") && err.contains("spwan"),
            "{err}"
        );
        let err = lookup("v9").unwrap_err();
        assert!(
            err.starts_with("warm_up: 'v9' is not a measured runtime (known: jvm, v8, jsc, beam;")
        );
        assert_eq!(
            distinct(["a: x", "b: y", "a: x"]),
            ["a: x".to_string(), "b: y".to_string()]
        );
    }
}
