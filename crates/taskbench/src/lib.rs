//! taskbench measures what concurrency costs — spawning tasks, sleeping, timers, fan-out,
//! message passing — across runtimes and languages, every case in a fresh process.
//!
//! The pipeline, in the order of docs/ARCHITECTURE.md — catalogue → contestants → measure →
//! run → analysis → words/export → store — each stage a crate of its own, which this crate
//! uses and none of which uses it:
//! - `catalogue`: the scenarios, their parameters, checksums, ideal times;
//! - `contestant`: manifests under `contestants/`, toolchain detection, builds, versions,
//!   each runtime's warm-up rule; then `presets` and `lineup`: what this invocation runs
//!   (named sets of cases, or the scenarios named), on whom;
//! - `measure` (on the catalogue alone): one process, exactly: wall, `wait4` rusage, the
//!   /proc sampler, the launcher; the machine and its load (`Platform`, `MachineWatch`);
//! - `run`: the order of processes, the runner (stopped by a condition it is given), one
//!   process's execution and judgement, the stored record;
//! - `stats` (a leaf): numbers only; `analysis` what they mean; `results`: the document a
//!   session produces, which everything after it reads;
//! - `words` what is shown; `plot` and `html`: the charts and report.html, with `seeds`, the
//!   seed benchmarks' published figures, beside ours; `export`: the folder, JSON, CSV,
//!   Markdown, the ecosystem's formats;
//! - `store`: every session kept in SQLite or PostgreSQL, its rows, the baselines.
//!
//! Beside it, leaves any stage may use: `units` (durations, sizes and shares in human units)
//! and `exit` (what the exit status tells a script).
//!
//! This crate holds what sits over that model. The features, one folder each, holding their
//! deciding, words, conclusion and exit status: [`compare`] (and the gate), [`history`] (and
//! change points), [`bisect`], [`warm_up`], [`agree`], [`shards`] (and merging). Then
//! [`scheduler`], a session from start to end as named steps over all of the above (plan,
//! prepare, build, measure, finish) — what `taskbench run` is, its gate the last step;
//! [`cli`], the command line read into options; [`commands`], each subcommand a short story
//! over the library (no command imports another). Which of these may import which is one
//! table, tests/integration/layers.rs: each only the modules before it there — a feature's
//! parts each a row where they sit — so that no import runs against the pipeline and none
//! closes a circle (docs/ARCHITECTURE.md, "Who may import whom"): an order inside one
//! crate, which Cargo cannot say.

pub(crate) mod agree;
pub(crate) mod bisect;
pub mod cli;
pub(crate) mod commands;
pub(crate) mod compare;
pub(crate) mod history;
pub(crate) mod scheduler;
pub(crate) mod shards;
pub(crate) mod site;
pub(crate) mod warm_up;

// The unit tests start commands through the launcher (measure/launcher.rs): their binary
// is one too.
#[cfg(test)]
measure::launch_before_main!();

use clap::Parser;
use std::process::ExitCode;

/// Parses the command line and runs it; every error is one line on stderr (clap's with its
/// tip and usage), its exit status as the exit crate classes it.
pub fn main() -> ExitCode {
    measure::launcher::launch_if_asked();
    default_sigpipe();
    let argv: Vec<String> = std::env::args().collect();
    let cli = match cli::Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("taskbench: {}", clap_error(&err));
            return ExitCode::from(exit::ExitClass::Usage.code());
        }
    };
    let sources = contestant::home::Sources::here(cli.contestants.as_deref());
    let result = sources
        .contestants()
        .and_then(|contestants| dispatch(&cli, &contestants, &sources, argv));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            run::interrupt::errln!("taskbench: {err:#}");
            exit::code_of(&err)
        }
    }
}

/// Runs the command `cli` names, with the contestants found in `contestants`.
fn dispatch(
    cli: &cli::Cli,
    contestants: &std::path::Path,
    sources: &contestant::home::Sources,
    argv: Vec<String>,
) -> anyhow::Result<()> {
    let places = contestant::home::places_in(sources.root_of(contestants));
    match &cli.command {
        cli::Command::List => commands::list(contestants, &places),
        cli::Command::Run(args) => {
            let given = cli.contestants.as_deref();
            commands::run(args, given, contestants, &places, argv)
        }
        cli::Command::Presets(args) => commands::presets(args, contestants, &places),
        cli::Command::Report(args) => commands::report(&args.dir),
        cli::Command::Show(args) => commands::show(&args.dir),
        cli::Command::Merge(args) => commands::merge(args),
        cli::Command::Import(args) => commands::import(args),
        cli::Command::History(args) => commands::history(args),
        cli::Command::Site(args) => commands::site(args, contestants),
        cli::Command::Compare(args) => commands::compare(args, contestants, &places, argv),
        cli::Command::Export(args) => commands::export(args),
        cli::Command::Completions(args) => commands::completions(args.shell),
        cli::Command::WarmUp(args) => commands::warm_up(args, contestants, &places),
        cli::Command::Agree(args) => commands::agree(args),
        cli::Command::Bisect(args) => {
            let given = cli.contestants.as_deref();
            commands::bisect(args, given, contestants, &places, argv)
        }
    }
}

/// A closed pipe on stdout (`taskbench list | head -1`) ends taskbench quietly, by SIGPIPE,
/// as it ends any Unix tool, rather than by a panic in `println!` (Rust ignores SIGPIPE
/// unless told otherwise). `taskbench run` ignores it again once it starts, so as to write
/// its results first (run/interrupt.rs). The launcher, which runs before this, keeps Rust's
/// setting, and gives the contestants it forks the default (measure/launcher.rs).
fn default_sigpipe() {
    // SAFETY: setting a signal's disposition to its default has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// clap's error in one line, with its tips (`a similar argument exists: '--warmup'`) kept
/// in brackets after it; its usage block and closing "For more information" go, so that bad
/// input is still one line naming the problem.
fn clap_error(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let text = rendered.strip_prefix("error: ").unwrap_or(&rendered);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default().to_string();
    let tips: Vec<&str> = lines.filter(|l| l.starts_with("tip:")).collect();
    if tips.is_empty() {
        first
    } else {
        format!("{first} ({})", tips.join("; "))
    }
}
