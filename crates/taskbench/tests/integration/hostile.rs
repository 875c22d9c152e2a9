//! Hostile contestants: each gets a status, the harness's memory stays bounded whatever
//! they print, nothing they start outlives the run, and a harness killed outright takes
//! its contestant along.

use super::session::{
    finish, fixture_contestants, marked, marker, no_process_left, nothing_left, reaped_pid, start,
    start_reaped, wait_for,
};
use super::util::{measured, read_json};
use std::time::{Duration, Instant};

/// Fixture name, behaviour, and the status each of its runs must get.
const HOSTILE: &[(&str, &str, &str)] = &[
    ("ignore-term", "ignore-term", "timeout"),
    ("outlive", "outlive", "ok"),
    ("daemon", "daemon", "ok"),
    ("daemon-probe", "daemon-probe", "ok"),
    ("daemon-version", "daemon-version", "ok"),
    ("flood-stdout", "flood-stdout-512", "bad_output"),
    ("flood-stderr", "flood-stderr-512", "ok"),
    ("long-line", "long-line-100", "bad_output"),
    ("extra-line", "extra-line", "bad_output"),
    ("line-then-fail", "line-then-fail", "failed"),
    ("close-stdout", "close-stdout", "timeout"),
    ("silent", "silent", "bad_output"),
    ("pristine", "pristine", "ok"),
];

/// The harness's own peak RSS may not grow with what its contestants print (512 MiB on
/// each stream here, 100 MiB in one line): it keeps 1 MiB of a run's stdout and 2 KiB of
/// its stderr.
const HARNESS_PEAK_LIMIT_KIB: u64 = 64 * 1024;

#[test]
fn hostile_contestants_get_a_status_and_leave_nothing_behind() {
    let pairs: Vec<(&str, &str)> = HOSTILE.iter().map(|(n, b, _)| (*n, *b)).collect();
    let contestants = fixture_contestants(&pairs);
    let out = tempfile::tempdir().unwrap();
    let names: Vec<String> = HOSTILE
        .iter()
        .map(|(n, ..)| format!("fixture-{n}"))
        .collect();
    let marker = marker("hostile");
    let results_dir = out.path().join("results");
    let log = out.path().join("stderr");
    let left = out.path().join("left.txt");
    let mut harness = start_reaped(
        contestants.path(),
        &[
            "run",
            "--quiet",
            "--out",
            results_dir.to_str().unwrap(),
            "--contestant",
            &names.join(","),
            "--scenario",
            "spawn",
            "--tasks",
            "10",
            "-r",
            "2",
            "-w",
            "0",
            "--timeout",
            "3s",
        ],
        &marker,
        &log,
        &left,
    );
    // The harness's own high-water mark (VmHWM: its peak RSS, not its children's), read
    // until it exits; it only grows, so the last reading is the peak.
    let status_file = format!("/proc/{}/status", reaped_pid(&harness));
    let mut peak_kib = 0;
    let deadline = Instant::now() + Duration::from_secs(600);
    while harness.try_wait().unwrap().is_none() && Instant::now() < deadline {
        if let Some(hwm) = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("VmHWM:")?
                    .trim()
                    .strip_suffix(" kB")?
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
        }) {
            peak_kib = hwm;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = finish(&mut harness, Duration::from_secs(1));
    let stderr = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "{stderr}");
    let results = read_json(&results_dir.join("results.json"));
    for (name, _, expected) in HOSTILE {
        let runs = measured(&results, &format!("fixture-{name}"));
        let statuses: Vec<&str> = runs.iter().map(|r| r["status"].as_str().unwrap()).collect();
        assert!(
            !statuses.is_empty() && statuses.iter().all(|s| s == expected),
            "fixture-{name}: {statuses:?}, expected {expected}: {:?}",
            runs.first().map(|r| &r["figures"]["stderr_tail"])
        );
    }
    let flood = &measured(&results, "fixture-flood-stdout")[0];
    let reason = flood["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("512 MiB on stdout, more than the 1.00 MiB kept"),
        "{flood}"
    );
    eprintln!("harness peak RSS: {peak_kib} KiB");
    assert!(
        peak_kib > 0 && peak_kib < HARNESS_PEAK_LIMIT_KIB,
        "the harness held {peak_kib} KiB while its contestants flooded it"
    );
    no_process_left(&marker);
    // Issue 46: nothing the idle probe or a version command started either, zombies
    // included, as the process table shows the subreaper around the harness.
    nothing_left(&left);
}

#[test]
fn a_harness_killed_outright_takes_its_contestant_along() {
    // It has started a child in a session of its own, then hangs.
    let contestants = fixture_contestants(&[("daemon-hang", "daemon-hang")]);
    let out = tempfile::tempdir().unwrap();
    let marker = marker("sigkill");
    let log = out.path().join("stderr");
    let mut harness = start(
        contestants.path(),
        &[
            "run",
            "--quiet",
            "--out",
            out.path().join("results").to_str().unwrap(),
            "--scenario",
            "spawn",
            "--tasks",
            "10",
            "-r",
            "1",
            "-w",
            "0",
            "--timeout",
            "60s",
        ],
        &marker,
        &log,
    );
    let running = || {
        marked(&marker).iter().any(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.windows(6).any(|w| w == b"linger"))
        })
    };
    wait_for("the contestant runs", running);
    // SAFETY: kill has no memory preconditions.
    unsafe { libc::kill(harness.id() as i32, libc::SIGKILL) };
    finish(&mut harness, Duration::from_secs(10));
    // The launcher is told (SIGTERM) and kills the contestant and all it started.
    no_process_left(&marker);
}

#[test]
fn a_harness_fault_stops_the_run_and_keeps_what_finished() {
    // The launcher is the taskbench binary itself: a copy deleted mid-run cannot start one.
    let scratch = tempfile::tempdir().unwrap();
    let binary = scratch.path().join("taskbench");
    std::fs::copy(env!("CARGO_BIN_EXE_taskbench"), &binary).unwrap();
    let contestants = fixture_contestants(&[("quick", "honest"), ("slow", "touch-1-2000")]);
    let out = scratch.path().join("results");
    let mut harness = super::util::with_test_store(&mut std::process::Command::new(&binary))
        .arg("--contestants")
        .arg(contestants.path())
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .args(["--scenario", "spawn", "--tasks", "10", "-r", "3", "-w", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(scratch.path().join("stderr")).unwrap())
        .spawn()
        .unwrap();
    let log = out.join("runs.jsonl");
    wait_for("a run finished", || {
        std::fs::read_to_string(&log).is_ok_and(|l| l.lines().count() >= 2)
    });
    std::fs::remove_file(&binary).unwrap();
    let status = finish(&mut harness, Duration::from_secs(60));
    let stderr = std::fs::read_to_string(scratch.path().join("stderr")).unwrap();
    // An error that stops the run is not a regression: 2, as every error but the gate's.
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the run stops: cannot start the launcher") && stderr.contains("--resume"),
        "{stderr}"
    );
    let results = read_json(&out.join("results.json"));
    let logged = std::fs::read_to_string(&log).unwrap().lines().count();
    assert_eq!(results["interrupted"], true);
    assert_eq!(results["runs"].as_array().unwrap().len(), logged);
    assert!(out.join("report.html").exists());
}
