//! Warm-up curves in words and one-line pictures: per contestant and scenario, each
//! process's curve as a strip of blocks (its height the time over the steady time, ×1.4 a
//! step), where it settled, and the warm-up the table holds beside the one the curves ask.

use crate::warm_up::curves::{CaseCurves, ProcessCurve};
use units::{count, duration};
use words::Table;

/// Blocks from the steady time (lowest) up, each ×√2 the one below.
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Characters of a curve's strip at most.
pub(crate) const STRIP: usize = 30;

/// A process's curve as a strip: each character the median of its share of the iterations,
/// as high as its time is above the steady time.
pub(crate) fn strip(curve: &ProcessCurve) -> String {
    let n = curve.series.len();
    if n == 0 || curve.steady_ns <= 0.0 {
        return String::new();
    }
    let width = n.min(STRIP);
    (0..width)
        .map(|i| {
            let block = &curve.series[i * n / width..((i + 1) * n / width).max(i * n / width + 1)];
            let value = stats::median(block).unwrap_or(curve.steady_ns);
            let level = ((value / curve.steady_ns).max(1.0).log2() * 2.0).round();
            LEVELS[(level as usize).min(LEVELS.len() - 1)]
        })
        .collect()
}

/// One row per process of every case: contestant, scenario, the strip, its class and where
/// it settled, first ÷ steady, the steady time; the proposed and current warm-up on the
/// case's first row.
pub(crate) fn curves_table(cases: &[(CaseCurves, u32, String)]) -> Table {
    let mut rows = Vec::new();
    for (case, current, source) in cases {
        for (i, process) in case.processes.iter().enumerate() {
            let (name, warm_up) = if i == 0 {
                (
                    format!("{}\n{}", case.contestant, case.scenario),
                    format!(
                        "{} (now {current}, {source})\n{}",
                        case.proposed,
                        work_and_time(case)
                    ),
                )
            } else {
                (String::new(), String::new())
            };
            rows.push(vec![
                name,
                strip(process),
                format!("{}\nat {}", process.class.label(), process.settled_at),
                format!("{:.1}×", process.first_over_steady),
                duration(process.steady_ns),
                warm_up,
            ]);
        }
    }
    Table {
        title: "warm-up curves".into(),
        headers: words::table::headers(&[
            "contestant\nscenario",
            "curve",
            "class\nsettled",
            "first ÷\nsteady",
            "steady",
            "warm-up",
        ]),
        rows,
        notes: vec![
            "curve: ▁ the steady time, each block higher ×1.4".into(),
            "each process ran the scenario from a cold start with no warm-up, timing every \
             iteration; settled: where its times first reach their last level (the start of its \
             first level within 10 % of its last, between its change points); warm-up: the latest settling \
             among the processes, +25 %, at least 1 — what `--write` keeps in the contestant's \
             warm-up.toml; beneath it, the work it does (its iterations × the scenario's \
             operations: tasks, messages, fake I/O ops, yields, sleeps) and the time it takes \
             (the median process's first that many iterations) — what bounds the warm-up at \
             other sizes (docs/MEASUREMENT.md)"
                .into(),
        ],
    }
}

/// The proposed warm-up as work and time: `= 200,000 ops, 52.0 ms` (the scenario at its
/// reference point, the size the curves were run at).
fn work_and_time(case: &CaseCurves) -> String {
    let proposed = case.proposed as usize;
    let operations = catalogue::Scenario::reference(&case.scenario)
        .map_or(0, |s| s.operations())
        .saturating_mul(proposed as u64);
    let times: Vec<f64> = case
        .processes
        .iter()
        .map(|p| p.series.iter().take(proposed).sum())
        .collect();
    let time = stats::median(&times).unwrap_or(0.0);
    format!("= {} ops, {}", count(operations as f64), duration(time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warm_up::curves::process_curve;

    #[test]
    fn the_warm_up_is_said_as_work_and_time() {
        let case = CaseCurves {
            contestant: "jit".into(),
            scenario: "spawn".into(),
            processes: vec![process_curve(vec![4e6, 2e6, 1e6, 1e6, 1e6])],
            proposed: 3,
        };
        // Three iterations of spawn at its quick size (10,000 tasks), 4 + 2 + 1 ms.
        assert_eq!(work_and_time(&case), "= 30.0 k ops, 7.00 ms");
    }

    #[test]
    fn a_curve_falls_to_the_floor_of_its_strip() {
        let mut series = vec![16e6, 8e6, 4e6, 2e6];
        series.extend(std::iter::repeat_n(1e6, 26));
        let strip = strip(&process_curve(series));
        assert_eq!(strip.chars().count(), 30);
        assert!(strip.starts_with("█▇▅▃"), "{strip}");
        assert!(strip.ends_with("▁▁▁"), "{strip}");
    }
}
