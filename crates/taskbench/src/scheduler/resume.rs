//! `taskbench run --resume DIR`: the interrupted run in DIR, read once — its run.json
//! with the command line it was started with, parsed again — and, once the folder is
//! locked, its records of the cases that finished.

use crate::cli::{Cli, Command, RunArgs};
use crate::export::{self, RunFile};
use crate::run::interrupt::errln;
use crate::run::{Phase, RunRecord};
use anyhow::{anyhow, bail};
use clap::Parser;
use std::path::{Path, PathBuf};

/// An interrupted run to finish.
pub struct Resume {
    /// Its folder.
    pub dir: PathBuf,
    /// Its run.json, as it was when the run was resumed.
    pub run_file: RunFile,
    /// Its settings: the stored command line's, into its folder.
    pub args: RunArgs,
    /// `--contestants` of the stored command line, if it gave one.
    pub contestants: Option<PathBuf>,
}

impl Resume {
    /// The run in `dir`, to be finished with `args`'s `--quiet`; no other setting of
    /// `args` may go with it.
    pub fn open(dir: &Path, args: &RunArgs) -> anyhow::Result<Resume> {
        if let Some((name, _)) = args.params.0.first() {
            bail!(
                "--resume runs the cases stored in {}: --{name} cannot go with it",
                RunFile::path(dir).display()
            );
        }
        let run_file = RunFile::read(dir)?.ok_or_else(|| no_run(dir))?;
        let cli = Cli::try_parse_from(&run_file.command).map_err(|e| {
            let rendered = e.render().to_string();
            anyhow!(
                "{}: its command line does not parse any more: {}",
                RunFile::path(dir).display(),
                rendered.lines().next().unwrap_or_default()
            )
        })?;
        let Command::Run(mut stored) = cli.command else {
            bail!(
                "{}: not the command line of a run",
                RunFile::path(dir).display()
            );
        };
        stored.out = Some(dir.to_path_buf());
        stored.resume = None;
        stored.quiet = args.quiet;
        Ok(Resume {
            dir: dir.to_path_buf(),
            run_file,
            args: *stored,
            contestants: cli.contestants,
        })
    }

    /// The records of the cases that finished (those of cases it had not finished are run
    /// again from the start: runs.jsonl is rewritten without them, and they are kept aside
    /// in runs.dropped.jsonl). The caller holds the folder's lock.
    pub fn earlier_runs(&self) -> anyhow::Result<Vec<RunRecord>> {
        let out = &self.dir;
        let log = out.join("runs.jsonl");
        let (records, notice) = if log.exists() {
            export::read_records(&log)?
        } else {
            (Vec::new(), None)
        };
        if let Some(notice) = notice {
            errln!("taskbench: {notice}");
        }
        let (kept, dropped) = finished_only(records);
        if !dropped.is_empty() {
            let aside = out.join("runs.dropped.jsonl");
            let mut previous = if aside.exists() {
                export::read_records(&aside)?.0
            } else {
                Vec::new()
            };
            previous.extend(dropped);
            export::rewrite(&aside, &previous)?;
        }
        export::rewrite(&log, &kept)?;
        // An earlier results.json is of the interrupted part; the end writes the whole.
        Ok(kept)
    }
}

fn no_run(dir: &Path) -> anyhow::Error {
    anyhow!(
        "{} holds no run.json: there is no run to resume there",
        dir.display()
    )
}

/// Splits records into those of finished cases (and every idle run) and the rest. A case
/// is finished when its last measured record says why it stopped.
fn finished_only(records: Vec<RunRecord>) -> (Vec<RunRecord>, Vec<RunRecord>) {
    let case = |r: &RunRecord| (r.contestant.clone(), r.point());
    let mut last: std::collections::HashMap<(String, catalogue::Point), bool> = Default::default();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        last.insert(case(record), record.stop.is_some());
    }
    records
        .into_iter()
        .partition(|r| r.phase == Phase::Idle || last.get(&case(r)) == Some(&true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{RunStatus, StopReason};

    fn record(contestant: &str, phase: Phase, run: u32, stop: Option<StopReason>) -> RunRecord {
        let tasks = if phase == Phase::Idle { 0 } else { 10 };
        RunRecord {
            machine: None,
            contestant: contestant.into(),
            scenario: "spawn".into(),
            params: [("tasks".to_string(), tasks)].into(),
            inner_warmup: 0,
            timed: None,
            phase,
            run,
            iterations: 1,
            status: RunStatus::Ok,
            figures: None,
            stop,
        }
    }

    #[test]
    fn a_resume_keeps_finished_cases_and_idle_runs_only() {
        let idle = record("a", Phase::Idle, 1, None);
        let warm = record("a", Phase::Warmup, 1, None);
        let partial = record("a", Phase::Measured, 1, None);
        let done = [
            record("b", Phase::Warmup, 1, None),
            record("b", Phase::Measured, 1, None),
            record("b", Phase::Measured, 2, Some(StopReason::MaxRuns)),
        ];
        let mut all = vec![idle.clone(), warm.clone(), done[0].clone()];
        all.extend([partial.clone(), done[1].clone(), done[2].clone()]);
        let (kept, dropped) = finished_only(all);
        let mut expected = vec![idle];
        expected.extend(done);
        assert_eq!(kept, expected);
        assert_eq!(dropped, [warm, partial]);
    }
}
