//! `taskbench run`: the command line made options once, then plan, prepare, build,
//! measure, finish and gate — the scheduler's steps in order (see `scheduler`).

use crate::cli::{RunArgs, run_options_of};
use crate::scheduler::{Resume, Scheduler, SessionOptions, Stored};
use contestant::Places;
use export::SessionFile;
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
        Some(dir) => {
            let (session_file, stored) = Resume::stored(dir, &options)?;
            let stored = stored_options(dir, stored)?;
            Some(Resume::open(dir, &options, session_file, stored))
        }
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
    for line in scheduler.socket_warnings() {
        eprintln!("warning: {line}");
    }
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

/// The settings `--resume DIR` runs with: those `stored` in DIR, or, for a folder written
/// before options were kept, those the command line its run.json holds reads as.
fn stored_options(dir: &Path, stored: Stored) -> anyhow::Result<SessionOptions> {
    match stored {
        Stored::Options(options) => Ok(*options),
        Stored::CommandLine(argv) => run_options_of(&argv)
            .map_err(|e| anyhow::anyhow!("{}: {e:#}", SessionFile::path(dir).display())),
    }
}
