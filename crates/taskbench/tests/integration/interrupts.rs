//! Nothing lost, nothing left behind: SIGINT, SIGTERM and SIGHUP write what finished and kill the
//! run in progress, `--resume` runs the rest, a folder takes one run at a time, and a full
//! disk leaves runs.jsonl whole lines. taskbench runs in a session of its own, as under a
//! terminal, and the signal goes to its process group, as Ctrl-C sends it.

use super::session::{
    DEADLINE, finish, fixture_contestants, has_measured, lines, marker, no_process_left,
    nothing_left, running, signal_group, start, start_reaped, start_to, wait_for, write_fixture,
};
use super::util::{read_json, skip};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A contestants folder: `fixture-quick` (honest), `fixture-slow` (sleeps [`SLOW`] per run:
/// a signal cuts it short) and `fixture-slower` (30 s: long enough that a run beside it,
/// whose fixture build may wait for cargo's lock while the contestants test builds, still
/// ends first).
fn contestants() -> tempfile::TempDir {
    fixture_contestants(&[
        ("quick", "honest"),
        ("slow", SLOW),
        ("slower", "touch-1-30000"),
    ])
}

/// fixture-slow's behaviour: a minute's sleep, twice [`STOPPED_WITHIN`], so that a run that
/// ends within that was cut short, however slowly a loaded machine shuts it down.
const SLOW: &str = "touch-1-60000";
/// How long a signalled run may take to kill its run in progress and write its results.
const STOPPED_WITHIN: Duration = Duration::from_secs(30);

const CASES: &[&str] = &[
    "--contestant",
    "fixture-quick,fixture-slow",
    "--scenario",
    "spawn",
    "--tasks",
    "10",
    "-r",
    "2",
    "-w",
    "0",
    "--timeout",
    "60s",
    // The rounds' order: fixture-quick's first process, then fixture-slow's (rounds are
    // shuffled; this seed puts them so).
    "--seed",
    "1",
];

/// Starts a run of [`CASES`], signals its group once fixture-slow's first process sleeps,
/// and checks what it left; returns the output folder.
fn interrupted(signal: i32, code: i32, name: &str, contestants: &Path) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let marker = marker(name);
    let err = out.path().join("stderr.txt");
    let dir = out.path().join("results");
    let mut args = vec!["run", "--quiet", "--out", dir.to_str().unwrap()];
    args.extend_from_slice(CASES);
    let left = out.path().join("left.txt");
    let mut child = start_reaped(contestants, &args, &marker, &err, &left);
    wait_for("the first measured run", || {
        has_measured(&dir, "fixture-quick")
    });
    wait_for("fixture-slow's process", || running(&marker, SLOW));
    signal_group(&child, signal);
    let signalled = Instant::now();
    let status = finish(&mut child, DEADLINE);
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert_eq!(status.code(), Some(code), "{stderr}");
    assert!(
        signalled.elapsed() < STOPPED_WITHIN,
        "the minute's run was killed, not waited for: {:?}",
        signalled.elapsed()
    );
    assert!(stderr.contains("interrupted by SIG"), "{stderr}");
    assert!(
        stderr.contains(&format!("are in {}", dir.display())),
        "{stderr}"
    );
    no_process_left(&marker);
    // Issue 46: the launcher reaps the contestant it kills; none is left to init a zombie.
    nothing_left(&left);

    let results = read_json(&dir.join("results.json"));
    assert_eq!(results["interrupted"], true);
    let log = lines(&dir.join("runs.jsonl"));
    let runs = results["runs"].as_array().unwrap();
    assert_eq!(runs, &log, "every finished run, and only those");
    assert!(
        runs.iter()
            .any(|r| r["contestant"] == "fixture-quick" && r["phase"] == "measured")
    );
    assert!(
        !runs
            .iter()
            .any(|r| r["contestant"] == "fixture-slow" && r["phase"] == "measured"),
        "the run cut short is not a run"
    );
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains(r#"<p class="interrupted">"#));
    let markdown = std::fs::read_to_string(dir.join("results.md")).unwrap();
    assert!(markdown.contains("**interrupted:"));
    out
}

#[test]
fn ctrl_c_writes_what_finished_and_resume_runs_the_rest() {
    let contestants = contestants();
    let out = interrupted(libc::SIGINT, 130, "int", contestants.path());
    let dir = out.path().join("results");
    let before = read_json(&dir.join("results.json"));

    // The results again from runs.jsonl alone, its last line cut short by a kill.
    std::fs::remove_file(dir.join("results.json")).unwrap();
    std::fs::remove_file(dir.join("report.html")).unwrap();
    let log = std::fs::read_to_string(dir.join("runs.jsonl")).unwrap();
    let first = log.lines().next().unwrap();
    std::fs::write(
        dir.join("runs.jsonl"),
        format!("{log}{}", &first[..first.len() / 2]),
    )
    .unwrap();
    let err = out.path().join("report.txt");
    let mut report = start(
        contestants.path(),
        &["report", dir.to_str().unwrap()],
        &marker("report"),
        &err,
    );
    let status = finish(&mut report, Duration::from_secs(60));
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("ignored its last line, cut short"),
        "{stderr}"
    );
    let rebuilt = read_json(&dir.join("results.json"));
    assert_eq!(rebuilt["interrupted"], true);
    assert_eq!(rebuilt["runs"], before["runs"]);
    assert_eq!(rebuilt["points"], before["points"]);
    assert!(dir.join("report.html").exists());

    // --resume refuses to choose cases of its own.
    let err = out.path().join("refused.txt");
    let mut refused = start(
        contestants.path(),
        &[
            "run",
            "--resume",
            dir.to_str().unwrap(),
            "--scenario",
            "yield",
        ],
        &marker("refused"),
        &err,
    );
    assert!(!finish(&mut refused, Duration::from_secs(60)).success());
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot be used with"), "{stderr}");

    // The rest, as if never interrupted; fixture-slow now sleeps 3 s a run, as the minute
    // was only there to be cut short.
    write_fixture(contestants.path(), "slow", "touch-1-3000");
    let err = out.path().join("resume.txt");
    let mut resumed = start(
        contestants.path(),
        &["run", "--quiet", "--resume", dir.to_str().unwrap()],
        &marker("resume"),
        &err,
    );
    let status = finish(&mut resumed, DEADLINE);
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(status.success(), "{stderr}");
    let results = read_json(&dir.join("results.json"));
    assert_eq!(results["interrupted"], false);
    assert_eq!(results["command"], before["command"]);
    let runs = results["runs"].as_array().unwrap();
    assert_eq!(runs, &lines(&dir.join("runs.jsonl")));
    let idle = |runs: &[serde_json::Value]| runs.iter().filter(|r| r["phase"] == "idle").count();
    assert_eq!(
        idle(runs),
        idle(before["runs"].as_array().unwrap()),
        "idle runs are not made twice"
    );
    for contestant in ["fixture-quick", "fixture-slow"] {
        let measured: Vec<&serde_json::Value> = runs
            .iter()
            .filter(|r| r["contestant"] == contestant && r["phase"] == "measured")
            .collect();
        let numbers: Vec<u64> = measured
            .iter()
            .map(|r| r["run"].as_u64().unwrap())
            .collect();
        assert_eq!(
            numbers,
            (1..=numbers.len() as u64).collect::<Vec<_>>(),
            "{contestant}: one case, numbered once"
        );
        assert!(measured.iter().all(|r| r["status"] == "ok"));
        assert!(measured.last().unwrap()["stop"].is_string(), "{contestant}");
    }
    let rows = results["points"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["outcome"] == "valid"));
}

#[test]
fn sigterm_writes_what_finished_and_exits_143() {
    let contestants = contestants();
    interrupted(libc::SIGTERM, 143, "term", contestants.path());
}

/// A closed terminal or ssh session: SIGHUP stops the run as SIGTERM does.
#[test]
fn sighup_writes_what_finished_and_exits_129() {
    let contestants = contestants();
    interrupted(libc::SIGHUP, 129, "hup", contestants.path());
}

/// `taskbench run | head`: a closed stdout stops the run as SIGTERM does (results written,
/// marked interrupted), where SIGPIPE would kill it with runs.jsonl alone; exit 141. The
/// same with stderr in the closed pipe too (`2>&1 | head`), where a panic would end it.
#[test]
fn a_closed_stdout_writes_what_finished_and_exits_141() {
    let contestants = contestants();
    let out = tempfile::tempdir().unwrap();
    for both in [false, true] {
        let err = out.path().join(format!("stderr-{both}.txt"));
        let dir = out.path().join(format!("results-{both}"));
        let mut args = vec!["run", "--out", dir.to_str().unwrap()];
        args.extend_from_slice(CASES);
        let (reader, writer) = std::io::pipe().unwrap();
        let stderr: Stdio = if both {
            writer.try_clone().unwrap().into()
        } else {
            std::fs::File::create(&err).unwrap().into()
        };
        // Closed before taskbench writes: its first line meets a pipe nobody reads.
        drop(reader);
        let marker = marker(&format!("pipe-{both}"));
        let mut child = start_to(contestants.path(), &args, &marker, writer.into(), stderr);
        let status = finish(&mut child, DEADLINE);
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        assert_eq!(status.code(), Some(141), "{stderr}");
        if !both {
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(stderr.contains("interrupted by SIGPIPE"), "{stderr}");
        }
        no_process_left(&marker);
        let results = read_json(&dir.join("results.json"));
        assert_eq!(results["interrupted"], true);
        assert_eq!(
            results["runs"].as_array().unwrap(),
            &lines(&dir.join("runs.jsonl"))
        );
        assert!(dir.join("report.html").exists());
    }
}

#[test]
fn a_folder_takes_one_run_and_two_folders_do_not_mix() {
    let contestants = contestants();
    let out = tempfile::tempdir().unwrap();
    let (first, second) = (out.path().join("a"), out.path().join("b"));
    let run = |dir: &Path, contestant: &str, name: &str| -> (Child, PathBuf) {
        let err = out.path().join(format!("{name}.txt"));
        let args = [
            "run",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
            "--contestant",
            contestant,
            "--scenario",
            "spawn",
            "--tasks",
            "10",
            "-r",
            "1",
            "-w",
            "0",
        ];
        (start(contestants.path(), &args, &marker(name), &err), err)
    };
    let (mut slow, _) = run(&first, "fixture-slower", "slower");
    wait_for("the slow run's start", || first.join("run.json").exists());
    let (mut again, err) = run(&first, "fixture-quick", "again");
    let status = finish(&mut again, DEADLINE);
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert!(!status.success());
    assert_eq!(
        stderr.trim(),
        format!(
            "taskbench: {} is in use by another taskbench run; give another --out",
            first.display()
        )
    );
    wait_for("the slow run's idle runs", || {
        let log = std::fs::read_to_string(first.join("runs.jsonl")).unwrap_or_default();
        log.matches('\n').count() >= 3
    });
    let (mut quick, err) = run(&second, "fixture-quick", "quick");
    let status = finish(&mut quick, DEADLINE);
    assert!(
        status.success(),
        "{}",
        std::fs::read_to_string(&err).unwrap()
    );
    assert!(
        slow.try_wait().unwrap().is_none(),
        "the runs overlapped: the slow one is still going"
    );
    assert!(finish(&mut slow, DEADLINE).success());
    for (dir, contestant) in [(&first, "fixture-slower"), (&second, "fixture-quick")] {
        let results = read_json(&dir.join("results.json"));
        let runs = results["runs"].as_array().unwrap();
        assert_eq!(runs, &lines(&dir.join("runs.jsonl")));
        assert!(runs.iter().all(|r| r["contestant"] == contestant));
        assert!(runs.iter().any(|r| r["phase"] == "measured"));
    }
}

/// A tmpfs mounted for the test, unmounted when dropped.
struct Mount(PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_is_one_error_and_runs_jsonl_stays_whole_lines() {
    let contestants = contestants();
    let root = tempfile::tempdir().unwrap();
    let disk = root.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&disk)
        .output();
    // Through skip(): under TASKBENCH_REQUIRE_ALL=1 (CI, as root) a refused mount fails.
    match mounted {
        Ok(output) if output.status.success() => {}
        Ok(output) => {
            return skip(&format!(
                "mount -t tmpfs was refused: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Err(e) => return skip(&format!("cannot run mount: {e}")),
    }
    let _mount = Mount(disk.clone());
    let dir = disk.join("results");
    let err = root.path().join("stderr.txt");
    // Time processes of many iterations each: a few of their records fill 64 KiB.
    let args = [
        "run",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
        "--contestant",
        "fixture-quick",
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "-r",
        "100",
        "-w",
        "0",
        "--max-time",
        "60s",
    ];
    let mut child = start(contestants.path(), &args, &marker("disk"), &err);
    let status = finish(&mut child, DEADLINE);
    let stderr = std::fs::read_to_string(&err).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "taskbench: cannot write {}",
            dir.join("runs.jsonl").display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("No space left on device") || stderr.contains("disk full"),
        "{stderr}"
    );
    let log = std::fs::read_to_string(dir.join("runs.jsonl")).unwrap();
    assert!(log.ends_with('\n'), "whole lines only");
    assert!(!lines(&dir.join("runs.jsonl")).is_empty());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
