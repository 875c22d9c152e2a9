//! What a run's budget bought, in words: how many cells are within the target at 95 %,
//! how many have a 95 % interval at all, this run's bound (what a perfect allocation of the
//! same budget would have reached with the run's own spread and process costs), where the
//! process wall clock went, and what twice the budget would reach — the lines a budgeted
//! run ends with, and `show` and `agree` print again; and a short cell's price.

use analysis::budget::{BudgetReport, Price};
use analysis::{CaseSummary, PointSummary};
use results::Results;
use stats::LEVEL;
use std::time::Duration;
use units::{percent, rough_duration};

/// How a run's cells stand against a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bought {
    /// Valid cells with a figure.
    pub(crate) cells: usize,
    /// Of them, those whose interval is a 95 % one.
    pub(crate) at_level: usize,
    /// Of those, the ones within the target.
    pub(crate) within: usize,
}

/// How `points`' cells stand against ±`target` (relative); a cell whose processes split
/// into modes is judged by its widest mode.
pub(crate) fn bought(points: &[PointSummary], target: f64) -> Bought {
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

/// `budget 5 min: 58 of 135 within ±5 % at 95 % (bound 92; 10 min: 108), 121 with a 95 %
/// interval` — the bound being how many of the cases with a spread (two time processes or
/// more) a perfect allocation of the same budget (and of twice it) brings within the target
/// with the run's own spread and process costs; where the wall clock went is in results.json.
/// One line of at most 100 characters, which the terminal does not wrap.
pub(crate) fn bought_line(report: &BudgetReport, bought: Bought) -> String {
    format!(
        "budget {}: {} of {} within ±{} at 95 % (bound {}; {}: {}), {} with a 95 % interval",
        rough_duration(Duration::from_secs_f64(report.bound.budget_s)),
        bought.within,
        bought.cells,
        target_text(report.target),
        report.bound.reached,
        rough_duration(Duration::from_secs_f64(report.longer.budget_s)),
        report.longer.reached,
        bought.at_level,
    )
}

/// A short cell's price: `±5 % needs ~40 s`, or `±5 % out of reach` past a day.
pub(crate) fn price_text(price: &Price) -> String {
    let target = target_text(price.target);
    if price.more_s > 86_400.0 {
        return format!("±{target} out of reach");
    }
    format!("±{target} needs ~{}", rough_duration(price.more()))
}

/// The row's price, where it has one.
pub(crate) fn row_price(row: &CaseSummary) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::budget::{Bound, Spending};
    use stats::{Interval, Summary};

    fn report() -> BudgetReport {
        let bound = |reached, budget_s| Bound {
            reached,
            cases: 123,
            minimums_s: 102.5,
            budget_s,
        };
        BudgetReport {
            target: 0.05,
            spending: Spending {
                other_s: 6.0,
                memory_s: 40.0,
                startup_s: 50.0,
                warm_up_s: 116.0,
                steady_s: 80.0,
            },
            bound: bound(102, 300.0),
            longer: bound(114, 600.0),
        }
    }

    #[test]
    fn the_line_says_what_was_bought_beside_the_bound() {
        let bought = Bought {
            cells: 135,
            at_level: 123,
            within: 66,
        };
        assert_eq!(
            bought_line(&report(), bought),
            "budget 5 min: 66 of 135 within ±5 % at 95 % (bound 102; 10 min: 114), 123 with a \
             95 % interval"
        );
    }

    #[test]
    fn a_cell_counts_within_only_with_a_95_percent_interval_inside_the_target() {
        let mut points = results::fake::results().points;
        let rows: Vec<&mut CaseSummary> = points.iter_mut().flat_map(|p| &mut p.rows).collect();
        let cells = rows.len();
        let interval = |low: f64, high: f64, coverage: Option<f64>| Interval {
            low,
            high,
            coverage,
        };
        for (i, row) in rows.into_iter().enumerate() {
            row.ideal_ns = 0;
            let mut elapsed = Summary::of(&[100.0]).unwrap();
            // Alternately ±3 % at 95 %, ±3 % at 75 %, ±8 % at 95 %, and no interval.
            elapsed.median_ci = match i % 4 {
                0 => Some(interval(97.0, 103.0, None)),
                1 => Some(interval(97.0, 103.0, Some(0.75))),
                2 => Some(interval(92.0, 108.0, None)),
                _ => None,
            };
            row.elapsed = Some(elapsed);
        }
        let b = bought(&points, 0.05);
        assert_eq!(b.cells, cells);
        assert_eq!(b.at_level, cells.div_ceil(4) + (cells + 1) / 4);
        assert_eq!(b.within, cells.div_ceil(4));
    }

    #[test]
    fn a_price_says_what_the_target_would_take() {
        let price = |more_s| Price {
            target: 0.05,
            processes: 24,
            more_s,
        };
        assert_eq!(price_text(&price(40.0)), "±5 % needs ~40 s");
        assert_eq!(price_text(&price(400.0)), "±5 % needs ~7 min");
        assert_eq!(price_text(&price(1e9)), "±5 % out of reach");
        let precise = Price {
            target: 0.025,
            ..price(1.0)
        };
        assert_eq!(price_text(&precise), "±2.5 % needs ~1 s");
    }
}
