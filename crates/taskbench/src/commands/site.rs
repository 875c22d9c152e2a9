//! `taskbench site`: the store's sessions, machines, releases and bisects as a static site
//! in a folder (site/mod.rs builds it), and one line saying what the build did.

use crate::cli::SiteArgs;
use std::path::Path;

pub(crate) fn site(args: &SiteArgs, contestants: &Path) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let store = store::open_existing(&args.store)?;
    let built = crate::site::build(store, &args.out, contestants)?;
    println!(
        "site: {} files ({}) from {} sessions in {}, {} written, {} unchanged, {} removed, {:.1} s",
        built.files,
        units::bytes(built.bytes as f64),
        built.sessions,
        args.out.display(),
        built.written,
        built.unchanged,
        built.removed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
