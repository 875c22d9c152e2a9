//! `taskbench run`: the command line made options once, then plan, prepare, build,
//! measure, finish and gate — the scheduler's steps in order (see `scheduler`).

use crate::cli::{RunArgs, run_options_of};
use crate::scheduler::{Resume, Scheduler};
use contestant::Places;
use std::path::Path;

/// Runs what `args` asks for (`contestants` is `--contestants`, when given, found in
/// `contestants_dir`); `command` is the taskbench command line, stored with results.
/// `--resume DIR` runs the rest of the run in DIR with its stored options. On SIGINT,
/// SIGTERM or SIGHUP it writes the results of the runs that finished, marked interrupted (the
/// exit status is the caller's: see `run::interrupt::exit_code`).
pub(crate) fn run(
    args: &RunArgs,
    contestants: Option<&Path>,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
) -> anyhow::Result<()> {
    let options = args.options(contestants);
    let resume = match &args.resume {
        Some(dir) => Some(Resume::open(dir, &options, run_options_of)?),
        None => None,
    };
    let (options, contestants_dir, command) = match &resume {
        Some(resume) => (
            &resume.options,
            (resume.options.contestants_dir.as_deref()).unwrap_or(contestants_dir),
            resume.session_file.command.clone(),
        ),
        None => (&options, contestants_dir, command),
    };
    let scheduler = Scheduler::plan(options, contestants_dir, places)?;
    if args.dry_run {
        print!("{}", scheduler.dry_run());
        return Ok(());
    }
    let finished = (scheduler.prepare(command, resume.as_ref())?)
        .build()?
        .measure()?
        .finish()?;
    crate::compare::step::gate(finished)
}
