//! The regression gate: two sides of a comparison (two runs, or one run's variants against
//! their contestants), their case-by-case changes (compare/change.rs) widened by the
//! store's run-to-run spread where it has one (analysis/run_to_run.rs), and the judgement
//! of every change against its threshold at one family-wise false-alarm rate (Bonferroni).

use super::change::{CaseChange, CpuKind, changes, family, variant_changes};
use super::ratio::Change;
use super::ratio::{interval_at, with_spread};
use analysis::condition::ConditionComparison;
use analysis::run_to_run::Spreads;
use catalogue::Point;
use exit::{ExitClass, fail};
use measure::condition::Condition;
use measure::machine::Machine;
use run::RunRecord;

/// One side of a comparison: what it is called and its measured runs.
pub struct Side {
    pub(crate) label: String,
    pub(crate) runs: Vec<RunRecord>,
    /// When it started and where, to find the store's other sessions of its cases.
    pub(crate) started: String,
    pub(crate) machine: Machine,
    /// The machine's condition through the run, where it was probed.
    pub(crate) condition: Option<Condition>,
}

/// What a comparison found, and what its table is called.
pub struct Comparison {
    pub(crate) title: String,
    pub(crate) found: Vec<CaseChange>,
    /// Across sessions: a case without history is marked as such.
    pub(crate) across: bool,
    /// The two runs' machine conditions, where both were probed.
    pub(crate) conditions: Option<ConditionComparison>,
    /// BASE's and NEW's machine fingerprints, where they differ (`--mixed-machines`): every
    /// row's ratio then holds the machines' difference as well as the change.
    pub(crate) machines: Option<[String; 2]>,
}

/// The fingerprints of BASE's machine and NEW's, each side named by its label, where they
/// differ. Sides of different machines are refused unless `mixed_machines`: two runs that
/// could not be compared (exit 3), not a regression and not bad input.
pub(crate) fn check_machines(
    (base_label, base): (&str, &Machine),
    (new_label, new): (&str, &Machine),
    mixed_machines: bool,
) -> anyhow::Result<Option<[String; 2]>> {
    let (b, n) = (base.fingerprint(), new.fingerprint());
    if b == n {
        return Ok(None);
    }
    if !mixed_machines {
        return Err(fail(
            ExitClass::CannotCompare,
            format!(
                "{base_label} ran on {b} and {new_label} on {n}: different machines, so a ratio \
                 would mix the change with the machines' difference (--mixed-machines compares \
                 them anyway, every row marked)"
            ),
        ));
    }
    Ok(Some([b, n]))
}

/// The run-to-run spreads of a case, `(point, contestant)`, from the store's other sessions.
pub(crate) type SpreadsOf<'a> = &'a mut dyn FnMut(&Point, &str) -> anyhow::Result<Spreads>;

/// BASE against NEW, each case widened by its `spreads` where there is a store to ask; sides
/// of different machines are refused ([`check_machines`]) unless `mixed_machines`.
pub(crate) fn across(
    base: &Side,
    new: &Side,
    spreads: Option<SpreadsOf>,
    mixed_machines: bool,
) -> anyhow::Result<Comparison> {
    let machines = check_machines(
        (&base.label, &base.machine),
        (&new.label, &new.machine),
        mixed_machines,
    )?;
    let mut found = changes(&base.runs, &new.runs);
    if found.is_empty() {
        return Err(fail(
            ExitClass::CannotCompare,
            format!(
                "{} and {} have no point and contestant in common",
                base.label, new.label
            ),
        ));
    }
    if let Some(spreads) = spreads {
        for case in &mut found {
            widen(case, spreads)?;
        }
    }
    Ok(Comparison {
        title: format!("compare · {} → {}", base.label, new.label),
        found,
        across: true,
        conditions: (base.condition.as_ref())
            .zip(new.condition.as_ref())
            .map(|(b, n)| ConditionComparison::between(b, n)),
        machines,
    })
}

/// A case's time, peak RSS and CPU widened by its spreads.
fn widen(case: &mut CaseChange, spreads: SpreadsOf) -> anyhow::Result<()> {
    let mut of_case = spreads(&case.point, &case.base)?;
    // A variant without history of its own (`tokio@1.38.0`) takes its contestant's.
    if of_case.time.is_none() && family(&case.base) != case.base {
        of_case = spreads(&case.point, &family(&case.base))?;
    }
    case.time = case.time.map(|c| with_spread(c, of_case.time));
    case.peak_rss = case.peak_rss.map(|c| with_spread(c, of_case.peak_rss));
    // The store's CPU history is the whole process's: it widens only that figure.
    if case.cpu_kind == CpuKind::Process {
        case.cpu = case.cpu.map(|c| with_spread(c, of_case.cpu));
    }
    Ok(())
}

/// Each variant of one run against its contestant, measured in the same rounds.
pub(crate) fn within(run: &Side) -> anyhow::Result<Comparison> {
    let found = variant_changes(&run.runs);
    if found.is_empty() {
        return Err(fail(
            ExitClass::CannotCompare,
            format!(
                "{} has no variant to compare with its contestant (run `-c tokio,tokio@patch …`, \
                 or name a second run)",
                run.label
            ),
        ));
    }
    Ok(Comparison {
        title: format!(
            "compare · variants against their contestants · {}",
            run.label
        ),
        found,
        across: false,
        // One run: one condition, the same on both sides; one machine.
        conditions: None,
        machines: None,
    })
}

/// The gate's false-alarm rate over all its judgements at once.
pub(crate) const FAMILY_WISE: f64 = 0.05;

/// How much higher a figure may be before the gate fails (0.05 for 5 %); `None`: not judged.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Thresholds {
    /// `--fail-if-slower`: time.
    pub(crate) slower: Option<f64>,
    /// `--fail-if-bigger`: peak RSS.
    pub(crate) bigger: Option<f64>,
    /// `--fail-if-more-instructions`: one iteration's instructions.
    pub(crate) more_instructions: Option<f64>,
}

impl Thresholds {
    /// Whether any threshold is set.
    pub(crate) fn any(&self) -> bool {
        self.slower.is_some() || self.bigger.is_some() || self.more_instructions.is_some()
    }
}

/// One thing the gate judges: a case's figure, with its threshold.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Judgement<'a> {
    pub(crate) case: &'a CaseChange,
    /// What it fails as: `slower`, `bigger`, `more instructions`.
    pub(crate) what: &'static str,
    pub(crate) threshold: f64,
    pub(crate) change: Change,
}

/// What the gate decided.
pub(crate) struct GateOutcome<'a> {
    pub(crate) judged: Vec<Judgement<'a>>,
    /// Each judgement's interval level, 1 − 5 %/m for the m judgements with an interval.
    pub(crate) coverage: f64,
    /// The judgements whose change is significantly past their threshold.
    pub(crate) failures: Vec<Judgement<'a>>,
    /// Judgements whose case has too few other sessions in the store for a spread.
    pub(crate) unhistoried: usize,
}

/// Judges `found` against `thresholds`: each case's time and peak RSS that has an interval,
/// and its instructions per iteration where both sides counted them.
pub(crate) fn judge<'a>(found: &'a [CaseChange], thresholds: &Thresholds) -> GateOutcome<'a> {
    let judged = judgements(found, thresholds);
    // Only judgements with an interval share the false-alarm rate; counts have none.
    let bounded = judged
        .iter()
        .filter(|j| j.change.bootstrap.is_some())
        .count();
    let coverage = 1.0 - FAMILY_WISE / bounded.max(1) as f64;
    let failures = judged
        .iter()
        .filter(|j| fails(&j.change, j.threshold, coverage))
        .copied()
        .collect();
    let unhistoried = judged.iter().filter(|j| j.change.spread.is_none()).count();
    GateOutcome {
        judged,
        coverage,
        failures,
        unhistoried,
    }
}

fn judgements<'a>(found: &'a [CaseChange], thresholds: &Thresholds) -> Vec<Judgement<'a>> {
    found
        .iter()
        .flat_map(|case| {
            [
                ("slower", thresholds.slower, case.time, true),
                ("bigger", thresholds.bigger, case.peak_rss, true),
                (
                    "more instructions",
                    thresholds.more_instructions,
                    case.instructions,
                    false,
                ),
            ]
            .into_iter()
            .filter_map(move |(what, threshold, change, bounded)| {
                let change = change.filter(|c| !bounded || c.bootstrap.is_some())?;
                Some(Judgement {
                    case,
                    what,
                    threshold: threshold?,
                    change,
                })
            })
        })
        .collect()
}

/// The cases behind `failures`, each once, as (contestant, point): what a confirmation
/// rerun (`compare --confirm`) measures again.
pub(crate) fn failing_cases(failures: &[Judgement]) -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = Vec::new();
    for judgement in failures {
        let case = (
            judgement.case.contestant.clone(),
            judgement.case.point.to_string(),
        );
        if !cases.contains(&case) {
            cases.push(case);
        }
    }
    cases
}

/// `first`'s failures split by whether they failed again in `second`, the confirmation
/// rerun's (the same case failing as the same thing): a false alarm seldom repeats, a real
/// change does. Returns (confirmed, cleared).
pub(crate) fn confirmed<'a>(
    first: &[Judgement<'a>],
    second: &[Judgement],
) -> (Vec<Judgement<'a>>, Vec<Judgement<'a>>) {
    first.iter().copied().partition(|f| {
        second.iter().any(|s| {
            s.what == f.what
                && s.case.contestant == f.case.contestant
                && s.case.point == f.case.point
        })
    })
}

/// Whether a change is higher by more than its threshold and significant at `coverage`: an
/// A/A comparison fails the gate with probability at most 5 %, however many cases it
/// holds. A count (instructions) has no interval: past its threshold it fails.
fn fails(change: &Change, threshold: f64, coverage: f64) -> bool {
    change.ratio > 1.0 + threshold
        && (change.bootstrap.is_none()
            || interval_at(change, coverage).is_some_and(|i| i.low > 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fake run as a side called `label`, on a machine with `cpu`.
    fn side(label: &str, cpu: &str) -> Side {
        let mut results = results::fake::results();
        results.platform.cpu = cpu.into();
        Side::of(results, label.into())
    }

    /// A case of `contestant` at `point` whose time doubled, clearly.
    fn doubled(contestant: &str, point: &str) -> CaseChange {
        let time = super::super::ratio::change(
            &[
                vec![1.0, 1.1, 1.0],
                vec![1.05, 1.0, 1.1],
                vec![1.0, 1.02, 1.04],
            ],
            &[
                vec![2.0, 2.1, 2.0],
                vec![2.05, 2.0, 2.1],
                vec![2.0, 2.02, 2.04],
            ],
        );
        CaseChange {
            point: point.parse().unwrap(),
            base: contestant.into(),
            contestant: contestant.into(),
            time,
            modes: None,
            peak_rss: None,
            cpu: None,
            cpu_kind: CpuKind::PerIteration,
            instructions: None,
        }
    }

    #[test]
    fn a_failure_is_confirmed_only_when_the_rerun_fails_it_again() {
        let thresholds = Thresholds {
            slower: Some(0.05),
            ..Thresholds::default()
        };
        let first = [
            doubled("tokio", "spawn tasks=10"),
            doubled("go", "spawn tasks=10"),
        ];
        let again = [
            doubled("tokio", "spawn tasks=10"),
            doubled("go", "chain length=10"),
        ];
        let (first, again) = (judge(&first, &thresholds), judge(&again, &thresholds));
        assert_eq!(
            failing_cases(&first.failures),
            [("tokio", "spawn tasks=10"), ("go", "spawn tasks=10")]
                .map(|(c, p)| (c.to_string(), p.to_string()))
        );
        let (confirmed, cleared) = confirmed(&first.failures, &again.failures);
        let names = |js: &[Judgement]| -> Vec<String> {
            js.iter().map(|j| j.case.contestant.clone()).collect()
        };
        assert_eq!(names(&confirmed), ["tokio"]);
        // go failed again, but at another point: not this case.
        assert_eq!(names(&cleared), ["go"]);
    }

    #[test]
    fn sides_of_different_machines_are_refused_unless_mixed() {
        let (base, new) = (side("a", "AMD EPYC"), side("b", "Intel Xeon"));
        let error = across(&base, &new, None, false).err().unwrap();
        assert_eq!(exit::class_of(&error), ExitClass::CannotCompare);
        let message = error.to_string();
        assert!(message.starts_with("a ran on AMD EPYC · "), "{message}");
        assert!(message.contains(" and b on Intel Xeon · "), "{message}");
        assert!(message.contains("--mixed-machines"), "{message}");
        assert_eq!(message.lines().count(), 1);

        let mixed = across(&base, &new, None, true).unwrap();
        let [b, n] = mixed.machines.unwrap();
        assert!(b.starts_with("AMD EPYC") && n.starts_with("Intel Xeon"));
        let same = across(&base, &side("c", "AMD EPYC"), None, false).unwrap();
        assert!(same.machines.is_none());
    }
}
