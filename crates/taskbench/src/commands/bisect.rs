//! `taskbench bisect`: the range read and listed from its registry, the search run pair by
//! pair through the scheduler, each step printed as it is made, the answer at the end and
//! bisect.json beside the runs' folders.

use crate::bisect::search::{Figure, Settings, bisect as search, coarse_samples};
use crate::bisect::words::{answer, event_line, path_table};
use crate::bisect::{BisectRecord, RunOracle, bisect_folder, keep_in_store};
use crate::cli::BisectArgs;
use anyhow::bail;
use contestant::Places;
use contestant::variant::listing::{Range, list};
use run::interrupt::outln;
use std::path::Path;

/// Bisects the range `args` names (`contestants` is `--contestants`, when given, found in
/// `contestants_dir`); `command` is the taskbench command line, kept in each run.
pub(crate) fn bisect(
    args: &BisectArgs,
    contestants: Option<&Path>,
    contestants_dir: &Path,
    places: &Places,
    command: Vec<String>,
) -> anyhow::Result<()> {
    let range = Range::parse(&args.contestant)?;
    let template = args.options(contestants);
    // The scenario checked before any registry is asked.
    presets::plan(&template.plan)?;
    let all = contestant::discover(contestants_dir)?;
    let Some(contestant) = all.iter().find(|c| c.name() == range.contestant) else {
        bail!(
            "'{}': no contestant of that name in {} (`taskbench list` names them)",
            range.contestant,
            contestants_dir.display()
        );
    };
    let releases = list(&range, contestant, places)?;
    if args.dry_run {
        outln!("{} releases: {}", releases.len(), releases.join(" "));
        outln!(
            "coarse pass: {}",
            coarse_samples(&releases, args.probes.into()).join(" → ")
        );
        return Ok(());
    }
    let out = bisect_folder(args.out.as_deref())?;
    outln!(
        "bisect {}: {} releases ({} … {}), {} {} beyond {}",
        args.contestant,
        releases.len(),
        releases[0],
        releases[releases.len() - 1],
        args.scenario,
        Figure::name(args.measure),
        units::percent(args.threshold)
    );
    let started = std::time::Instant::now();
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let keep = template.keep.clone();
    let mut oracle = RunOracle::new(
        template,
        (contestants_dir, places),
        &out,
        args.measure,
        command,
    );
    let settings = Settings {
        threshold: args.threshold,
        attempts: args.attempts,
        probes: args.probes.into(),
    };
    let found = search(&mut oracle, &releases, settings, &mut |event| {
        outln!("{}", event_line(&event, args.threshold));
    });
    let wall = started.elapsed();
    outln!();
    let lines = answer(&found, &args.scenario, args.measure, args.threshold, wall);
    for line in &lines {
        outln!("{line}");
    }
    let record = BisectRecord {
        range: &args.contestant,
        scenario: &args.scenario,
        figure: args.measure,
        threshold: args.threshold,
        probes: settings.probes,
        wall_seconds: wall.as_secs_f64(),
        bisect: &found,
        runs: &oracle.folders,
    };
    let title = format!("bisect {} · {}", args.contestant, args.scenario);
    record.write(&out, &path_table(&found, &title, &lines))?;
    keep_in_store(&keep, &out, &stamp, &record)?;
    outln!("bisect.json, report.html and each run: {}", out.display());
    match oracle.error {
        Some(error) => Err(error.context(format!("the bisect stopped ({})", out.display()))),
        None => Ok(()),
    }
}
