//! `taskbench run`: select, build, run every case in fresh processes, report and export.

use super::dry_run::{dry_run, plural};
use crate::analysis::{fits, summarize, warnings};
use crate::cli::RunArgs;
use crate::contestant::{Availability, Places};
use crate::export::{self, Results, SCHEMA};
use crate::html;
use crate::lineup::{choose, prepare, survey};
use crate::measure::machine::MachineWatch;
use crate::presets::estimate::startup;
use crate::presets::{self, Plan, estimate, point_of};
use crate::report::units::rough_duration;
use crate::report::{Platform, render_terminal, tables, terminal_width, wrap};
use crate::run::{
    Limits, Phase, ProcessExecutor, RunRecord, Settings, Step, Subject, Workload, run_plan,
};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Runs what `args` asks for; `command` is the taskbench command line, stored with results.
pub fn run(
    args: &RunArgs,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
) -> anyhow::Result<()> {
    let options = args.plan_options();
    let plan = match args.command.is_empty() {
        true => presets::plan(&options)?,
        false if !args.params.0.is_empty() || args.inner_warmup.is_some() => {
            bail!(
                "--command runs a whole command: scenario parameters and --inner-warmup do not apply"
            )
        }
        false => Plan::commands(&options)?,
    };
    let entries = match args.command.is_empty() {
        true => Some(choose(survey(contestants_dir, places)?, &args.contestant)?),
        false => None,
    };
    if args.dry_run {
        let names: Vec<(String, Duration)> = match &entries {
            Some(entries) => entries
                .iter()
                .filter(|e| e.availability == Availability::Available)
                .map(|e| {
                    let name = e.contestant.name().to_string();
                    (name, startup(&e.contestant.manifest.language))
                })
                .collect(),
            None => args
                .command
                .iter()
                .map(|c| (c.clone(), startup("")))
                .collect(),
        };
        print!("{}", dry_run(&plan, &names));
        return Ok(());
    }
    let out = prepare_output(args)?;
    let (subjects, infos) = match entries {
        Some(entries) => prepare(entries, places, &mut |name| {
            if !args.quiet {
                eprintln!("building {name}…");
            }
        }),
        None => {
            let shell = if args.no_shell { "none" } else { &args.shell };
            let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
            let subjects = super::shell::subjects(&args.command, &args.command_name, shell, &cwd)?;
            (subjects, Vec::new())
        }
    };
    if subjects.is_empty() {
        let reasons: Vec<String> = infos
            .iter()
            .filter_map(|i| i.unavailable.as_ref().map(|r| format!("{}: {r}", i.name)))
            .collect();
        bail!("no contestant can run here ({})", reasons.join("; "));
    }
    let mut platform = Platform::probe();
    platform.versions = infos
        .iter()
        .map(|i| (i.name.clone(), i.version.clone()))
        .collect();
    if !args.quiet {
        for line in platform.header() {
            print!("{}", wrap(&line, terminal_width().into()));
        }
        for info in infos.iter().filter(|i| i.unavailable.is_some()) {
            println!(
                "unavailable: {} — {}",
                info.name,
                info.unavailable.as_deref().unwrap_or_default()
            );
        }
        println!();
    }

    if !args.quiet {
        let startups: Vec<Duration> = subjects.iter().map(|s| s.startup).collect();
        println!(
            "{}: {} {} × {} {} · {} · {} warm-up per case · estimated {}\n",
            plan.preset
                .as_ref()
                .map_or_else(|| "run".to_string(), |p| format!("preset {p}")),
            plan.workloads.len(),
            plural(plan.workloads.len(), "point"),
            subjects.len(),
            plural(subjects.len(), "contestant"),
            super::dry_run::stopping_line(&plan),
            plan.warmup,
            rough_duration(estimate(&plan, &startups).total)
        );
    }
    let limits = Limits {
        timeout: args.timeout,
        sample_every: Duration::from_millis(args.sample_ms),
        memory_limit: args.memory_limit.or_else(default_memory_limit),
    };
    let mut watch = MachineWatch::start();
    let settings = Settings {
        warmup: plan.warmup,
        idle_runs: plan.idle_runs,
        stopping: plan.stopping,
    };
    let records = execute(
        &subjects, &plan, settings, limits, &out, args.quiet, &mut watch,
    )?;
    let machine = watch.finish();

    let mut points = summarize(&records);
    for point in &mut points {
        point.seed = plan.seed_of(&point.point).map(str::to_string);
    }
    let results = Results {
        schema: SCHEMA.into(),
        command,
        platform,
        stopping: Some(plan.stopping),
        contestants: infos,
        fits: fits(&points),
        warnings: warnings(
            &points,
            &records,
            Some(plan.stopping.precision),
            Some(&machine),
        ),
        machine: Some(machine),
        points,
        runs: records,
    };
    if !args.quiet {
        let width = terminal_width();
        for table in tables(&results.points, &results.fits) {
            println!("{}", render_terminal(&table, width));
        }
        for warning in &results.warnings {
            print!("{}", wrap(&format!("warning: {warning}"), width.into()));
        }
    }
    write_results(&results, &out, args)?;
    if !args.quiet {
        println!("results: {}", out.display());
    }
    Ok(())
}

/// Half the machine's memory: room for the harness and the rest of the machine when a
/// contestant runs away.
fn default_memory_limit() -> Option<u64> {
    Some(Platform::probe_memory_bytes() / 2).filter(|&limit| limit > 0)
}

/// Creates the output folder and checks every export path before anything runs.
fn prepare_output(args: &RunArgs) -> anyhow::Result<PathBuf> {
    let out = args.out.clone().unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        PathBuf::from("results").join(stamp.replace(':', "-"))
    });
    std::fs::create_dir_all(&out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    export::check_writable(&out.join("runs.jsonl")).context("--out")?;
    for (flag, path) in [
        ("--export-json", &args.export_json),
        ("--export-csv", &args.export_csv),
        ("--export-markdown", &args.export_markdown),
    ] {
        if let Some(path) = path {
            export::check_writable(path).with_context(|| flag.to_string())?;
        }
    }
    Ok(out)
}

/// Runs the plan with a progress bar over its cases, appending each record to runs.jsonl
/// as it is made; `watch` samples the load average as each point begins.
fn execute(
    subjects: &[Subject],
    plan: &Plan,
    settings: Settings,
    limits: Limits,
    out: &Path,
    quiet: bool,
    watch: &mut MachineWatch,
) -> anyhow::Result<Vec<RunRecord>> {
    let log_path = out.join("runs.jsonl");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("cannot write {}", log_path.display()))?;
    let cases = (plan.workloads.len() * subjects.len()) as u64;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(cases)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} cases · ETA {eta} · {msg}")
            .expect("valid template"),
    );
    let mut sink = |record: &RunRecord| -> anyhow::Result<()> {
        let line = serde_json::to_string(record)?;
        writeln!(log, "{line}").with_context(|| format!("cannot write {}", log_path.display()))?;
        if record.phase == Phase::Measured && record.stop.is_some() {
            bar.inc(1);
        }
        Ok(())
    };
    let mut previous: Option<Workload> = None;
    let mut progress = |step: &Step| {
        let subject = &subjects[step.subject].name;
        let case = match step.workload {
            Workload::Scenario { scenario, .. } => point_of(&scenario),
            Workload::Command => "command".to_string(),
        };
        if previous != Some(step.workload) {
            watch.sample(&case);
            previous = Some(step.workload);
        }
        bar.set_message(format!(
            "{subject} · {case} · {:?} {} × {}",
            step.phase, step.run, step.iterations
        ));
    };
    let launcher =
        std::env::current_exe().context("cannot find the taskbench binary to launch runs")?;
    let records = run_plan(
        &mut ProcessExecutor { launcher },
        subjects,
        &plan.workloads,
        settings,
        limits,
        &mut sink,
        &mut progress,
    )?;
    bar.finish_and_clear();
    Ok(records)
}

fn write_results(results: &Results, out: &Path, args: &RunArgs) -> anyhow::Result<()> {
    let json = results.to_json();
    let csv = export::write_csv(&results.runs)?;
    let markdown = export::markdown(results);
    export::write_atomically(&out.join("results.json"), json.as_bytes())?;
    export::write_atomically(&out.join("results.csv"), &csv)?;
    export::write_atomically(&out.join("results.md"), markdown.as_bytes())?;
    export::write_atomically(&out.join("report.html"), html::render(results).as_bytes())?;
    if let Some(path) = &args.export_json {
        export::write_atomically(path, json.as_bytes())?;
    }
    if let Some(path) = &args.export_csv {
        export::write_atomically(path, &csv)?;
    }
    if let Some(path) = &args.export_markdown {
        export::write_atomically(path, markdown.as_bytes())?;
    }
    Ok(())
}
