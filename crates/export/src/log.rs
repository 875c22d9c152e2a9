//! runs.jsonl, the log that survives the harness: one record per line, each written with
//! one `write` of the whole line and taken back when the disk takes only part of it, so
//! the file is valid up to its last whole line whatever happens; and DIR/run.json, what
//! `taskbench run --resume DIR` and `taskbench report DIR` need besides the records.

use anyhow::Context;
use catalogue::Point;
use contestant::ContestantInfo;
use measure::Platform;
use run::{RunRecord, Stopping};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Version of run.json's layout.
pub const SESSION_FILE_SCHEMA: &str = "taskbench-run/1";

/// DIR/run.json, the session's file (named `run.json` on disk, as older folders have it):
/// written when a session starts, so that an interrupted or killed one can be resumed
/// (with the options the scheduler keeps beside it) and reported from runs.jsonl alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionFile {
    pub schema: String,
    /// The taskbench command line of the run, as given.
    pub command: Vec<String>,
    /// The machine and toolchains, once the contestants are built.
    #[serde(default)]
    pub platform: Option<Platform>,
    #[serde(default)]
    pub contestants: Vec<ContestantInfo>,
    #[serde(default)]
    pub stopping: Option<Stopping>,
    /// (point, seed) of every tagged point.
    #[serde(default)]
    pub seeds: Vec<(Point, String)>,
    /// The machines of results merged side by side (`taskbench merge --mixed-machines`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<results::MachineInfo>,
    /// The seed of the measured rounds' order (`--seed` repeats it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl SessionFile {
    /// The run.json of a run of `plan` started by `command` (`None`: a run nothing is known
    /// of); the platform and contestants come once they are built.
    pub fn new(command: Vec<String>, plan: Option<&presets::Plan>) -> SessionFile {
        SessionFile {
            schema: SESSION_FILE_SCHEMA.into(),
            command,
            platform: None,
            contestants: Vec::new(),
            stopping: plan.map(|p| p.stopping),
            seed: plan.map(|p| p.seed),
            seeds: plan.map_or_else(Vec::new, |p| {
                p.seeds
                    .iter()
                    .map(|t| (t.point.clone(), t.seed.clone()))
                    .collect()
            }),
            machines: Vec::new(),
        }
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join("run.json")
    }

    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(self).expect("session file serialises");
        super::write_atomically(&SessionFile::path(dir), json.as_bytes())
    }

    /// DIR/run.json, or `None` when it is not there.
    pub fn read(dir: &Path) -> anyhow::Result<Option<SessionFile>> {
        let path = SessionFile::path(dir);
        let Some(text) = super::read_if_there(&path)? else {
            return Ok(None);
        };
        let file: SessionFile = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a {SESSION_FILE_SCHEMA} file", path.display()))?;
        anyhow::ensure!(
            file.schema == SESSION_FILE_SCHEMA,
            "{}: schema '{}', expected '{SESSION_FILE_SCHEMA}'",
            path.display(),
            file.schema
        );
        Ok(Some(file))
    }
}

/// Appends `record` to `log` as one line in one `write`; when the disk takes only part of
/// it, the part is cut off again, so the file stays whole lines.
pub fn append(log: &mut File, path: &Path, record: &RunRecord) -> anyhow::Result<()> {
    let mut line = serde_json::to_string(record)?;
    line.push('\n');
    let before = log
        .metadata()
        .with_context(|| format!("cannot write {}", path.display()))?
        .len();
    let failure = match log.write(line.as_bytes()) {
        Ok(n) if n == line.len() => return Ok(()),
        Ok(n) => format!(
            "{} of the record's {} bytes written (disk full?)",
            n,
            line.len()
        ),
        Err(e) => e.to_string(),
    };
    let _ = log.set_len(before);
    anyhow::bail!(
        "cannot write {}: {failure}; the runs before this one are kept (free some space, \
         then `taskbench run --resume {}`)",
        path.display(),
        path.parent().unwrap_or(Path::new(".")).display()
    )
}

/// The records of a runs.jsonl and, when its last line is cut short (a kill mid-write),
/// a notice saying it was ignored. Any other line that is not a record is an error.
pub fn read_records(path: &Path) -> anyhow::Result<(Vec<RunRecord>, Option<String>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut records = Vec::new();
    let mut notice = None;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (index, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<RunRecord>(line) {
            Ok(record) => records.push(record),
            Err(_) if index + 1 == lines.len() && !line.ends_with('\n') => {
                notice = Some(format!(
                    "{}: ignored its last line, cut short ({} bytes)",
                    path.display(),
                    line.len()
                ));
            }
            Err(e) => anyhow::bail!(
                "{} line {}: not a run record: {e}",
                path.display(),
                index + 1
            ),
        }
    }
    Ok((records, notice))
}

/// Rewrites runs.jsonl with exactly `records` (a resume drops a case's partial records).
pub fn rewrite(path: &Path, records: &[RunRecord]) -> anyhow::Result<()> {
    let mut text = String::new();
    for record in records {
        text.push_str(&serde_json::to_string(record)?);
        text.push('\n');
    }
    super::write_atomically(path, text.as_bytes())
}

/// An exclusive `flock` on DIR/run.lock, held while the returned file is open: a second
/// run into the same folder is refused.
pub fn lock(dir: &Path) -> anyhow::Result<File> {
    use std::os::fd::AsRawFd;
    let path = dir.join("run.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    // SAFETY: flock on a descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        anyhow::bail!(
            "{} is in use by another taskbench run; give another --out",
            dir.display()
        );
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use run::{Phase, RunStatus};

    fn record(run: u32) -> RunRecord {
        RunRecord {
            machine: None,
            contestant: "tokio".into(),
            scenario: "spawn".into(),
            params: [("tasks".to_string(), 10)].into(),
            inner_warm_up: 0,
            timed: None,
            phase: Phase::Measured,
            run,
            iterations: 1,
            status: RunStatus::Ok,
            figures: None,
            stop: None,
        }
    }

    #[test]
    fn a_line_cut_short_is_ignored_with_a_notice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let mut log = File::create(&path).unwrap();
        append(&mut log, &path, &record(1)).unwrap();
        append(&mut log, &path, &record(2)).unwrap();
        let (records, notice) = read_records(&path).unwrap();
        assert_eq!((records.len(), notice), (2, None));
        log.write_all(br#"{"contestant":"tok"#).unwrap();
        let (records, notice) = read_records(&path).unwrap();
        assert_eq!(records, [record(1), record(2)]);
        assert!(
            notice
                .unwrap()
                .ends_with("ignored its last line, cut short (18 bytes)")
        );
        std::fs::write(&path, "nonsense\n{}\n").unwrap();
        assert!(read_records(&path).is_err(), "a bad whole line is an error");
    }

    #[test]
    fn a_folder_is_locked_for_one_run() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock(dir.path()).unwrap();
        let refused = format!("{:#}", lock(dir.path()).unwrap_err());
        assert!(refused.ends_with("is in use by another taskbench run; give another --out"));
        drop(held);
        lock(dir.path()).unwrap();
    }
}
