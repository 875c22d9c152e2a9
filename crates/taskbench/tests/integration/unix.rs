//! Unix manners: a closed pipe on stdout ends taskbench quietly (`taskbench list | head -1`),
//! help fits the terminal (or 100 columns), and completion scripts for the shells.

use super::util::{QUICK, output_within, stderr};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Instant;

#[test]
fn a_closed_pipe_on_stdout_ends_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    // Closed before taskbench writes anything: its first line meets a pipe nobody reads.
    drop(reader);
    let mut list = Command::new(env!("CARGO_BIN_EXE_taskbench"))
        .arg("list")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while list.try_wait().unwrap().is_none() {
        if started.elapsed() > QUICK {
            list.kill().unwrap();
            panic!("taskbench list did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = list.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(101), "a panic's exit: {err}");
    assert_eq!(output.status.signal(), Some(libc::SIGPIPE), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `taskbench ARGS` with `COLUMNS` as given (`None`: unset), its stdout.
fn printed(args: &[&str], columns: Option<&str>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
    command.args(args).env_remove("COLUMNS");
    if let Some(columns) = columns {
        command.env("COLUMNS", columns);
    }
    let output = output_within(&mut command, QUICK).unwrap();
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn help_is_wrapped_to_the_terminal_or_100_columns() {
    for (columns, widest) in [(None, 100), (Some("72"), 72), (Some("200"), 100)] {
        for args in [&["--help"][..], &["run", "--help"], &["compare", "--help"]] {
            let help = printed(args, columns);
            let long = help.lines().find(|l| l.chars().count() > widest);
            assert_eq!(long, None, "{args:?} with COLUMNS={columns:?}");
        }
    }
}

#[test]
fn completions_name_the_subcommands_and_hint_paths() {
    for shell in ["bash", "zsh", "fish"] {
        let script = printed(&["completions", shell], None);
        for name in ["run", "compare", "merge", "completions", "--fail-if-slower"] {
            assert!(script.contains(name), "{shell}: no {name}");
        }
    }
    // Files and folders where a flag takes them: zsh's `_files` and `_files -/`.
    let zsh = printed(&["completions", "zsh"], None);
    assert!(
        zsh.contains("--export-json=[") && zsh.contains(":FILE:_files"),
        "{zsh}"
    );
    assert!(zsh.contains(":DIR:_files -/"), "{zsh}");
}

/// What taskbench starts keeps the default SIGPIPE, though taskbench's own is its own
/// business: a `--command` fails unless SIGPIPE is missing from its ignored signals.
#[test]
fn a_measured_command_keeps_the_default_sigpipe() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("results");
    let ignored_pipe = "test $(( 0x$(grep SigIgn /proc/$$/status | cut -f2) & (1 << 12) )) -eq 0";
    let args = [
        "run",
        "--quiet",
        "--no-store",
        "--out",
        dir.to_str().unwrap(),
        "--command",
        ignored_pipe,
        "-r",
        "2",
        "-w",
        "0",
        "--timeout",
        "30s",
    ];
    let output = super::util::taskbench_within(&args, QUICK);
    assert!(output.status.success(), "{}", stderr(&output));
    let results = super::util::read_json(&dir.join("results.json"));
    let measured: Vec<_> = (results["runs"].as_array().unwrap().iter())
        .filter(|r| r["phase"] == "measured")
        .collect();
    assert!(!measured.is_empty());
    for run in measured {
        assert_eq!(run["status"], "ok", "{run}");
    }
}
