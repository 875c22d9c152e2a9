//! `taskbench run`: select, build, run every case in fresh processes, report and export.

mod sharding;

use super::dry_run::{dry_run, plural};
use crate::analysis::{fits, summarize_machines, warnings};
use crate::cli::{Cli, Command, RunArgs};
use crate::contestant::Places;
use crate::export::Exporter;
use crate::export::{self, RunFile};
use crate::lineup::{choose, prepare, survey};
use crate::measure::machine::MachineWatch;
use crate::presets::estimate::startup;
use crate::presets::{self, Plan, estimate, point_of};
use crate::report::units::rough_duration;
use crate::report::{Platform, render_terminal, side_by_side, tables, terminal_width, wrap};
use crate::results::{Results, SCHEMA};
use crate::run::{
    Limits, Phase, ProcessExecutor, RunRecord, Settings, ShardCases, Step, Subject, Workload,
    interrupt, resume_plan,
};
use anyhow::{Context, anyhow, bail};
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use sharding::{shard_cases, shard_line, subject_names};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Runs what `args` asks for; `command` is the taskbench command line, stored with results.
/// On SIGINT or SIGTERM it writes the results of the runs that finished, marked
/// interrupted (the exit status is the caller's: see `run::interrupt::exit_code`).
pub fn run(
    args: &RunArgs,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
) -> anyhow::Result<()> {
    match &args.resume {
        Some(dir) => resume(args, dir, contestants_dir, places),
        None => start(args, contestants_dir, places, command, false),
    }
}

/// `--resume DIR`: the command line stored in DIR/run.json, parsed again, into DIR.
fn resume(
    args: &RunArgs,
    dir: &Path,
    contestants_dir: &Path,
    places: &Places,
) -> anyhow::Result<()> {
    if let Some((name, _)) = args.params.0.first() {
        bail!(
            "--resume runs the cases stored in {}: --{name} cannot go with it",
            RunFile::path(dir).display()
        );
    }
    let run_file = RunFile::read(dir)?.ok_or_else(|| {
        anyhow!(
            "{} holds no run.json: there is no run to resume there",
            dir.display()
        )
    })?;
    let cli = Cli::try_parse_from(&run_file.command).map_err(|e| {
        let rendered = e.render().to_string();
        anyhow!(
            "{}: its command line does not parse any more: {}",
            RunFile::path(dir).display(),
            rendered.lines().next().unwrap_or_default()
        )
    })?;
    let Command::Run(mut stored) = cli.command else {
        bail!(
            "{}: not the command line of a run",
            RunFile::path(dir).display()
        );
    };
    stored.out = Some(dir.to_path_buf());
    stored.resume = None;
    stored.quiet = args.quiet;
    let contestants = cli
        .contestants
        .unwrap_or_else(|| contestants_dir.to_path_buf());
    start(&stored, &contestants, places, run_file.command, true)
}

/// A new run, or (`resuming`) the rest of the one in `args.out`.
fn start(
    args: &RunArgs,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
    resuming: bool,
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
    crate::lineup::check_cpus(&args.cpus)?;
    let gated = args.gate.any();
    let variants = args.contestant.iter().any(|name| name.contains('@'));
    anyhow::ensure!(
        !gated || args.baseline.is_some() || variants,
        "--fail-if-slower, --fail-if-bigger and --fail-if-more-instructions gate a comparison: \
         --baseline NAME compares with another run, or name a variant (-c tokio,tokio@patch) \
         to compare within this one"
    );
    anyhow::ensure!(
        !args.instructions || args.command.is_empty(),
        "--instructions counts protocol runs, one iteration apart: --command runs cannot be counted"
    );
    let counter = match args.instructions {
        true => Some(crate::measure::counter::detect().map_err(|e| anyhow!(e))?),
        false => None,
    };
    let mut entries = match args.command.is_empty() {
        true => Some(choose(
            survey(contestants_dir, places)?,
            &args.contestant,
            &args.patch,
            places,
        )?),
        false => None,
    };
    // A shard of contestants is chosen before anything is built, from every contestant
    // asked for (available here or not), so that every runner splits alike.
    let shard = match (args.shard, &mut entries) {
        (Some(shard), Some(entries)) => {
            let chosen = shard_cases(&plan, &subject_names(entries, &args.cpus, false), shard)?;
            entries.retain(|e| {
                subject_names(std::slice::from_ref(e), &args.cpus, false)
                    .iter()
                    .any(|(name, _)| chosen.has(name))
            });
            Some((shard, chosen))
        }
        _ => None,
    };
    if args.dry_run {
        let names: Vec<(String, Duration)> = match &entries {
            Some(entries) => subject_names(entries, &args.cpus, true),
            None => args
                .command
                .iter()
                .map(|c| (c.clone(), startup("")))
                .collect(),
        };
        print!("{}", dry_run(&plan, &names));
        if let Some((shard, chosen)) = &shard {
            println!("{}", shard_line(*shard, chosen, names.len()));
        }
        return Ok(());
    }
    let out = out_path(args);
    let store = args
        .store
        .clone()
        .unwrap_or_else(|| crate::store::Location::Sqlite(crate::store::default_path(&out)));
    // Looked up before anything is written or run, so that a misspelt baseline costs nothing.
    let baseline = args
        .baseline
        .as_deref()
        .map(|name| super::compare::side(name, &store))
        .transpose()
        .context("--baseline")?;
    interrupt::install();
    prepare_output(args, &out)?;
    // Held until the run ends: a second run into the same folder is refused.
    let _lock = export::lock(&out)?;
    let (mut run_file, earlier) = match resuming {
        true => earlier_runs(&out)?,
        false => {
            let run_file = RunFile {
                schema: export::RUN_FILE_SCHEMA.into(),
                command,
                platform: None,
                contestants: Vec::new(),
                stopping: Some(plan.stopping),
                seeds: plan
                    .seeds
                    .iter()
                    .map(|t| (t.point.clone(), t.seed.clone()))
                    .collect(),
                machines: Vec::new(),
            };
            run_file.write(&out).context("--out")?;
            (run_file, Vec::new())
        }
    };
    let (subjects, infos) = match entries {
        Some(entries) => prepare(entries, places, &args.cpus, &mut |name| {
            if !args.quiet {
                eprintln!("building {name}…");
            }
        }),
        None => {
            let shell = if args.no_shell { "none" } else { &args.shell };
            let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
            let subjects = super::shell::subjects(&args.command, &args.command_name, shell, &cwd)?;
            (crate::lineup::pinned(subjects, &args.cpus), Vec::new())
        }
    };
    // Commands build nothing: their shard is chosen from the subjects themselves.
    let shard = match (args.shard, shard) {
        (Some(shard), None) => {
            let names: Vec<(String, Duration)> = subjects
                .iter()
                .map(|s| (s.name.clone(), s.startup))
                .collect();
            Some((shard, shard_cases(&plan, &names, shard)?))
        }
        (_, chosen) => chosen,
    };
    let subjects: Vec<Subject> = match &shard {
        Some((_, chosen)) => subjects
            .into_iter()
            .filter(|s| chosen.has(&s.name))
            .collect(),
        None => subjects,
    };
    // Builds stopped by Ctrl-C leave no subject, and the (empty) results are still written.
    if subjects.is_empty() && !interrupt::requested() {
        let reasons: Vec<String> = infos
            .iter()
            .filter_map(|i| i.unavailable.as_ref().map(|r| format!("{}: {r}", i.name)))
            .collect();
        bail!("no contestant can run here ({})", reasons.join("; "));
    }
    let platform = match run_file.platform.clone() {
        // A resumed run keeps the machine and the start it was first measured with.
        Some(platform) => platform,
        None => {
            let mut platform = Platform::probe();
            platform.versions = infos
                .iter()
                .map(|i| (i.name.clone(), i.version.clone()))
                .collect();
            run_file.platform = Some(platform.clone());
            run_file.contestants = infos.clone();
            run_file.write(&out)?;
            platform
        }
    };
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
        if let Some((shard, chosen)) = &shard {
            println!("{}\n", shard_line(*shard, chosen, subjects.len()));
        }
    }
    let limits = Limits {
        timeout: args.timeout,
        sample_every: Duration::from_millis(args.sample_ms),
        memory_limit: args.memory_limit.or_else(default_memory_limit),
        full_warmup: args.full_warmup,
    };
    let mut watch = MachineWatch::start();
    let settings = Settings {
        warmup: plan.warmup,
        idle_runs: plan.idle_runs,
        stopping: plan.stopping,
        instructions: counter.as_deref(),
    };
    let made = earlier
        .iter()
        .map(|r| (r.contestant.clone(), r.phase, r.point_label(), r.run))
        .collect();
    let records = execute(
        &subjects,
        &plan,
        settings,
        limits,
        &out,
        args.quiet,
        &mut watch,
        &made,
        shard.as_ref().map(|(_, chosen)| chosen),
    )
    .map_err(|fault| {
        // The run stops (the harness cannot start processes, runs.jsonl cannot be
        // written): what finished is written as results if it can be, marked interrupted.
        match super::report::rebuild(&out) {
            Ok(runs) => anyhow::anyhow!(
                "{fault:#}; the {runs} finished runs are in {dir} \
                 (`taskbench run --resume {dir}` runs the rest)",
                dir = out.display()
            ),
            Err(_) => fault,
        }
    })?;
    let interrupted = interrupt::requested();
    let machine = watch.finish();
    run_file.contestants = infos;
    let runs = earlier.len() + records.len();
    let results = assemble(
        earlier.into_iter().chain(records).collect(),
        &run_file,
        Some(machine),
        interrupted,
    );
    if !args.quiet {
        let width = terminal_width();
        if let Some(line) = results.interrupted_line() {
            println!("{line}\n");
        }
        for table in tables(&results.points, &results.fits) {
            println!("{}", render_terminal(&table, width));
        }
        if let Some(table) = side_by_side(&results.points) {
            println!("{}", render_terminal(&table, width));
        }
        for warning in &results.warnings {
            print!("{}", wrap(&format!("warning: {warning}"), width.into()));
        }
        print!("{}", super::show::overviews(&results, width));
    }
    write_results(&results, &out, &args.exports())?;
    if !args.no_store {
        super::store::keep(&store, &results, &out, args)?;
    }
    match interrupt::received() {
        Some(signal) => eprintln!(
            "taskbench: interrupted by {}: the {runs} finished runs are in {dir} \
             (`taskbench run --resume {dir}` runs the rest)",
            interrupt::signal_name(signal),
            dir = out.display()
        ),
        None if !args.quiet => println!("results: {}", out.display()),
        None => {}
    }
    if interrupt::requested() {
        return Ok(());
    }
    // The run against its baseline, or its variants against their contestants.
    let this = super::compare::Side::of(format!("this run ({})", out.display()), results);
    let comparison = match baseline {
        Some(baseline) => super::compare::across(&baseline, &this, &store)?,
        // A run of variants whose contestants it does not hold has nothing to gate.
        None if gated => super::compare::within(&this)?,
        None => match super::compare::within(&this) {
            Ok(comparison) => comparison,
            Err(_) => return Ok(()),
        },
    };
    println!();
    super::compare::report(&comparison, &args.gate, &Default::default())
}

/// The results document of `records`, with what run.json says of the run.
pub(super) fn assemble(
    records: Vec<RunRecord>,
    run_file: &RunFile,
    machine: Option<crate::measure::machine::MachineLoad>,
    interrupted: bool,
) -> Results {
    let mut points = summarize_machines(&records);
    for point in &mut points {
        point.seed = run_file
            .seeds
            .iter()
            .find(|(p, _)| *p == point.point)
            .map(|(_, seed)| seed.clone());
    }
    Results {
        schema: SCHEMA.into(),
        command: run_file.command.clone(),
        interrupted,
        platform: run_file.platform.clone().unwrap_or_else(unknown_platform),
        stopping: run_file.stopping,
        contestants: run_file.contestants.clone(),
        fits: fits(&points),
        warnings: warnings(
            &points,
            &records,
            run_file.stopping.map(|s| s.precision),
            machine.as_ref(),
        ),
        machine,
        points,
        runs: records,
        machines: run_file.machines.clone(),
    }
}

/// The platform of a run whose run.json never got that far: nothing known but taskbench.
fn unknown_platform() -> Platform {
    Platform {
        taskbench: env!("CARGO_PKG_VERSION").into(),
        started: String::new(),
        cpu: "unknown".into(),
        cores: 0,
        memory_bytes: 0,
        kernel: String::new(),
        rustc: String::new(),
        rust_profile: String::new(),
        load_average: 0.0,
        versions: Vec::new(),
    }
}

/// What an interrupted run in `out` left: its run.json, and its records without those of
/// cases it had not finished (those are run again from the start; runs.jsonl is rewritten
/// without them, and they are kept aside in runs.dropped.jsonl).
fn earlier_runs(out: &Path) -> anyhow::Result<(RunFile, Vec<RunRecord>)> {
    let run_file = RunFile::read(out)?.ok_or_else(|| {
        anyhow!(
            "{} holds no run.json: there is no run to resume there",
            out.display()
        )
    })?;
    let log = out.join("runs.jsonl");
    let (records, notice) = match log.exists() {
        true => export::read_records(&log)?,
        false => (Vec::new(), None),
    };
    if let Some(notice) = notice {
        eprintln!("taskbench: {notice}");
    }
    let (kept, dropped) = finished_only(records);
    if !dropped.is_empty() {
        let aside = out.join("runs.dropped.jsonl");
        let mut previous = match aside.exists() {
            true => export::read_records(&aside)?.0,
            false => Vec::new(),
        };
        previous.extend(dropped);
        export::rewrite(&aside, &previous)?;
    }
    export::rewrite(&log, &kept)?;
    // An earlier results.json is of the interrupted part; the end writes the whole.
    Ok((run_file, kept))
}

/// Splits records into those of finished cases (and every idle run) and the rest. A case
/// is finished when its last measured record says why it stopped.
fn finished_only(records: Vec<RunRecord>) -> (Vec<RunRecord>, Vec<RunRecord>) {
    let case = |r: &RunRecord| (r.contestant.clone(), r.point_label());
    let mut last: std::collections::HashMap<(String, String), bool> = Default::default();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        last.insert(case(record), record.stop.is_some());
    }
    records
        .into_iter()
        .partition(|r| r.phase == Phase::Idle || last.get(&case(r)) == Some(&true))
}

/// Half the machine's memory: room for the harness and the rest of the machine when a
/// contestant runs away.
fn default_memory_limit() -> Option<u64> {
    Some(Platform::probe_memory_bytes() / 2).filter(|&limit| limit > 0)
}

/// `--out`, or `results/<start time>`.
fn out_path(args: &RunArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        PathBuf::from("results").join(stamp.replace(':', "-"))
    })
}

/// Creates the output folder and checks every export path before anything runs.
fn prepare_output(args: &RunArgs, out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    export::check_writable(&out.join("runs.jsonl")).context("--out")?;
    for (exporter, path) in args.exports() {
        export::check_writable(path).with_context(|| format!("--export-{}", exporter.flag()))?;
    }
    Ok(())
}

/// Runs the plan with a progress bar over its cases, appending each record to runs.jsonl
/// as it is made; `watch` samples the load average as each point begins.
#[allow(clippy::too_many_arguments)]
fn execute(
    subjects: &[Subject],
    plan: &Plan,
    settings: Settings,
    limits: Limits,
    out: &Path,
    quiet: bool,
    watch: &mut MachineWatch,
    made: &HashSet<(String, Phase, String, u32)>,
    shard: Option<&ShardCases>,
) -> anyhow::Result<Vec<RunRecord>> {
    let log_path = out.join("runs.jsonl");
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("cannot write {}", log_path.display()))?;
    let theirs =
        |subject: &str, workload: &Workload| shard.is_some_and(|s| !s.takes(subject, workload));
    let done = |step: &Step| {
        let subject = &subjects[step.subject].name;
        let key = (subject.clone(), step.phase, step.workload.point(), step.run);
        made.contains(&key) || theirs(subject, &step.workload)
    };
    let finished = made
        .iter()
        .filter(|(_, phase, _, run)| *phase == Phase::Measured && *run == 1)
        .count();
    let ours = plan
        .workloads
        .iter()
        .flat_map(|w| subjects.iter().filter(move |s| !theirs(&s.name, w)))
        .count();
    let cases = ours.saturating_sub(finished) as u64;
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
        export::append(&mut log, &log_path, record)?;
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
    let records = resume_plan(
        &mut ProcessExecutor { launcher },
        subjects,
        &plan.workloads,
        settings,
        limits,
        &done,
        &mut sink,
        &mut progress,
    );
    bar.finish_and_clear();
    let records = records?;
    Ok(records)
}

/// Every folder format into `out` (results.json, .csv, .md, report.html) and each of
/// `exports` (`--export-<flag> PATH`) where it asks.
pub(super) fn write_results(
    results: &Results,
    out: &Path,
    exports: &[(&dyn Exporter, &Path)],
) -> anyhow::Result<()> {
    for exporter in export::EXPORTERS {
        let wanted: Vec<&Path> = exports
            .iter()
            .filter(|(e, _)| e.flag() == exporter.flag())
            .map(|(_, path)| *path)
            .collect();
        let folder = exporter.folder_file().map(|file| out.join(file));
        if folder.is_none() && wanted.is_empty() {
            continue;
        }
        let bytes = exporter.render(results)?;
        for path in folder.iter().map(PathBuf::as_path).chain(wanted) {
            export::write_atomically(path, &bytes)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{RunStatus, StopReason};

    fn record(contestant: &str, phase: Phase, run: u32, stop: Option<StopReason>) -> RunRecord {
        let tasks = if phase == Phase::Idle { 0 } else { 10 };
        RunRecord {
            machine: None,
            contestant: contestant.into(),
            scenario: "spawn".into(),
            params: [("tasks".to_string(), tasks)].into(),
            inner_warmup: 0,
            phase,
            run,
            iterations: 1,
            status: RunStatus::Ok,
            figures: None,
            stop,
        }
    }

    #[test]
    fn a_resume_keeps_finished_cases_and_idle_runs_only() {
        let idle = record("a", Phase::Idle, 1, None);
        let warm = record("a", Phase::Warmup, 1, None);
        let partial = record("a", Phase::Measured, 1, None);
        let done = [
            record("b", Phase::Warmup, 1, None),
            record("b", Phase::Measured, 1, None),
            record("b", Phase::Measured, 2, Some(StopReason::MaxRuns)),
        ];
        let mut all = vec![idle.clone(), warm.clone(), done[0].clone()];
        all.extend([partial.clone(), done[1].clone(), done[2].clone()]);
        let (kept, dropped) = finished_only(all);
        let mut expected = vec![idle];
        expected.extend(done);
        assert_eq!(kept, expected);
        assert_eq!(dropped, [warm, partial]);
    }
}
