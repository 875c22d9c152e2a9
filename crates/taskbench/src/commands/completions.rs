//! `taskbench completions SHELL`: the shell's completion script, made by clap_complete from
//! the command line's own definition (cli.rs), so that it names every subcommand and flag
//! there is, with the value hints (files, folders, commands) the flags declare.

use clap::CommandFactory;

/// Prints the completion script of `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> anyhow::Result<()> {
    let mut command = crate::cli::Cli::command();
    clap_complete::generate(shell, &mut command, "taskbench", &mut std::io::stdout());
    Ok(())
}
