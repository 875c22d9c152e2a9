//! How precise a run is, and how well two runs of the same cases agree — the figures every
//! reproducibility claim in the docs is made with (`taskbench agree`): the share
//! of cells whose 95 % interval is within ±5 % and ±2 % of their median; between two runs,
//! the median and 90th percentile of the cells' relative difference, the share within 5 %,
//! the share of B's medians inside A's intervals, and how many pairs of contestants A tells
//! apart swap order in B. A cell is a valid row's headline figure (the overhead where the
//! point has an ideal time, else the elapsed); where its processes split into modes, its
//! precision is its widest mode's.

use analysis::{CaseSummary, Outcome, PointSummary};
use catalogue::Point;
use serde::Serialize;
use std::collections::BTreeMap;

/// One cell: its median, its interval, its relative half-width (%) and whether its
/// interval is a 95 % one (it states no lower coverage).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cell {
    median: f64,
    low: f64,
    high: f64,
    half_width: f64,
    at_level: bool,
}

/// The cells of a run, by point and contestant.
fn cells(points: &[PointSummary]) -> BTreeMap<(Point, String), Cell> {
    let mut out = BTreeMap::new();
    for point in points {
        for row in &point.rows {
            if let Some(cell) = cell(row) {
                out.insert((point.point.clone(), row.contestant.clone()), cell);
            }
        }
    }
    out
}

fn cell(row: &CaseSummary) -> Option<Cell> {
    if row.outcome != Outcome::Valid {
        return None;
    }
    let figure = match (row.ideal_ns > 0, row.overhead.as_ref()) {
        (true, Some(overhead)) => overhead,
        _ => row.elapsed.as_ref()?,
    };
    if figure.median == 0.0 {
        return None;
    }
    let ci = figure.median_ci?;
    let width = |low: f64, high: f64, median: f64| (high - low) / 2.0 / median.abs() * 100.0;
    let modes = figure.modes.iter().flatten();
    let widest = modes
        .filter(|m| m.median != 0.0)
        .filter_map(|m| m.median_ci.map(|c| width(c.low, c.high, m.median)))
        .reduce(f64::max);
    Some(Cell {
        median: figure.median,
        low: ci.low,
        high: ci.high,
        half_width: widest.unwrap_or_else(|| width(ci.low, ci.high, figure.median)),
        at_level: ci.coverage.is_none_or(|c| c >= stats::LEVEL),
    })
}

/// One run's precision.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Precision {
    pub(crate) cells: usize,
    /// Shares of cells within ±5 % and ±2 %.
    pub(crate) within_5: f64,
    pub(crate) within_2: f64,
    /// The median and widest relative half-width, %.
    pub(crate) median_half_width: f64,
    pub(crate) worst_half_width: f64,
    /// Cells whose interval is a 95 % one (six processes or more).
    pub(crate) at_level: usize,
    /// The share of all cells within ±5 % with a 95 % interval.
    pub(crate) within_5_at_level: f64,
}

/// Two runs' agreement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Agreement {
    /// Cells valid in both.
    pub(crate) cells: usize,
    /// The median and 90th percentile of |A − B| ÷ their mean, %.
    pub(crate) difference_median: f64,
    pub(crate) difference_p90: f64,
    /// The share of cells whose two medians differ by at most 5 %.
    pub(crate) within_5: f64,
    /// The share of cells whose B median falls inside A's interval.
    pub(crate) inside: f64,
    /// Pairs of contestants at a point whose intervals in A do not overlap, and of those,
    /// how many have their order swapped in B.
    pub(crate) separated_pairs: usize,
    pub(crate) flips: usize,
    /// The share of cells whose |B − A| is within the two intervals' half-widths combined,
    /// √(hw_A² + hw_B²): about 95 % where both are honest 95 % intervals.
    pub(crate) combined: f64,
}

/// The precision of `points`; `None` without a valid cell with an interval.
pub(crate) fn precision(points: &[PointSummary]) -> Option<Precision> {
    let cells = cells(points);
    let mut widths: Vec<f64> = cells.values().map(|c| c.half_width).collect();
    widths.sort_by(f64::total_cmp);
    let n = widths.len();
    let share = |limit: f64| widths.iter().filter(|&&w| w <= limit).count() as f64 / n as f64;
    let at_level: Vec<&Cell> = cells.values().filter(|c| c.at_level).collect();
    let within_at_level = at_level.iter().filter(|c| c.half_width <= 5.0).count();
    (n > 0).then(|| Precision {
        cells: n,
        within_5: share(5.0),
        within_2: share(2.0),
        median_half_width: widths[n / 2],
        worst_half_width: widths[n - 1],
        at_level: at_level.len(),
        within_5_at_level: within_at_level as f64 / n as f64,
    })
}

/// How well `b` agrees with `a`; `None` without a cell valid in both.
pub(crate) fn agreement(a: &[PointSummary], b: &[PointSummary]) -> Option<Agreement> {
    let (a, b) = (cells(a), cells(b));
    let common: Vec<(&(Point, String), &Cell, &Cell)> = a
        .iter()
        .filter_map(|(key, x)| Some((key, x, b.get(key)?)))
        .collect();
    let n = common.len();
    if n == 0 {
        return None;
    }
    let mut differences: Vec<f64> = common
        .iter()
        .map(|(_, x, y)| (x.median - y.median).abs() / ((x.median + y.median) / 2.0) * 100.0)
        .collect();
    differences.sort_by(f64::total_cmp);
    let inside = common
        .iter()
        .filter(|(_, x, y)| x.low <= y.median && y.median <= x.high)
        .count();
    let (separated_pairs, flips) = order_flips(&a, &b);
    let combined = common
        .iter()
        .filter(|(_, x, y)| {
            let reach = ((x.high - x.low).powi(2) + (y.high - y.low).powi(2)).sqrt() / 2.0;
            (y.median - x.median).abs() <= reach
        })
        .count();
    Some(Agreement {
        cells: n,
        difference_median: differences[n / 2],
        difference_p90: differences[(n as f64 * 0.9) as usize],
        within_5: differences.iter().filter(|&&d| d <= 5.0).count() as f64 / n as f64,
        inside: inside as f64 / n as f64,
        separated_pairs,
        flips,
        combined: combined as f64 / n as f64,
    })
}

/// Pairs of contestants at one point that `a` tells apart (intervals not overlapping) and
/// that both runs have, and how many of them `b` puts in the other order.
fn order_flips(
    a: &BTreeMap<(Point, String), Cell>,
    b: &BTreeMap<(Point, String), Cell>,
) -> (usize, usize) {
    let mut by_point: BTreeMap<&Point, Vec<&str>> = BTreeMap::new();
    for (point, contestant) in a.keys() {
        if b.contains_key(&(point.clone(), contestant.clone())) {
            by_point.entry(point).or_default().push(contestant);
        }
    }
    let (mut pairs, mut flips) = (0, 0);
    for (point, names) in by_point {
        let get = |map: &BTreeMap<(Point, String), Cell>, name: &str| {
            map[&(point.clone(), name.to_string())]
        };
        for (i, x) in names.iter().enumerate() {
            for y in &names[i + 1..] {
                let (ax, ay) = (get(a, x), get(a, y));
                if ax.high < ay.low || ay.high < ax.low {
                    pairs += 1;
                    if (ax.median < ay.median) != (get(b, x).median < get(b, y).median) {
                        flips += 1;
                    }
                }
            }
        }
    }
    (pairs, flips)
}
