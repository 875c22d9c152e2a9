//! The measurement itself, against a fixture that keeps a known amount of memory resident
//! for a known time: peak RSS, wall clock, and agreement with GNU time.

use super::session::fixture_binary;
use super::util::{measured, output_within, run_fixtures, skip};
use measure::{ExecError, Exit, Job, Kept, Measurement};
use std::process::Command;
use std::time::Duration;

const MIB: u64 = 1 << 20;

#[test]
fn peak_rss_and_wall_match_what_the_process_did() {
    let (_out, results) = run_fixtures(&[
        "--contestant",
        "fixture-touch-200-300",
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "--runs",
        "2",
        "--warmup",
        "0",
    ]);
    for run in measured(&results, "fixture-touch-200-300") {
        assert_eq!(run["status"], "ok");
        let figures = &run["figures"];
        let rss = figures["peak_rss_bytes"].as_u64().unwrap();
        // 200 MiB written, plus the few MiB of a small Rust binary.
        assert!(
            (200 * MIB..=212 * MIB).contains(&rss),
            "peak RSS {} MiB",
            rss / MIB
        );
        assert!(
            figures["wall_ns"].as_u64().unwrap() >= 300_000_000,
            "wall covers the sleep"
        );
        assert!(figures["elapsed_ns"].as_u64().unwrap() >= 300_000_000);
        let timeline = figures["timeline"].as_array().unwrap();
        assert!(!timeline.is_empty());
        let sampled_peak = timeline
            .iter()
            .map(|s| s["rss_bytes"].as_u64().unwrap())
            .max()
            .unwrap();
        assert!(
            sampled_peak <= rss && sampled_peak >= 190 * MIB,
            "sampled peak {sampled_peak}"
        );
    }
}

#[test]
fn peak_rss_agrees_with_gnu_time() {
    let limit = Duration::from_secs(60);
    let Ok(time) = output_within(Command::new("/usr/bin/time").arg("-v").arg("true"), limit) else {
        return skip("/usr/bin/time is not installed (apt-get install time)");
    };
    assert!(time.status.success());
    let fixture = fixture_binary().to_string_lossy().into_owned();
    let gnu = output_within(
        Command::new("/usr/bin/time").args([
            "-v",
            fixture.as_str(),
            "touch-64-50",
            "spawn",
            "--tasks",
            "1",
        ]),
        limit,
    )
    .unwrap();
    let report = String::from_utf8_lossy(&gnu.stderr);
    let kib: u64 = report
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no max RSS in: {report}"));
    let ours = execute(&[&fixture, "touch-64-50", "spawn", "--tasks", "1"], 30_000).unwrap();
    let (ours, gnu) = (ours.usage.peak_rss_bytes as f64, (kib * 1024) as f64);
    assert!(
        (ours - gnu).abs() / gnu < 0.02,
        "ours {ours} vs GNU time {gnu}"
    );
}

/// Measures `argv` through the launcher, as the harness does.
fn execute(argv: &[&str], timeout_ms: u64) -> Result<Measurement, ExecError> {
    let job = Job {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        cwd: std::env::temp_dir(),
        timeout: Duration::from_millis(timeout_ms),
        sample_every: Duration::from_millis(5),
        memory_limit: Some(256 * MIB),
        cpus: None,
        env: Vec::new(),
        keep: Kept::MEASURED,
        open_files: None,
    };
    measure::execute(env!("CARGO_BIN_EXE_taskbench").as_ref(), &job)
}

#[test]
fn a_pinned_job_runs_on_that_many_cores_with_its_environment() {
    let job = Job {
        argv: ["sh", "-c", "nproc; echo \"$WORKERS\""]
            .iter()
            .map(|a| a.to_string())
            .collect(),
        cwd: std::env::temp_dir(),
        timeout: Duration::from_secs(10),
        sample_every: Duration::from_millis(5),
        memory_limit: Some(256 * MIB),
        cpus: Some(1),
        env: vec![("WORKERS".into(), "1".into())],
        keep: Kept::MEASURED,
        open_files: None,
    };
    let m = measure::execute(env!("CARGO_BIN_EXE_taskbench").as_ref(), &job).unwrap();
    assert_eq!(m.stdout, "1\n1\n", "nproc counts the cores it may run on");
    let too_many = Job {
        cpus: Some(measure::affinity::allowed().len() as u32 + 1),
        ..job
    };
    assert!(measure::execute(env!("CARGO_BIN_EXE_taskbench").as_ref(), &too_many).is_err());
}

fn sh(script: &str, timeout_ms: u64) -> Measurement {
    execute(&["sh", "-c", script], timeout_ms).unwrap()
}

#[test]
fn captures_exit_code_and_output() {
    let m = sh("echo out; echo err >&2; exit 3", 10_000);
    assert_eq!(m.exit, Exit::Code(3));
    assert_eq!(m.stdout, "out\n");
    assert_eq!(m.stderr_tail, "err");
    assert!(m.usage.peak_rss_bytes > 0);
}

#[test]
fn a_run_past_the_memory_limit_is_killed() {
    let fixture = fixture_binary().to_string_lossy().into_owned();
    let m = execute(
        &[&fixture, "touch-400-5000", "spawn", "--tasks", "1"],
        30_000,
    )
    .unwrap();
    assert_eq!(m.exit, Exit::OverMemory);
    assert!(
        m.wall < Duration::from_secs(5),
        "killed before its sleep ended"
    );
}

#[test]
fn a_signal_is_not_an_exit_code() {
    assert_eq!(sh("kill -SEGV $$", 10_000).exit, Exit::Signal(11));
}

#[test]
fn timeout_kills_the_whole_group() {
    // The grandchild holds stdout open; without the group kill this would hang.
    let m = sh("sleep 30 & sleep 30", 300);
    assert_eq!(m.exit, Exit::TimedOut);
    assert!(m.wall >= Duration::from_millis(300) && m.wall < Duration::from_secs(20));
}

#[test]
fn wall_covers_the_sleep() {
    let m = sh("sleep 0.2", 10_000);
    assert_eq!(m.exit, Exit::Code(0));
    assert!(m.wall >= Duration::from_millis(200));
}

#[test]
fn a_missing_program_is_an_error() {
    // The program's fault, not the harness's: its case is "not started", the run goes on.
    let ExecError::Program(err) = execute(&["/nonexistent/program"], 1_000).unwrap_err() else {
        panic!("a missing program is a harness fault");
    };
    assert!(
        err.contains("/nonexistent/program") && err.contains("No such file"),
        "{err}"
    );
}

#[test]
fn a_missing_launcher_is_a_harness_fault() {
    let job = Job {
        argv: vec!["true".into()],
        cwd: std::env::temp_dir(),
        timeout: Duration::from_secs(10),
        sample_every: Duration::from_millis(5),
        memory_limit: None,
        cpus: None,
        env: Vec::new(),
        keep: Kept::MEASURED,
        open_files: None,
    };
    let err = measure::execute("/nonexistent/taskbench".as_ref(), &job).unwrap_err();
    assert!(
        matches!(&err, ExecError::Harness(e) if e.contains("launcher")),
        "{err:?}"
    );
}

#[test]
fn the_peak_is_the_programs_own_not_the_harnesses() {
    // This test process holds far more than a shell does; none of it may show.
    let _ballast: Vec<u8> = vec![1; 64 << 20];
    let m = sh("true", 10_000);
    assert!(
        m.usage.peak_rss_bytes < 8 * MIB,
        "peak {} KiB",
        m.usage.peak_rss_bytes / 1024
    );
}
