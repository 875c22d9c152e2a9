//! A results folder as a run leaves it: its results in every folder format, the results
//! document assembled from its records and what run.json says of the run, and the same
//! built again from runs.jsonl when the run never reached its end.

use super::log::{SessionFile, read_records};
use super::{FORMATS, Format, deliver, write_atomically};
use analysis::fits::fits;
use analysis::{summarize_machines, warnings};
use contestant::releases::release_sweeps;
use measure::Platform;
use measure::machine::MachineLoad;
use results::{Results, SCHEMA};
use run::RunRecord;
use std::path::Path;

/// The results document of `records`, with what run.json says of the run.
pub fn assemble(
    records: Vec<RunRecord>,
    session_file: &SessionFile,
    machine: Option<MachineLoad>,
    interrupted: bool,
) -> Results {
    let apart = analysis::Apart::of(&session_file.contestants);
    let mut points = summarize_machines(&records, &apart);
    for point in &mut points {
        point.seed = session_file
            .seeds
            .iter()
            .find(|(p, _)| *p == point.point)
            .map(|(_, seed)| seed.clone());
    }
    // Why each case stopped is its records' (the runner puts it on a case's last one,
    // the budget's end included: run/runner.rs `end_short`), never inferred here.
    let budgeted = session_file.stopping.filter(|s| s.budget.is_some());
    let budget = budgeted.and_then(|s| {
        analysis::budget::price_rows(&mut points, &records, s.precision);
        analysis::budget::report(&records, s.budget?, s.precision)
    });
    Results {
        schema: SCHEMA.into(),
        command: session_file.command.clone(),
        interrupted,
        platform: session_file
            .platform
            .clone()
            .unwrap_or_else(unknown_platform),
        stopping: session_file.stopping,
        seed: session_file.seed,
        contestants: session_file.contestants.clone(),
        fits: fits(&points),
        releases: release_sweeps(
            (session_file.contestants.iter())
                .filter(|c| c.unavailable.is_none())
                .map(|c| c.name.as_str()),
        ),
        warnings: warnings(
            &points,
            &records,
            session_file.stopping.map(|s| s.precision),
            machine.as_ref(),
        ),
        machine,
        points,
        runs: records,
        machines: session_file.machines.clone(),
        budget,
    }
}

/// The platform of a run whose run.json never got that far: nothing known but taskbench.
fn unknown_platform() -> Platform {
    Platform {
        taskbench: env!("CARGO_PKG_VERSION").into(),
        started: String::new(),
        cpu: "unknown".into(),
        cores: 0,
        memory_bytes: 0,
        kernel: String::new(),
        rustc: String::new(),
        rust_profile: String::new(),
        load_average: 0.0,
        versions: Vec::new(),
    }
}

/// Every folder format into `out` (results.json, .csv, .md, report.html) and each of
/// `exports` (`--export-<flag> PATH`) where it asks.
pub fn write_results(
    results: &Results,
    out: &Path,
    exports: &[(&Format, &Path)],
) -> anyhow::Result<()> {
    for exporter in FORMATS {
        let wanted: Vec<&Path> = exports
            .iter()
            .filter(|(e, _)| e.flag() == exporter.flag())
            .map(|(_, path)| *path)
            .collect();
        let folder = exporter.folder_file().map(|file| out.join(file));
        if folder.is_none() && wanted.is_empty() {
            continue;
        }
        let bytes = exporter.render(results)?;
        for path in folder.iter() {
            write_atomically(path, &bytes)?;
        }
        for path in wanted {
            deliver(path, &bytes)?;
        }
    }
    Ok(())
}

/// Each of `exports` (format, path; `-` is stdout) from `results`, and nothing else.
pub fn write_exports(results: &Results, exports: &[(&Format, &Path)]) -> anyhow::Result<()> {
    for (format, path) in exports {
        deliver(path, &format.render(results)?)?;
    }
    Ok(())
}

/// Writes `dir`'s results (JSON, CSV, Markdown, HTML), marked interrupted, from its
/// runs.jsonl and run.json; the number of runs. The caller holds the folder's lock.
pub fn rebuild(dir: &Path) -> anyhow::Result<usize> {
    let (records, notice) = read_records(&dir.join("runs.jsonl"))?;
    if let Some(notice) = notice {
        eprintln!("taskbench: {notice}");
    }
    let session_file =
        SessionFile::read(dir)?.unwrap_or_else(|| SessionFile::new(Vec::new(), None));
    let results = assemble(records, &session_file, None, true);
    write_results(&results, dir, &[])?;
    Ok(results.runs.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use run::{Phase, StopReason, Stopping};
    use std::time::Duration;

    /// The fake run's records, tokio's last measured one saying `stop`, assembled as a
    /// finished run with a budget; tokio's rows' stop reasons.
    fn tokio_stop(stop: Option<StopReason>) -> Vec<Option<StopReason>> {
        let mut records = results::fake::results().runs;
        for record in records
            .iter_mut()
            .filter(|r| r.contestant == "tokio" && r.phase == Phase::Measured)
        {
            record.stop = stop;
        }
        let mut session_file = SessionFile::new(Vec::new(), None);
        session_file.stopping = Some(Stopping {
            budget: Some(Duration::from_secs(60)),
            ..Stopping::exactly(3, Duration::from_secs(1))
        });
        let results = assemble(records, &session_file, None, false);
        let rows = results.points.iter().flat_map(|p| &p.rows);
        rows.filter(|r| r.contestant == "tokio")
            .map(|r| r.stop)
            .collect()
    }

    /// Why a case stopped is what the runner put on its records, the budget's end
    /// included; a budgeted run's case whose records say nothing is not said to have
    /// stopped on the budget after the fact.
    #[test]
    fn a_case_stops_for_the_reason_its_records_give() {
        let budget = tokio_stop(Some(StopReason::SessionBudget));
        assert!(!budget.is_empty());
        assert!(budget.iter().all(|s| *s == Some(StopReason::SessionBudget)));
        assert!(tokio_stop(None).iter().all(Option::is_none));
    }
}
