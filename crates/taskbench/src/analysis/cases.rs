//! Records grouped once: by point (the catalogue's typed scenario, or the command) and
//! within it by contestant, in the order they first ran — so that nothing downstream
//! re-filters records by a formatted label. Also the two kinds of measured process of a
//! case (docs/MEASUREMENT.md) and the idle footprints.

use crate::run::{Phase, RunRecord, counts};
use catalogue::Scenario;
use std::collections::HashMap;

/// What a point is: a catalogue scenario with all its parameters, or `--command`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointKey {
    Scenario(Scenario),
    Command,
}

impl PointKey {
    /// The point a record belongs to; `None` for a record no catalogue entry reads.
    pub fn of(record: &RunRecord) -> Option<PointKey> {
        if record.scenario == "command" {
            return Some(PointKey::Command);
        }
        let values: Vec<(&str, u64)> = record
            .params
            .iter()
            .map(|(name, value)| (name.as_str(), *value))
            .collect();
        Scenario::new(&record.scenario, &values)
            .ok()
            .map(PointKey::Scenario)
    }

    pub fn scenario(&self) -> Option<Scenario> {
        match self {
            PointKey::Scenario(scenario) => Some(*scenario),
            PointKey::Command => None,
        }
    }
}

/// The measured records of one contestant at one point.
#[derive(Debug, Clone)]
pub struct Case<'a> {
    pub contestant: &'a str,
    pub records: Vec<&'a RunRecord>,
}

impl<'a> Case<'a> {
    /// The valid measured processes.
    pub fn valid(&self) -> Vec<&'a RunRecord> {
        self.records.iter().copied().filter(|r| counts(r)).collect()
    }

    /// Iterations of a time process: the most any valid process ran (1 when every
    /// process ran one, and then every process is both kinds).
    pub fn time_iterations(&self) -> u32 {
        self.valid().iter().map(|r| r.iterations).max().unwrap_or(1)
    }

    /// The valid processes that measure time.
    pub fn time_runs(&self) -> Vec<&'a RunRecord> {
        let m = self.time_iterations();
        self.valid()
            .into_iter()
            .filter(|r| r.iterations == m)
            .collect()
    }

    /// The valid processes that ran exactly one measured iteration: the seeds' memory.
    pub fn memory_runs(&self) -> Vec<&'a RunRecord> {
        self.valid()
            .into_iter()
            .filter(|r| r.iterations == 1)
            .collect()
    }

    /// Each time process's iterations, in ns.
    pub fn iteration_groups(&self) -> Vec<Vec<f64>> {
        self.time_runs()
            .iter()
            .filter_map(|r| r.figures.as_ref())
            .map(|f| f.iterations_ns.iter().map(|&e| e as f64).collect())
            .collect()
    }
}

/// One point's cases, contestants in the order they first ran.
#[derive(Debug, Clone)]
pub struct PointCases<'a> {
    pub key: PointKey,
    pub cases: Vec<Case<'a>>,
}

/// Measured records grouped by point and contestant, points in the order they first ran.
pub fn group(records: &[RunRecord]) -> Vec<PointCases<'_>> {
    let mut points: Vec<PointCases> = Vec::new();
    let mut index: HashMap<PointKey, usize> = HashMap::new();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        let Some(key) = PointKey::of(record) else {
            continue;
        };
        let at = *index.entry(key).or_insert_with(|| {
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
pub fn idle_footprints(records: &[RunRecord]) -> HashMap<(&str, Scenario), Vec<f64>> {
    let mut found: HashMap<(&str, Scenario), Vec<f64>> = HashMap::new();
    for record in records
        .iter()
        .filter(|r| r.phase == Phase::Idle && r.status.is_ok())
    {
        if let (Some(PointKey::Scenario(scenario)), Some(figures)) =
            (PointKey::of(record), record.figures.as_ref())
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
pub struct Baseline {
    pub wall_ns: f64,
    pub cpu_ns: f64,
}

/// The shell baseline of each command subject that has one.
pub fn command_baselines(records: &[RunRecord]) -> HashMap<&str, Baseline> {
    let mut runs: HashMap<&str, (Vec<f64>, Vec<f64>)> = HashMap::new();
    for record in records.iter().filter(|r| {
        r.phase == Phase::Idle && r.status.is_ok() && PointKey::of(r) == Some(PointKey::Command)
    }) {
        if let Some(f) = &record.figures {
            let (wall, cpu) = runs.entry(record.contestant.as_str()).or_default();
            wall.push(f.wall_ns as f64);
            cpu.push(f.cpu_ns as f64);
        }
    }
    runs.into_iter()
        .filter_map(|(name, (wall, cpu))| {
            let baseline = Baseline {
                wall_ns: crate::stats::median(&wall)?,
                cpu_ns: crate::stats::median(&cpu)?,
            };
            Some((name, baseline))
        })
        .collect()
}
