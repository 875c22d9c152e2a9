//! A comparison in words: its table (time, peak RSS, CPU and instructions NEW / BASE per
//! case, with intervals, verdicts and marks for how far each interval reaches), and what
//! the gate says of it.

use crate::compare::change::{CaseChange, CpuKind};
use crate::compare::gate::{Comparison, FAMILY_WISE, GateOutcome, Judgement};
use crate::compare::ratio::{Change, Verdict};
use catalogue::Point;
use stats::Mode;
use words::Table;
use words::condition::{CONDITION_MARK, condition_note};
use words::table::modes_text;

/// `gate: 9 judgements, each at 99.4444 % (Bonferroni: …)`.
pub(crate) fn gate_line(outcome: &GateOutcome) -> String {
    format!(
        "gate: {} judgements, each at {:.4} % (Bonferroni: {:.0} % false alarms for all \
         of them together)",
        outcome.judged.len(),
        outcome.coverage * 100.0,
        FAMILY_WISE * 100.0
    )
}

/// The warning when judgements across sessions have no history to widen them.
pub(crate) fn unhistoried_warning(outcome: &GateOutcome) -> String {
    format!(
        "warning: {} of the {} judgements have fewer than {} other sessions \
         of their case in the store, so only these two runs' processes bound them: separate \
         runs differ by more (docs/HISTORY.md measures how much)",
        outcome.unhistoried,
        outcome.judged.len(),
        analysis::run_to_run::MIN_SESSIONS
    )
}

/// `spawn tasks=10 · tokio: slower by 12.0 % (more than 5.0 %)`.
pub(crate) fn failure(judgement: &Judgement) -> String {
    format!(
        "{} · {}: {} by {:.1} % (more than {:.1} %)",
        judgement.case.point,
        judgement.case.contestant,
        judgement.what,
        (judgement.change.ratio - 1.0) * 100.0,
        judgement.threshold * 100.0
    )
}

/// ` ‡` where the interval takes in the store's run-to-run spread, ` †` where a comparison
/// across sessions has no such history for the case.
fn spread_mark(change: Option<Change>, across: bool) -> &'static str {
    match (change, across) {
        (
            Some(Change {
                spread: Some(_), ..
            }),
            _,
        ) => " ‡",
        (
            Some(Change {
                interval: Some(_), ..
            }),
            true,
        ) => " †",
        _ => "",
    }
}

/// Whether a difference of the two runs' machine conditions bears on `point`.
fn suspected(comparison: &Comparison, point: &Point) -> bool {
    (comparison.conditions.as_ref()).is_some_and(|c| !c.suspects(point).is_empty())
}

/// The legends of the ‡ and † marks, where rows bear them.
fn interval_notes(comparison: &Comparison) -> Vec<String> {
    let mut notes = Vec::new();
    let mark = |change: Option<Change>| spread_mark(change, comparison.across);
    let marked = |m: &str| {
        comparison.found.iter().any(|c| {
            [c.time, c.peak_rss, c.cpu]
                .into_iter()
                .any(|f| mark(f) == m)
        })
    };
    if marked(" ‡") {
        notes.push(
            "‡ the interval also takes in the run-to-run spread of the store's other sessions \
             of the case on this machine (Student's t on their medians, in quadrature)"
                .into(),
        );
    }
    if marked(" †") {
        notes.push(format!(
            "† fewer than {} other sessions of the case in the store: the interval covers these \
             two runs' processes only, and understates how much separate runs differ",
            analysis::run_to_run::MIN_SESSIONS
        ));
    }
    notes
}

/// The comparison's table: a row per case, each figure's ratio NEW / BASE over its interval.
pub(crate) fn table(comparison: &Comparison) -> Table {
    let mark = |change: Option<Change>| spread_mark(change, comparison.across);
    let counted = comparison.found.iter().any(|c| c.instructions.is_some());
    let suspected = |point: &Point| suspected(comparison, point);
    let per_iteration = comparison
        .found
        .iter()
        .any(|c| c.cpu.is_some() && c.cpu_kind == CpuKind::PerIteration);
    let rows = comparison
        .found
        .iter()
        .map(|c| {
            // Time and CPU are what the machine's condition moves; memory it does not.
            let condition_mark = if suspected(&c.point) {
                CONDITION_MARK
            } else {
                ""
            };
            let mut row = vec![
                c.point.to_string(),
                contestant_cell(c, comparison),
                cell(
                    c.time,
                    ("faster", "slower"),
                    &format!("{}{}", mark(c.time), modes_mark(c)),
                ) + condition_mark,
                cell(c.peak_rss, ("smaller", "bigger"), mark(c.peak_rss)),
                cpu_cell(c, per_iteration, mark(c.cpu)) + condition_mark,
            ];
            if counted {
                row.push(cell(c.instructions, ("fewer", "more"), ""));
            }
            row
        })
        .collect();
    let mut notes = vec![
        "ratio of pooled medians with its 95 % two-level bootstrap interval; a verdict only \
         when the interval excludes 1, and no interval with fewer than 2 processes a side"
            .to_string(),
    ];
    notes.extend(machines_note(comparison));
    notes.extend(comparison.found.iter().filter_map(modes_note));
    notes.extend(interval_notes(comparison));
    if comparison.found.iter().any(|c| suspected(&c.point)) {
        notes.push(condition_note());
    }
    if per_iteration {
        notes.push(CPU_NOTE.into());
    }
    let mut headers = vec![
        "point",
        "contestant",
        "time\nnew / base",
        "peak RSS\nnew / base",
        "CPU\nnew / base",
    ];
    if counted {
        headers.push("instructions\nnew / base");
        notes.push(format!(
            "instructions: one iteration's count (run --instructions), exact, so no interval; \
             within ±{} % they are the same",
            crate::compare::change::SAME_COUNT * 100.0
        ));
    }
    Table {
        title: match comparison.machines {
            Some(_) => format!("{} · {MACHINES_MARK}", comparison.title),
            None => comparison.title.clone(),
        },
        headers: words::table::headers(&headers),
        rows,
        notes,
    }
}

/// What marks every row of a comparison across machines (`--mixed-machines`), after the
/// contestant as `merge --mixed-machines` names its rows: BASE's machine `m1`, NEW's `m2`.
const MACHINES_MARK: &str = "m1 → m2";

/// `tokio`, or `tokio · m1 → m2` where the sides ran on different machines.
fn contestant_cell(case: &CaseChange, comparison: &Comparison) -> String {
    match comparison.machines {
        Some(_) => analysis::on_machine(&case.contestant, MACHINES_MARK),
        None => case.contestant.clone(),
    }
}

/// `m1 → m2: base on …, new on …`, where the sides ran on different machines.
fn machines_note(comparison: &Comparison) -> Option<String> {
    let [base, new] = comparison.machines.as_ref()?;
    Some(format!(
        "{MACHINES_MARK}: different machines (--mixed-machines) — base on m1, {base}; new on \
         m2, {new}: every ratio holds the machines' difference as well as the change"
    ))
}

/// ` ~` where either side's processes fell into modes.
fn modes_mark(case: &CaseChange) -> &'static str {
    if case.modes.is_some() { " ~" } else { "" }
}

/// `~ skynet · tokio: base 3.60 ms · 10.0 ms in 3 of 12 processes; new …`: each side's
/// modes, and what the time column compares, where either side has modes.
pub(crate) fn modes_note(case: &CaseChange) -> Option<String> {
    let shift = case.modes?;
    let side = |modes: Option<[Mode; 2]>| match modes.map(modes_text) {
        Some((main, other)) => format!("{main} · {other}"),
        None => "one group".to_string(),
    };
    Some(format!(
        "~ {} · {}: modes — base {}; new {}. Time compares each group with its counterpart \
         (the one that moved most), so a shift of shares alone is no change; all processes \
         together {:.3}",
        case.point,
        case.contestant,
        side(shift.base),
        side(shift.new),
        shift.overall.ratio
    ))
}

/// The legend of the CPU column where some row compares CPU per iteration.
const CPU_NOTE: &str = "CPU: the process CPU time of one measured iteration, as the \
     contestants report it; \"process\": the whole process's, start-up included, where a side's \
     lines do not carry it";

/// The CPU cell, its figure named where rows compare different ones.
fn cpu_cell(c: &CaseChange, per_iteration: bool, mark: &str) -> String {
    let text = cell(c.cpu, ("less", "more"), mark);
    match (per_iteration, c.cpu_kind, c.cpu) {
        (true, CpuKind::Process, Some(_)) => format!("{text}\nprocess"),
        _ => text,
    }
}

/// `1.12 slower` over `1.05–1.19`, or `1.01` over its interval when it holds 1.
fn cell(change: Option<Change>, (lower, higher): (&str, &str), mark: &str) -> String {
    let Some(change) = change else {
        return "–".into();
    };
    let verdict = match change.verdict {
        Verdict::Lower => format!(" {lower}"),
        Verdict::Higher => format!(" {higher}"),
        Verdict::NoChange => String::new(),
    };
    match change.interval {
        Some(i) => format!(
            "{:.3}{verdict}\n{:.3}–{:.3}{mark}",
            change.ratio, i.low, i.high
        ),
        None => format!("{:.3}{verdict}", change.ratio),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::mode_shift::time_change;

    fn processes(medians: &[f64]) -> Vec<Vec<f64>> {
        stats::tight_processes(medians, 1e6)
    }

    #[test]
    fn a_shift_of_shares_is_said_as_shares() {
        let fast = [3.6, 3.7, 3.8, 3.9, 3.6, 3.7, 3.8, 3.9, 3.6];
        let slow = [9.8, 9.9, 10.0, 9.8, 9.9, 10.0];
        let base = processes(&[&fast[..9], &slow[..3]].concat());
        let new = processes(&[&fast[..6], &slow[..6]].concat());
        let (time, modes) = time_change(&base, &new, 0.0);
        let case = CaseChange {
            point: "skynet size=10000".parse().unwrap(),
            base: "tokio".into(),
            contestant: "tokio".into(),
            time,
            modes,
            peak_rss: None,
            cpu: None,
            cpu_kind: CpuKind::Process,
            instructions: None,
        };
        let note = modes_note(&case).unwrap();
        assert!(
            note.starts_with(
                "~ skynet size=10000 · tokio: modes — base 3.70 ms · 9.90 ms in 3 of 12 \
                 processes; new 3.70 ms · 9.90 ms in 6 of 12 processes."
            ),
            "{note}"
        );
        let comparison = Comparison {
            title: "compare".into(),
            found: vec![case],
            across: false,
            conditions: None,
            machines: None,
        };
        let table = table(&comparison);
        let time = &table.rows[0][2];
        assert!(time.ends_with(" ~"), "{time}");
        assert!(!time.contains("slower"), "{time}");
        assert!(table.notes.iter().any(|n| n.starts_with("~ skynet")));
    }

    use analysis::condition::{ConditionComparison, Gauge, GaugeShift};

    fn case(point: &str) -> CaseChange {
        CaseChange {
            point: point.parse().unwrap(),
            base: "tokio".into(),
            contestant: "tokio".into(),
            time: Some(Change {
                ratio: 1.3,
                interval: None,
                verdict: Verdict::NoChange,
                bootstrap: None,
                spread: None,
            }),
            modes: None,
            peak_rss: None,
            cpu: None,
            cpu_kind: CpuKind::Process,
            instructions: None,
        }
    }

    fn comparison(timer_differs: bool) -> Comparison {
        Comparison {
            title: "compare · a → b".into(),
            found: vec![case("sleep tasks=10 delay-ms=200"), case("spawn tasks=10")],
            across: true,
            conditions: Some(ConditionComparison {
                gauges: vec![GaugeShift {
                    gauge: Gauge::Timer1ms,
                    before: Some(60_000.0),
                    after: Some(900_000.0),
                    differs: timer_differs,
                }],
            }),
            machines: None,
        }
    }

    #[test]
    fn rows_a_differing_condition_bears_on_are_marked_and_noted() {
        let marked = table(&comparison(true));
        let times: Vec<&str> = marked.rows.iter().map(|r| r[2].as_str()).collect();
        // Late timers bear on the sleep, which waits on them, not on the spawn.
        assert_eq!(times, ["1.300 §", "1.300"]);
        assert!(
            marked
                .notes
                .iter()
                .any(|n| n.starts_with("§ the two runs' machine")),
            "{:?}",
            marked.notes
        );
        let steady = table(&comparison(false));
        assert!(steady.rows.iter().all(|r| r[2] == "1.300"));
        assert!(!steady.notes.iter().any(|n| n.starts_with('§')));
    }

    #[test]
    fn every_row_of_a_comparison_across_machines_is_marked() {
        let mut across = comparison(false);
        across.machines = Some(["AMD EPYC · 2 cores · 8 GiB".into(), "Xeon · 4 cores".into()]);
        let marked = table(&across);
        let contestants: Vec<&str> = marked.rows.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(contestants, ["tokio · m1 → m2", "tokio · m1 → m2"]);
        assert!(marked.title.ends_with(" · m1 → m2"), "{}", marked.title);
        assert!(
            marked.notes.iter().any(|n| n.starts_with(
                "m1 → m2: different machines (--mixed-machines) — base on m1, AMD EPYC · 2 cores"
            )),
            "{:?}",
            marked.notes
        );
        let same = table(&comparison(false));
        assert!(same.rows.iter().all(|r| r[1] == "tokio"));
        assert!(!same.notes.iter().any(|n| n.starts_with("m1 → m2")));
    }
}
