//! Where a runtime's timer granularity bears on an overhead: doxbee and parallel wait on
//! fake I/O ops of `io-ms` in turn (7 and 2 waits), so a timer that oversleeps each 1 ms
//! sleep by a millisecond (tokio's 1 ms wheel, the BEAM's whole milliseconds, Crystal's
//! coarse clock) puts that rounding into the overhead. The timer point of the same run at
//! the op's length says by how much; the overview states it beside the cell rather than
//! subtracting it (the rounding is the runtime's own: docs/FAIRNESS.md).

use super::{CaseSummary, PointSummary};

/// A share of the oversleep of one op's length below which the granularity is not marked.
pub(crate) const MARKED_SHARE: f64 = 0.25;

/// A row's timer granularity beside one of its cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimerShare {
    /// The median oversleep (p50 of each process) of one sleep of the op's length.
    pub oversleep_ns: f64,
    /// The length of one op, ns.
    pub op_ns: f64,
    /// How many ops the scenario waits on in turn.
    pub waits: u64,
}

impl TimerShare {
    /// The part of the overhead the granularity accounts for: waits × oversleep.
    pub fn ns(&self) -> f64 {
        self.oversleep_ns * self.waits as f64
    }

    /// Whether it is large enough to state: an oversleep of at least [`MARKED_SHARE`] of
    /// the op.
    pub fn marked(&self) -> bool {
        self.oversleep_ns >= MARKED_SHARE * self.op_ns
    }
}

/// The timer share of `row` (at a point of `points`): `None` unless its scenario waits on
/// fake I/O and the run has the row's timer at the op's length.
pub(crate) fn of(points: &[PointSummary], row: &CaseSummary) -> Option<TimerShare> {
    let op_ms = *row.point.params.get("io-ms")?;
    if op_ms == 0 || row.ideal_ns == 0 {
        return None;
    }
    let op_ns = (op_ms * 1_000_000) as f64;
    let oversleep_ns = points
        .iter()
        .filter(|p| p.point.scenario == "timer")
        .flat_map(|p| &p.rows)
        .filter(|r| r.contestant == row.contestant && r.status_label().is_none())
        .find(|r| r.point.params.get("step-us") == Some(&(op_ms * 1_000)))
        .and_then(|r| r.extra.get("oversleep_p50_ns").copied())?;
    Some(TimerShare {
        oversleep_ns,
        op_ns,
        waits: (row.ideal_ns as f64 / op_ns).round() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid row of fake records, made this one.
    fn row(contestant: &str, scenario: &str, params: &[(&str, u64)], ideal_ns: u64) -> CaseSummary {
        let records = crate::fake::runs("a", 10, &[1_000, 1_000, 1_000], 1_000);
        let mut row = crate::summarize(&records, &crate::Apart::none())[0].rows[0].clone();
        row.contestant = contestant.into();
        let params = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        row.point = catalogue::Point::new(scenario, &params);
        row.ideal_ns = ideal_ns;
        row.extra.clear();
        row
    }

    fn point(scenario: &str, rows: Vec<CaseSummary>) -> PointSummary {
        PointSummary {
            point: catalogue::Point::new(scenario, &Default::default()),
            seed: None,
            rows,
        }
    }

    #[test]
    fn doxbee_bears_seven_oversleeps_of_the_timer_at_its_op_length() {
        let mut timer = row("tokio", "timer", &[("step-us", 1_000), ("total-ms", 50)], 0);
        timer.extra.insert("oversleep_p50_ns".into(), 1.05e6);
        let doxbee = row(
            "tokio",
            "doxbee",
            &[("requests", 2000), ("io-ms", 1)],
            7_000_000,
        );
        let points = [
            point("timer", vec![timer]),
            point("doxbee", vec![doxbee.clone()]),
        ];
        let share = of(&points, &doxbee).unwrap();
        assert_eq!(share.waits, 7);
        assert!((share.ns() - 7.35e6).abs() < 1.0);
        assert!(share.marked());
    }

    #[test]
    fn a_fine_timer_is_not_marked_and_another_step_says_nothing() {
        let mut fine = row("node", "timer", &[("step-us", 1_000)], 0);
        fine.extra.insert("oversleep_p50_ns".into(), 0.1e6);
        let mut other = row("go", "timer", &[("step-us", 500)], 0);
        other.extra.insert("oversleep_p50_ns".into(), 0.9e6);
        let points = [point("timer", vec![fine, other])];
        let parallel = |name| row(name, "parallel", &[("io-ms", 1)], 2_000_000);
        assert!(!of(&points, &parallel("node")).unwrap().marked());
        assert_eq!(of(&points, &parallel("go")), None, "no timer at 1 ms");
        assert_eq!(of(&points, &row("node", "spawn", &[], 0)), None);
    }
}
