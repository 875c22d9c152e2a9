//! The export flags, made from the export table (export/format.rs): `run --export-<flag>
//! PATH` and `export DIR --<flag> PATH` for every format there, so that a new format is one
//! entry in that table and both commands' flags follow. clap's derive cannot make flags
//! from a table, so this implements `Args` by hand, as the scenario parameters do.

use clap::{Arg, ArgMatches, Args, FromArgMatches, ValueHint};
use export::{FORMATS, Format};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// How a command spells its export flags and says what each does.
pub(crate) trait Spelling {
    /// What comes between `--` and the format's flag.
    const PREFIX: &'static str;
    /// The help of the flag of `format`.
    fn help(format: &Format) -> String;
}

/// `run`'s spelling: `--export-<flag> PATH`, written beside the run's folder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AlsoWrite;

impl Spelling for AlsoWrite {
    const PREFIX: &'static str = "export-";
    fn help(format: &Format) -> String {
        format!(
            "Also write {} here (`-`: stdout, the run then quiet)",
            format.what()
        )
    }
}

/// `export`'s spelling: `--<flag> PATH`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Write;

impl Spelling for Write {
    const PREFIX: &'static str = "";
    fn help(format: &Format) -> String {
        format!("Write {} here; `-` is stdout", format.what())
    }
}

/// The paths given to the export flags, each with its format, in the table's order.
#[derive(Debug, Clone)]
pub(crate) struct ExportFlags<S> {
    given: Vec<(&'static Format, PathBuf)>,
    spelling: PhantomData<S>,
}

/// `run --export-<flag> PATH`.
pub(crate) type RunExports = ExportFlags<AlsoWrite>;
/// `export DIR --<flag> PATH`.
pub(crate) type FolderExports = ExportFlags<Write>;

impl<S: Spelling> ExportFlags<S> {
    /// The flag of `format`, as typed (`--export-bmf`).
    pub(crate) fn flag(format: &Format) -> String {
        format!("--{}", Self::long(format))
    }

    /// Every flag, in the table's order.
    pub(crate) fn flags() -> Vec<String> {
        FORMATS.iter().map(Self::flag).collect()
    }

    /// Each format whose flag was given, with its path.
    pub(crate) fn given(&self) -> Vec<(&'static Format, &Path)> {
        (self.given.iter())
            .map(|(format, path)| (*format, path.as_path()))
            .collect()
    }

    /// The flag without its dashes, also its argument's id.
    fn long(format: &Format) -> String {
        format!("{}{}", S::PREFIX, format.flag())
    }
}

impl<S: Spelling> Args for ExportFlags<S> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        FORMATS.iter().fold(cmd, |cmd, format| {
            cmd.arg(
                Arg::new(Self::long(format))
                    .long(Self::long(format))
                    .value_name("FILE")
                    .value_hint(ValueHint::FilePath)
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(S::help(format)),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl<S: Spelling> FromArgMatches for ExportFlags<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = (FORMATS.iter())
            .filter_map(|format| {
                let path = matches.get_one::<PathBuf>(&Self::long(format))?;
                Some((format, path.clone()))
            })
            .collect();
        Ok(ExportFlags {
            given,
            spelling: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
