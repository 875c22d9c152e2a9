//! `taskbench agree A [B]`: how precise a run is and, given two runs of the same cases, how
//! well they agree — with each machine's condition beside it — in text (the shared precision
//! script's lines, word for word), JSON or Markdown.

use crate::analysis::agreement::{agreement, precision};
use crate::cli::AgreeArgs;
use crate::report::agreement::{agreement_line, markdown, precision_line};
use crate::report::condition::run_condition_line;
use crate::results::{Results, read_results};
use std::path::Path;

/// Prints the precision of `args.a` (and `args.b`) and, with both, their agreement.
pub fn agree(args: &AgreeArgs) -> anyhow::Result<()> {
    let mut runs = vec![("A".to_string(), load(&args.a)?)];
    if let Some(b) = &args.b {
        runs.push(("B".to_string(), load(b)?));
    }
    let precisions: Vec<_> = runs
        .iter()
        .map(|(name, r)| (name.clone(), precision(&r.points)))
        .collect();
    anyhow::ensure!(
        precisions.iter().any(|(_, p)| p.is_some()),
        "no valid cell with an interval in {}",
        args.a.display()
    );
    let both = match runs.as_slice() {
        [(_, a), (_, b)] => agreement(&a.points, &b.points),
        _ => None,
    };
    if args.json {
        let value = serde_json::json!({
            "precision": precisions.iter().map(|(n, p)| (n.clone(), p)).collect::<std::collections::BTreeMap<_, _>>(),
            "agreement": both,
            "machines": runs.iter().map(|(n, r)| (n.clone(), run_condition_line(r.machine.as_ref()))).collect::<std::collections::BTreeMap<_, _>>(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else if args.markdown {
        print!("{}", markdown(&precisions, both.as_ref()));
    } else {
        text(&runs, &precisions, both.as_ref());
    }
    Ok(())
}

/// The shared script's lines first (the agreement with two runs, else the precision), then
/// each run's precision and machine.
fn text(
    runs: &[(String, Results)],
    precisions: &[(String, Option<crate::analysis::agreement::Precision>)],
    both: Option<&crate::analysis::agreement::Agreement>,
) {
    match (both, precisions) {
        (Some(a), _) => println!("{}", agreement_line(a)),
        (None, [(_, Some(p))]) => println!("{}", precision_line(p)),
        (None, _) => println!("no cell valid in both runs"),
    }
    if runs.len() == 2 {
        for (name, p) in precisions {
            if let Some(p) = p {
                println!("{name}: {}", precision_line(p));
            }
        }
    }
    for (name, results) in runs {
        let condition = run_condition_line(results.machine.as_ref());
        let machine = results.platform.fingerprint();
        println!(
            "{name} machine: {machine} · {}",
            condition.unwrap_or_else(|| "condition not probed".into())
        );
    }
}

/// A run's results: a folder holding results.json, or the file itself.
fn load(path: &Path) -> anyhow::Result<Results> {
    if path.is_dir() {
        read_results(&path.join("results.json"))
    } else {
        read_results(path)
    }
}
