//! `taskbench compare BASE NEW`: two runs side by side, case by case (see
//! analysis/change.rs) — each a results folder, or a session of the store named `last`,
//! a baseline or a tag — their intervals widened by the run-to-run variation of the
//! store's other sessions of each case (analysis/run_to_run.rs); `compare RUN` alone: each
//! variant of that run against its contestant. A terminal table, Markdown (a pull-request
//! comment) and HTML; with `--fail-if-slower PCT` / `--fail-if-bigger PCT` a gate that
//! exits 1 when a significant change passes the threshold, naming it. `run` ends the same
//! way with `--baseline`, or the gate flags alone.

use crate::analysis::change::{CaseChange, Change, Verdict, changes, family, variant_changes};
use crate::analysis::run_to_run::{interval_at, with_spread};
use crate::cli::{CompareArgs, GateArgs};
use crate::export::write_atomically;
use crate::report::{Table, render_markdown, render_terminal, terminal_width};
use crate::results::read_results;
use crate::run::RunRecord;
use crate::store::{Location, Machine};
use std::path::Path;

/// One side of a comparison: what it is called and its measured runs.
pub(super) struct Side {
    pub label: String,
    pub runs: Vec<RunRecord>,
    /// When it started and where, to find the store's other sessions of its cases.
    pub started: String,
    pub machine: Machine,
}

impl Side {
    /// A finished run's results, called `label`.
    pub fn of(label: String, results: crate::results::Results) -> Side {
        Side {
            label,
            runs: results.runs,
            started: results.platform.started,
            machine: Machine {
                cpu: results.platform.cpu,
                cores: results.platform.cores as u32,
            },
        }
    }
}

/// Where the comparison goes besides the terminal.
#[derive(Default)]
pub(super) struct Outputs<'a> {
    pub markdown: Option<&'a Path>,
    pub html: Option<&'a Path>,
}

pub fn compare(args: &CompareArgs) -> anyhow::Result<()> {
    let base = side(&args.base, &args.store)?;
    let outputs = Outputs {
        markdown: args.export_markdown.as_deref(),
        html: args.export_html.as_deref(),
    };
    let comparison = match &args.new {
        Some(new) => across(&base, &side(new, &args.store)?, &args.store)?,
        None => within(&base)?,
    };
    report(&comparison, &args.gate, &outputs)
}

/// What a comparison found, and what its table is called.
pub(super) struct Comparison {
    pub title: String,
    pub found: Vec<CaseChange>,
    /// Across sessions: a case without history is marked as such.
    pub across: bool,
}

/// BASE against NEW, each case widened by the store's other sessions of it on NEW's machine.
pub(super) fn across(base: &Side, new: &Side, store: &Location) -> anyhow::Result<Comparison> {
    let mut found = changes(&base.runs, &new.runs);
    anyhow::ensure!(
        !found.is_empty(),
        "{} and {} have no point and contestant in common",
        base.label,
        new.label
    );
    if store.exists() {
        let mut db = crate::store::open(store)?;
        let exclude = [base.started.clone(), new.started.clone()];
        for case in &mut found {
            let mut of = |name: &str| {
                crate::store::spreads(&mut db, &new.machine, &case.point, name, &exclude)
            };
            // A variant without history of its own (`tokio@1.38.0`) takes its contestant's.
            let mut spreads = of(&case.base)?;
            if spreads.time.is_none() && family(&case.base) != case.base {
                spreads = of(&family(&case.base))?;
            }
            case.time = case.time.map(|c| with_spread(c, spreads.time));
            case.peak_rss = case.peak_rss.map(|c| with_spread(c, spreads.peak_rss));
            case.cpu = case.cpu.map(|c| with_spread(c, spreads.cpu));
        }
    }
    Ok(Comparison {
        title: format!("compare · {} → {}", base.label, new.label),
        found,
        across: true,
    })
}

/// Each variant of one run against its contestant, measured in the same rounds.
pub(super) fn within(run: &Side) -> anyhow::Result<Comparison> {
    let found = variant_changes(&run.runs);
    anyhow::ensure!(
        !found.is_empty(),
        "{} has no variant to compare with its contestant (run `-c tokio,tokio@patch …`, \
         or name a second run)",
        run.label
    );
    Ok(Comparison {
        title: format!(
            "compare · variants against their contestants · {}",
            run.label
        ),
        found,
        across: false,
    })
}

/// A results folder by its path, else the store's session of that name.
pub(super) fn side(name: &str, store: &Location) -> anyhow::Result<Side> {
    let dir = Path::new(name);
    if dir.is_dir() {
        let results = read_results(&dir.join("results.json"))?;
        return Ok(Side::of(name.to_string(), results));
    }
    anyhow::ensure!(
        store.exists(),
        "'{name}' is not a results folder, and there is no store at {store} to look it up in \
         (--store PATH)"
    );
    let mut db = crate::store::open(store)?;
    let session = crate::store::find(&mut db, name)?;
    Ok(Side {
        label: session.label,
        runs: crate::store::runs(&mut db, session.id)?,
        started: session.started,
        machine: session.machine,
    })
}

/// Prints the comparison's table, writes it where `outputs` ask, and fails when `gate`
/// finds a significant change past its threshold.
pub(super) fn report(
    comparison: &Comparison,
    gate: &GateArgs,
    outputs: &Outputs,
) -> anyhow::Result<()> {
    let table = table(comparison);
    println!("{}", render_terminal(&table, terminal_width()));
    if let Some(path) = outputs.markdown {
        write_atomically(path, render_markdown(&table).as_bytes())?;
    }
    if let Some(path) = outputs.html {
        let page = crate::html::standalone(&table.title, &crate::html::figures_table(&table));
        write_atomically(path, page.as_bytes())?;
    }
    if !gate.any() {
        return Ok(());
    }
    let judged = judgements(&comparison.found, gate);
    // Only judgements with an interval share the false-alarm rate; counts have none.
    let bounded = judged.iter().filter(|j| j.3.bootstrap.is_some()).count();
    let coverage = 1.0 - FAMILY_WISE / bounded.max(1) as f64;
    let failures = failures(&judged, coverage);
    println!(
        "gate: {} judgements, each at {:.4} % (Bonferroni: {:.0} % false alarms for all \
         of them together)",
        judged.len(),
        coverage * 100.0,
        FAMILY_WISE * 100.0
    );
    let unhistoried = judged
        .iter()
        .filter(|(_, _, _, change)| change.spread.is_none())
        .count();
    if comparison.across && unhistoried > 0 {
        eprintln!(
            "warning: {unhistoried} of the {} judgements have fewer than {} other sessions \
             of their case in the store, so only these two runs' processes bound them: separate \
             runs differ by more (docs/HISTORY.md measures how much)",
            judged.len(),
            crate::analysis::run_to_run::MIN_SESSIONS
        );
    }
    anyhow::ensure!(
        failures.is_empty(),
        "{} significant change(s) past the threshold: {}",
        failures.len(),
        failures.join("; ")
    );
    println!("gate passed: no significant change past the threshold");
    Ok(())
}

/// The gate's false-alarm rate over all its judgements at once.
pub const FAMILY_WISE: f64 = 0.05;

/// One thing the gate judges: a case, what it would fail as, its threshold, its change.
type Judgement<'a> = (&'a CaseChange, &'static str, f64, Change);

/// What the gate judges: each case's time (`--fail-if-slower`) and peak RSS
/// (`--fail-if-bigger`) that has an interval, and its instructions per iteration
/// (`--fail-if-more-instructions`) where both sides counted them, with its threshold.
fn judgements<'a>(found: &'a [CaseChange], gate: &GateArgs) -> Vec<Judgement<'a>> {
    found
        .iter()
        .flat_map(|case| {
            [
                ("slower", gate.fail_if_slower, case.time, true),
                ("bigger", gate.fail_if_bigger, case.peak_rss, true),
                (
                    "more instructions",
                    gate.fail_if_more_instructions,
                    case.instructions,
                    false,
                ),
            ]
            .into_iter()
            .filter_map(move |(what, threshold, change, bounded)| {
                let change = change.filter(|c| !bounded || c.bootstrap.is_some())?;
                Some((case, what, threshold?, change))
            })
        })
        .collect()
}

/// Each judgement whose change is higher by more than its threshold and significant at
/// `coverage`, 1 − 5 %/m for the m judgements with an interval (Bonferroni): an A/A
/// comparison fails the gate with probability at most 5 %, however many cases it holds. A
/// count (instructions) has no interval: past its threshold it fails.
fn failures(judged: &[Judgement], coverage: f64) -> Vec<String> {
    judged
        .iter()
        .filter(|(_, _, threshold, change)| {
            change.ratio > 1.0 + threshold
                && (change.bootstrap.is_none()
                    || interval_at(change, coverage).is_some_and(|i| i.low > 1.0))
        })
        .map(|(case, what, threshold, change)| {
            format!(
                "{} · {}: {what} by {:.1} % (more than {:.1} %)",
                case.point,
                case.contestant,
                (change.ratio - 1.0) * 100.0,
                threshold * 100.0
            )
        })
        .collect()
}

fn table(comparison: &Comparison) -> Table {
    let mark = |change: Option<Change>| match (change, comparison.across) {
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
    };
    let counted = comparison.found.iter().any(|c| c.instructions.is_some());
    let rows = comparison
        .found
        .iter()
        .map(|c| {
            let mut row = vec![
                c.point.clone(),
                c.contestant.clone(),
                cell(c.time, ("faster", "slower"), mark(c.time)),
                cell(c.peak_rss, ("smaller", "bigger"), mark(c.peak_rss)),
                cell(c.cpu, ("less", "more"), mark(c.cpu)),
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
            crate::analysis::run_to_run::MIN_SESSIONS
        ));
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
            crate::analysis::change::SAME_COUNT * 100.0
        ));
    }
    Table {
        title: comparison.title.clone(),
        headers: crate::report::table::headers(&headers),
        rows,
        notes,
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
