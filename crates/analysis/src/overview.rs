//! The tournament on one screen: contestants × points, each cell a row's figure over the
//! best runtime's figure at that point (× best), and the rows ordered by the geometric mean of their
//! ratios — first the rows with a figure at every point that has one, then the others by
//! how many points they have, so that a row that ran 3 of 9 points (rayon) never outranks
//! the rows that ran them all on a mean over fewer, easier points. One overview for time — the overhead where the
//! scenario has an ideal time, which is what differs between contestants, else the
//! elapsed —, one for the CPU time a measured iteration cost, and one for peak RSS. A
//! reference (`floor`, a hand-written lower bound) is not a runtime to choose: its row
//! stands apart, its cells against the best runtime, never ranked and never the best. An
//! inline cell (the row's tasks ran inside their caller, never through its scheduler) is
//! read the same way: against the best runtime, outside its row's mean, never the best.

use super::timer_share::{self, TimerShare};
use super::{CaseSummary, PointSummary};
use catalogue::Point;
use stats::{Interval, Mode, Summary};

/// Which figure an overview compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// The row's headline time: overhead where the point has an ideal time, else elapsed.
    Time,
    /// The process CPU time of one measured iteration, where contestants report it.
    CpuPerIteration,
    /// Peak RSS of the memory processes.
    PeakRss,
    /// The cold start: a fresh process's first iteration (overhead where there is an
    /// ideal time), as `Time` is the steady state.
    ColdStart,
}

/// A point as a column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Index of the point in the results.
    pub index: usize,
    pub point: Point,
    /// What the figures of this column are: `overhead`, `elapsed`, `CPU/iteration` or
    /// `peak RSS`.
    pub measure: &'static str,
    /// The best (smallest) median of the column's runtimes, ns or bytes: what 1.00 stands
    /// for (a reference's figure never is).
    pub best: Option<f64>,
}

/// One contestant at one point.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Figure {
        /// Figure ÷ the best figure of the column.
        ratio: f64,
        /// The figure (ns or bytes) and its 95 % interval.
        value: f64,
        interval: Option<Interval>,
        /// The ratio's 95 % interval, where the analysis has one (time only).
        ratio_interval: Option<Interval>,
        /// Whether the ratio differs from 1 significantly (`None`: the best, or unknown).
        differs: Option<bool>,
        /// The processes' two modes, where they fell into clearly separated groups: the
        /// figure is then the median of both together, which describes neither.
        modes: Option<[Mode; 2]>,
        /// A steady figure most of whose processes had not settled (time only).
        unsteady: bool,
        /// The row's tasks ran inside their caller here: ranked apart (not in the row's
        /// mean, never the best).
        inline: bool,
        /// The row's timer granularity, where it bears on this overhead (doxbee and
        /// parallel: time only).
        timer: Option<Box<TimerShare>>,
    },
    /// No figure: `n/a`, or the failure's status.
    Status(String),
    /// The contestant did not take part at this point.
    Absent,
}

/// A contestant's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub contestant: String,
    pub cells: Vec<Cell>,
    /// Geometric mean of the row's ratios, over the columns where it has a ranked figure
    /// (not inline).
    pub mean_ratio: Option<f64>,
    /// How many columns it has a ranked figure in.
    pub figures: usize,
}

/// The matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    pub quantity: Quantity,
    pub columns: Vec<Column>,
    /// The runtimes, ranked: best geometric mean first; rows with no figure last, by name.
    pub rows: Vec<Row>,
    /// The references (`floor`), by name: what the machine allows, shown apart, each cell
    /// against the best runtime; never ranked.
    pub references: Vec<Row>,
}

impl Overview {
    /// Whether any cell holds a figure.
    pub fn has_figures(&self) -> bool {
        self.rows
            .iter()
            .chain(&self.references)
            .flat_map(|r| &r.cells)
            .any(|c| matches!(c, Cell::Figure { .. }))
    }

    /// The overview of `points` for `quantity`.
    pub fn of(points: &[PointSummary], quantity: Quantity) -> Overview {
        // Each column's figure and its best value, decided once.
        let judged: Vec<(Figure, Option<f64>)> = points
            .iter()
            .map(|point| {
                let figure = Figure::of(point, quantity);
                (figure, best(point, figure))
            })
            .collect();
        let columns: Vec<Column> = points
            .iter()
            .zip(&judged)
            .enumerate()
            .map(|(index, (point, &(figure, best)))| Column {
                index,
                point: point.point.clone(),
                measure: figure.name(),
                best,
            })
            .collect();
        let mut names: Vec<(&str, bool)> = Vec::new();
        for row in points.iter().flat_map(|p| &p.rows) {
            if !names.iter().any(|(n, _)| *n == row.contestant) {
                names.push((&row.contestant, row.reference));
            }
        }
        let (references, runtimes): (Vec<_>, Vec<_>) = names.into_iter().partition(|n| n.1);
        let row_of = |(name, _): (&str, bool)| row(points, &judged, name);
        let mut references: Vec<Row> = references.into_iter().map(row_of).collect();
        references.sort_by(|a, b| a.contestant.cmp(&b.contestant));
        let mut rows: Vec<Row> = runtimes.into_iter().map(row_of).collect();
        // More points first (every row that ran them all ranks before any that did not),
        // then the geometric mean; rows with no figure last, by name.
        rows.sort_by(|a, b| match (a.mean_ratio, b.mean_ratio) {
            (Some(x), Some(y)) => b
                .figures
                .cmp(&a.figures)
                .then(x.total_cmp(&y))
                .then_with(|| a.contestant.cmp(&b.contestant)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => a.contestant.cmp(&b.contestant),
        });
        Overview {
            quantity,
            columns,
            rows,
            references,
        }
    }
}

/// The row of `name`: its cell at each point, and the geometric mean of its ratios.
fn row(points: &[PointSummary], judged: &[(Figure, Option<f64>)], name: &str) -> Row {
    let cells: Vec<Cell> = points
        .iter()
        .zip(judged)
        .map(|(point, &(figure, best))| cell(points, point, name, figure, best))
        .collect();
    let logs: Vec<f64> = cells
        .iter()
        .filter_map(|c| match c {
            Cell::Figure {
                ratio,
                inline: false,
                ..
            } if *ratio > 0.0 => Some(ratio.ln()),
            _ => None,
        })
        .collect();
    let mean_ratio =
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp());
    Row {
        contestant: name.to_string(),
        cells,
        mean_ratio,
        figures: logs.len(),
    }
}

/// The figure a column compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Figure {
    Overhead,
    Elapsed,
    CpuPerIteration,
    PeakRss,
    Cold,
}

impl Figure {
    /// A time column compares overheads where the point has an ideal time and its best
    /// overhead is positive (a ratio to a zero or negative overhead says nothing).
    fn of(point: &PointSummary, quantity: Quantity) -> Figure {
        match quantity {
            Quantity::PeakRss => Figure::PeakRss,
            Quantity::CpuPerIteration => Figure::CpuPerIteration,
            Quantity::ColdStart => Figure::Cold,
            Quantity::Time
                if point.rows.first().is_some_and(|r| r.ideal_ns > 0)
                    && best(point, Figure::Overhead).is_some_and(|b| b > 0.0) =>
            {
                Figure::Overhead
            }
            Quantity::Time => Figure::Elapsed,
        }
    }

    fn summary(self, row: &CaseSummary) -> Option<Summary> {
        match self {
            Figure::Overhead => row.overhead,
            Figure::Elapsed => row.elapsed,
            Figure::CpuPerIteration => row.cpu_per_iteration,
            Figure::PeakRss => row.peak_rss,
            Figure::Cold => row.cold_headline().copied(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Figure::Overhead => "overhead",
            Figure::Elapsed => "elapsed",
            Figure::CpuPerIteration => "CPU/iteration",
            Figure::PeakRss => "peak RSS",
            Figure::Cold => "cold start",
        }
    }
}

/// The smallest median of `figure` among the point's valid runtimes (a reference or an
/// inline cell is never the best). A CPU time of 0 is below its clock's resolution (the BEAM counts
/// milliseconds), not a best to divide by.
fn best(point: &PointSummary, figure: Figure) -> Option<f64> {
    point
        .rows
        .iter()
        .filter(|r| !r.reference && !r.inline && r.status_label().is_none())
        .filter_map(|r| figure.summary(r).map(|s| s.median))
        .filter(|&m| figure != Figure::CpuPerIteration || m > 0.0)
        .min_by(f64::total_cmp)
}

/// The cell of `name` at `point`; `points` are the whole run's, for its timer granularity.
fn cell(
    points: &[PointSummary],
    point: &PointSummary,
    name: &str,
    figure: Figure,
    best: Option<f64>,
) -> Cell {
    let Some(row) = point.rows.iter().find(|r| r.contestant == name) else {
        return Cell::Absent;
    };
    if let Some(status) = row.status_label() {
        return Cell::Status(status);
    }
    let (Some(summary), Some(best)) = (figure.summary(row), best) else {
        return Cell::Status("–".into());
    };
    if best <= 0.0 {
        return Cell::Status("–".into());
    }
    // The analysis's interval of elapsed ÷ the best elapsed; for overheads the same
    // resamples read as overheads: (r·E_best − ideal) / O_best.
    let ratio_interval = match figure {
        Figure::PeakRss | Figure::CpuPerIteration | Figure::Cold => None,
        Figure::Elapsed => row.ratio_ci,
        Figure::Overhead => row.ratio_ci.map(|ci| {
            let elapsed_best = best + row.ideal_ns as f64;
            let map = |r: f64| (r * elapsed_best - row.ideal_ns as f64) / best;
            Interval::new(map(ci.low), map(ci.high))
        }),
    };
    Cell::Figure {
        ratio: summary.median / best,
        value: summary.median,
        interval: summary.median_ci,
        ratio_interval,
        differs: match figure {
            Figure::PeakRss | Figure::CpuPerIteration | Figure::Cold => None,
            Figure::Overhead | Figure::Elapsed => row.differs_from_best,
        },
        modes: summary.modes,
        unsteady: matches!(figure, Figure::Overhead | Figure::Elapsed) && row.unsteady(),
        inline: row.inline,
        timer: match figure {
            Figure::Overhead => timer_share::of(points, row).map(Box::new),
            _ => None,
        },
    }
}
