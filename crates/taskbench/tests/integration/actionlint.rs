//! actionlint on the example workflows under docs/ci/: they run nowhere here, so the
//! linter GitHub Actions users trust checks their syntax, expressions, the inputs of the
//! actions they pin, and (through shellcheck) every `run:` script. Without actionlint or
//! shellcheck this skips, and fails under TASKBENCH_REQUIRE_ALL=1 (.ci/run installs both).

use super::ci_workflow::workflow_path;
use super::util::{QUICK, output_within, skip};
use std::ffi::OsStr;
use std::process::{Command, Output};

fn actionlint<P: AsRef<OsStr>>(files: &[P]) -> Output {
    output_within(Command::new("actionlint").args(files), QUICK)
        .unwrap_or_else(|e| panic!("actionlint: {e}"))
}

/// What a finding-free result is worth: actionlint must be there, and run shellcheck.
fn tools_missing() -> Option<String> {
    for (tool, flag) in [("actionlint", "-version"), ("shellcheck", "--version")] {
        if let Err(e) = output_within(Command::new(tool).arg(flag), QUICK) {
            return Some(format!(
                "{tool} is not installed ({e}): .ci/run installs it \
                 (go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12; apt-get install shellcheck)"
            ));
        }
    }
    None
}

#[test]
fn actionlint_finds_nothing_in_the_ci_workflows() {
    if let Some(reason) = tools_missing() {
        return skip(&reason);
    }
    // A clean result proves something only if actionlint lints scripts with shellcheck:
    // an unquoted variable in a probe workflow must be reported.
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe.yml");
    std::fs::write(
        &probe,
        "on: push\njobs:\n  probe:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: ls $HOME\n",
    )
    .unwrap();
    let flagged = actionlint(&[&probe]);
    let said = String::from_utf8_lossy(&flagged.stdout);
    assert!(
        flagged.status.code() == Some(1) && said.contains("SC2086"),
        "actionlint did not run shellcheck on the probe: {said}"
    );

    // Every workflow under docs/ci/.
    let mut workflows: Vec<_> = std::fs::read_dir(workflow_path(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yml"))
        .collect();
    workflows.sort();
    assert!(workflows.len() >= 2, "{workflows:?}");
    let output = actionlint(&workflows);
    assert!(
        output.status.success() && output.stdout.is_empty(),
        "actionlint's findings:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
