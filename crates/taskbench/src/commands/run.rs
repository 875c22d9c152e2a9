//! `taskbench run`: select, build, run every case in fresh processes, report and export.

use crate::analysis::summarize;
use crate::cli::RunArgs;
use crate::contestant::Places;
use crate::export::{self, Results, SCHEMA};
use crate::lineup::{choose, prepare, survey};
use crate::report::{Platform, render_terminal, table, terminal_width};
use crate::run::{
    Limits, ProcessExecutor, RunRecord, Step, Subject, Workload, run_steps, schedule,
};
use crate::select::workloads;
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
    let workloads = match args.command.is_empty() {
        true => workloads(&args.scenario, &args.params, args.inner_warmup)?,
        false if !args.params.0.is_empty() || args.inner_warmup.is_some() => {
            bail!(
                "--command runs a whole command: scenario parameters and --inner-warmup do not apply"
            )
        }
        false => vec![Workload::Command],
    };
    let entries = match args.command.is_empty() {
        true => Some(choose(survey(contestants_dir, places)?, &args.contestant)?),
        false => None,
    };
    let out = prepare_output(args)?;
    let (subjects, infos) = match entries {
        Some(entries) => prepare(entries, places, &mut |name| {
            if !args.quiet {
                eprintln!("building {name}…");
            }
        }),
        None => (commands(&args.command), Vec::new()),
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
            println!("{line}");
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

    let steps = schedule(subjects.len(), &workloads, args.runs, args.warmup);
    let limits = Limits {
        timeout: args.timeout,
        sample_every: Duration::from_millis(args.sample_ms),
        memory_limit: args.memory_limit.or_else(default_memory_limit),
    };
    let records = execute(&subjects, &steps, limits, &out, args.quiet)?;

    let results = Results {
        schema: SCHEMA.into(),
        command,
        platform,
        contestants: infos,
        points: summarize(&records),
        runs: records,
    };
    if !args.quiet {
        let width = terminal_width();
        for point in &results.points {
            println!("{}", render_terminal(&table(point), width));
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

/// Subjects for `--command`: each command through `sh -c`, named by its text.
fn commands(commands: &[String]) -> Vec<Subject> {
    commands
        .iter()
        .map(|c| Subject {
            name: c.clone(),
            argv: vec!["sh".into(), "-c".into(), c.clone()],
            cwd: std::env::current_dir().unwrap_or_else(|_| ".".into()),
            unsupported: Vec::new(),
        })
        .collect()
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

/// Runs the steps with a progress bar, appending each record to runs.jsonl as it is made.
fn execute(
    subjects: &[Subject],
    steps: &[Step],
    limits: Limits,
    out: &Path,
    quiet: bool,
) -> anyhow::Result<Vec<RunRecord>> {
    let log_path = out.join("runs.jsonl");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("cannot write {}", log_path.display()))?;
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(steps.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} runs · ETA {eta} · {msg}")
            .expect("valid template"),
    );
    let mut sink = |record: &RunRecord| -> anyhow::Result<()> {
        let line = serde_json::to_string(record)?;
        writeln!(log, "{line}").with_context(|| format!("cannot write {}", log_path.display()))?;
        Ok(())
    };
    let mut progress = |step: &Step| {
        let subject = &subjects[step.subject].name;
        let what = match step.workload {
            Workload::Scenario { scenario, .. } => scenario.label(),
            Workload::Command => String::new(),
        };
        bar.set_message(format!(
            "{subject} · {} {what} · {:?} {}",
            step.workload.name(),
            step.phase,
            step.run
        ));
        bar.inc(1);
    };
    let launcher =
        std::env::current_exe().context("cannot find the taskbench binary to launch runs")?;
    let records = run_steps(
        &mut ProcessExecutor { launcher },
        subjects,
        steps,
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
