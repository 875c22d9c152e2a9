//! `taskbench run --resume DIR`: the interrupted run in DIR, read once — its run.json and
//! the options kept beside it (or, for a folder written before options were kept, the
//! command line run.json holds, which the command line's reader makes options of) — and,
//! once the folder is locked, its records of the cases that finished.

use super::SessionOptions;
use anyhow::{anyhow, bail};
use export::SessionFile;
use run::interrupt::errln;
use run::{Phase, RunRecord};
use std::path::{Path, PathBuf};

/// An interrupted run to finish.
pub(crate) struct Resume {
    /// Its folder.
    pub(crate) dir: PathBuf,
    /// Its run.json, as it was when the run was resumed.
    pub(crate) session_file: SessionFile,
    /// Its settings: the stored ones, into its folder.
    pub(crate) options: SessionOptions,
}

/// What a folder to resume says of its settings.
pub(crate) enum Stored {
    /// The options kept beside its run.json.
    Options(Box<SessionOptions>),
    /// Only the command line its run.json holds (written before options were kept).
    CommandLine(Vec<String>),
}

impl Resume {
    /// The run.json of the run in `dir` and what it stored of its settings; an error where
    /// `current` chooses cases (the stored ones are run) or `dir` holds no run.
    pub(crate) fn stored(
        dir: &Path,
        current: &SessionOptions,
    ) -> anyhow::Result<(SessionFile, Stored)> {
        if let Some((name, _)) = current.plan.params.0.first() {
            bail!(
                "--resume runs the cases stored in {}: --{name} cannot go with it",
                SessionFile::path(dir).display()
            );
        }
        let session_file = SessionFile::read(dir)?.ok_or_else(|| no_run(dir))?;
        let stored = match SessionOptions::read(dir)? {
            Some(options) => Stored::Options(Box::new(options)),
            None => Stored::CommandLine(session_file.command.clone()),
        };
        Ok((session_file, stored))
    }

    /// The run in `dir` (its `session_file`) with its `stored` settings, to be finished with
    /// `current`'s `--quiet` (and its store, when it names one).
    pub(crate) fn open(
        dir: &Path,
        current: &SessionOptions,
        session_file: SessionFile,
        mut stored: SessionOptions,
    ) -> Resume {
        stored.out = Some(dir.to_path_buf());
        stored.show.quiet = current.show.quiet;
        if current.keep.store.is_some() {
            stored.keep.store.clone_from(&current.keep.store);
        }
        Resume {
            dir: dir.to_path_buf(),
            session_file,
            options: stored,
        }
    }

    /// The records of the cases that finished (those of cases it had not finished are run
    /// again from the start: runs.jsonl is rewritten without them, and they are kept aside
    /// in runs.dropped.jsonl). The caller holds the folder's lock.
    pub(crate) fn earlier_runs(&self) -> anyhow::Result<Vec<RunRecord>> {
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
    use run::{RunStatus, StopReason};

    fn record(contestant: &str, phase: Phase, run: u32, stop: Option<StopReason>) -> RunRecord {
        let tasks = if phase == Phase::Idle { 0 } else { 10 };
        RunRecord {
            machine: None,
            contestant: contestant.into(),
            scenario: "spawn".into(),
            params: [("tasks".to_string(), tasks)].into(),
            inner_warm_up: 0,
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
        let warm = record("a", Phase::WarmUp, 1, None);
        let partial = record("a", Phase::Measured, 1, None);
        let done = [
            record("b", Phase::WarmUp, 1, None),
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
