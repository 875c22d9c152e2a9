//! Adds one finished run (a results document) to the store, with where it came from: the
//! machine's fingerprint, the project's commit and whether its tree was dirty, the tags.

use crate::contestant::command;
use crate::results::Results;
use crate::run::Phase;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::time::Duration;

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

/// Adds `results` to the store and returns its session's id. A run the store holds already
/// (the same start and command line: an interrupted run since resumed, a folder imported
/// twice) is replaced, so each run is there once, as last written.
pub fn record(
    db: &mut Connection,
    results: &Results,
    provenance: &Provenance,
) -> anyhow::Result<i64> {
    let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let platform = &results.platform;
    let command = serde_json::to_string(&results.command)?;
    // A baseline of the run replaced names its new session.
    let earlier: Option<i64> = tx
        .query_row(
            "SELECT id FROM sessions WHERE started = ?1 AND command = ?2",
            params![platform.started, command],
            |row| row.get(0),
        )
        .optional()?;
    let mut renamed: Vec<String> = Vec::new();
    if let Some(earlier) = earlier {
        let mut names = tx.prepare("SELECT name FROM baselines WHERE session = ?1")?;
        renamed = names
            .query_map([earlier], |row| row.get(0))?
            .collect::<Result<_, _>>()?;
        drop(names);
        for table in ["baselines", "runs", "summaries"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE session = ?1"),
                [earlier],
            )?;
        }
        tx.execute("DELETE FROM sessions WHERE id = ?1", [earlier])?;
    }
    tx.execute(
        "INSERT INTO sessions (started, command, folder, tags, interrupted, taskbench,
            cpu, cores, memory_bytes, kernel, governor, git_commit, git_dirty, recorded)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,
            strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
        params![
            platform.started,
            command,
            provenance.folder,
            provenance.tags.join(","),
            results.interrupted,
            platform.taskbench,
            platform.cpu,
            platform.cores as i64,
            platform.memory_bytes as i64,
            platform.kernel,
            provenance.governor,
            provenance.git_commit,
            provenance.git_dirty,
        ],
    )?;
    let session = tx.last_insert_rowid();
    for name in renamed {
        super::save_baseline(&tx, &name, session)?;
    }
    let version = |contestant: &str| {
        results
            .contestants
            .iter()
            .find(|c| c.name == contestant)
            .map(|c| c.version.clone())
    };
    // Measured runs for comparisons, counted ones for their instructions.
    for run in results
        .runs
        .iter()
        .filter(|r| matches!(r.phase, Phase::Measured | Phase::Counted))
    {
        let figures = run.figures.as_ref();
        tx.execute(
            "INSERT INTO runs (session, contestant, version, scenario, point, phase, run,
                iterations, status, elapsed_ns, cpu_ns, peak_rss_bytes, record)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                session,
                run.contestant,
                version(&run.contestant),
                run.scenario,
                run.point_label(),
                match run.phase {
                    Phase::Counted => "counted",
                    _ => "measured",
                },
                run.run,
                run.iterations,
                run.status.label(),
                figures.and_then(|f| f.elapsed_ns).map(|v| v as i64),
                figures.map(|f| f.cpu_ns as i64),
                figures.map(|f| f.peak_rss_bytes as i64),
                serde_json::to_string(run)?,
            ],
        )?;
    }
    for point in &results.points {
        for row in &point.rows {
            let time = row.headline();
            let outcome = row.status_label().unwrap_or_else(|| "valid".to_string());
            tx.execute(
                "INSERT INTO summaries (session, contestant, version, scenario, point, outcome,
                    time_ns, time_low_ns, time_high_ns, peak_rss_bytes, cpu_ns, summary)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    session,
                    row.contestant,
                    version(&row.contestant),
                    row.scenario,
                    point.point,
                    outcome,
                    time.map(|s| s.median),
                    time.and_then(|s| s.median_ci).map(|ci| ci.low),
                    time.and_then(|s| s.median_ci).map(|ci| ci.high),
                    row.peak_rss.as_ref().map(|s| s.median),
                    row.cpu.as_ref().map(|s| s.median),
                    serde_json::to_string(row)?,
                ],
            )?;
        }
    }
    tx.commit()?;
    Ok(session)
}
