//! `run --shard K/N`: one of N parts of a run's cases, so that N identical CI runners each
//! run one and `taskbench merge` joins their folders. The split is a function of the cases
//! alone — their names and estimated times — never of the order they were given in or of
//! the machine: every runner computes the same N parts, each case in exactly one.

use super::Workload;
use catalogue::Point;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The part a run makes: the `index`-th (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let parsed = text.split_once('/').and_then(|(k, n)| {
            let (index, count) = (k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?);
            (1..=count)
                .contains(&index)
                .then_some(Shard { index, count })
        });
        parsed.ok_or_else(|| {
            format!("'{text}': a shard is K/N with 1 ≤ K ≤ N (2/3: the second of three parts)")
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One case of a run, as the split sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EstimatedCase {
    /// The subject's name (`tokio`, `tokio cpus=2`, a command's name).
    pub subject: String,
    pub workload: Workload,
    /// Its estimated time (presets/estimate.rs).
    pub cost: Duration,
}

impl EstimatedCase {
    /// What orders cases of equal estimate: the point's label, then the subject.
    fn key(&self) -> (String, &str) {
        (self.workload.point().to_string(), &self.subject)
    }
}

/// The part (0-based) of each case, in the order given: longest case first, each to the
/// part with the least estimated time so far (the lowest-numbered on a tie), cases of equal
/// estimate by point and name — a greedy split within 4/3 of the best possible.
pub(crate) fn split(cases: &[EstimatedCase], parts: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&cases[a], &cases[b]);
        b.cost.cmp(&a.cost).then_with(|| a.key().cmp(&b.key()))
    });
    let mut load = vec![Duration::ZERO; parts.max(1) as usize];
    let mut part = vec![0; cases.len()];
    for case in order {
        let least = (0..load.len())
            .min_by_key(|&p| (load[p], p))
            .expect("at least one part");
        load[least] += cases[case].cost;
        part[case] = least as u32;
    }
    part
}

/// What one shard runs: its cases, and the idle-footprint runs of its subjects' scenarios.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardCases {
    /// (subject, point) of every run the shard makes, idle runs included.
    runs: HashSet<(String, Point)>,
    /// How many of the run's cases are the shard's.
    pub cases: usize,
    /// How many cases the run has.
    pub total: usize,
    /// The estimated time of each part, the shard's and the others'.
    pub parts: Vec<Duration>,
}

impl ShardCases {
    /// The cases of `shard` among `cases`.
    pub fn of(cases: &[EstimatedCase], shard: Shard) -> ShardCases {
        let parts = split(cases, shard.count);
        let mut chosen = ShardCases {
            parts: vec![Duration::ZERO; shard.count as usize],
            total: cases.len(),
            ..ShardCases::default()
        };
        for (case, part) in cases.iter().zip(parts) {
            chosen.parts[part as usize] += case.cost;
            if part + 1 != shard.index {
                continue;
            }
            chosen.cases += 1;
            chosen
                .runs
                .insert((case.subject.clone(), case.workload.point()));
            if let Workload::Scenario { scenario, .. } = case.workload
                && let Some(idle) = scenario.idle()
            {
                let idle = Workload::Scenario {
                    scenario: idle,
                    inner_warm_up: 0,
                };
                chosen.runs.insert((case.subject.clone(), idle.point()));
            }
        }
        chosen
    }

    /// Whether the shard makes `subject`'s runs of `workload`.
    pub fn takes(&self, subject: &str, workload: &Workload) -> bool {
        self.runs.contains(&(subject.to_string(), workload.point()))
    }

    /// Whether the shard has any case of `subject`.
    pub fn has(&self, subject: &str) -> bool {
        self.runs.iter().any(|(s, _)| s == subject)
    }
}

#[cfg(test)]
mod tests;
