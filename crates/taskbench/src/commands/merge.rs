//! `taskbench merge DIR… --out DIR`: result folders joined into one by the library
//! (shards/merge.rs) — the parts of a sharded run, or whole runs of several machines — and
//! what it joined told.

use crate::cli::MergeArgs;
use crate::shards::merge::Merge;

/// Merges `args.dirs` into `args.out` and prints what it joined.
pub(crate) fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let Merge {
        results,
        folders,
        machines,
        incomplete,
    } = crate::shards::merge::merge(&args.dirs, &args.out, args.mixed_machines)?;
    if let Some(missing) = &incomplete {
        eprintln!("taskbench: {missing}");
    }
    if !args.quiet {
        let width = words::terminal_width();
        print!(
            "{}",
            words::overview::render_terminal(&results, width, false)
        );
    }
    let cases: usize = results.points.iter().map(|p| p.rows.len()).sum();
    println!(
        "merged {folders} folders ({machines} {}) into {}: {cases} cases, {} runs",
        if machines == 1 { "machine" } else { "machines" },
        args.out.display(),
        results.runs.len()
    );
    Ok(())
}
