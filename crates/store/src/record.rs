//! Adds one finished run (a results document) to the store, with where it came from: the
//! machine's fingerprint, the project's commit and whether its tree was dirty, the tags.

use super::{Store, Value};
use contestant::command;
use results::Results;
use run::Phase;
use std::path::Path;
use std::time::Duration;

/// What joins a session's tags in the store's one text column (both backends); no tag holds
/// it ([`parse_tag`]).
pub const TAG_SEPARATOR: char = ',';

/// A `--tag` as given, or why it cannot be one, in one line: a tag is not blank and holds
/// neither the separator (it could not be found again) nor a line break or other control
/// character.
pub fn parse_tag(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("a tag cannot be empty".into())
    } else if text.contains(TAG_SEPARATOR) {
        Err(format!(
            "a tag cannot hold '{TAG_SEPARATOR}' (the store joins tags with it): give each as its own --tag"
        ))
    } else if text.chars().any(char::is_control) {
        Err("a tag cannot hold a line break or another control character".into())
    } else {
        Ok(text.to_string())
    }
}

/// A session's tags, from the store's column.
pub fn tags_of(column: &str) -> impl Iterator<Item = &str> {
    column.split(TAG_SEPARATOR).filter(|tag| !tag.is_empty())
}

/// Where a run came from, beyond what its results document says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The results folder.
    pub folder: Option<String>,
    /// `--tag`s.
    pub tags: Vec<String>,
    /// The project's commit (`git rev-parse HEAD`), which built every Rust contestant.
    pub git_commit: Option<String>,
    /// Whether the work tree had changes not committed.
    pub git_dirty: Option<bool>,
    /// The CPU frequency governor, where the kernel tells it.
    pub governor: Option<String>,
}

impl Provenance {
    /// The provenance of a run made now from the repository at `root`.
    pub fn here(root: &Path, folder: &Path, tags: &[String]) -> Provenance {
        let git = |args: &[&str]| {
            let argv: Vec<String> = ["git", "-C"]
                .into_iter()
                .map(String::from)
                .chain([root.display().to_string()])
                .chain(args.iter().map(|a| a.to_string()))
                .collect();
            command::run(&argv, root, Duration::from_secs(10))
                .ok()
                .filter(|done| done.success())
                .map(|done| done.stdout.trim().to_string())
        };
        let git_commit = git(&["rev-parse", "HEAD"]);
        let git_dirty = git_commit
            .as_ref()
            .and(git(&["status", "--porcelain", "--untracked-files=no"]))
            .map(|status| !status.is_empty());
        let governor =
            std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
                .ok()
                .map(|g| g.trim().to_string());
        Provenance {
            folder: Some(folder.display().to_string()),
            tags: tags.to_vec(),
            git_commit,
            git_dirty,
            governor,
        }
    }
}

/// Adds `results` to the store and returns its session's id, in one write transaction (see
/// [`Store::write`]): of two runs written at once each lands whole. A run the store holds
/// already (the same start and command line: an interrupted run since resumed, a folder
/// imported twice) is replaced, so each run is there once, as last written.
pub fn record(
    store: &mut Store,
    results: &Results,
    provenance: &Provenance,
) -> anyhow::Result<i64> {
    store.write(|store| write(store, results, provenance))
}

fn write(store: &mut Store, results: &Results, provenance: &Provenance) -> anyhow::Result<i64> {
    let command = serde_json::to_string(&results.command)?;
    let renamed = forget_earlier(store, &results.platform.started, &command)?;
    let session = insert_session(store, results, provenance, command)?;
    for name in renamed {
        super::save_baseline(store, &name, session)?;
    }
    insert_runs(store, session, results)?;
    insert_summaries(store, session, results)?;
    Ok(session)
}

/// Removes the session of the same run recorded earlier, if there is one; the names of
/// its baselines, which name the new session instead.
fn forget_earlier(store: &mut Store, started: &str, command: &str) -> anyhow::Result<Vec<String>> {
    let earlier = store.query(
        "SELECT id FROM sessions WHERE started = ? AND command = ?",
        &[started.into(), command.into()],
    )?;
    let mut renamed: Vec<String> = Vec::new();
    if let Some(earlier) = earlier.first() {
        let earlier: i64 = earlier.get(0)?;
        for name in store.query(
            "SELECT name FROM baselines WHERE session = ?",
            &[earlier.into()],
        )? {
            renamed.push(name.get(0)?);
        }
        for table in ["baselines", "runs", "summaries"] {
            store.execute(
                &format!("DELETE FROM {table} WHERE session = ?"),
                &[earlier.into()],
            )?;
        }
        store.execute("DELETE FROM sessions WHERE id = ?", &[earlier.into()])?;
    }
    Ok(renamed)
}

/// The session's row: the run, its machine and where it came from; its id.
fn insert_session(
    store: &mut Store,
    results: &Results,
    provenance: &Provenance,
    command: String,
) -> anyhow::Result<i64> {
    let platform = &results.platform;
    let inserted = store.query(
        "INSERT INTO sessions (started, command, folder, tags, interrupted, taskbench,
            cpu, cores, memory_bytes, kernel, governor, git_commit, git_dirty, recorded,
            machine_condition, contestants)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id",
        &[
            platform.started.as_str().into(),
            command.into(),
            provenance.folder.as_deref().into(),
            provenance.tags.join(&TAG_SEPARATOR.to_string()).into(),
            results.interrupted.into(),
            platform.taskbench.as_str().into(),
            platform.cpu.as_str().into(),
            (platform.cores as i64).into(),
            (platform.memory_bytes as i64).into(),
            platform.kernel.as_str().into(),
            provenance.governor.as_deref().into(),
            provenance.git_commit.as_deref().into(),
            provenance.git_dirty.into(),
            super::now().into(),
            (results.machine.as_ref())
                .and_then(|m| m.condition.as_ref())
                .map(|c| serde_json::to_string(c).expect("a condition serialises"))
                .into(),
            serde_json::to_string(&results.contestants)
                .expect("contestants serialise")
                .into(),
        ],
    )?;
    let session: i64 = inserted
        .first()
        .ok_or_else(|| anyhow::anyhow!("the store gave no id for the new session"))?
        .get(0)?;
    Ok(session)
}

/// The version a run's contestant had in `results`.
fn version(results: &Results, contestant: &str) -> Value {
    results
        .contestants
        .iter()
        .find(|c| c.name == contestant)
        .map(|c| c.version.as_str())
        .into()
}

/// Each measured run, for comparisons, and each counted one, for its instructions.
fn insert_runs(store: &mut Store, session: i64, results: &Results) -> anyhow::Result<()> {
    let kept = results
        .runs
        .iter()
        .filter(|r| matches!(r.phase, Phase::Measured | Phase::Counted));
    for (ordinal, run) in (0i64..).zip(kept) {
        let figures = run.figures.as_ref();
        store.execute(
            "INSERT INTO runs (session, contestant, version, scenario, point, phase, run,
                iterations, status, elapsed_ns, cpu_ns, peak_rss_bytes, record, ordinal)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            &[
                session.into(),
                run.contestant.as_str().into(),
                version(results, &run.contestant),
                run.scenario.as_str().into(),
                run.point().to_string().into(),
                match run.phase {
                    Phase::Counted => "counted",
                    _ => "measured",
                }
                .into(),
                run.run.into(),
                run.iterations.into(),
                run.status.label().into(),
                figures.and_then(|f| f.elapsed_ns).map(|v| v as i64).into(),
                figures.map(|f| f.cpu_ns as i64).into(),
                figures.map(|f| f.peak_rss_bytes as i64).into(),
                serde_json::to_string(run)?.into(),
                ordinal.into(),
            ],
        )?;
    }
    Ok(())
}

/// Each case's summary, as the tables show it.
fn insert_summaries(store: &mut Store, session: i64, results: &Results) -> anyhow::Result<()> {
    for point in &results.points {
        for row in &point.rows {
            let time = row.headline();
            let outcome = row.status_label().unwrap_or_else(|| "valid".to_string());
            store.execute(
                "INSERT INTO summaries (session, contestant, version, scenario, point, outcome,
                    time_ns, time_low_ns, time_high_ns, peak_rss_bytes, cpu_ns, summary)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                &[
                    session.into(),
                    row.contestant.as_str().into(),
                    version(results, &row.contestant),
                    row.point.scenario.as_str().into(),
                    point.point.to_string().into(),
                    outcome.into(),
                    time.map(|s| s.median).into(),
                    time.and_then(|s| s.median_ci).map(|ci| ci.low).into(),
                    time.and_then(|s| s.median_ci).map(|ci| ci.high).into(),
                    row.peak_rss.as_ref().map(|s| s.median).into(),
                    row.cpu.as_ref().map(|s| s.median).into(),
                    serde_json::to_string(row)?.into(),
                ],
            )?;
        }
    }
    Ok(())
}
