//! What a run's budget bought, in words: how many cells are within the target at 95 %,
//! how many have a 95 % interval at all, this run's bound (what a perfect allocation of the
//! same budget would have reached with the run's own spread and process costs), where the
//! process wall clock went, and what twice the budget would reach — the lines a budgeted
//! run ends with, and `show` and `agree` print again; and a short cell's price.

use crate::analysis::budget::{BudgetReport, Price};
use crate::analysis::{CaseSummary, PointSummary};
use crate::results::Results;
use crate::stats::LEVEL;
use crate::units::{percent, rough_duration};
use std::time::Duration;

/// How a run's cells stand against a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bought {
    /// Valid cells with a figure.
    pub cells: usize,
    /// Of them, those whose interval is a 95 % one.
    pub at_level: usize,
    /// Of those, the ones within the target.
    pub within: usize,
}

/// How `points`' cells stand against ±`target` (relative); a cell whose processes split
/// into modes is judged by its widest mode.
pub fn bought(points: &[PointSummary], target: f64) -> Bought {
    let mut count = Bought {
        cells: 0,
        at_level: 0,
        within: 0,
    };
    for row in points.iter().flat_map(|p| &p.rows) {
        let Some(figure) = row.headline().filter(|h| h.median != 0.0) else {
            continue;
        };
        count.cells += 1;
        let Some(ci) = figure
            .median_ci
            .filter(|ci| ci.coverage.is_none_or(|c| c >= LEVEL))
        else {
            continue;
        };
        count.at_level += 1;
        let width = |low: f64, high: f64, median: f64| (high - low) / 2.0 / median.abs();
        let widest = (figure.modes.iter().flatten())
            .filter_map(|m| Some(width(m.median_ci?.low, m.median_ci?.high, m.median)))
            .reduce(f64::max)
            .unwrap_or_else(|| width(ci.low, ci.high, figure.median));
        if widest <= target {
            count.within += 1;
        }
    }
    count
}

/// What a budgeted run's budget bought ([`bought_line`]); `None` without a budget.
pub fn run_line(results: &Results) -> Option<String> {
    let report = results.budget.as_ref()?;
    Some(bought_line(report, bought(&results.points, report.target)))
}

/// `budget 5 min bought 58 of 135 cells within ±5 % at 95 % (43 %; a perfect allocation of
/// its spread: 68 %) and 121 a 95 % interval · the process wall: 26 % timed, 40 % warm-up,
/// 16 % start-up, 15 % memory · --budget 10 min: bound 80 %`.
pub fn bought_line(report: &BudgetReport, bought: Bought) -> String {
    let share = |n: usize| percent(n as f64 / bought.cells.max(1) as f64);
    let s = &report.spending;
    let total = s.total_s().max(1e-9);
    let part = |x: f64| percent(x / total);
    format!(
        "budget {} bought {} of {} cells within ±{} at 95 % ({}; a perfect allocation of its \
         spread: {}) and {} a 95 % interval · the process wall: {} timed, {} warm-up, {} \
         start-up, {} memory · --budget {}: bound {}",
        rough_duration(Duration::from_secs_f64(report.bound.budget_s)),
        bought.within,
        bought.cells,
        target_text(report.target),
        share(bought.within),
        percent(report.bound.share()),
        bought.at_level,
        part(s.steady_s),
        part(s.warm_up_s),
        part(s.startup_s),
        part(s.memory_s),
        rough_duration(Duration::from_secs_f64(report.longer.budget_s)),
        percent(report.longer.share()),
    )
}

/// A short cell's price: `±5 % needs ~40 s`, or `±5 % out of reach` past a day.
pub fn price_text(price: &Price) -> String {
    let target = target_text(price.target);
    if price.more_s > 86_400.0 {
        return format!("±{target} out of reach");
    }
    format!("±{target} needs ~{}", rough_duration(price.more()))
}

/// The row's price, where it has one.
pub fn row_price(row: &CaseSummary) -> Option<String> {
    row.price.as_ref().map(price_text)
}

/// A target as a percentage, whole where it is (`5 %`, `2.5 %`).
fn target_text(target: f64) -> String {
    let p = target * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        percent(target)
    }
}
