//! `taskbench warmup`: the contestants built, each scenario (at the quick preset's size)
//! run in fresh processes that time every iteration from a cold start, the curves shown
//! with where each settles, and with `--write` the warm-up each asks for kept in the
//! contestant's warm-up.toml — the table every `run` takes its warm-up from.

use crate::cli::WarmUpArgs;
use crate::warm_up::curves::{CaseCurves, case_curves};
use crate::warm_up::words::curves_table;
use anyhow::Context;
use catalogue::Scenario;
use contestant::Places;
use contestant::warm_up;
use lineup::{Lineup, choose, none_can_run, prepare, survey_for};
use presets::{PlanOptions, plan};
use run::curve::{CurvePlan, curve_process, iterations_for};
use run::{Limits, ProcessExecutor, Subject, Workload};
use std::path::Path;
use std::time::Duration;
use words::{render_terminal, terminal_width};

/// Measures the curves `args` asks for, prints them, and writes the tables with `--write`.
pub(crate) fn warm_up(
    args: &WarmUpArgs,
    contestants_dir: &Path,
    places: &Places,
) -> anyhow::Result<()> {
    let scenarios = scenarios(&args.scenario)?;
    let lineup = Lineup::Named(&args.contestant);
    let entries = choose(
        survey_for(contestants_dir, places, lineup)?,
        lineup,
        &[],
        places,
    )?;
    let dirs: Vec<(String, std::path::PathBuf)> = entries
        .iter()
        .map(|e| (e.contestant.name().to_string(), e.contestant.dir.clone()))
        .collect();
    let (subjects, infos) = prepare(entries, places, &[], &mut |step| {
        eprintln!("{}", step.line());
    });
    if subjects.is_empty() {
        return Err(none_can_run(&infos));
    }
    let launcher = std::env::current_exe().context("cannot find the taskbench binary")?;
    let mut executor = ProcessExecutor { launcher };
    let curve_plan = CurvePlan {
        processes: args.processes.max(1),
        iterations: args.iterations.max(2),
        min_iterations: 30,
        per_process: args.per_process,
    };
    let limits = Limits {
        timeout: args.timeout,
        sample_every: Duration::from_millis(50),
        memory_limit: None,
        full_warm_up: false,
    };
    let mut measured = Vec::new();
    for subject in &subjects {
        for &scenario in &scenarios {
            if subject.unsupported.iter().any(|s| s == scenario.name()) {
                continue;
            }
            eprintln!(
                "curves: {} · {}",
                subject.name,
                catalogue::Point::from(&scenario)
            );
            let Some(case) = curves(&mut executor, subject, scenario, curve_plan, limits)? else {
                eprintln!("  no valid process: left out");
                continue;
            };
            let current = subject.warm_up.iterations(scenario.name());
            let source = subject.warm_up.source(scenario.name());
            measured.push((case, current, source));
        }
    }
    println!(
        "{}",
        render_terminal(&curves_table(&measured), terminal_width())
    );
    if let Some(path) = &args.save {
        let curves: Vec<&CaseCurves> = measured.iter().map(|(case, _, _)| case).collect();
        std::fs::write(path, serde_json::to_string(&curves)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.write {
        write(&measured, &dirs, &infos)?;
    }
    Ok(())
}

/// The scenarios named (every scenario when none), at the quick preset's sizes.
fn scenarios(names: &[String]) -> anyhow::Result<Vec<Scenario>> {
    for name in names {
        catalogue::spec(name).map_err(anyhow::Error::msg)?;
    }
    let quick = plan(&PlanOptions::default())?;
    Ok(quick
        .workloads
        .iter()
        .filter_map(|w| match w {
            Workload::Scenario { scenario, .. } => Some(*scenario),
            Workload::Command => None,
        })
        .filter(|s| names.is_empty() || names.iter().any(|n| n == s.name()))
        .collect())
}

/// A case's curves: a first process of one iteration sizes the rest, which each time as
/// many iterations as fit; `None` when no process was valid.
fn curves(
    executor: &mut ProcessExecutor,
    subject: &Subject,
    scenario: Scenario,
    plan: CurvePlan,
    limits: Limits,
) -> anyhow::Result<Option<CaseCurves>> {
    let first = curve_process(executor, subject, scenario, 1, limits)?;
    let Some(first_ns) = first.figures.as_ref().and_then(|f| f.elapsed_ns) else {
        return Ok(None);
    };
    let iterations = iterations_for(plan, first_ns);
    let mut series = Vec::new();
    for _ in 0..plan.processes {
        let record = curve_process(executor, subject, scenario, iterations, limits)?;
        match record.figures.filter(|_| record.status.is_ok()) {
            Some(f) => series.push(f.iterations_ns.iter().map(|&e| e as f64).collect()),
            None => eprintln!("  a process ended {}", record.status.label()),
        }
    }
    Ok((!series.is_empty()).then(|| case_curves(&subject.name, scenario.name(), series)))
}

/// Each contestant's proposals merged into its warm-up.toml (scenarios not measured now
/// keep their figure).
fn write(
    measured: &[(CaseCurves, u32, String)],
    dirs: &[(String, std::path::PathBuf)],
    infos: &[contestant::ContestantInfo],
) -> anyhow::Result<()> {
    let today = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    for (name, dir) in dirs {
        let mine: Vec<(String, u32, String)> = measured
            .iter()
            .map(|(case, _, _)| case)
            .filter(|case| &case.contestant == name)
            .map(|case| (case.scenario.clone(), case.proposed, case.evidence()))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let version = infos
            .iter()
            .find(|i| &i.name == name)
            .map(|i| i.version.as_str());
        let when = format!("{} · {}", &today[..10], version.unwrap_or("–"));
        let text = warm_up::merged(dir, &when, mine)?;
        let path = dir.join(warm_up::FILE);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
