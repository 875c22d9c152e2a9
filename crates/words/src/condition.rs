//! The machine's condition in words: the one header line of a run (`machine: timer 1 ms
//! +62.0 µs · …`), and the block `compare` and the gate print before their table, two runs'
//! conditions side by side. analysis/condition.rs decides what differs.

use analysis::condition::{ConditionComparison, ConditionSummary, Gauge, GaugeShift, summarize};
use measure::machine::MachineLoad;
use units::{duration, percent};

/// The mark on a comparison's time and CPU cells whose difference the machine's condition
/// could explain.
pub const CONDITION_MARK: &str = " §";

/// What a gauge is called.
pub(crate) fn gauge_name(gauge: Gauge) -> &'static str {
    match gauge {
        Gauge::Timer1ms => "timer 1 ms",
        Gauge::Timer20ms => "timer 20 ms",
        Gauge::CpuLoop => "CPU loop",
        Gauge::Steal => "steal",
    }
}

/// A gauge's value: lateness as `+62.0 µs`, the loop as `5.10 ms`, steal as `3.0 %`;
/// `–` where it was not read.
pub(crate) fn gauge_value(gauge: Gauge, value: Option<f64>) -> String {
    let Some(v) = value else {
        return "–".into();
    };
    match gauge {
        Gauge::Timer1ms | Gauge::Timer20ms => format!("+{}", duration(v)),
        Gauge::CpuLoop => duration(v),
        Gauge::Steal => percent(v),
    }
}

/// `machine: timer 1 ms +62.0 µs · 20 ms +80.0 µs · CPU loop 5.10 ms · steal 3.0 % · steady`
/// (or `changed during the run: steal`).
pub(crate) fn condition_line(summary: &ConditionSummary) -> String {
    let figures: Vec<String> = summary
        .gauges
        .iter()
        .map(|&(gauge, value)| {
            // The 20 ms timer follows the 1 ms one: `timer` once.
            let name = gauge_name(gauge).trim_start_matches(match gauge {
                Gauge::Timer20ms => "timer ",
                _ => "",
            });
            format!("{name} {}", gauge_value(gauge, value))
        })
        .collect();
    let state = if summary.drift.is_empty() {
        "steady".to_string()
    } else {
        let moved: Vec<&str> = summary.drift.iter().map(|s| gauge_name(s.gauge)).collect();
        format!("changed during the run: {}", moved.join(", "))
    };
    format!("machine: {} · {state}", figures.join(" · "))
}

/// The `machine:` line of a condition as a session kept it (the store's).
pub fn condition_text(condition: &measure::condition::Condition) -> String {
    condition_line(&summarize(condition))
}

/// The `machine:` line of a run whose condition was probed (none for older results).
pub fn run_condition_line(machine: Option<&MachineLoad>) -> Option<String> {
    let condition = machine?.condition.as_ref()?;
    Some(condition_line(&summarize(condition)))
}

/// `steal 2.0 % → 20 %`.
pub(crate) fn shift(shift: &GaugeShift) -> String {
    format!(
        "{} {} → {}",
        gauge_name(shift.gauge),
        gauge_value(shift.gauge, shift.before),
        gauge_value(shift.gauge, shift.after)
    )
}

/// The block before a comparison's table: each gauge, BASE → NEW, those beyond the probe's
/// own noise marked.
pub fn condition_block(comparison: &ConditionComparison) -> Vec<String> {
    let mut lines = vec!["machine condition, base → new (median of each run's probes):".into()];
    lines.extend(comparison.gauges.iter().map(|g| {
        let differs = if g.differs {
            "  — differs beyond the probe's noise"
        } else {
            ""
        };
        format!("  {}{differs}", shift(g))
    }));
    lines
}

/// The note under a comparison's table when rows carry [`CONDITION_MARK`].
pub fn condition_note() -> String {
    format!(
        "{} the two runs' machine conditions differ beyond the probe's noise in a gauge that \
         bears on this row's time and CPU (timer lateness where the scenario waits on timers, \
         the CPU loop where it does not, steal everywhere): part of a difference there may be \
         the machine's",
        CONDITION_MARK.trim()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(drift: Vec<GaugeShift>) -> ConditionSummary {
        ConditionSummary {
            gauges: vec![
                (Gauge::Timer1ms, Some(62_000.0)),
                (Gauge::Timer20ms, Some(80_000.0)),
                (Gauge::CpuLoop, Some(5_100_000.0)),
                (Gauge::Steal, Some(0.03)),
            ],
            drift,
        }
    }

    #[test]
    fn the_condition_is_one_line() {
        assert_eq!(
            condition_line(&summary(Vec::new())),
            "machine: timer 1 ms +62.0 µs · 20 ms +80.0 µs · CPU loop 5.10 ms · steal 3.0 % \
             · steady"
        );
        let stolen = GaugeShift {
            gauge: Gauge::Steal,
            before: Some(0.02),
            after: Some(0.2),
            differs: true,
        };
        let line = condition_line(&summary(vec![stolen]));
        assert!(line.ends_with("· changed during the run: steal"), "{line}");
        assert_eq!(shift(&stolen), "steal 2.0 % → 20 %");
    }

    #[test]
    fn the_compare_block_marks_what_differs() {
        let comparison = ConditionComparison {
            gauges: vec![
                GaugeShift {
                    gauge: Gauge::Timer1ms,
                    before: Some(62_000.0),
                    after: Some(400_000.0),
                    differs: true,
                },
                GaugeShift {
                    gauge: Gauge::Steal,
                    before: None,
                    after: Some(0.02),
                    differs: false,
                },
            ],
        };
        assert_eq!(
            condition_block(&comparison),
            [
                "machine condition, base → new (median of each run's probes):",
                "  timer 1 ms +62.0 µs → +400 µs  — differs beyond the probe's noise",
                "  steal – → 2.0 %",
            ]
        );
    }
}
