//! A session from start to end, as named steps over the library — what `taskbench run` is:
//!
//! 1. [`Scheduler::plan`]: the cases (a preset or the scenarios named), the lineup, the
//!    shard; nothing built or written ([`Scheduler::dry_run`] shows it);
//! 2. [`Scheduler::prepare`]: the output folder, its lock, run.json (or the run resumed);
//! 3. [`Prepared::build`]: the contestants built and probed, the platform and the header;
//! 4. [`Built::measure`]: every case run in fresh processes, each record kept as it is made;
//! 5. [`Measured::finish`]: the results assembled, printed, written, stored;
//! 6. the gate (`compare::step::gate`, the compare feature's): against a baseline, or the
//!    variants against their contestants.
//!
//! Each step consumes the one before, so they can only run in this order.

mod build;
mod finish;
mod measure;
mod options;
mod resume;

pub(crate) use build::Built;
pub(crate) use finish::Finished;
pub(crate) use measure::Measured;
pub(crate) use options::{Commands, Export, Gate, Keep, ProcessLimits, SessionOptions, Show};
pub(crate) use resume::{Resume, Stored};

use crate::compare::gate::{Side, check_machines};
use crate::shards::cases::{shard_cases, subject_names};
use contestant::Places;
use export::SessionFile;
use lineup::{Lineup, Surveyed, choose, survey_for};
use presets::Plan;
use run::{RunRecord, Shard, ShardCases, interrupt};
use store::Location;
// `::measure`, the crate: a plain `measure` here is this module's step (measure.rs).
use ::measure::{InstructionCounter, Platform};
use anyhow::{Context, anyhow, bail};
use std::path::{Path, PathBuf};

/// What a run will do, decided before anything is built or written.
pub(crate) struct Scheduler<'a> {
    options: &'a SessionOptions,
    places: &'a Places,
    plan: Plan,
    /// The contestants asked for (`None`: `--command`s instead).
    surveyed: Option<Vec<Surveyed>>,
    /// `--shard K/N`, with its cases, when chosen from the contestants.
    shard: Option<(Shard, ShardCases)>,
    /// `--instructions`: the counter found here.
    counter: Option<Box<dyn InstructionCounter>>,
}

impl<'a> Scheduler<'a> {
    /// Plans the run `options` asks for over the contestants in `contestants_dir`.
    pub(crate) fn plan(
        options: &'a SessionOptions,
        contestants_dir: &Path,
        places: &'a Places,
    ) -> anyhow::Result<Scheduler<'a>> {
        let plan = plan(options)?;
        check_options(options)?;
        let counter = if options.instructions {
            Some(::measure::counter::detect().map_err(|e| anyhow!(e))?)
        } else {
            None
        };
        let mut surveyed = if options.commands.commands.is_empty() {
            let default = presets::default_lineup(&options.plan)?;
            let lineup = match options.contestants.as_slice() {
                [] => Lineup::Default(&default),
                named => Lineup::Named(named),
            };
            Some(choose(
                survey_for(contestants_dir, places, lineup)?,
                lineup,
                &options.patches,
                places,
            )?)
        } else {
            None
        };
        // A shard of contestants is chosen before anything is built, from every contestant
        // asked for (available here or not), so that every runner splits alike.
        let shard = match (options.shard, &mut surveyed) {
            (Some(shard), Some(surveyed)) => {
                let names = subject_names(surveyed, &options.cpus, false);
                let chosen = shard_cases(&plan, &names, shard)?;
                surveyed.retain(|e| {
                    subject_names(std::slice::from_ref(e), &options.cpus, false)
                        .iter()
                        .any(|(name, _)| chosen.has(name))
                });
                Some((shard, chosen))
            }
            _ => None,
        };
        Ok(Scheduler {
            options,
            places,
            plan,
            surveyed,
            shard,
            counter,
        })
    }

    /// What the machine's limits do to the socket points, one line each: the preset's
    /// points it cannot hold, left out; those whose clients overflow its listen queue.
    pub(crate) fn socket_warnings(&self) -> Vec<String> {
        let limits = ::measure::limits::SocketLimits::here();
        let queue = self.plan.workloads.iter().filter_map(|w| match w {
            run::Workload::Scenario { scenario, .. } => limits.queue_warning(scenario),
            run::Workload::Command => None,
        });
        (self.plan.held_back.iter())
            .map(|line| format!("left out, {line}"))
            .chain(queue)
            .collect()
    }

    /// `--dry-run`: the cases, the subjects and an estimate of the time.
    pub(crate) fn dry_run(&self) -> String {
        let names: Vec<(String, contestant::ProcessCost)> = match &self.surveyed {
            Some(surveyed) => subject_names(surveyed, &self.options.cpus, true),
            None => (self.options.commands.commands.iter())
                .map(|c| (c.clone(), contestant::ProcessCost::command()))
                .collect(),
        };
        let mut out = words::plan::dry_run(&self.plan, &names);
        if let Some((shard, chosen)) = &self.shard {
            out.push_str(&words::plan::shard_line(*shard, chosen, names.len()));
            out.push('\n');
        }
        out
    }

    /// Makes the output folder and locks it, and writes run.json and the options beside
    /// it — or takes over the interrupted run of `resume`, with the records of the cases it
    /// finished. `command` is the taskbench command line, kept with the results.
    pub(crate) fn prepare(
        self,
        command: Vec<String>,
        resume: Option<&Resume>,
    ) -> anyhow::Result<Prepared<'a>> {
        let options = self.options;
        let out = out_path(options);
        let store = (options.keep.store.clone())
            .unwrap_or_else(|| Location::Sqlite(store::default_path(&out)));
        // Looked up before anything is written or run, so that a misspelt baseline costs nothing.
        let baseline = (options.gate.baseline)
            .as_deref()
            .map(|name| crate::compare::sides::side(name, &store))
            .transpose()
            .context("--baseline")?;
        if let Some(baseline) = &baseline {
            // Checked again when the run is compared; here, before a run it would refuse.
            let here = (resume.and_then(|r| r.session_file.platform.clone()))
                .unwrap_or_else(|| Platform::probe(env!("CARGO_PKG_VERSION")))
                .machine();
            check_machines(
                (&baseline.label, &baseline.machine),
                ("this run", &here),
                options.gate.mixed_machines,
            )?;
        }
        interrupt::install();
        prepare_output(options, &out)?;
        // Held until the run ends: a second run into the same folder is refused.
        let lock = export::lock(&out)?;
        let (session_file, earlier) = match resume {
            Some(resume) => (resume.session_file.clone(), resume.earlier_runs()?),
            None => {
                let session_file = SessionFile::new(command, Some(&self.plan));
                session_file.write(&out).context("--out")?;
                options.write(&out).context("--out")?;
                (session_file, Vec::new())
            }
        };
        Ok(Prepared {
            scheduler: self,
            out,
            store,
            baseline,
            _lock: lock,
            session_file,
            earlier,
        })
    }
}

/// A run with its folder: ready to build its contestants.
pub(crate) struct Prepared<'a> {
    scheduler: Scheduler<'a>,
    out: PathBuf,
    store: Location,
    /// `--baseline`'s side, looked up first.
    baseline: Option<Side>,
    /// Held until the run ends.
    _lock: std::fs::File,
    session_file: SessionFile,
    /// The records of an interrupted run's finished cases (`--resume`).
    earlier: Vec<RunRecord>,
}

/// The cases: a preset's, the scenarios named, or the `--command`s.
fn plan(run: &SessionOptions) -> anyhow::Result<Plan> {
    let options = &run.plan;
    if run.commands.commands.is_empty() {
        return presets::plan(options);
    }
    if !options.params.0.is_empty() || options.inner_warm_up.is_some() {
        bail!("--command runs a whole command: scenario parameters and --inner-warmup do not apply")
    }
    Plan::commands(options)
}

/// What no plan shows: `--cpus` fits here, a gate has something to compare with (of another
/// machine only with `--baseline`) and stdout to itself, `--instructions` has protocol runs to count.
fn check_options(options: &SessionOptions) -> anyhow::Result<()> {
    lineup::check_cpus(&options.cpus)?;
    let gate = &options.gate;
    // `tokio@patch` is a variant; `@rust` is a group.
    let variants = (options.contestants.iter()).any(|name| name.find('@').is_some_and(|at| at > 0));
    anyhow::ensure!(
        !gate.thresholds.any() || gate.baseline.is_some() || variants,
        "--fail-if-slower, --fail-if-bigger and --fail-if-more-instructions gate a comparison: \
         --baseline NAME compares with another run, or name a variant (-c tokio,tokio@patch) \
         to compare within this one"
    );
    anyhow::ensure!(
        !gate.mixed_machines || gate.baseline.is_some(),
        "--mixed-machines lets --baseline NAME be a run of another machine: give --baseline"
    );
    anyhow::ensure!(
        !options.exports_to_stdout() || (gate.baseline.is_none() && !gate.thresholds.any()),
        "an --export-* to stdout (-) leaves no room there for the comparison of --baseline or \
         the gate: give the export a file"
    );
    anyhow::ensure!(
        !options.instructions || options.commands.commands.is_empty(),
        "--instructions counts protocol runs, one iteration apart: --command runs cannot be counted"
    );
    Ok(())
}

/// `--out`, or `results/<start time>`.
fn out_path(options: &SessionOptions) -> PathBuf {
    options.out.clone().unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        PathBuf::from("results").join(stamp.replace(':', "-"))
    })
}

/// Creates the output folder and checks every export path before anything runs.
fn prepare_output(options: &SessionOptions, out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    export::check_writable(&out.join("runs.jsonl")).context("--out")?;
    export::check_stdout(&options.exports(), |format| {
        format!("--export-{}", format.flag())
    })?;
    for (exporter, path) in options.exports() {
        export::check_writable(path).with_context(|| format!("--export-{}", exporter.flag()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
