//! `taskbench agree A [B]`: how precise a run is and, given two runs of the same cases, how
//! well they agree — with each machine's condition beside it — in text (the shared precision
//! script's lines, word for word), JSON or Markdown.

use crate::agree::decide::{agreement, precision};
use crate::agree::words::{agreement_line, combined_line, level_line, markdown, precision_line};
use crate::cli::AgreeArgs;
use results::{Results, read_results};
use std::path::Path;
use words::condition::run_condition_line;

/// Prints the precision of `args.a` (and `args.b`) and, with both, their agreement.
pub(crate) fn agree(args: &AgreeArgs) -> anyhow::Result<()> {
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

/// The shared script's lines first (the agreement and the combined-interval check with two
/// runs, else the precision and the 95 % level), then each run's precision and machine.
fn text(
    runs: &[(String, Results)],
    precisions: &[(String, Option<crate::agree::decide::Precision>)],
    both: Option<&crate::agree::decide::Agreement>,
) {
    match (both, precisions) {
        (Some(a), _) => println!("{}\n{}", agreement_line(a), combined_line(a)),
        (None, [(_, Some(p))]) => println!("{}\n{}", precision_line(p), level_line(p)),
        (None, _) => println!("no cell valid in both runs"),
    }
    if runs.len() == 2 {
        for (name, p) in precisions {
            if let Some(p) = p {
                println!("{name}: {}", precision_line(p));
                println!("{name}: {}", level_line(p));
            }
        }
    }
    for (name, results) in runs {
        if let Some(line) = words::budget::run_line(results) {
            println!("{name}: {line}");
        }
        let condition = run_condition_line(results.machine.as_ref());
        let machine = results.platform.fingerprint();
        println!(
            "{name}: {machine} · {}",
            condition.unwrap_or_else(|| "machine: not probed".into())
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
