//! The store on SQLite: a run in and out again, migrations, two writers at once, a run
//! recorded twice. (The same on PostgreSQL: tests/integration/postgres.rs.)

use super::*;
use results::Results;
use rusqlite::Connection;

fn results() -> Results {
    results::fake::results()
}

fn count(store: &mut Store, table: &str) -> i64 {
    let rows = store
        .query(&format!("SELECT COUNT(*) FROM {table}"), &[])
        .unwrap();
    rows[0].get(0).unwrap()
}

/// A SQLite store in `dir`.
fn sqlite(dir: &tempfile::TempDir) -> Location {
    Location::Sqlite(dir.path().join(STORE_FILE))
}

fn user_version(path: &Path) -> u32 {
    Connection::open(path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

fn provenance() -> Provenance {
    Provenance {
        folder: Some("results/x".into()),
        tags: vec!["before".into(), "pr-1".into()],
        git_commit: Some("0123456789abcdef".into()),
        git_dirty: Some(true),
        governor: None,
    }
}

#[test]
fn a_run_goes_in_and_comes_out_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    let results = results();
    record(&mut db, &results, &provenance()).unwrap();
    let measured = results
        .runs
        .iter()
        .filter(|r| r.phase == run::Phase::Measured)
        .count();
    let rows: usize = results.points.iter().map(|p| p.rows.len()).sum();
    assert_eq!(count(&mut db, "sessions"), 1);
    assert_eq!(count(&mut db, "runs"), measured as i64);
    assert_eq!(count(&mut db, "summaries"), rows as i64);
    // A summary keeps the row's figures exactly.
    let row = &results.points[0].rows[0];
    let stored: f64 = db
        .query(
            "SELECT peak_rss_bytes FROM summaries WHERE point = ? AND contestant = ?",
            &[
                results.points[0].point.to_string().into(),
                row.contestant.as_str().into(),
            ],
        )
        .unwrap()[0]
        .get(0)
        .unwrap();
    assert_eq!(stored, row.peak_rss.unwrap().median);

    let all = history_rows(&mut db, &HistoryFilter::default()).unwrap();
    assert_eq!(all.len(), rows);
    assert_eq!(all[0].commit.as_deref(), Some("0123456789abcdef"));
    assert_eq!(all[0].dirty, Some(true));
    assert_eq!(all[0].tags, "before,pr-1");
    let tokio = HistoryFilter {
        contestants: vec!["tokio".into()],
        tags: vec!["pr-1".into()],
        ..HistoryFilter::default()
    };
    let only = history_rows(&mut db, &tokio).unwrap();
    assert!(!only.is_empty() && only.iter().all(|r| r.contestant == "tokio"));
    let none = HistoryFilter {
        tags: vec!["pr".into()],
        ..HistoryFilter::default()
    };
    let tagged = history_rows(&mut db, &none).unwrap();
    assert!(tagged.is_empty(), "tags match whole");
    let later = HistoryFilter {
        since: Some("2999-01-01".into()),
        ..HistoryFilter::default()
    };
    assert!(history_rows(&mut db, &later).unwrap().is_empty());
}

#[test]
fn a_run_recorded_twice_is_there_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    let results = results();
    record(&mut db, &results, &provenance()).unwrap();
    record(&mut db, &results, &Provenance::default()).unwrap();
    assert_eq!(count(&mut db, "sessions"), 1);
    let rows: usize = results.points.iter().map(|p| p.rows.len()).sum();
    assert_eq!(count(&mut db, "summaries"), rows as i64);
    let tags: String = db.query("SELECT tags FROM sessions", &[]).unwrap()[0]
        .get(0)
        .unwrap();
    assert_eq!(tags, "", "the later record replaced the earlier");
}

#[test]
fn stores_migrate_and_a_newer_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (store, path) = (sqlite(&dir), dir.path().join(STORE_FILE));
    // An empty file is version 0: migrated to the current version.
    std::fs::write(&path, b"").unwrap();
    drop(open(&store).unwrap());
    assert_eq!(user_version(&path), SCHEMA_VERSION);
    // Opening again changes nothing.
    let mut db = open(&store).unwrap();
    record(&mut db, &results(), &provenance()).unwrap();
    drop(db);
    assert_eq!(count(&mut open(&store).unwrap(), "sessions"), 1);
    // A store from a newer taskbench is not touched.
    let db = Connection::open(&path).unwrap();
    db.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(db);
    let Err(err) = open(&store) else {
        panic!("a store of a newer version opens")
    };
    let err = format!("{err:#}");
    assert!(err.contains("newer than this taskbench's"), "{err}");
}

#[test]
fn two_writers_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir);
    open(&store).unwrap();
    let writers: Vec<_> = (0..2)
        .map(|writer| {
            let store = store.clone();
            std::thread::spawn(move || {
                let mut db = open(&store).unwrap();
                for k in 0..5 {
                    let mut results = results();
                    results.platform.started = format!("2026-12-0{writer}T00:00:0{k}Z");
                    record(&mut db, &results, &provenance()).unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    assert_eq!(count(&mut open(&store).unwrap(), "sessions"), 10);
}

#[test]
fn the_default_store_is_beside_the_run_folder() {
    assert_eq!(
        default_path(Path::new("results/2026-12-03T07-00-00Z")),
        Path::new("results/taskbench.sqlite")
    );
    assert_eq!(
        default_path(Path::new("out")),
        Path::new("./taskbench.sqlite")
    );
}

/// A store as an older taskbench left it: the migrations before `version` only (their
/// SQL then said INTEGER and REAL where it says BIGINT and DOUBLE PRECISION now: the same
/// affinities).
fn older_store(path: &Path, version: u32) -> Store {
    let mut store = Store::sqlite(path).unwrap();
    for migration in &MIGRATIONS[..version as usize] {
        let sql = store.dialect(migration);
        store.batch(&sql).unwrap();
    }
    store.set_schema_version(version).unwrap();
    store
}

#[test]
fn a_version_1_store_migrates_with_its_sessions_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    // Before baselines: one session.
    older_store(&path, 1)
        .execute(
            "INSERT INTO sessions (started, command, tags, interrupted, taskbench, cpu, cores,
                memory_bytes, kernel, recorded)
             VALUES ('2026-11-01T00:00:00Z', '[]', 'old', 0, '0.1.0', 'cpu', 2, 1, 'k', 'now')",
            &[],
        )
        .unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    assert_eq!(user_version(&path), SCHEMA_VERSION);
    assert_eq!(count(&mut db, "sessions"), 1);
    assert_eq!(count(&mut db, "baselines"), 0);
    assert_eq!(
        find(&mut db, "old").unwrap().label,
        "tag old · 2026-11-01 00:00:00"
    );
}

#[test]
fn a_version_2_store_numbers_its_runs_in_the_order_they_were_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    // Before runs had their place: a session whose runs were written last first.
    let mut old = older_store(&path, 2);
    old.execute(
        "INSERT INTO sessions (id, started, command, tags, interrupted, taskbench, cpu, cores,
            memory_bytes, kernel, recorded)
         VALUES (7, '2026-11-01T00:00:00Z', '[]', '', 0, '0.1.0', 'cpu', 2, 1, 'k', 'now')",
        &[],
    )
    .unwrap();
    let mut written = results().runs;
    written.retain(|r| r.phase == run::Phase::Measured);
    written.reverse();
    for run in &written {
        old.execute(
            "INSERT INTO runs (session, contestant, scenario, point, phase, run, iterations,
                status, record)
             VALUES (7, ?, ?, ?, 'measured', ?, ?, 'ok', ?)",
            &[
                run.contestant.as_str().into(),
                run.scenario.as_str().into(),
                run.point().to_string().into(),
                run.run.into(),
                run.iterations.into(),
                serde_json::to_string(run).unwrap().into(),
            ],
        )
        .unwrap();
    }
    drop(old);
    let mut db = open(&sqlite(&dir)).unwrap();
    let ordinals: Vec<Option<i64>> = db
        .query("SELECT ordinal FROM runs ORDER BY rowid", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0).unwrap())
        .collect();
    assert!(
        ordinals.windows(2).all(|w| w[0].is_some() && w[0] < w[1]),
        "{ordinals:?}"
    );
    assert_eq!(runs(&mut db, 7).unwrap(), written);
}

#[test]
fn sessions_are_found_by_last_baseline_and_tag_and_give_their_runs_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    let mut ids = Vec::new();
    for (k, tag) in ["before", "after", "after"].iter().enumerate() {
        let mut results = results();
        results.platform.started = format!("2026-12-0{}T00:00:00Z", k + 1);
        let provenance = Provenance {
            tags: vec![tag.to_string()],
            ..Provenance::default()
        };
        ids.push(record(&mut db, &results, &provenance).unwrap());
    }
    assert_eq!(find(&mut db, "last").unwrap().id, ids[2]);
    assert_eq!(find(&mut db, "last~2").unwrap().id, ids[0]);
    assert_eq!(
        find(&mut db, "after").unwrap().id,
        ids[2],
        "a tag's newest session"
    );
    save_baseline(&mut db, "main", ids[1]).unwrap();
    assert_eq!(
        find(&mut db, "main").unwrap().label,
        "baseline main · 2026-12-02 00:00:00"
    );
    save_baseline(&mut db, "main", ids[0]).unwrap();
    assert_eq!(
        find(&mut db, "main").unwrap().id,
        ids[0],
        "a baseline saved again moves"
    );
    for bad in ["last~9", "nothing", "last~x"] {
        let err = find(&mut db, bad).unwrap_err().to_string();
        assert!(
            err.contains("baselines: main") && err.contains("tags: after, before"),
            "{err}"
        );
    }
    assert!(save_baseline(&mut db, "last~1", ids[0]).is_err());
    // A session re-recorded (a resumed run) keeps its baseline name.
    let mut first = results();
    first.platform.started = "2026-12-01T00:00:00Z".into();
    let again = record(&mut db, &first, &Provenance::default()).unwrap();
    assert_eq!(find(&mut db, "main").unwrap().id, again);
    let measured: Vec<_> = first
        .runs
        .iter()
        .filter(|r| r.phase == run::Phase::Measured)
        .cloned()
        .collect();
    assert_eq!(
        runs(&mut db, again).unwrap(),
        measured,
        "records come back whole"
    );
}

/// A condition of two probes, as a run leaves it.
fn condition() -> measure::condition::Condition {
    use measure::condition::Moment;
    let probe = |at_ms, moment, steal| measure::condition::ConditionSample {
        at_ms,
        moment,
        timer_1ms_late_ns: 62_000.0,
        timer_1ms_late_p90_ns: 90_000.0,
        timer_20ms_late_ns: 80_000.0,
        timer_20ms_late_p90_ns: 120_000.0,
        cpu_loop_ns: 5_100_000.0,
        steal,
    };
    measure::condition::Condition {
        samples: vec![
            probe(0, Moment::Start, None),
            probe(900, Moment::End, Some(0.03)),
        ],
    }
}

#[test]
fn a_sessions_condition_goes_in_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let location = sqlite(&dir);
    let mut db = open(&location).unwrap();
    let mut probed = results();
    probed.machine = Some(measure::machine::MachineLoad {
        cores: 2,
        load_start: 0.1,
        load_during: Vec::new(),
        load_end: 0.2,
        cpu: None,
        condition: Some(condition()),
    });
    record(&mut db, &probed, &provenance()).unwrap();
    drop(db);
    let mut db = open(&location).unwrap();
    let last = find(&mut db, "last").unwrap();
    assert_eq!(
        crate::condition(&mut db, last.id).unwrap(),
        Some(condition())
    );
    // A session without one (results from before the probe) has none.
    let mut unprobed = results();
    unprobed.platform.started = "2999-01-01T00:00:00Z".into();
    record(&mut db, &unprobed, &provenance()).unwrap();
    let last = find(&mut db, "last").unwrap();
    assert_eq!(crate::condition(&mut db, last.id).unwrap(), None);
}

#[test]
fn a_version_3_store_migrates_its_sessions_without_a_condition() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    older_store(&path, 3)
        .execute(
            "INSERT INTO sessions (id, started, command, tags, interrupted, taskbench, cpu, cores,
                memory_bytes, kernel, recorded)
             VALUES (3, '2026-11-01T00:00:00Z', '[]', 'old', 0, '0.1.0', 'cpu', 2, 1, 'k', 'now')",
            &[],
        )
        .unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    assert_eq!(user_version(&path), SCHEMA_VERSION);
    assert_eq!(count(&mut db, "sessions"), 1);
    assert_eq!(crate::condition(&mut db, 3).unwrap(), None);
}

#[test]
fn the_store_read_whole_gives_each_session_its_contestants_and_summaries() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    let results = results();
    let session = record(&mut db, &results, &provenance()).unwrap();
    let sessions = session_rows(&mut db).unwrap();
    assert_eq!(sessions.len(), 1);
    let kept = &sessions[0];
    assert_eq!(kept.id, session);
    assert_eq!(kept.tags, ["before", "pr-1"]);
    assert_eq!(kept.commit.as_deref(), Some("0123456789abcdef"));
    assert_eq!(kept.contestants.as_ref(), Some(&results.contestants));
    assert_eq!(kept.command, results.command);
    // Every summary, in its columns and whole.
    let rows: usize = results.points.iter().map(|p| p.rows.len()).sum();
    let columns = summary_rows(&mut db).unwrap();
    assert_eq!(columns.len(), rows);
    let whole = summary_json(&mut db, session).unwrap();
    assert_eq!(whole.len(), rows);
    let first = &results.points[0].rows[0];
    let found = whole
        .iter()
        .find(|r| r.contestant == first.contestant && r.point == first.point);
    assert_eq!(found, Some(first));
    assert!(summary_json(&mut db, session + 1).unwrap().is_empty());
}

#[test]
fn a_bisect_is_kept_once_per_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = open(&sqlite(&dir)).unwrap();
    let first = serde_json::json!({"range": "go@1.22..1.26", "found": []});
    let again = serde_json::json!({"range": "go@1.22..1.26", "found": ["go@1.24.0"]});
    record_bisect(&mut db, "2026-12-01T00:00:00Z", "results/b", &first).unwrap();
    record_bisect(&mut db, "2026-12-01T00:00:00Z", "results/b", &again).unwrap();
    record_bisect(&mut db, "2026-12-02T00:00:00Z", "results/c", &first).unwrap();
    let kept = bisects(&mut db).unwrap();
    assert_eq!(kept.len(), 2);
    assert_eq!(
        (kept[0].folder.as_str(), &kept[0].record),
        ("results/b", &again)
    );
    assert_eq!(kept[1].started, "2026-12-02T00:00:00Z");
}
