//! Every format of the export table has its flag on `run` and on `export`, says what it
//! writes, and has a writer; the flags the docs name keep working.

use crate::cli::{Cli, Command};
use clap::{CommandFactory, Parser};
use export::{FORMATS, Format};
use std::path::Path;

/// The formats (by flag) and paths a command line asks to export.
fn exports_of(args: &[&str]) -> Vec<(&'static str, String)> {
    let cli = Cli::try_parse_from(std::iter::once("taskbench").chain(args.iter().copied()));
    let cli = cli.unwrap();
    let given: Vec<(&'static Format, &Path)> = match &cli.command {
        Command::Run(run) => run.export_flags.given(),
        Command::Export(export) => export.exports(),
        other => panic!("{other:?}"),
    };
    (given.into_iter())
        .map(|(format, path)| (format.flag(), path.display().to_string()))
        .collect()
}

/// The help of `--long` of `subcommand`, if it has that flag.
fn help_of(subcommand: &str, long: &str) -> Option<String> {
    let cli = Cli::command();
    let command = cli.find_subcommand(subcommand).unwrap();
    let arg = (command.get_arguments()).find(|a| a.get_long() == Some(long))?;
    Some(arg.get_help()?.to_string())
}

#[test]
fn every_format_has_a_flag_on_both_commands_and_a_writer() {
    let results = results::fake::results();
    for format in FORMATS {
        let flag = format.flag();
        let run = exports_of(&["run", &format!("--export-{flag}"), "out.x"]);
        assert_eq!(run, [(flag, "out.x".to_string())], "run --export-{flag}");
        let export = exports_of(&["export", "dir", &format!("--{flag}"), "-"]);
        assert_eq!(export, [(flag, "-".to_string())], "export --{flag}");
        for (subcommand, long) in [("run", format!("export-{flag}")), ("export", flag.into())] {
            let help = help_of(subcommand, &long).unwrap_or_default();
            assert!(
                help.contains(format.what()),
                "{subcommand} --{long}: {help}"
            );
        }
        let written = format.render(&results).unwrap();
        assert!(!written.is_empty(), "{flag} writes nothing");
    }
}

#[test]
fn the_documented_flags_keep_working_together() {
    // docs/EXPORTS.md and docs/USAGE.md name these.
    let documented = ["json", "csv", "markdown", "html", "bmf", "github-benchmark"];
    let mut run = vec!["run".to_string()];
    let mut export = vec!["export".to_string(), "dir".to_string()];
    for flag in documented {
        run.extend([format!("--export-{flag}"), format!("{flag}.out")]);
        export.extend([format!("--{flag}"), format!("{flag}.out")]);
    }
    for args in [run, export] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let flags: Vec<&str> = (exports_of(&args).into_iter())
            .map(|(flag, _)| flag)
            .collect();
        assert_eq!(flags, documented, "{args:?}");
    }
    assert!(help_of("run", "export-nope").is_none());
}
