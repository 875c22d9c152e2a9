//! The store on PostgreSQL (`--store postgres://…`), against a real server: the admin URL
//! in TASKBENCH_TEST_POSTGRES (.ci/run starts one), each test in a database of its own,
//! created for it and dropped after. The same documents give the same sessions, runs,
//! history and spreads as SQLite; an empty database is migrated once however many open it
//! at once; a run recorded twice is there once; imports at once all land whole. Without a
//! server these skip, and fail under TASKBENCH_REQUIRE_ALL=1.

use super::session::unstored_run;
use super::util::{QUICK, skip, stderr, taskbench_within};
use results::Results;
use run::{Phase, RunRecord};
use std::sync::{Arc, Barrier, OnceLock};
use store::{HistoryFilter, Location, Provenance};

/// The server's admin URL, or `None` (after [`skip`]) where there is none.
pub(super) fn server() -> Option<String> {
    let url = std::env::var("TASKBENCH_TEST_POSTGRES").ok();
    if url.is_none() {
        skip("no PostgreSQL server: TASKBENCH_TEST_POSTGRES names none (.ci/run starts one)");
    }
    url
}

/// A database made for one test, dropped (with any connection left to it) when it goes.
pub(super) struct Scratch {
    /// The server's admin URL.
    pub(super) admin: String,
    /// The database's name.
    pub(super) name: String,
    /// The admin URL with this database in its path.
    pub(super) url: String,
}

impl Scratch {
    pub(super) fn new(admin: &str) -> Scratch {
        static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let name = format!(
            "taskbench_test_{}_{}",
            std::process::id(),
            MADE.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        let mut client = admin_client(admin);
        // (One statement a call: neither may run inside the transaction a batch makes.)
        for sql in ["DROP DATABASE IF EXISTS", "CREATE DATABASE"] {
            client.batch_execute(&format!("{sql} {name}")).unwrap();
        }
        // The admin URL with this database in its path.
        let (base, query) = match admin.split_once('?') {
            Some((base, query)) => (base, format!("?{query}")),
            None => (admin, String::new()),
        };
        let host = base.find("://").unwrap() + 3;
        let path = base[host..].find('/').map_or(base.len(), |k| host + k);
        let url = format!("{}/{name}{query}", &base[..path]);
        Scratch {
            admin: admin.to_string(),
            name,
            url,
        }
    }

    fn location(&self) -> Location {
        self.url.parse().unwrap()
    }

    fn client(&self) -> postgres::Client {
        admin_client(&self.url)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let drop = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        if let Err(e) = admin_client(&self.admin).batch_execute(&drop) {
            eprintln!("cannot drop the test database {}: {e}", self.name);
        }
    }
}

pub(super) fn admin_client(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to {url} (TASKBENCH_TEST_POSTGRES): {e}"))
}

/// Three runs of two fixture contestants (one valid, one failing) on two points: real
/// documents, each with figures of its own.
pub(super) fn documents() -> &'static [Results] {
    static DOCUMENTS: OnceLock<Vec<Results>> = OnceLock::new();
    DOCUMENTS.get_or_init(|| {
        (0..3)
            .map(|k| {
                let mut results = unstored_run(&[("a", "honest"), ("b", "fail")], "10,20");
                // Each its own session, whatever second the runs started in.
                results.platform.started = format!("2026-12-0{}T00:00:00Z", k + 1);
                results
            })
            .collect()
    })
}

/// The runs of `results` the store keeps: the measured and counted ones, in order.
pub(super) fn kept(results: &Results) -> Vec<RunRecord> {
    let runs = results.runs.iter();
    let kept = runs.filter(|r| matches!(r.phase, Phase::Measured | Phase::Counted));
    kept.cloned().collect()
}

fn tagged(tags: &[&str]) -> Provenance {
    Provenance {
        tags: tags.iter().map(|t| t.to_string()).collect(),
        git_commit: Some("0123456789abcdef".into()),
        git_dirty: Some(false),
        ..Provenance::default()
    }
}

/// Everything the store gives back of what `fill` wrote into it: sessions by name, their
/// runs, the history (whole and filtered), the spreads, the error for an unknown name.
fn read_back(location: &Location) -> Vec<String> {
    let mut store = store::open(location).unwrap();
    let mut seen = Vec::new();
    for name in ["last", "last~1", "last~2", "after", "before", "main"] {
        let session = store::find(&mut store, name).unwrap();
        let runs = store::runs(&mut store, session.id).unwrap();
        assert!(!runs.is_empty(), "{name}: no runs");
        let condition = store::condition(&mut store, session.id).unwrap();
        assert!(
            condition.is_some(),
            "{name}: its machine condition was not kept"
        );
        seen.push(format!("{session:?} {runs:?} {condition:?}"));
    }
    let unknown = store::find(&mut store, "nothing").unwrap_err().to_string();
    assert!(unknown.contains("baselines: main"), "{unknown}");
    seen.push(unknown);
    let only = HistoryFilter {
        contestants: vec!["fixture-a".into()],
        tags: vec!["after".into()],
        since: Some("2026-12-02".into()),
        ..HistoryFilter::default()
    };
    for filter in [HistoryFilter::default(), only] {
        let entries = store::history_rows(&mut store, &filter).unwrap();
        assert!(!entries.is_empty(), "{filter:?}: no entries");
        seen.push(format!("{entries:?}"));
    }
    let mut summaries = store::summary_rows(&mut store).unwrap();
    summaries.sort_by(|a, b| {
        (a.session, &a.point, &a.contestant).cmp(&(b.session, &b.point, &b.contestant))
    });
    seen.push(format!(
        "{:?} {summaries:?}",
        store::session_rows(&mut store).unwrap()
    ));
    seen.push(format!("{:?}", store::bisects(&mut store).unwrap()));
    let last = store::find(&mut store, "last").unwrap();
    let mut whole = store::summary_json(&mut store, last.id).unwrap();
    whole.sort_by_key(|r| (r.point.to_string(), r.contestant.clone()));
    seen.push(format!("{whole:?}"));
    let spreads = store::spreads(
        &mut store,
        &last.machine,
        &"spawn tasks=10".parse().unwrap(),
        "fixture-a",
        &[],
    );
    let spreads = spreads.unwrap();
    assert!(spreads.time.is_some(), "three valid sessions give a spread");
    seen.push(format!("{spreads:?}"));
    seen
}

/// Writes the documents into the store at `location`, as `read_back` expects them.
fn fill(location: &Location) {
    let mut store = store::open(location).unwrap();
    let mut ids = Vec::new();
    for (results, tags) in documents()
        .iter()
        .zip([&["before"][..], &["after"], &["after", "x"]])
    {
        ids.push(store::record(&mut store, results, &tagged(tags)).unwrap());
    }
    store::save_baseline(&mut store, "main", ids[1]).unwrap();
    let bisect = serde_json::json!({"range": "fixture-a@1.0.0..1.1.0", "scenario": "spawn"});
    store::record_bisect(&mut store, "2026-12-04T00:00:00Z", "results/b", &bisect).unwrap();
}

/// Every file of the site built from the store at `location`, by path.
fn site_of(location: &Location) -> std::collections::BTreeMap<String, Vec<u8>> {
    let out = tempfile::tempdir().unwrap();
    let url = match location {
        Location::Sqlite(path) => path.display().to_string(),
        Location::Postgres(url) => url.clone(),
    };
    let args = [
        "site",
        "--store",
        &url,
        "--out",
        out.path().to_str().unwrap(),
    ];
    let built = taskbench_within(&args, QUICK);
    assert!(built.status.success(), "{}", stderr(&built));
    let mut files = std::collections::BTreeMap::new();
    let mut folders = vec![out.path().to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let name = path.strip_prefix(out.path()).unwrap().display().to_string();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn postgres_gives_back_what_sqlite_gives_for_the_same_runs() {
    let Some(admin) = server() else { return };
    let scratch = Scratch::new(&admin);
    let sqlite = tempfile::tempdir().unwrap();
    let sqlite = Location::Sqlite(sqlite.path().join("taskbench.sqlite"));
    for location in [&scratch.location(), &sqlite] {
        fill(location);
    }
    let (on_postgres, on_sqlite) = (read_back(&scratch.location()), read_back(&sqlite));
    assert_eq!(on_postgres.len(), on_sqlite.len());
    for (postgres, sqlite) in on_postgres.iter().zip(&on_sqlite) {
        assert_eq!(postgres, sqlite);
    }
    // The site of either is the same, file for file.
    let (postgres, sqlite) = (site_of(&scratch.location()), site_of(&sqlite));
    assert!(postgres.contains_key("index.html") && postgres.contains_key("bisect/1.html"));
    assert_eq!(
        postgres.keys().collect::<Vec<_>>(),
        sqlite.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &postgres {
        assert!(
            sqlite[path] == *bytes,
            "{path} differs between the two stores' sites"
        );
    }
}

#[test]
fn postgres_migrates_an_empty_database_once_when_four_open_it_at_once() {
    let Some(admin) = server() else { return };
    let scratch = Scratch::new(&admin);
    let start = Arc::new(Barrier::new(4));
    let openers: Vec<_> = (0..4)
        .map(|_| {
            let (location, start) = (scratch.location(), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                store::open(&location)
                    .map(drop)
                    .map_err(|e| format!("{e:#}"))
            })
        })
        .collect();
    for opener in openers {
        opener.join().unwrap().unwrap();
    }
    let mut client = scratch.client();
    let versions: Vec<i64> = client
        .query("SELECT version FROM taskbench_schema", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, [i64::from(store::SCHEMA_VERSION)]);
    for table in ["sessions", "runs", "summaries", "baselines"] {
        let rows = client.query(&format!("SELECT COUNT(*) FROM {table}"), &[]);
        assert_eq!(rows.unwrap()[0].get::<_, i64>(0), 0, "{table}");
    }
    // A store a newer taskbench has migrated is left alone.
    client
        .batch_execute(&format!(
            "UPDATE taskbench_schema SET version = {}",
            store::SCHEMA_VERSION + 1
        ))
        .unwrap();
    let Err(err) = store::open(&scratch.location()) else {
        panic!("a store of a newer version opens")
    };
    assert!(
        format!("{err:#}").contains("newer than this taskbench's"),
        "{err:#}"
    );
}

#[test]
fn postgres_keeps_a_run_recorded_twice_once_with_its_baseline() {
    let Some(admin) = server() else { return };
    let scratch = Scratch::new(&admin);
    let mut store = store::open(&scratch.location()).unwrap();
    let results = &documents()[0];
    let first = store::record(&mut store, results, &tagged(&["before"])).unwrap();
    store::save_baseline(&mut store, "main", first).unwrap();
    let again = store::record(&mut store, results, &Provenance::default()).unwrap();
    assert_ne!(first, again);
    let entries = store::history_rows(&mut store, &HistoryFilter::default()).unwrap();
    let rows: usize = results.points.iter().map(|p| p.rows.len()).sum();
    assert_eq!(entries.len(), rows, "one session's summaries, not two");
    assert!(
        entries
            .iter()
            .all(|e| e.session == again && e.tags.is_empty())
    );
    assert_eq!(
        store::find(&mut store, "main").unwrap().id,
        again,
        "the baseline moves"
    );
    assert!(
        store::find(&mut store, "last~1").is_err(),
        "one session only"
    );
}

#[test]
fn postgres_takes_imports_at_once_and_each_lands_whole() {
    let Some(admin) = server() else { return };
    let scratch = Scratch::new(&admin);
    let folders: Vec<tempfile::TempDir> = documents()
        .iter()
        .map(|results| {
            let dir = tempfile::tempdir().unwrap();
            let text = serde_json::to_string(results).unwrap();
            std::fs::write(dir.path().join("results.json"), text).unwrap();
            dir
        })
        .collect();
    // Migrated first: what is tested here is the writers. Two imports of each folder at
    // once: six writers, three sessions, each there once.
    drop(store::open(&scratch.location()).unwrap());
    let url = scratch.url.clone();
    let imports: Vec<_> = (0..6)
        .map(|k| {
            let (dir, url) = (folders[k % 3].path().to_owned(), url.clone());
            std::thread::spawn(move || {
                let tag = format!("w{}", k % 3);
                let args = [
                    "import",
                    dir.to_str().unwrap(),
                    "--store",
                    &url,
                    "--tag",
                    &tag,
                ];
                taskbench_within(&args, QUICK)
            })
        })
        .collect();
    for import in imports {
        let import = import.join().unwrap();
        assert!(import.status.success(), "{}", stderr(&import));
    }
    let mut store = store::open(&scratch.location()).unwrap();
    for (k, results) in documents().iter().enumerate() {
        let session = store::find(&mut store, &format!("w{k}")).unwrap();
        assert_eq!(session.started, results.platform.started);
        let runs = store::runs(&mut store, session.id).unwrap();
        assert_eq!(
            runs,
            kept(results),
            "{}: every run, in order",
            session.label
        );
        let tag = HistoryFilter {
            tags: vec![format!("w{k}")],
            ..HistoryFilter::default()
        };
        let rows: usize = results.points.iter().map(|p| p.rows.len()).sum();
        let entries = store::history_rows(&mut store, &tag).unwrap();
        assert_eq!(entries.len(), rows, "{}: every summary", session.label);
    }
    assert!(
        store::find(&mut store, "last~3").is_err(),
        "three sessions, not six"
    );
    let history = taskbench_within(&["history", "--store", &url, "--tag", "w2"], QUICK);
    assert!(history.status.success(), "{}", stderr(&history));
    assert!(String::from_utf8_lossy(&history.stdout).contains("fixture-a"));
    let compare = taskbench_within(&["compare", "w0", "w2", "--store", &url], QUICK);
    assert!(compare.status.success(), "{}", stderr(&compare));
}

#[test]
fn postgres_store_that_cannot_be_reached_or_read_is_one_line_naming_it() {
    for (store, says, code) in [
        (
            "postgres://nobody@127.0.0.1:1/x",
            "cannot open the store postgres://nobody@127.0.0.1:1/x: error connecting to server",
            2,
        ),
        (
            "postgres://bench@127.0.0.1:port/x",
            "invalid value 'postgres://bench@127.0.0.1:port/x' for '--store <PATH|URL>': \
             not a PostgreSQL URL (invalid connection string: invalid value for option `port`)",
            2,
        ),
    ] {
        let history = taskbench_within(&["history", "--store", store], QUICK);
        let err = stderr(&history);
        assert_eq!(history.status.code(), Some(code), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("taskbench: {says}")), "{err}");
    }
}

/// Tags a user may give (`store::parse_tag` takes them): any Unicode, quotes, SQL's and
/// LIKE's own characters, but no separator, control character or blank; and not `last…`,
/// which names sessions by age.
fn any_tags() -> impl proptest::strategy::Strategy<Value = Vec<String>> {
    use proptest::prelude::*;
    let part = prop_oneof![
        any::<String>(),
        prop::sample::select(vec!["'", "\"", "%", "_", "\\", ";--", "ü", "🦀", " ", "a"])
            .prop_map(String::from),
    ];
    let tag = prop::collection::vec(part, 1..4)
        .prop_map(|parts| parts.concat())
        .prop_filter("a tag parse_tag takes", |t| {
            store::parse_tag(t).is_ok() && !t.starts_with("last")
        });
    prop::collection::vec(tag, 1..4)
}

/// Issue 46: a tag is found again by `compare`'s names and `history --tag`, on SQLite and
/// on PostgreSQL alike, whatever it holds.
#[test]
fn tags_round_trip_through_both_stores() {
    use proptest::prelude::*;
    let Some(admin) = server() else { return };
    let config = ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(tags in any_tags())| {
        let scratch = Scratch::new(&admin);
        let dir = tempfile::tempdir().unwrap();
        let sqlite = Location::Sqlite(dir.path().join("taskbench.sqlite"));
        for location in [scratch.location(), sqlite] {
            let mut store = store::open(&location).unwrap();
            let as_given: Vec<&str> = tags.iter().map(String::as_str).collect();
            let id = store::record(&mut store, &documents()[0], &tagged(&as_given)).unwrap();
            for tag in &tags {
                let found = store::find(&mut store, tag).unwrap();
                prop_assert_eq!(found.id, id, "{:?} on {}", tag, location);
            }
            let filter = HistoryFilter { tags: tags.clone(), ..HistoryFilter::default() };
            let rows = store::history_rows(&mut store, &filter).unwrap();
            prop_assert!(!rows.is_empty() && rows.iter().all(|r| r.session == id), "{:?}", tags);
        }
    });
}
