//! Two runs of the same cases against each other (`taskbench compare BASE NEW`): for each
//! point and contestant both have, the ratio NEW / BASE of the pooled medians — elapsed
//! over the time processes' iterations, CPU per measured iteration over the same where both
//! sides' contestants report it (else the whole process's, over the memory processes), peak
//! RSS over the memory processes — with
//! its two-level bootstrap interval (processes, then iterations, each side resampled on
//! its own, as the tables' × best; widened to the quotient of the order-statistic
//! intervals where a side has fewer than six processes), and a verdict: a change only when the interval
//! excludes 1 — where either side's processes fall into modes, of each mode against its
//! counterpart (compare/mode_shift.rs). Within one run, each variant against its
//! contestant the same way, or a release sweep's newest release against each older one. Where both sides counted instructions (`run --instructions`),
//! their ratio per iteration too: counts repeat, so it needs no interval.

use super::mode_shift::{ModeShift, time_change};
use super::ratio::{Change, Verdict, change};
use analysis::{Case, group};
use catalogue::Point;
use contestant::releases::release_sweeps;
use run::RunRecord;

/// Which CPU figure a change compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CpuKind {
    /// The process CPU time of one measured iteration, as both sides' contestants report it.
    PerIteration,
    /// The whole process's user + sys, start-up included: where a side's lines do not
    /// carry CPU (older runs, `--command`).
    Process,
}

/// The changes of one point and contestant.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CaseChange {
    pub(crate) point: Point,
    /// BASE's contestant, whose history the store is asked for.
    pub(crate) base: String,
    /// `tokio`, or `tokio@1.38.0 → tokio` when a variant is paired with its contestant.
    pub(crate) contestant: String,
    /// Where either side's processes fall into modes, the change of the mode that moved
    /// most (a shift of shares alone is no change); else of all processes.
    pub(crate) time: Option<Change>,
    /// Each side's modes and the change of all processes together, where either has modes.
    pub(crate) modes: Option<ModeShift>,
    pub(crate) peak_rss: Option<Change>,
    pub(crate) cpu: Option<Change>,
    /// What `cpu` compares.
    pub(crate) cpu_kind: CpuKind,
    /// Instructions of one iteration, where both sides counted them.
    pub(crate) instructions: Option<Change>,
}

/// Every point and contestant both `base` and `new` measured validly.
pub(crate) fn changes(base: &[RunRecord], new: &[RunRecord]) -> Vec<CaseChange> {
    let base_points = group(base);
    let mut out = Vec::new();
    for point in group(new) {
        let Some(base_point) = base_points.iter().find(|p| p.key == point.key) else {
            continue;
        };
        for case in &point.cases {
            if let Some(base_case) = counterpart(&base_point.cases, &point.cases, case) {
                let mut change = case_change(&point.key, base_case, case);
                change.instructions = counted_change(&point.key, (base, base_case), (new, case));
                out.push(change);
            }
        }
    }
    out
}

/// Within one run: each variant (`tokio@patch`, `tokio@1.38.0`) against its contestant
/// (`tokio`), measured in the same rounds, so that what the machine does to one it does to
/// the other; a release sweep without its contestant (`go@1.20,go@1.22,go@1.26`) as its
/// newest release against each older one (contestant/releases.rs).
pub(crate) fn variant_changes(runs: &[RunRecord]) -> Vec<CaseChange> {
    let mut out = Vec::new();
    for point in group(runs) {
        let sweeps = release_sweeps(point.cases.iter().map(|c| c.contestant));
        let find = |name: &str| point.cases.iter().find(|c| c.contestant == name);
        for case in &point.cases {
            let of = family(case.contestant);
            if of == case.contestant {
                continue;
            }
            let pair = match find(&of) {
                Some(plain) => Some((plain, case)),
                None => sweeps
                    .iter()
                    .find(|s| s.releases.iter().any(|r| r == case.contestant))
                    .filter(|s| s.newest() != case.contestant)
                    .and_then(|s| find(s.newest()))
                    .map(|newest| (case, newest)),
            };
            if let Some((base, new)) = pair {
                let mut change = case_change(&point.key, base, new);
                change.instructions = counted_change(&point.key, (runs, base), (runs, new));
                out.push(change);
            }
        }
    }
    out
}

/// Within one run of two contestants (a bisect's step, `-c go@1.23.12,go@1.24.0`): NEW /
/// BASE of the first point both measured validly.
pub(crate) fn pair_change(runs: &[RunRecord], base: &str, new: &str) -> Option<CaseChange> {
    group(runs).iter().find_map(|point| {
        let find = |name: &str| point.cases.iter().find(|c| c.contestant == name);
        let (b, n) = (find(base)?, find(new)?);
        (!b.valid().is_empty() && !n.valid().is_empty()).then(|| case_change(&point.key, b, n))
    })
}

/// NEW / BASE of time, peak RSS and CPU for one case.
fn case_change(key: &Point, base: &Case, new: &Case) -> CaseChange {
    let memory = |c: &Case, figure: fn(&RunRecord) -> Option<f64>| -> Vec<Vec<f64>> {
        c.memory_runs()
            .into_iter()
            .filter_map(figure)
            .map(|v| vec![v])
            .collect()
    };
    let rss = |r: &RunRecord| r.figures.as_ref().map(|f| f.peak_rss_bytes as f64);
    let process_cpu = |r: &RunRecord| r.figures.as_ref().map(|f| f.cpu_ns as f64);
    let (base_cpu, new_cpu) = (base.cpu_groups(), new.cpu_groups());
    let (cpu, cpu_kind) = if base_cpu.is_empty() || new_cpu.is_empty() {
        let process = change(&memory(base, process_cpu), &memory(new, process_cpu));
        (process, CpuKind::Process)
    } else {
        (change(&base_cpu, &new_cpu), CpuKind::PerIteration)
    };
    let ideal = key.to_scenario().map_or(0, |s| s.ideal_ns()) as f64;
    let (time, modes) = time_change(&base.iteration_groups(), &new.iteration_groups(), ideal);
    CaseChange {
        point: key.clone(),
        base: base.contestant.to_string(),
        contestant: if base.contestant == new.contestant {
            new.contestant.to_string()
        } else {
            format!("{} → {}", base.contestant, new.contestant)
        },
        time,
        modes,
        peak_rss: change(&memory(base, rss), &memory(new, rss)),
        cpu,
        cpu_kind,
        instructions: None,
    }
}

/// Counts within this of each other are the same: a single-threaded runtime's repeat to
/// the instruction; a multi-threaded one's move with its scheduling (docs/MEASUREMENT.md).
pub(crate) const SAME_COUNT: f64 = 0.001;

/// NEW / BASE of one iteration's instructions, when both cases were counted.
fn counted_change(
    point: &Point,
    (base_runs, base): (&[RunRecord], &Case),
    (new_runs, new): (&[RunRecord], &Case),
) -> Option<Change> {
    let iteration = |runs: &[RunRecord], case: &Case| {
        analysis::instructions::counted(runs, case.contestant, point, None)?.iteration
    };
    let (b, n) = (iteration(base_runs, base)?, iteration(new_runs, new)?);
    if b <= 0.0 {
        return None;
    }
    let ratio = n / b;
    Some(Change {
        ratio,
        interval: None,
        verdict: match ratio {
            r if r > 1.0 + SAME_COUNT => Verdict::Higher,
            r if r < 1.0 - SAME_COUNT => Verdict::Lower,
            _ => Verdict::NoChange,
        },
        bootstrap: None,
        spread: None,
    })
}

/// The case of `base` that `case` is compared with: the same contestant, else the one
/// variant of the same contestant when each side has exactly one (`tokio@1.38.0` in BASE,
/// `tokio` in NEW: two versions of tokio, run apart).
fn counterpart<'a, 'b>(base: &'b [Case<'a>], new: &[Case], case: &Case) -> Option<&'b Case<'a>> {
    if let Some(same) = base.iter().find(|c| c.contestant == case.contestant) {
        return Some(same);
    }
    let of = family(case.contestant);
    let base_kin: Vec<&Case> = base.iter().filter(|c| family(c.contestant) == of).collect();
    let new_kin = new.iter().filter(|c| family(c.contestant) == of).count();
    match (base_kin.as_slice(), new_kin) {
        ([only], 1) if !new.iter().any(|c| c.contestant == only.contestant) => Some(only),
        _ => None,
    }
}

/// `tokio@1.38.0 cpus=2` → `tokio cpus=2`: the contestant a variant is of.
pub(crate) fn family(name: &str) -> String {
    match name.split_once('@') {
        None => name.to_string(),
        Some((base, rest)) => match rest.find(' ') {
            Some(at) => format!("{base}{}", &rest[at..]),
            None => base.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three processes of five iterations around `centre`.
    fn processes(centre: f64) -> Vec<Vec<f64>> {
        (0..3)
            .map(|p| {
                (0..5)
                    .map(|i| centre * (1.0 + 0.01 * (p * 5 + i) as f64 / 15.0))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_same_figures_are_no_change_and_a_doubling_is_one() {
        let same = change(&processes(100.0), &processes(100.0)).unwrap();
        assert_eq!(same.ratio, 1.0);
        assert_eq!(same.verdict, Verdict::NoChange);
        let slower = change(&processes(100.0), &processes(200.0)).unwrap();
        // Pooled medians: the 8th of 15 values, 100 × (1 + 0.01 × 7/15) and twice that.
        assert!((slower.ratio - 2.0).abs() < 1e-12);
        assert_eq!(slower.verdict, Verdict::Higher);
        let faster = change(&processes(100.0), &processes(90.0)).unwrap();
        assert_eq!(faster.verdict, Verdict::Lower);
        // Spread wider than the difference: no verdict.
        let noisy = vec![vec![80.0], vec![100.0], vec![120.0]];
        let shifted = vec![vec![82.0], vec![102.0], vec![122.0]];
        assert_eq!(change(&noisy, &shifted).unwrap().verdict, Verdict::NoChange);
        assert!(change(&[], &processes(1.0)).is_none());
        // One process a side: a ratio, never a verdict.
        let one = change(&[vec![100.0]], &[vec![150.0]]).unwrap();
        assert_eq!(
            (one.ratio, one.interval, one.verdict),
            (1.5, None, Verdict::NoChange)
        );
    }

    #[test]
    fn cpu_is_compared_per_iteration_where_both_sides_report_it_else_per_process() {
        let base = results::fake::results().runs;
        // NEW: tokio's iterations cost twice the CPU, its processes the same; threads'
        // processes cost three times the CPU and their lines carry none.
        let mut new = base.clone();
        for run in &mut new {
            let figures = run.figures.as_mut().unwrap();
            figures.iterations_cpu_ns.iter_mut().for_each(|c| *c *= 2);
            if run.contestant == "threads" {
                figures.cpu_ns *= 3;
            }
        }
        let found = changes(&base, &new);
        assert_eq!(found.len(), 10, "two contestants at five points");
        for case in &found {
            let cpu = case.cpu.unwrap();
            let (kind, ratio) = match case.contestant.as_str() {
                "tokio" => (CpuKind::PerIteration, 2.0),
                _ => (CpuKind::Process, 3.0),
            };
            assert_eq!(case.cpu_kind, kind, "{}", case.point);
            assert!((cpu.ratio - ratio).abs() < 1e-9, "{case:?}");
            assert_eq!(cpu.verdict, Verdict::Higher, "{case:?}");
        }
        // A side whose lines carry no CPU: the whole process's, for both.
        let mut old = base.clone();
        for run in &mut old {
            run.figures.as_mut().unwrap().iterations_cpu_ns.clear();
        }
        let found = changes(&old, &new);
        assert!(found.iter().all(|c| c.cpu_kind == CpuKind::Process));
    }

    #[test]
    fn a_variant_is_compared_with_its_contestant_when_each_side_has_one() {
        assert_eq!(family("tokio@1.38.0 cpus=2"), "tokio cpus=2");
        assert_eq!(family("tokio@patch"), "tokio");
        assert_eq!(family("tokio cpus=1"), "tokio cpus=1");
        let new = results::fake::results().runs;
        let renamed = |from: &str, to: &str| -> Vec<RunRecord> {
            let mut runs = new.clone();
            for run in runs.iter_mut().filter(|r| r.contestant == from) {
                run.contestant = to.into();
            }
            runs
        };
        let base = renamed("tokio", "tokio@1.38.0");
        let found = changes(&base, &new);
        assert!(found.iter().any(|c| c.contestant == "tokio@1.38.0 → tokio"));
        assert_eq!(
            found.len(),
            changes(&new, &new).len(),
            "every case still paired"
        );
        // Both versions in NEW as well: tokio is compared with itself only.
        let mut both = new.clone();
        both.extend(
            base.iter()
                .filter(|r| r.contestant == "tokio@1.38.0")
                .cloned(),
        );
        let found = changes(&new, &both);
        assert!(found.iter().all(|c| !c.contestant.contains('→')));
    }

    #[test]
    fn within_a_run_each_variant_is_compared_with_its_contestant() {
        let mut runs = results::fake::results().runs;
        let variant: Vec<RunRecord> = runs
            .iter()
            .filter(|r| r.contestant == "tokio")
            .map(|r| RunRecord {
                contestant: "tokio@patch".into(),
                ..r.clone()
            })
            .collect();
        assert!(
            variant_changes(&runs).is_empty(),
            "no variant, nothing to compare"
        );
        runs.extend(variant);
        let found = variant_changes(&runs);
        assert!(!found.is_empty());
        for case in &found {
            assert_eq!(case.contestant, "tokio → tokio@patch");
            assert_eq!(case.base, "tokio");
            let time = case.time.unwrap();
            assert_eq!((time.ratio, time.verdict), (1.0, Verdict::NoChange));
        }
    }

    #[test]
    fn within_a_run_a_release_sweep_is_its_newest_against_each_older() {
        let runs = results::fake::results().runs;
        let releases: Vec<RunRecord> = ["go@1.9", "go@1.26", "go@1.22"]
            .iter()
            .flat_map(|name| {
                runs.iter()
                    .filter(|r| r.contestant == "tokio")
                    .map(|r| RunRecord {
                        contestant: (*name).into(),
                        ..r.clone()
                    })
            })
            .collect();
        let found = variant_changes(&releases);
        let mut pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|c| (c.base.as_str(), c.contestant.as_str()))
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        assert_eq!(
            pairs,
            [
                ("go@1.22", "go@1.22 → go@1.26"),
                ("go@1.9", "go@1.9 → go@1.26")
            ]
        );
    }
}
