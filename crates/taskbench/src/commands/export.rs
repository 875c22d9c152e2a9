//! `taskbench export DIR --json|--csv|… FILE` (a flag for each format of the export table,
//! export/format.rs): a finished (or merged) run's results in any format, from
//! DIR/results.json alone — so the merged folder of a sharded run reaches bencher.dev or
//! github-action-benchmark like a single run's. `-` is stdout, for one format at a time.

use crate::cli::{ExportArgs, FolderExports};
use anyhow::Context;
use export::{check_stdout, check_writable, write_exports};
use results::read_results;

/// Writes each format `args` names from `args.dir`'s results.
pub(crate) fn export(args: &ExportArgs) -> anyhow::Result<()> {
    let exports = args.exports();
    anyhow::ensure!(
        !exports.is_empty(),
        "nothing to export: give one or more of {} FILE (`-` is stdout)",
        FolderExports::flags().join(", ")
    );
    check_stdout(&exports, FolderExports::flag)?;
    anyhow::ensure!(
        args.dir.is_dir(),
        "{} is not a folder (give the folder a run or a merge wrote its results.json into)",
        args.dir.display()
    );
    let results = read_results(&args.dir.join("results.json"))?;
    for (format, path) in &exports {
        check_writable(path).with_context(|| FolderExports::flag(format))?;
    }
    write_exports(&results, &exports)
}
