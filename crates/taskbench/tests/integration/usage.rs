//! docs/USAGE.md's reference is made from the command line's clap definition, so that no
//! command or flag is documented that does not exist, or exists undocumented (issue 47): this
//! test renders it and compares; `TASKBENCH_UPDATE_USAGE=1` writes it instead. The flags the
//! page's hand-written parts and the README's commands name are held to clap's too.

use clap::{ArgAction, CommandFactory};
use contestant::home::repository_root;
use std::collections::BTreeSet;
use taskbench::cli::Cli;

/// The generated part of docs/USAGE.md lies between these two lines; the rest is written by
/// hand (the examples above it, the exit codes and notes below it).
const BEGIN: &str = "<!-- BEGIN generated from clap by crates/taskbench/tests/integration/usage.rs; \
                     TASKBENCH_UPDATE_USAGE=1 cargo test -p taskbench --test integration usage -->";
const END: &str = "<!-- END generated from clap -->";

/// The command line's definition, as `taskbench --help` sees it (global flags propagated,
/// `--help`, `--version` and the `help` subcommand added).
fn cli() -> clap::Command {
    let mut command = Cli::command();
    command.build();
    command
}

/// The reference in Markdown: a section per command, the top level first, then every
/// subcommand (hidden ones left out) depth first, in clap's order; each ends with a blank
/// line.
fn render() -> String {
    let mut out = String::from("\n");
    section(&mut out, "taskbench", &cli(), true);
    out
}

/// Whether an argument is the `-h`/`--help` clap gives every command.
fn is_help(arg: &clap::Arg) -> bool {
    matches!(
        arg.get_action(),
        ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong
    )
}

/// One command's section: a heading, its about text, a table of its arguments and flags,
/// then its subcommands' sections. clap's own `help` subcommand (`taskbench help run` is
/// `taskbench run --help`) and the `--help` every command has are listed at the top only.
fn section(out: &mut String, path: &str, command: &clap::Command, top: bool) {
    out.push_str(&format!("## `{path}`\n\n"));
    let about = command.get_long_about().or(command.get_about());
    if let Some(about) = about {
        out.push_str(&format!("{}\n\n", inline(&about.to_string())));
    }
    // A global flag is listed once, at the top: clap copies it into every subcommand.
    let args: Vec<&clap::Arg> = (command.get_arguments())
        .filter(|arg| !arg.is_hide_set() && (top || !(arg.is_global_set() || is_help(arg))))
        .collect();
    if top {
        out.push_str("Flags marked *global*, and `-h`/`--help`, go with every command.\n\n");
    }
    if !args.is_empty() {
        out.push_str("| argument or flag | value | what it does | default |\n");
        out.push_str("|---|---|---|---|\n");
        for arg in args {
            out.push_str(&row(arg));
        }
        out.push('\n');
    }
    let subcommands = (command.get_subcommands())
        .filter(|sub| !(sub.is_hide_set() || (top && sub.get_name() == "help")));
    for sub in subcommands {
        section(out, &format!("{path} {}", sub.get_name()), sub, false);
    }
}

/// An argument's or flag's row: its names, its value (with its choices), its help, its
/// default (with the environment variable that overrides it).
fn row(arg: &clap::Arg) -> String {
    let value_names: Vec<String> = (arg.get_value_names().unwrap_or_default().iter())
        .map(|name| name.to_string())
        .collect();
    let value_name = if value_names.is_empty() {
        arg.get_id().to_string().to_uppercase()
    } else {
        value_names.join(" ")
    };
    let takes_value = arg.get_action().takes_values();
    let positional = arg.get_long().is_none() && arg.get_short().is_none();
    let names = if positional {
        format!("`{value_name}`")
    } else {
        flag_names(arg)
    };
    let mut value = Vec::new();
    if positional {
        value.push("argument".to_string());
    } else if takes_value {
        value.push(format!("`{value_name}`"));
    }
    let choices: Vec<String> = (arg.get_possible_values().iter())
        .filter(|choice| !choice.is_hide_set())
        .map(|choice| format!("`{}`", choice.get_name()))
        .collect();
    if takes_value && !choices.is_empty() && !arg.is_hide_possible_values_set() {
        value.push(format!("one of {}", choices.join(", ")));
    }
    if arg.get_value_delimiter() == Some(',') {
        value.push("comma-separated".into());
    }
    if matches!(arg.get_action(), ArgAction::Append) {
        value.push("repeatable".into());
    }
    if arg.is_required_set() {
        value.push("required".into());
    }
    if arg.is_global_set() {
        value.push("*global*".into());
    }
    let help = (arg.get_long_help().or(arg.get_help()))
        .map(|help| help.to_string())
        .unwrap_or_default();
    let cells = [names, value.join(", "), inline(&help), default(arg)];
    let cells: Vec<String> = cells.iter().map(|cell| escape_pipes(cell)).collect();
    format!("| {} |\n", cells.join(" | "))
}

/// A flag's default: the environment variable that sets it, else its default value.
fn default(arg: &clap::Arg) -> String {
    let mut default = Vec::new();
    if let Some(env) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
        default.push(format!("`${}`", env.to_string_lossy()));
    }
    if arg.get_action().takes_values() && !arg.is_hide_default_value_set() {
        let values: Vec<String> = (arg.get_default_values().iter())
            .map(|value| format!("`{}`", value.to_string_lossy()))
            .collect();
        if !values.is_empty() {
            default.push(values.join(", "));
        }
    }
    default.join(", else ")
}

/// `-c`, `--contestant` and their visible aliases.
fn flag_names(arg: &clap::Arg) -> String {
    let shorts = arg.get_short_and_visible_aliases().unwrap_or_default();
    let longs = arg.get_long_and_visible_aliases().unwrap_or_default();
    let shorts = shorts.iter().map(|short| format!("`-{short}`"));
    let longs = longs.iter().map(|long| format!("`--{long}`"));
    shorts.chain(longs).collect::<Vec<_>>().join(", ")
}

/// Help text as one line of Markdown: whitespace collapsed, and `<` outside code spans
/// written as an entity so that `results/<time>` is not read as an HTML tag.
fn inline(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let line = words.join(" ");
    let mut out = String::new();
    for (index, part) in line.split('`').enumerate() {
        if index > 0 {
            out.push('`');
        }
        match index % 2 {
            0 => out.push_str(&part.replace('<', "&lt;")),
            _ => out.push_str(part),
        }
    }
    out
}

/// A table cell's `|` escaped (GitHub reads `\|` as a pipe, in code spans too).
fn escape_pipes(cell: &str) -> String {
    cell.replace('|', "\\|")
}

/// Where the generated part of docs/USAGE.md's text begins and ends (between the markers).
fn generated_part(usage: &str) -> Option<(usize, usize)> {
    let begin = usage.find(BEGIN)? + BEGIN.len();
    let end = begin + usage[begin..].find(END)?;
    Some((begin, end))
}

#[test]
fn usage_md_is_the_clap_definition() {
    let path = repository_root().join("docs/USAGE.md");
    let usage = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = generated_part(&usage)
        .unwrap_or_else(|| panic!("docs/USAGE.md holds the lines\n{BEGIN}\n…\n{END}"));
    let rendered = render();
    if std::env::var("TASKBENCH_UPDATE_USAGE").is_ok_and(|v| v == "1") {
        let updated = format!("{}{rendered}{}", &usage[..begin], &usage[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    let written = &usage[begin..end];
    let first_difference = (written.lines().zip(rendered.lines()))
        .position(|(a, b)| a != b)
        .unwrap_or(written.lines().count().min(rendered.lines().count()));
    let line = |text: &str| {
        text.lines()
            .nth(first_difference)
            .unwrap_or("(none)")
            .to_string()
    };
    assert!(
        written == rendered,
        "docs/USAGE.md's reference is not the command line's clap definition (cli.rs): \
         run `TASKBENCH_UPDATE_USAGE=1 cargo test -p taskbench --test integration usage` \
         to write it again, and commit it. Line {} of the reference differs:\n  \
         written: {}\n  clap:    {}",
        first_difference + 1,
        line(written),
        line(&rendered)
    );
}

/// Every long flag clap defines, on any command (hidden ones too).
fn long_flags(command: &clap::Command, flags: &mut BTreeSet<String>) {
    flags.extend(
        command
            .get_arguments()
            .filter_map(|arg| arg.get_long().map(String::from)),
    );
    for sub in command.get_subcommands() {
        long_flags(sub, flags);
    }
}

/// The `--flags` a text names: each `--` followed by a lower-case letter, up to the first
/// character no flag holds.
fn named_flags(text: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (at, _) in text.match_indices("--") {
        let rest = &text[at + 2..];
        let name: String = (rest.chars())
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            named.insert(name);
        }
    }
    named
}

#[test]
fn the_flags_the_docs_write_by_hand_exist() {
    let mut flags = BTreeSet::new();
    long_flags(&cli(), &mut flags);
    let root = repository_root();
    let usage = std::fs::read_to_string(root.join("docs/USAGE.md")).unwrap();
    let (begin, end) = generated_part(&usage).expect("docs/USAGE.md has its markers");
    let by_hand = format!("{}{}", &usage[..begin], &usage[end..]).replace(BEGIN, "");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    // The README's commands of taskbench (cargo's own flags aside).
    let commands: Vec<&str> = (readme.lines())
        .filter(|line| line.trim_start().starts_with("taskbench "))
        .collect();
    let mut unknown = Vec::new();
    for (file, text) in [
        ("docs/USAGE.md", by_hand),
        ("README.md", commands.join("\n")),
    ] {
        for name in named_flags(&text) {
            // `--fail-if-…` names a family of flags: one of them must exist.
            let known = if name.ends_with('-') {
                flags.iter().any(|flag| flag.starts_with(&name))
            } else {
                flags.contains(&name)
            };
            if !known {
                unknown.push(format!("{file}: --{name}"));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "flags no command defines:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn the_flags_a_text_names_are_read_out_of_it() {
    let text = "`taskbench run --tasks 1,2 --fail-if-…`, -c x, --Capital, a -- b, `--out=DIR`";
    let named: Vec<String> = named_flags(text).into_iter().collect();
    assert_eq!(named, ["fail-if-", "out", "tasks"]);
}
