//! How a `--command` is started, as hyperfine starts it: directly when it has no shell
//! syntax (or with `--shell none`), else through the shell, whose own start-up — the shell
//! run with an empty command — is measured beside it and subtracted from its times.

use crate::Subject;
use anyhow::{Context, bail};
use contestant::startup;
use std::path::Path;

/// Characters that mean something to a POSIX shell beyond separating words and quoting.
const SHELL_SYNTAX: &[char] = &[
    '|', '&', ';', '<', '>', '(', ')', '$', '`', '\\', '*', '?', '[', ']', '#', '~', '=', '%', '{',
    '}', '!', '\n',
];

/// The subjects of `commands`, named by `names` where given, started with `shell`
/// (`none`: never through a shell).
pub fn subjects(
    commands: &[String],
    names: &[String],
    shell: &str,
    cwd: &Path,
) -> anyhow::Result<Vec<Subject>> {
    if names.len() > commands.len() {
        bail!(
            "--command-name: {} names for {} commands",
            names.len(),
            commands.len()
        );
    }
    commands
        .iter()
        .enumerate()
        .map(|(i, command)| {
            let (argv, baseline) = argv(command, shell)?;
            Ok(Subject {
                name: names.get(i).cloned().unwrap_or_else(|| command.clone()),
                argv,
                cwd: cwd.to_path_buf(),
                unsupported: Vec::new(),
                startup: startup(""),
                warm_up: contestant::WarmUpTable::common(),
                baseline,
                cpus: None,
                env: Vec::new(),
            })
        })
        .collect()
}

/// The program and arguments of `command`, and the shell's empty run when it goes through
/// one.
fn argv(command: &str, shell: &str) -> anyhow::Result<(Vec<String>, Option<Vec<String>>)> {
    let direct = shell == "none" || !command.contains(SHELL_SYNTAX);
    if direct {
        let words = shell_words::split(command)
            .with_context(|| format!("--command {command:?}: cannot split it into words"))?;
        if words.is_empty() {
            bail!("--command: an empty command");
        }
        return Ok((words, None));
    }
    let run = |c: &str| vec![shell.to_string(), "-c".to_string(), c.to_string()];
    Ok((run(command), Some(run(""))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn plain_commands_run_directly() {
        assert_eq!(
            argv("sleep 0.02", "sh").unwrap(),
            (words(&["sleep", "0.02"]), None)
        );
        assert_eq!(
            argv("grep 'a b' file", "sh").unwrap(),
            (words(&["grep", "a b", "file"]), None),
            "quotes group words without a shell"
        );
    }

    #[test]
    fn shell_syntax_goes_through_the_shell_with_its_baseline() {
        let (argv, baseline) = argv("sleep 1 | cat", "bash").unwrap();
        assert_eq!(argv, words(&["bash", "-c", "sleep 1 | cat"]));
        assert_eq!(baseline, Some(words(&["bash", "-c", ""])));
        assert_eq!(
            super::argv("echo $HOME", "none").unwrap().0,
            words(&["echo", "$HOME"]),
            "--shell none never uses one"
        );
    }

    #[test]
    fn bad_commands_are_one_line() {
        assert!(argv("   ", "none").is_err());
        assert!(argv("echo 'unclosed", "sh").is_err());
        let cwd = Path::new("/");
        let err = subjects(&words(&["a"]), &words(&["x", "y"]), "sh", cwd).unwrap_err();
        assert_eq!(err.to_string(), "--command-name: 2 names for 1 commands");
        let named = subjects(&words(&["a", "b"]), &words(&["x"]), "sh", cwd).unwrap();
        assert_eq!((named[0].name.as_str(), named[1].name.as_str()), ("x", "b"));
    }
}
