//! Decides what the runs say: per contestant and parameter point, the statistics of the
//! valid runs, overhead, per-task cost above the idle footprint, outliers, the ratio to
//! the best and whether it is significant; across a sweep, the per-task fits; over the
//! whole run, the warnings. Renderers only format what is decided here.

pub mod across_sessions;
mod apart;
pub mod budget;
mod cases;
pub mod condition;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod fits;
pub mod instructions;
mod outliers;
pub mod overview;
mod rank;
pub mod run_to_run;
pub(crate) mod steadiness;
pub mod timer_share;
mod warnings;
mod written;

pub use apart::Apart;
pub use cases::{Case, group};
pub(crate) use outliers::Outlier;
pub use warnings::{
    FIRST_RUN_FACTOR, FirstRun, Imprecision, Warning, imprecise_widest_first,
    slow_starts_worst_first, warnings,
};

use catalogue::{Point, Scenario};
use run::{RunRecord, RunStatus, StopReason, stopping};
use serde::{Deserialize, Serialize};
use stats::{Interval, Summary, median};
use std::collections::{BTreeMap, HashMap};

/// What the runs of one contestant at one point came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// At least one valid measured run.
    Valid,
    /// The contestant does not implement the scenario.
    NotImplemented { reason: String },
    /// No valid run; `status` is the first failure's label.
    Failed { status: String },
}

/// `tokio · m2`: a contestant's name where machines stand side by side
/// (`taskbench merge --mixed-machines`).
pub fn on_machine(name: &str, machine: &str) -> String {
    format!("{name} · {machine}")
}

/// `tokio` of `tokio · m2` ([`on_machine`]); the name as it is when it has no such end.
pub fn off_machine<'a>(name: &'a str, machine: &str) -> &'a str {
    name.strip_suffix(machine)
        .and_then(|rest| rest.strip_suffix(" · "))
        .unwrap_or(name)
}

/// One row of a results table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub contestant: String,
    /// The machine it ran on, where results of several machines are merged side by side
    /// (`taskbench merge --mixed-machines`; the contestant's name then ends ` · m2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The parameter point (written as `scenario`, its label `point` and `params`).
    #[serde(flatten, with = "written::row")]
    pub point: Point,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Valid measured processes / measured processes attempted (both kinds).
    pub runs_ok: usize,
    pub runs: usize,
    /// Valid processes that measured time, and the iterations each ran.
    #[serde(default)]
    pub time_runs: usize,
    #[serde(default)]
    pub iterations: u32,
    /// Valid processes of one measured iteration, which give peak RSS, CPU and wall.
    #[serde(default)]
    pub(crate) memory_runs: usize,
    /// Half-width of the 95 % interval of the row's quantity (overhead where the scenario
    /// has an ideal time, else elapsed), relative to it: 0.02 = ±2 %.
    #[serde(default)]
    pub precision: Option<f64>,
    /// Why measuring the case stopped.
    #[serde(default)]
    pub stop: Option<StopReason>,
    /// Where the time processes' noise lies and what a process and an iteration cost
    /// (docs/STATISTICS.md); absent with fewer than two time processes of two iterations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) variance: Option<run::variance::Variance>,
    /// Each failure with its detail (`crashed (SIGSEGV): <stderr line>`), once per kind.
    pub problems: Vec<String>,
    /// Value of the scenario's size parameter (tasks, requests …).
    pub(crate) size: Option<u64>,
    pub ideal_ns: u64,
    /// Contestant-reported elapsed of every iteration of the time processes, ns; the
    /// interval the wider of the two-level bootstrap and the order-statistic interval of
    /// the process medians (its coverage said below six processes), and the processes'
    /// modes where they split into two groups (docs/STATISTICS.md).
    pub elapsed: Option<Summary>,
    /// Process wall clock of the memory processes, ns.
    pub(crate) wall: Option<Summary>,
    /// user + sys of the memory processes, ns: the whole process, start-up included.
    pub cpu: Option<Summary>,
    /// The process CPU time (user + sys, every thread) of each measured iteration of the
    /// time processes, as the contestant reported it, ns; the interval from the same
    /// two-level bootstrap as `elapsed`. Absent where the contestant's lines do not carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_per_iteration: Option<Summary>,
    /// Peak RSS of the memory processes, bytes.
    pub peak_rss: Option<Summary>,
    /// median elapsed − ideal, ns.
    pub overhead_ns: Option<f64>,
    /// elapsed − ideal of each iteration of the time processes, ns: the overhead's spread,
    /// interval and modes, as `elapsed`'s.
    #[serde(default)]
    pub overhead: Option<Summary>,
    /// Median peak RSS of the idle-size case, bytes.
    pub idle_rss_bytes: Option<f64>,
    /// overhead / size.
    pub ns_per_task: Option<f64>,
    /// (peak RSS − idle RSS) / size.
    pub bytes_per_task: Option<f64>,
    pub peak_threads: u32,
    /// A reference (`floor`), not a runtime: listed first, outside the ranking, never the
    /// best; its ratio is to the best runtime.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    /// Its tasks ran inside their caller at this point, never through its scheduler (its
    /// manifest's `inline`): ranked apart, never the best; its ratio is to the best runtime.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) inline: bool,
    /// median elapsed / the best runtime's median elapsed at this point.
    pub ratio_to_best: Option<f64>,
    /// 95 % bootstrap interval of `ratio_to_best` (absent for the best row itself).
    #[serde(default)]
    pub ratio_ci: Option<Interval>,
    /// Whether `ratio_ci` excludes 1: `false` means "not significantly slower". Absent for
    /// the best row and rows without a valid run.
    #[serde(default)]
    pub differs_from_best: Option<bool>,
    /// Time processes whose median elapsed has a modified z-score beyond ±3.5 among the
    /// case's processes; they stay in the statistics.
    #[serde(default)]
    pub outliers: Vec<Outlier>,
    /// Medians of the contestant's extra figures over the time processes.
    pub extra: BTreeMap<String, f64>,
    /// The measured run a chart shows for this row (its RSS timeline): the memory process
    /// whose peak RSS is nearest the median.
    #[serde(default)]
    pub(crate) representative_run: Option<u32>,
    /// Instruction counts, when the run counted them (`--instructions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<instructions::Instructions>,
    /// Warm-up iterations its time processes ran before the iterations they timed
    /// (contestant/warm_up.rs); absent in older results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up: Option<u32>,
    /// The cold start: each time process's first iteration after start-up, ns — what a
    /// serverless or command-line user pays — with its interval over the processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cold: Option<Summary>,
    /// The cold start less the ideal time, where the scenario has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cold_overhead: Option<Summary>,
    /// How the time processes' series behaved (stats/steady.rs): how many were flat,
    /// warmed up, slowed down, or reached no steady state by their warm-up's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) steadiness: Option<steadiness::Steadiness>,
    /// The headline's interval with the run-to-run variation of the store's earlier
    /// sessions of this case on this machine taken in; absent where there are fewer than
    /// three (the row's interval is then within this run alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_sessions: Option<across_sessions::AcrossSessions>,
    /// What reaching the run's target would still take, where the row is short of it
    /// (analysis/budget.rs); absent at the target and where no spread is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<budget::Price>,
}

impl CaseSummary {
    /// The contestant's own name: without ` · m2` where machines are side by side.
    pub fn name(&self) -> &str {
        match &self.machine {
            Some(machine) => off_machine(&self.contestant, machine),
            None => &self.contestant,
        }
    }

    /// What tables show instead of figures: `n/a`, or the failure's status; `None` for a
    /// valid row.
    pub fn status_label(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Valid => None,
            Outcome::NotImplemented { .. } => Some("n/a".to_string()),
            Outcome::Failed { status } => Some(status.clone()),
        }
    }

    /// The row's headline time: the overhead where the scenario has an ideal time (what
    /// differs between contestants), else the elapsed.
    pub fn headline(&self) -> Option<&stats::Summary> {
        match self.ideal_ns {
            0 => self.elapsed.as_ref(),
            _ => self.overhead.as_ref().or(self.elapsed.as_ref()),
        }
    }

    /// The row's cold-start figure, as [`CaseSummary::headline`] is its steady one.
    pub fn cold_headline(&self) -> Option<&stats::Summary> {
        match self.ideal_ns {
            0 => self.cold.as_ref(),
            _ => self.cold_overhead.as_ref().or(self.cold.as_ref()),
        }
    }

    /// Whether most of its time processes had not settled by the end of their warm-up:
    /// its steady figure is then read with that said.
    pub fn unsteady(&self) -> bool {
        self.steadiness.is_some_and(|s| s.unsteady())
    }

    /// The record of [`CaseSummary::representative_run`] among `runs`.
    pub fn representative<'a>(&self, runs: &'a [RunRecord]) -> Option<&'a RunRecord> {
        let run = self.representative_run?;
        runs.iter().find(|r| {
            r.phase == run::Phase::Measured
                && r.run == run
                && r.contestant == self.contestant
                && cases::read_point(r).as_ref() == Some(&self.point)
        })
    }
}

/// All rows of one parameter point: the references, then the runtimes best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointSummary {
    /// The parameter point (written as its label `point` and its `scenario`).
    #[serde(flatten, with = "written::point")]
    pub point: Point,
    /// The seed benchmark this point reproduces (`concurrency-benchmarks`, `bluebird-doxbee`,
    /// `bluebird-parallel`, `async-bench`, `ghc-1523`), when a preset case says so.
    #[serde(default)]
    pub seed: Option<String>,
    pub rows: Vec<CaseSummary>,
}

/// Summarises records into points (in the order first run) and rows (the references and
/// inline cells `apart` names outside the ranking, then the runtimes best first).
pub fn summarize(records: &[RunRecord], apart: &Apart) -> Vec<PointSummary> {
    let idle = cases::idle_footprints(records);
    let baselines = cases::command_baselines(records);
    group(records)
        .into_iter()
        .map(|point| {
            let rows = point
                .cases
                .iter()
                .map(|case| {
                    let baseline = baselines.get(case.contestant).copied();
                    let mut row = summarize_case(case, &point.key, &idle, baseline);
                    row.reference = apart.is_reference(&row.contestant);
                    row.inline = apart.is_inline(&row.contestant, &row.point.scenario);
                    row.instructions =
                        instructions::counted(records, &row.contestant, &row.point, row.size);
                    (row, less_baseline(case.iteration_groups(), baseline))
                })
                .collect();
            PointSummary {
                point: point.key.clone(),
                seed: None,
                rows: rank::rank(rows),
            }
        })
        .collect()
}

/// As [`summarize`], each machine apart where records of several are merged side by side
/// (`taskbench merge --mixed-machines`): every ratio, interval and verdict against the best
/// of the row's own machine, never across machines; a point's rows machine by machine.
pub fn summarize_machines(records: &[RunRecord], apart: &Apart) -> Vec<PointSummary> {
    let mut machines: Vec<&str> = Vec::new();
    for machine in records.iter().filter_map(|r| r.machine.as_deref()) {
        if !machines.contains(&machine) {
            machines.push(machine);
        }
    }
    if machines.is_empty() {
        return summarize(records, apart);
    }
    let mut points: Vec<PointSummary> = Vec::new();
    for machine in machines {
        let mine: Vec<RunRecord> = records
            .iter()
            .filter(|r| r.machine.as_deref() == Some(machine))
            .cloned()
            .collect();
        for point in summarize(&mine, apart) {
            match points.iter_mut().find(|p| p.point == point.point) {
                Some(known) => known.rows.extend(point.rows),
                None => points.push(point),
            }
        }
    }
    points
}

/// The row of one case.
fn summarize_case(
    case: &Case,
    key: &Point,
    idle: &HashMap<(&str, Scenario), Vec<f64>>,
    baseline: Option<cases::Baseline>,
) -> CaseSummary {
    let mine = &case.records;
    let first = mine[0];
    let valid = case.valid();
    let time = case.time_runs();
    let memory = case.memory_runs();
    let groups = less_baseline(case.iteration_groups(), baseline);
    let scenario = key.to_scenario();
    let size = scenario.and_then(|s| s.size());
    let ideal_ns = scenario.map_or(0, |s| s.ideal_ns());
    let of_memory = |f: fn(&run::Figures) -> f64| memory_summary(&memory, f);
    let elapsed = Summary::nested(&groups);
    let overhead_groups = less_ideal(&groups, ideal_ns);
    let overhead = Summary::nested(&overhead_groups);
    let peak_rss = of_memory(|f| f.peak_rss_bytes as f64);
    let overhead_ns = overhead.map(|o| o.median);
    let idle_rss_bytes = idle_rss(case.contestant, scenario, idle);
    let precision = headline_precision(elapsed, overhead, ideal_ns);
    let headline_groups = if ideal_ns > 0 {
        &overhead_groups
    } else {
        &groups
    };
    CaseSummary {
        contestant: case.contestant.to_string(),
        machine: first.machine.clone(),
        point: key.clone(),
        outcome: outcome(mine, &valid, time.is_empty() && !key.is_command()),
        runs_ok: valid.len(),
        runs: mine.len(),
        problems: problems(mine),
        time_runs: time.len(),
        iterations: case.time_iterations(),
        memory_runs: memory.len(),
        precision,
        stop: mine.iter().rev().find_map(|r| r.stop),
        variance: case.variance(),
        size,
        ideal_ns,
        wall: of_memory(|f| f.wall_ns as f64),
        cpu: of_memory(|f| f.cpu_ns as f64).map(|cpu| less_baseline_cpu(cpu, baseline)),
        cpu_per_iteration: Summary::nested(&case.cpu_groups()),
        overhead_ns,
        overhead,
        ns_per_task: per_task(overhead_ns.map(|o| o.max(0.0)), size),
        bytes_per_task: per_task(
            idle_rss_bytes
                .zip(peak_rss)
                .map(|(idle, rss)| rss.median - idle),
            size,
        ),
        idle_rss_bytes,
        elapsed,
        representative_run: representative(&memory, peak_rss.map(|p| p.median)),
        peak_rss,
        peak_threads: peak_threads(&valid),
        reference: false,
        inline: false,
        ratio_to_best: None,
        ratio_ci: None,
        differs_from_best: None,
        outliers: outliers_by_mode(&time, headline_groups),
        extra: extra_medians(&time),
        instructions: None,
        warm_up: case.warm_up(),
        cold: Summary::of(&case.cold_values()),
        cold_overhead: cold_overhead(case, ideal_ns),
        steadiness: steadiness::of(&case.series()),
        across_sessions: None,
        price: None,
    }
}

/// The contestant's idle footprint for the scenario (its median peak RSS doing nothing).
fn idle_rss(
    contestant: &str,
    scenario: Option<Scenario>,
    idle: &HashMap<(&str, Scenario), Vec<f64>>,
) -> Option<f64> {
    scenario
        .and_then(|s| s.idle())
        .and_then(|s| idle.get(&(contestant, s)))
        .and_then(|values| median(values))
}

/// A total divided by the scenario's task count, where it has one.
fn per_task(total: Option<f64>, size: Option<u64>) -> Option<f64> {
    match (total, size) {
        (Some(t), Some(n)) if n > 0 => Some(t / n as f64),
        _ => None,
    }
}

/// A figure of the memory processes, summarized over them.
fn memory_summary(memory: &[&RunRecord], f: fn(&run::Figures) -> f64) -> Option<Summary> {
    let values: Vec<f64> = memory
        .iter()
        .filter_map(|r| r.figures.as_ref())
        .map(f)
        .collect();
    Summary::of(&values)
}

/// Each process's iterations less the scenario's ideal time: their overheads.
fn less_ideal(groups: &[Vec<f64>], ideal_ns: u64) -> Vec<Vec<f64>> {
    groups
        .iter()
        .map(|g| g.iter().map(|e| e - ideal_ns as f64).collect())
        .collect()
}

/// The headline's relative half-width: the overhead's where the scenario has an ideal time
/// (scaled by the elapsed when the overhead is too small a share of it to scale by), else
/// the elapsed's.
fn headline_precision(
    elapsed: Option<Summary>,
    overhead: Option<Summary>,
    ideal_ns: u64,
) -> Option<f64> {
    if ideal_ns == 0 {
        return elapsed.and_then(|e| e.relative_half_width(e.median));
    }
    let elapsed_median = elapsed.map(|e| e.median);
    overhead.and_then(|o| {
        let scale = elapsed_median.filter(|e| o.median.abs() < stopping::OVERHEAD_FLOOR * e);
        o.relative_half_width(scale.unwrap_or(o.median))
    })
}

/// The memory processes' CPU less the idle baseline's, where the case has one.
fn less_baseline_cpu(cpu: Summary, baseline: Option<cases::Baseline>) -> Summary {
    match baseline {
        Some(b) => Summary::of(&[cpu.median - b.cpu_ns]).unwrap_or(cpu),
        None => cpu,
    }
}

/// The most threads any of `valid`'s processes had.
fn peak_threads(valid: &[&RunRecord]) -> u32 {
    valid
        .iter()
        .filter_map(|r| r.figures.as_ref())
        .map(|f| f.peak_threads)
        .max()
        .unwrap_or(0)
}

/// The cold starts less the ideal time, where the scenario has one.
fn cold_overhead(case: &Case, ideal_ns: u64) -> Option<Summary> {
    let cold = case.cold_values();
    let less: Vec<f64> = cold.iter().map(|c| c - ideal_ns as f64).collect();
    (ideal_ns > 0).then(|| Summary::of(&less)).flatten()
}

/// The outliers among the time processes `time` (by their median elapsed), judged within
/// each mode where the row's figure (`groups`, one per process in the same order) splits
/// into two: a process of the other mode is not an outlier of this one.
fn outliers_by_mode(time: &[&RunRecord], groups: &[Vec<f64>]) -> Vec<Outlier> {
    let process_medians: Vec<(u32, f64)> = time
        .iter()
        .filter_map(|r| Some((r.run, r.figures.as_ref()?.elapsed_ns? as f64)))
        .collect();
    let pick = |members: &[usize]| -> Vec<(u32, f64)> {
        members.iter().map(|&i| process_medians[i]).collect()
    };
    match stats::split(groups).filter(|_| process_medians.len() == groups.len()) {
        Some([lower, upper]) => [pick(&lower), pick(&upper)]
            .iter()
            .flat_map(|mode| outliers::outliers(mode))
            .collect(),
        None => outliers::outliers(&process_medians),
    }
}

/// A command's times with its shell's start-up taken out, as hyperfine reports them.
fn less_baseline(groups: Vec<Vec<f64>>, baseline: Option<cases::Baseline>) -> Vec<Vec<f64>> {
    match baseline {
        Some(b) => groups
            .into_iter()
            .map(|g| g.into_iter().map(|v| v - b.wall_ns).collect())
            .collect(),
        None => groups,
    }
}

/// The memory process with a timeline whose peak RSS is nearest the median.
fn representative(memory: &[&RunRecord], median: Option<f64>) -> Option<u32> {
    let median = median?;
    let distance = |rss: u64| (rss as f64 - median).abs();
    memory
        .iter()
        .filter(|r| r.figures.as_ref().is_some_and(|f| f.timeline.len() > 1))
        .min_by(|a, b| {
            let (a, b) = (a.figures.as_ref(), b.figures.as_ref());
            let (a, b) = (
                a.map_or(0, |f| f.peak_rss_bytes),
                b.map_or(0, |f| f.peak_rss_bytes),
            );
            distance(a).total_cmp(&distance(b))
        })
        .map(|r| r.run)
}

/// What a case's records came to; `untimed`: it has no valid time process, so no steady
/// figure (the budget ended it first: it says what one would have cost).
fn outcome(mine: &[&RunRecord], valid: &[&RunRecord], untimed: bool) -> Outcome {
    if !valid.is_empty() && untimed {
        let failed = mine
            .iter()
            .find(|r| r.timed == Some(true) && !r.status.is_ok());
        let stop = mine.iter().rev().find_map(|r| r.stop);
        let status = match (failed, stop) {
            (Some(record), _) => record.status.label(),
            (None, Some(reason @ StopReason::NotSteady { .. })) => reason.describe(),
            (None, _) => "steady state not reached".to_string(),
        };
        return Outcome::Failed { status };
    }
    if !valid.is_empty() {
        return Outcome::Valid;
    }
    match &mine[0].status {
        RunStatus::NotImplemented { reason } => Outcome::NotImplemented {
            reason: reason.clone(),
        },
        status => Outcome::Failed {
            status: status.label(),
        },
    }
}

fn problems(mine: &[&RunRecord]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for record in mine.iter().filter(|r| !r.status.is_ok()) {
        if matches!(record.status, RunStatus::NotImplemented { .. }) {
            continue;
        }
        let count = mine
            .iter()
            .filter(|r| r.status.label() == record.status.label())
            .count();
        let stderr = record
            .figures
            .as_ref()
            .and_then(|f| f.stderr_tail.lines().rev().find(|l| !l.trim().is_empty()))
            .map(|l| format!(" — {}", l.trim()))
            .unwrap_or_default();
        let line = format!("{count}× {}{stderr}", record.status);
        if !seen
            .iter()
            .any(|s| s.starts_with(&format!("{count}× {}", record.status.label())))
        {
            seen.push(line);
        }
    }
    seen
}

fn extra_medians(valid: &[&RunRecord]) -> BTreeMap<String, f64> {
    let mut by_name: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for figures in valid.iter().filter_map(|r| r.figures.as_ref()) {
        for (name, value) in &figures.extra {
            by_name.entry(name.clone()).or_default().push(*value);
        }
    }
    by_name
        .into_iter()
        .filter_map(|(n, v)| median(&v).map(|m| (n, m)))
        .collect()
}

#[cfg(test)]
mod tests;
