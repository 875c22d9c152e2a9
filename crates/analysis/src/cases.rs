//! Records grouped once: by point (a catalogue `Point`, parameters a record lacks at
//! their defaults) and within it by contestant, in the order they first ran — so that
//! nothing downstream re-filters records by a formatted label. Also the two kinds of
//! measured process of a case (docs/MEASUREMENT.md) and the idle footprints.

use catalogue::{Point, Scenario};
use run::stopping::MAX_ITERATIONS;
use run::variance::{Variance, components};
use run::{Phase, RunRecord, counts};
use std::collections::HashMap;

/// The point a record belongs to as the catalogue reads it (parameters it does not record
/// at their defaults); `None` for a record no catalogue entry reads.
pub(super) fn read_point(record: &RunRecord) -> Option<Point> {
    let point = record.point();
    if point.is_command() {
        return Some(Point::command());
    }
    point.to_scenario().map(|scenario| Point::from(&scenario))
}

/// The measured records of one contestant at one point.
#[derive(Debug, Clone)]
pub struct Case<'a> {
    pub contestant: &'a str,
    pub(crate) records: Vec<&'a RunRecord>,
}

impl<'a> Case<'a> {
    /// The valid measured processes.
    pub fn valid(&self) -> Vec<&'a RunRecord> {
        self.records.iter().copied().filter(|r| counts(r)).collect()
    }

    /// Whether the case's processes say which kind they are (`RunRecord::timed`); older
    /// results told a time process by its running more than one iteration.
    fn flagged(&self) -> bool {
        self.records.iter().any(|r| r.timed.is_some())
    }

    /// Iterations of a time process: what the last valid time process ran. The last, not
    /// the most: after its pilot a case may go on at fewer iterations (run/progress.rs).
    /// In older results, what the last valid process of more than one ran (1 when every
    /// process ran one, and then every process is both kinds).
    pub(crate) fn time_iterations(&self) -> u32 {
        let flagged = self.flagged();
        self.valid()
            .iter()
            .rev()
            .filter(|r| !flagged || r.timed == Some(true))
            .map(|r| r.iterations)
            .find(|&m| flagged || m > 1)
            .unwrap_or(1)
    }

    /// The valid processes that measure time: every time process, whatever its count of
    /// iterations (each measures the same steady state after the same warm-up; a case's
    /// pilot may have run another count, run/progress.rs). A plain command's single
    /// processes serve both kinds. In older results, the processes of the last count run.
    pub(crate) fn time_runs(&self) -> Vec<&'a RunRecord> {
        let flagged = self.flagged();
        let command = self.records.first().is_some_and(|r| r.point().is_command());
        if flagged && !command {
            let valid = self.valid().into_iter();
            return valid.filter(|r| r.timed == Some(true)).collect();
        }
        let m = self.time_iterations();
        self.valid()
            .into_iter()
            .filter(|r| (command || !flagged || r.timed == Some(true)) && r.iterations == m)
            .collect()
    }

    /// The valid processes that ran exactly one measured iteration after the scenario's
    /// own warm-up: the seeds' memory.
    pub fn memory_runs(&self) -> Vec<&'a RunRecord> {
        self.valid()
            .into_iter()
            .filter(|r| r.timed != Some(true) && r.iterations == 1)
            .collect()
    }

    /// Each time process's series in order, warm-up iterations then measured ones, with
    /// where its measured ones begin: what each process is classified on.
    pub(crate) fn series(&self) -> Vec<(Vec<f64>, usize)> {
        self.time_runs()
            .iter()
            .filter_map(|r| r.figures.as_ref())
            .map(|f| {
                let all = f.warm_up_ns.iter().chain(&f.iterations_ns);
                (all.map(|&e| e as f64).collect(), f.warm_up_ns.len())
            })
            .collect()
    }

    /// The cold start of each time process that reported its warm-up: its first iteration
    /// (after start-up), ns.
    pub(crate) fn cold_values(&self) -> Vec<f64> {
        self.valid()
            .iter()
            .filter(|r| r.timed == Some(true))
            .filter_map(|r| r.figures.as_ref()?.warm_up_ns.first())
            .map(|&e| e as f64)
            .collect()
    }

    /// The warm-up iterations the case's time processes ran (the most, where they differ).
    pub(crate) fn warm_up(&self) -> Option<u32> {
        let time = self.valid().into_iter().filter(|r| r.timed == Some(true));
        time.map(|r| r.inner_warm_up).max()
    }

    /// The variance components of the time processes (run/variance.rs), with the
    /// iterations per process they ask for, at most [`MAX_ITERATIONS`].
    pub(crate) fn variance(&self) -> Option<Variance> {
        let walls: Vec<f64> = self
            .time_runs()
            .iter()
            .filter_map(|r| Some(r.figures.as_ref()?.wall_ns as f64))
            .collect();
        components(&self.iteration_groups(), &walls, MAX_ITERATIONS)
    }

    /// Each time process's iterations, in ns.
    pub fn iteration_groups(&self) -> Vec<Vec<f64>> {
        self.time_runs()
            .iter()
            .filter_map(|r| r.figures.as_ref())
            .map(|f| f.iterations_ns.iter().map(|&e| e as f64).collect())
            .collect()
    }

    /// Each time process's CPU time per iteration, in ns, of the processes whose lines
    /// carried it.
    pub fn cpu_groups(&self) -> Vec<Vec<f64>> {
        self.time_runs()
            .iter()
            .filter_map(|r| r.figures.as_ref())
            .filter(|f| !f.iterations_cpu_ns.is_empty())
            .map(|f| f.iterations_cpu_ns.iter().map(|&c| c as f64).collect())
            .collect()
    }
}

/// One point's cases, contestants in the order they first ran.
#[derive(Debug, Clone)]
pub struct PointCases<'a> {
    pub key: Point,
    pub cases: Vec<Case<'a>>,
}

/// Measured records grouped by point and contestant: points in the catalogue's order of
/// scenarios, a sweep's by its parameters (the rounds run them in a shuffled order),
/// contestants in the order they first ran.
pub fn group(records: &[RunRecord]) -> Vec<PointCases<'_>> {
    let mut points = in_order_run(records);
    points.sort_by_cached_key(|p| {
        let scenario = catalogue::SCENARIOS
            .iter()
            .position(|s| s.name == p.key.scenario);
        let values: Vec<u64> = p.key.params.values().copied().collect();
        (scenario.unwrap_or(usize::MAX), values)
    });
    points
}

/// Measured records grouped by point and contestant, in the order they first ran.
fn in_order_run(records: &[RunRecord]) -> Vec<PointCases<'_>> {
    let mut points: Vec<PointCases> = Vec::new();
    let mut index: HashMap<Point, usize> = HashMap::new();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        let Some(key) = read_point(record) else {
            continue;
        };
        let at = *index.entry(key.clone()).or_insert_with(|| {
            points.push(PointCases {
                key,
                cases: Vec::new(),
            });
            points.len() - 1
        });
        let cases = &mut points[at].cases;
        match cases.iter_mut().find(|c| c.contestant == record.contestant) {
            Some(case) => case.records.push(record),
            None => cases.push(Case {
                contestant: &record.contestant,
                records: vec![record],
            }),
        }
    }
    points
}

/// Peak RSS of each valid idle-footprint run, by contestant and idle scenario.
pub(crate) fn idle_footprints(records: &[RunRecord]) -> HashMap<(&str, Scenario), Vec<f64>> {
    let mut found: HashMap<(&str, Scenario), Vec<f64>> = HashMap::new();
    for record in records
        .iter()
        .filter(|r| r.phase == Phase::Idle && r.status.is_ok())
    {
        if let (Some(scenario), Some(figures)) =
            (record.point().to_scenario(), record.figures.as_ref())
        {
            found
                .entry((record.contestant.as_str(), scenario))
                .or_default()
                .push(figures.peak_rss_bytes as f64);
        }
    }
    found
}

/// A shell's own start-up, measured beside a command that runs through it: the median
/// wall clock and CPU of its empty runs, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Baseline {
    pub(crate) wall_ns: f64,
    pub(crate) cpu_ns: f64,
}

/// The shell baseline of each command subject that has one.
pub(crate) fn command_baselines(records: &[RunRecord]) -> HashMap<&str, Baseline> {
    let mut runs: HashMap<&str, (Vec<f64>, Vec<f64>)> = HashMap::new();
    for record in records
        .iter()
        .filter(|r| r.phase == Phase::Idle && r.status.is_ok() && r.point().is_command())
    {
        if let Some(f) = &record.figures {
            let (wall, cpu) = runs.entry(record.contestant.as_str()).or_default();
            wall.push(f.wall_ns as f64);
            cpu.push(f.cpu_ns as f64);
        }
    }
    runs.into_iter()
        .filter_map(|(name, (wall, cpu))| {
            let baseline = Baseline {
                wall_ns: stats::median(&wall)?,
                cpu_ns: stats::median(&cpu)?,
            };
            Some((name, baseline))
        })
        .collect()
}
