//! What a session runs. A preset is a named list of cases — a scenario with a list of
//! values per parameter, possibly tagged with the seed benchmark it reproduces — plus how
//! much each case is measured (its stopping rule) and its warm-ups. `--scenario a,b` is an
//! ad-hoc preset of those scenarios at their defaults. Either way, parameters given on the
//! command line replace a case's values wherever the case's scenario takes them; such a
//! case no longer reproduces its seed, so it loses the tag. Every combination of listed
//! values is one workload; a workload that two cases both produce runs once, tagged by the
//! first. A layer of taskbench's pipeline and a crate of its own, over the catalogue, the
//! contestants and the run's types: it knows nothing of the command line (cli.rs reads the
//! flags into [`PlanOptions`]) or of what a session makes of its plan.

mod builtin;
pub mod estimate;
mod file;
pub mod help;
mod params;

#[cfg(test)]
use builtin::seed;
pub use estimate::estimate;
pub use params::ParamArgs;

use anyhow::bail;
use catalogue::{Point, Scenario, ScenarioSpec};
use measure::limits::SocketLimits;
use run::{Stopping, Workload};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How much a case is measured when neither a preset nor a flag says: hyperfine's
/// defaults where they fit (at least 10 runs, 3 s), criterion's ±2 % where they do not.
pub(crate) const DEFAULT_STOPPING: Stopping = Stopping {
    min_runs: 5,
    max_runs: 100,
    precision: 0.02,
    max_time: Duration::from_secs(3),
    budget: None,
};
/// Warm-up processes per case when neither the preset nor `-w` says.
pub(crate) const DEFAULT_WARM_UP: u32 = 1;
/// Idle-footprint processes per scenario and contestant when the preset does not say.
pub(crate) const DEFAULT_IDLE_RUNS: u32 = 3;

/// A named set of cases.
#[derive(Debug, Clone)]
pub struct Preset {
    pub name: String,
    /// One line: what it runs and why.
    pub about: String,
    /// How much each case is measured (`-r`, `-m`, `-M`, `--precision`, `--max-time`
    /// override its parts).
    pub stopping: Stopping,
    /// Warm-up processes per case (`-w` overrides).
    pub warm_up: u32,
    /// Idle-footprint processes per scenario and contestant (at most 3).
    pub idle_runs: u32,
    pub cases: Vec<PresetCase>,
    /// The lineup it runs when `-c` names none: contestants and `@group`s.
    pub contestants: Vec<String>,
}

/// The lineup of a preset that names none, and of `--scenario`: each runtime family once.
pub(crate) fn headline() -> Vec<String> {
    vec![format!("@{}", contestant::groups::HEADLINE)]
}

/// What the command line asks of a plan: the options of `taskbench run` that choose
/// cases and how much each is measured, apart from clap.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlanOptions {
    pub preset: Option<String>,
    pub preset_file: Option<PathBuf>,
    /// `--scenario`: an ad-hoc preset of these at their defaults.
    pub scenarios: Vec<String>,
    pub params: ParamArgs,
    #[serde(rename = "inner_warmup")]
    pub inner_warm_up: Option<u32>,
    /// `-r`: exactly this many time processes.
    pub runs: Option<u32>,
    pub min_runs: Option<u32>,
    pub max_runs: Option<u32>,
    pub precision: Option<f64>,
    pub max_time: Option<Duration>,
    /// `--budget`: the whole run's measuring time.
    pub budget: Option<Duration>,
    #[serde(rename = "warmup")]
    pub warm_up: Option<u32>,
    /// `--idle-runs`: idle-footprint processes per scenario and contestant.
    #[serde(default)]
    pub idle_runs: Option<u32>,
    /// `--seed`: the order of the measured rounds, to repeat a run's.
    pub seed: Option<u64>,
    /// Only these of the preset's points, by label (a confirmation rerun's failing cases:
    /// `compare --confirm`); empty: every point.
    #[serde(default)]
    pub points: Vec<String>,
}

impl PlanOptions {
    /// The seed of the rounds' order: `--seed`, else one from the clock.
    pub(crate) fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(0, |d| d.as_nanos() as u64) ^ u64::from(std::process::id())
        })
    }

    /// The preset's stopping rule with the flags' parts put over it.
    pub(crate) fn stopping(&self, preset: Stopping) -> anyhow::Result<Stopping> {
        let max_time = self.max_time.unwrap_or(preset.max_time);
        if let Some(runs) = self.runs {
            // Exactly N is exactly N: the preset's budget does not cut it, a flag's does.
            return Ok(Stopping {
                budget: self.budget,
                ..Stopping::exactly(runs, max_time)
            });
        }
        let min_runs = self.min_runs.unwrap_or(preset.min_runs);
        let max_runs = self.max_runs.unwrap_or(preset.max_runs.max(min_runs));
        if min_runs > max_runs {
            bail!("--min-runs {min_runs} is more than --max-runs {max_runs}");
        }
        Ok(Stopping {
            min_runs,
            max_runs,
            precision: self.precision.unwrap_or(preset.precision),
            max_time,
            budget: self.budget.or(preset.budget),
        })
    }
}

/// A scenario with a list of values for some of its parameters (the rest take defaults).
#[derive(Debug, Clone)]
pub struct PresetCase {
    pub scenario: &'static ScenarioSpec,
    pub params: Vec<(&'static str, Vec<u64>)>,
    /// The seed benchmark this case reproduces.
    pub seed: Option<String>,
}

/// What one invocation runs: the workloads in order, the seed of each tagged point, and
/// the runs and warm-ups per case.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The preset's name; `None` for `--scenario` and `--command`.
    pub preset: Option<String>,
    pub workloads: Vec<Workload>,
    /// Every tagged point.
    pub seeds: Vec<SeedTag>,
    pub stopping: Stopping,
    pub warm_up: u32,
    /// Idle-footprint processes per scenario and contestant.
    pub idle_runs: u32,
    /// Seeds the order of the measured rounds (`--seed`; else the clock).
    pub seed: u64,
    /// The preset's own points this machine cannot hold (a socket point past its open-file
    /// limit or client ports), left out: one line each, for a warning.
    pub held_back: Vec<String>,
}

impl Plan {
    /// The plan of `--command` runs.
    pub fn commands(options: &PlanOptions) -> anyhow::Result<Plan> {
        Ok(Plan {
            preset: None,
            workloads: vec![Workload::Command],
            seeds: Vec::new(),
            stopping: options.stopping(DEFAULT_STOPPING)?,
            warm_up: options.warm_up.unwrap_or(DEFAULT_WARM_UP),
            idle_runs: 0,
            seed: options.seed(),
            held_back: Vec::new(),
        })
    }

    /// The seed a point (`sleep tasks=10000 delay-ms=0`) reproduces, if any.
    pub fn seed_of(&self, point: &Point) -> Option<&str> {
        self.seeds
            .iter()
            .find(|tag| tag.point == *point)
            .map(|tag| tag.seed.as_str())
    }
}

/// A point and the seed benchmark it reproduces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedTag {
    /// `sleep tasks=10000 delay-ms=0`.
    pub point: Point,
    /// `concurrency-benchmarks`, …
    pub seed: String,
}

/// The built-in presets, then those of `file`.
pub fn available(file: Option<&Path>) -> anyhow::Result<Vec<Preset>> {
    let mut presets = builtin::presets();
    if let Some(path) = file {
        for preset in file::read(path)? {
            if presets.iter().any(|p| p.name == preset.name) {
                bail!(
                    "{}: preset '{}' has the name of a built-in preset; choose another",
                    path.display(),
                    preset.name
                );
            }
            presets.push(preset);
        }
    }
    Ok(presets)
}

/// The plan for `taskbench run` with `args` (not `--command`).
pub fn plan(args: &PlanOptions) -> anyhow::Result<Plan> {
    let preset = chosen(args)?;
    let named = args.scenarios.is_empty().then(|| preset.name.clone());
    let (mut workloads, mut seeds) = expand(&preset.cases, &args.params, args.inner_warm_up)?;
    if !args.points.is_empty() {
        let kept = |point: &Point| args.points.contains(&point.to_string());
        workloads.retain(|w| kept(&w.point()));
        seeds.retain(|s| kept(&s.point));
        anyhow::ensure!(
            !workloads.is_empty(),
            "none of the points {} is in the plan",
            args.points.join(", ")
        );
    }
    let held_back = hold_back(&mut workloads, args, &SocketLimits::here())?;
    seeds.retain(|s| workloads.iter().any(|w| w.point() == s.point));
    Ok(Plan {
        preset: named,
        workloads,
        seeds,
        stopping: args.stopping(preset.stopping)?,
        warm_up: args.warm_up.unwrap_or(preset.warm_up),
        idle_runs: args.idle_runs.unwrap_or(preset.idle_runs),
        seed: args.seed(),
        held_back,
    })
}

/// Leaves out the points `limits` cannot hold and says why, one line each; a point the
/// user sized (`--scenario`, or the parameter given) is refused instead, in its one line.
fn hold_back(
    workloads: &mut Vec<Workload>,
    args: &PlanOptions,
    limits: &SocketLimits,
) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    workloads.retain(|w| {
        let refused = match w {
            Workload::Scenario { scenario, .. } => limits.refuse(scenario),
            Workload::Command => None,
        };
        lines.extend(refused.clone());
        refused.is_none()
    });
    let asked =
        !args.scenarios.is_empty() || args.params.0.iter().any(|(n, _)| *n == "connections");
    if let (true, Some(first)) = (asked, lines.first()) {
        bail!("{first}");
    }
    anyhow::ensure!(
        !workloads.is_empty(),
        "no point of the plan can run here: {}",
        lines.join("; ")
    );
    Ok(lines)
}

/// The lineup `run` measures with `args` when `-c` names none: the preset's.
pub fn default_lineup(args: &PlanOptions) -> anyhow::Result<Vec<String>> {
    Ok(chosen(args)?.contestants)
}

/// The preset `args` names (quick by default), or the ad-hoc one of `--scenario`.
fn chosen(args: &PlanOptions) -> anyhow::Result<Preset> {
    if !args.scenarios.is_empty() {
        return ad_hoc(&args.scenarios);
    }
    let presets = available(args.preset_file.as_deref())?;
    let name = args.preset.as_deref().unwrap_or("quick");
    let known: Vec<String> = presets.iter().map(|p| p.name.clone()).collect();
    match presets.into_iter().find(|p| p.name == name) {
        Some(preset) => Ok(preset),
        None => bail!(
            "--preset: no preset '{name}' (known: {}; `taskbench presets` lists them)",
            known.join(", ")
        ),
    }
}

/// `--scenario a,b`: each scenario once, at its defaults.
fn ad_hoc(names: &[String]) -> anyhow::Result<Preset> {
    let mut cases: Vec<PresetCase> = Vec::new();
    for name in names {
        let spec = catalogue::spec(name)?;
        if cases.iter().any(|c| c.scenario.name == spec.name) {
            bail!("scenario '{name}' is named twice");
        }
        cases.push(PresetCase {
            scenario: spec,
            params: Vec::new(),
            seed: None,
        });
    }
    Ok(Preset {
        name: "scenarios".into(),
        about: String::new(),
        stopping: DEFAULT_STOPPING,
        warm_up: DEFAULT_WARM_UP,
        idle_runs: DEFAULT_IDLE_RUNS,
        cases,
        contestants: headline(),
    })
}

/// The workloads of `cases` with `overrides` applied, and the seed of each tagged point.
pub fn expand(
    cases: &[PresetCase],
    overrides: &ParamArgs,
    inner_warm_up: Option<u32>,
) -> anyhow::Result<(Vec<Workload>, Vec<SeedTag>)> {
    for (param, _) in &overrides.0 {
        if !cases
            .iter()
            .any(|c| c.scenario.params.iter().any(|p| p.name == *param))
        {
            let owners: Vec<&str> = catalogue::SCENARIOS
                .iter()
                .filter(|s| s.params.iter().any(|p| p.name == *param))
                .map(|s| s.name)
                .collect();
            let mut selected: Vec<&str> = Vec::new();
            for case in cases {
                if !selected.contains(&case.scenario.name) {
                    selected.push(case.scenario.name);
                }
            }
            bail!(
                "--{param} does not apply to the selected scenarios ({}); it belongs to {}",
                selected.join(", "),
                owners.join(", ")
            );
        }
    }
    let mut workloads = Vec::new();
    let mut seeds = Vec::new();
    for case in cases {
        let spec = case.scenario;
        let mut overridden = false;
        let lists: Vec<(&str, Vec<u64>)> = spec
            .params
            .iter()
            .map(|p| {
                let given = overrides.0.iter().find(|(n, _)| *n == p.name);
                overridden |= given.is_some();
                let own = case.params.iter().find(|(n, _)| *n == p.name);
                let values = given
                    .or(own)
                    .map_or_else(|| vec![p.default], |(_, v)| v.clone());
                (p.name, values)
            })
            .collect();
        for combination in product(&lists) {
            let scenario = Scenario::new(spec.name, &combination)?;
            let workload = Workload::Scenario {
                scenario,
                inner_warm_up: inner_warm_up.unwrap_or(spec.inner_warm_up),
            };
            if workloads.contains(&workload) {
                continue;
            }
            workloads.push(workload);
            if let Some(seed) = case.seed.as_ref().filter(|_| !overridden) {
                seeds.push(SeedTag {
                    point: Point::from(&scenario),
                    seed: seed.clone(),
                });
            }
        }
    }
    Ok((workloads, seeds))
}

/// Every combination of one value per list, the first list varying slowest.
fn product<'a>(lists: &[(&'a str, Vec<u64>)]) -> Vec<Vec<(&'a str, u64)>> {
    lists.iter().fold(vec![Vec::new()], |acc, (name, values)| {
        acc.iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push((*name, *v));
                    next
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests;
