//! The per-task cost of a sweep as a table shown after the sweep's last point: one row per
//! contestant, each metric as `per task + fixed` with its R².

use crate::table::Table;
use analysis::PointSummary;
use analysis::fits::{Fit, Metric};
use units::{bytes, duration};

/// Every table of a run in order: each point's, and each sweep's per-task fits right after
/// the sweep's last point.
pub fn tables(points: &[PointSummary], fits: &[Fit]) -> Vec<Table> {
    let mut fit_tables = fit_tables(points, fits);
    let mut all = Vec::new();
    for (index, point) in points.iter().enumerate() {
        all.push(crate::table(point));
        for (_, fit_table) in fit_tables.extract_if(.., |(after, _)| *after == index) {
            all.push(fit_table);
        }
    }
    all
}

/// The table of each sweep among `fits`, with the index in `points` of the sweep's last
/// point (the table goes after it).
pub fn fit_tables(points: &[PointSummary], fits: &[Fit]) -> Vec<(usize, Table)> {
    let mut sweeps: Vec<Vec<&Fit>> = Vec::new();
    for fit in fits {
        match sweeps.iter_mut().find(|s| same_sweep(s[0], fit)) {
            Some(sweep) => sweep.push(fit),
            None => sweeps.push(vec![fit]),
        }
    }
    sweeps
        .into_iter()
        .filter_map(|sweep| {
            let last = points.iter().rposition(|p| sweep[0].covers(p))?;
            Some((last, fit_table(&sweep)))
        })
        .collect()
}

fn same_sweep(a: &Fit, b: &Fit) -> bool {
    a.scenario == b.scenario && a.param == b.param && a.other_params == b.other_params
}

fn fit_table(sweep: &[&Fit]) -> Table {
    let first = sweep[0];
    let sizes: Vec<u64> = {
        let mut n: Vec<u64> = sweep
            .iter()
            .flat_map(|f| f.points.iter().map(|p| p.n))
            .collect();
        n.sort_unstable();
        n.dedup();
        n
    };
    let others: Vec<String> = first
        .other_params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let mut title = format!("{} · per-task cost", first.scenario);
    if !others.is_empty() {
        title.push_str(&format!(" · {}", others.join(" ")));
    }
    title.push_str(&format!(
        " · {} = {}",
        first.param,
        sizes
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut contestants: Vec<&str> = Vec::new();
    for fit in sweep {
        if !contestants.contains(&fit.contestant.as_str()) {
            contestants.push(&fit.contestant);
        }
    }
    let rows = contestants
        .iter()
        .map(|name| {
            let mut cells = vec![name.to_string()];
            for metric in Metric::ALL {
                let fit = sweep
                    .iter()
                    .find(|f| f.contestant == *name && f.metric == metric);
                cells.push(fit.map_or_else(|| "–".to_string(), |f| cell(f)));
            }
            cells
        })
        .collect();
    Table {
        title,
        headers: crate::table::headers(&[
            "contestant",
            "overhead\nper task + fixed",
            "CPU\nper task + fixed",
            "peak RSS\nper task + fixed",
        ]),
        rows,
        notes: vec![
            "least squares on the medians of valid runs; R² from 3 points on (2 make an exact \
             line); CPU is the whole process's, start-up and inner warm-up included"
                .to_string(),
        ],
    }
}

/// `0.31 µs + 1.20 ms` over `R² 0.999` (or `2 points`).
fn cell(fit: &Fit) -> String {
    let unit: fn(f64) -> String = match fit.metric {
        Metric::OverheadNs | Metric::CpuNs => duration,
        Metric::PeakRssBytes => bytes,
    };
    let sign = if fit.intercept < 0.0 { '−' } else { '+' };
    let quality = match fit.r2 {
        Some(r2) => format!("R² {r2:.3}"),
        None => format!("{} points", fit.points.len()),
    };
    format!(
        "{} {sign} {}\n{quality}",
        unit(fit.slope),
        unit(fit.intercept.abs())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::fits::FitPoint;
    use std::collections::BTreeMap;

    fn fit(contestant: &str, metric: Metric, slope: f64, intercept: f64, n: usize) -> Fit {
        Fit {
            contestant: contestant.into(),
            scenario: "sleep".into(),
            param: "tasks".into(),
            other_params: BTreeMap::from([("delay-ms".into(), 1_000)]),
            metric,
            slope,
            intercept,
            r2: (n >= 3).then_some(0.9994),
            points: [1_000, 10_000, 100_000][..n]
                .iter()
                .map(|&n| FitPoint { n, value: 0.0 })
                .collect(),
        }
    }

    #[test]
    fn one_row_per_contestant_with_each_metric() {
        let fits = [
            fit("tokio", Metric::OverheadNs, 310.0, 1_200_000.0, 3),
            fit("tokio", Metric::PeakRssBytes, 290.0, 2.1 * 1_048_576.0, 3),
            fit("threads", Metric::OverheadNs, 9_000.0, -50_000.0, 2),
        ];
        let table = fit_table(&fits.iter().collect::<Vec<_>>());
        assert_eq!(
            table.title,
            "sleep · per-task cost · delay-ms=1000 · tasks = 1000, 10000, 100000"
        );
        assert_eq!(
            table.rows[0],
            [
                "tokio",
                "310 ns + 1.20 ms\nR² 0.999",
                "–",
                "290 B + 2.10 MiB\nR² 0.999"
            ]
        );
        assert_eq!(table.rows[1][1], "9.00 µs − 50.0 µs\n2 points");
    }
}
