//! What a run's budget bought, and what it could have: where its processes' wall clock
//! went (idle footprints, memory processes, and the time processes' start-up, warm-up and
//! timed iterations — the last share is its efficiency), its bound (how many cases a
//! perfect allocation of the same budget brings within the target at 95 %, from the run's
//! own spread between processes and its own process costs, as the shared bound script
//! computes it), the same bound at a longer budget, and each case's price: what reaching
//! its target would still take.
//!
//! The bound, per case with two time processes or more and a positive figure: the spread
//! of its processes' figures (each a process's median iteration less the ideal; run/price.rs)
//! asks for some number of time processes, at least six; every case first gets a memory
//! process and three time ones at its own mean costs, and what is left of the budget goes
//! to the cases in order of what reaching the target costs them, cheapest first. It knows
//! each case's spread in advance, which no run does: a run that reaches 85 % of it
//! allocates well.

use super::{CaseSummary, PointSummary};
use catalogue::Point;
use run::price::{processes_needed, resampled_processes, spread};
use run::{Phase, RunRecord};
use serde::{Deserialize, Serialize};
use stats::median;
use std::collections::BTreeMap;
use std::time::Duration;

/// Time processes every case gets before the bound allocates the rest.
const BOUND_MINIMUM: u64 = 3;

/// Where a run's measured processes spent their wall clock, s.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Spending {
    /// Idle-footprint, warm-up and counted processes.
    pub other_s: f64,
    pub memory_s: f64,
    /// Time processes beyond their reported iterations: start-up, exit, the harness.
    pub startup_s: f64,
    /// Time processes' warm-up iterations.
    pub warm_up_s: f64,
    /// Time processes' timed iterations: what the figures are made of.
    pub steady_s: f64,
}

impl Spending {
    #[cfg(test)]
    pub(crate) fn total_s(&self) -> f64 {
        self.other_s + self.memory_s + self.startup_s + self.warm_up_s + self.steady_s
    }

    /// The timed share of the wall clock.
    #[cfg(test)]
    pub(crate) fn efficiency(&self) -> f64 {
        let total = self.total_s();
        if total > 0.0 {
            self.steady_s / total
        } else {
            0.0
        }
    }
}

/// How many cases a perfect allocation of a budget brings within the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bound {
    /// Cases brought within the target at 95 %.
    pub reached: usize,
    /// Cases with a spread to judge (two time processes or more, a positive figure).
    pub cases: usize,
    /// What every case's minimum costs (a memory and three time processes; the other
    /// processes as spent), s.
    pub minimums_s: f64,
    /// The budget, s.
    pub budget_s: f64,
}

/// A run's spending and bounds (results.json's `budget`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BudgetReport {
    /// The relative half-width the bound is for (0.05: ±5 %).
    pub target: f64,
    pub spending: Spending,
    /// With the run's own budget.
    pub bound: Bound,
    /// With twice the budget: what a longer run could reach.
    pub longer: Bound,
}

/// What a case's target would still take.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// The target: a relative half-width (0.05: ±5 %).
    pub target: f64,
    /// Time processes its spread asks for in all.
    pub processes: u64,
    /// What the ones it lacks would cost at its mean time process, s.
    pub more_s: f64,
}

impl Price {
    /// What the rest costs.
    pub fn more(&self) -> Duration {
        Duration::from_secs_f64(self.more_s.clamp(0.0, 1e12))
    }
}

/// A case's time processes (their figures and walls) and memory processes (their walls).
#[derive(Debug, Default)]
struct CaseCosts {
    figures: Vec<f64>,
    time_walls: Vec<f64>,
    memory_walls: Vec<f64>,
}

impl CaseCosts {
    /// Time processes its spread asks for (at `target`), and its mean time and memory
    /// process costs, s; `None` without two figures or with a figure's median at or below 0.
    fn need(&self, target: f64) -> Option<(u64, f64, f64)> {
        let center = median(&self.figures).filter(|&m| m > 0.0)?;
        let needed = processes_needed(spread(&self.figures, center)?, target);
        let time = mean(&self.time_walls)?;
        Some((needed, time, mean(&self.memory_walls).unwrap_or(time)))
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Where the processes of `records` spent their wall clock, and each case's costs.
fn account(records: &[RunRecord]) -> (Spending, BTreeMap<(String, Point), CaseCosts>) {
    let mut spending = Spending::default();
    let mut cases: BTreeMap<(String, Point), CaseCosts> = BTreeMap::new();
    for record in records {
        let Some(figures) = &record.figures else {
            continue;
        };
        let wall = figures.wall_ns as f64 / 1e9;
        if record.phase != Phase::Measured {
            spending.other_s += wall;
            continue;
        }
        let ok = record.status.is_ok();
        let case = cases
            .entry((record.contestant.clone(), record.point()))
            .or_default();
        if record.timed != Some(true) {
            spending.memory_s += wall;
            if ok {
                case.memory_walls.push(wall);
            }
            continue;
        }
        let timed = figures.iterations_ns.iter().map(|&n| n as f64).sum::<f64>() / 1e9;
        let warm_up = figures.warm_up_ns.iter().map(|&n| n as f64).sum::<f64>() / 1e9;
        spending.steady_s += timed;
        spending.warm_up_s += warm_up;
        spending.startup_s += wall - timed - warm_up;
        let ideal = figures.ideal_ns as f64;
        let less_ideal: Vec<f64> = figures
            .iterations_ns
            .iter()
            .map(|&e| e as f64 - ideal)
            .collect();
        if let Some(figure) = median(&less_ideal).filter(|_| ok) {
            case.figures.push(figure);
            case.time_walls.push(wall);
        }
    }
    (spending, cases)
}

/// The bound of `budget_s` over cases needing (processes, time cost, memory cost), with
/// `other_s` spent outside the cases.
fn bound_of(needs: &[(u64, f64, f64)], other_s: f64, budget_s: f64) -> Bound {
    let minimums_s = other_s
        + needs
            .iter()
            .map(|&(_, time, memory)| memory + BOUND_MINIMUM as f64 * time)
            .sum::<f64>();
    let mut rest: Vec<f64> = needs
        .iter()
        .map(|&(needed, time, _)| needed.saturating_sub(BOUND_MINIMUM) as f64 * time)
        .collect();
    rest.sort_by(f64::total_cmp);
    let mut left = budget_s - minimums_s;
    let mut reached = 0;
    for cost in rest {
        if cost > left {
            break;
        }
        left -= cost;
        reached += 1;
    }
    Bound {
        reached,
        cases: needs.len(),
        minimums_s,
        budget_s,
    }
}

/// The spending of `records` and their bounds at `budget` and twice it, for ±`target`;
/// `None` when no case has two time processes.
pub fn report(records: &[RunRecord], budget: Duration, target: f64) -> Option<BudgetReport> {
    let (spending, cases) = account(records);
    let needs: Vec<(u64, f64, f64)> = cases.values().filter_map(|c| c.need(target)).collect();
    if needs.is_empty() {
        return None;
    }
    let budget_s = budget.as_secs_f64();
    Some(BudgetReport {
        target,
        spending,
        bound: bound_of(&needs, spending.other_s, budget_s),
        longer: bound_of(&needs, spending.other_s, 2.0 * budget_s),
    })
}

/// Sets each row's price at ±`target` where the row is short of it (no 95 % interval, or
/// one wider than the target): what the time processes its own processes' figures ask for
/// (resampled, as the budget's allocator reads them: run/price.rs) and it lacks would cost
/// at its mean time process.
pub fn price_rows(points: &mut [PointSummary], records: &[RunRecord], target: f64) {
    let (_, cases) = account(records);
    for point in points.iter_mut() {
        for row in point.rows.iter_mut() {
            let Some(case) = cases.get(&(row.contestant.clone(), point.point.clone())) else {
                continue;
            };
            row.price = price(row, case, target);
        }
    }
}

/// The most time processes a price looks at: past them the target is out of reach.
const PRICED_PROCESSES: u32 = 10_000;

/// A row's price at ±`target`, from its case's processes; `None` at the target or with
/// fewer than two processes.
fn price(row: &CaseSummary, case: &CaseCosts, target: f64) -> Option<Price> {
    let headline = row.headline()?;
    let shown = headline.relative_half_width(headline.median);
    let at_level = headline.median_ci.is_some_and(|ci| ci.is_at_level());
    if at_level && shown.is_some_and(|w| w <= target) {
        return None;
    }
    let have = case.figures.len() as u32;
    if have < 2 {
        return None;
    }
    let needed = resampled_processes(&case.figures, headline.median, target, PRICED_PROCESSES)
        .unwrap_or(u32::MAX)
        .max(have + 1);
    let time = mean(&case.time_walls)?;
    Some(Price {
        target,
        processes: u64::from(needed),
        more_s: f64::from(needed - have) * time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use run::{Figures, RunStatus};

    /// A measured process of `contestant` at spawn: a time process whose iterations all
    /// take `figure_ms` (after `warm_ms` of warm-up), or a memory process; `wall_ms` long.
    fn process(
        contestant: &str,
        timed: bool,
        figure_ms: f64,
        warm_ms: u64,
        wall_ms: u64,
    ) -> RunRecord {
        let ms = |x: f64| (x * 1e6) as u64;
        let its = if timed {
            vec![ms(figure_ms); 10]
        } else {
            vec![ms(figure_ms)]
        };
        RunRecord {
            machine: None,
            contestant: contestant.into(),
            scenario: "spawn".into(),
            params: [("tasks".to_string(), 100)].into(),
            inner_warm_up: 1,
            timed: Some(timed),
            phase: Phase::Measured,
            run: 1,
            iterations: its.len() as u32,
            stop: None,
            status: RunStatus::Ok,
            figures: Some(Figures {
                elapsed_ns: Some(its[0]),
                iterations_ns: its,
                iterations_cpu_ns: Vec::new(),
                warm_up_ns: if timed {
                    vec![warm_ms * 1_000_000]
                } else {
                    Vec::new()
                },
                ideal_ns: 0,
                overhead_ns: None,
                wall_ns: wall_ms * 1_000_000,
                user_ns: 0,
                sys_ns: 0,
                cpu_ns: 0,
                peak_rss_bytes: 1 << 20,
                peak_threads: 1,
                voluntary_switches: 0,
                involuntary_switches: 0,
                checksum: None,
                expected_checksum: None,
                extra: Default::default(),
                sampler_cpu_ns: 0,
                stderr_tail: String::new(),
                timeline: Vec::new(),
                instructions: None,
                counter: None,
            }),
        }
    }

    /// `steady`: figures 10 ms ± 1 %, time processes of 1 s; `noisy`: 10 ms ± 20 %, 0.5 s.
    fn records() -> Vec<RunRecord> {
        let mut records = Vec::new();
        for (name, figures, wall) in [
            ("steady", [9.9, 10.0, 10.1], 1_000),
            ("noisy", [8.0, 10.0, 12.0], 500),
        ] {
            records.push(process(name, false, 10.0, 0, 200));
            for figure in figures {
                records.push(process(name, true, figure, 100, wall));
            }
        }
        records
    }

    #[test]
    fn the_wall_is_split_as_the_bound_script_splits_it() {
        let report = report(&records(), Duration::from_secs(10), 0.05).unwrap();
        let s = report.spending;
        // Time processes: 3 × 1 s and 3 × 0.5 s = 4.5 s, of which 6 × 100 ms warm-up and
        // 10 iterations each (steady: 99 + 100 + 101 ms; noisy: 80 + 100 + 120 ms) timed.
        assert!((s.memory_s - 0.4).abs() < 1e-9);
        assert!((s.warm_up_s - 0.6).abs() < 1e-9);
        assert!((s.steady_s - 0.6).abs() < 1e-9);
        assert!((s.startup_s - (4.5 - 0.6 - 0.6)).abs() < 1e-9);
        assert!((s.efficiency() - 0.6 / 4.9).abs() < 1e-9);
    }

    #[test]
    fn the_bound_buys_the_cheapest_targets_after_every_minimum() {
        // steady: MAD 0.1 ms of 10 → 1.48 %: 6 processes. noisy: MAD 2 of 10 → 29.7 %:
        // (2.4565 × 0.297 / 0.05)² = 212.8 → 213. Minimums: 0.2 + 3 s and 0.2 + 1.5 s.
        let bound = |budget: u64| report(&records(), Duration::from_secs(budget), 0.05).unwrap();
        let at_10 = bound(10).bound;
        assert_eq!((at_10.reached, at_10.cases), (1, 2));
        assert!((at_10.minimums_s - 4.9).abs() < 1e-9);
        // The steady case's three more processes (3 s) fit in the 5.1 s left; the noisy
        // one's 210 more (105 s) do not, until the budget has them.
        assert_eq!(bound(5).bound.reached, 0);
        assert_eq!(bound(5).longer.reached, 1, "twice 5 s is 10 s");
        assert_eq!(bound(113).bound.reached, 2);
        assert_eq!(bound(112).bound.reached, 1);
    }
}
