//! Helpers: run the taskbench binary (or any program) with a deadline, read what it wrote,
//! and skip a test only where that is allowed.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one `taskbench` invocation may take: room for the cold release builds of every
/// contestant (which tests running at the same time wait for, on cargo's lock).
pub const DEADLINE: Duration = Duration::from_secs(30 * 60);
/// How long an invocation that builds and measures nothing may take.
pub const QUICK: Duration = Duration::from_secs(120);

/// The fixture contestants (tests/fixtures/<behaviour>).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Whether every test must run (`TASKBENCH_REQUIRE_ALL=1`, as .ci/run sets it): then a
/// missing tool fails the test instead of skipping it.
pub fn require_all() -> bool {
    std::env::var("TASKBENCH_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// A test that cannot run here: prints why and returns, or fails under
/// [`require_all`] — a CI that passes has run every test.
pub fn skip(reason: &str) {
    assert!(
        !require_all(),
        "TASKBENCH_REQUIRE_ALL=1 but this test cannot run: {reason}"
    );
    eprintln!("skipped: {reason}");
}

/// The store every taskbench a test starts writes to (`TASKBENCH_STORE`): one per test
/// binary, in a temporary folder, rather than beside each test's output folder.
pub fn test_store() -> &'static Path {
    static STORE: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    STORE.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// `command` with [`test_store`] as its store.
pub fn with_test_store(command: &mut Command) -> &mut Command {
    command.env("TASKBENCH_STORE", test_store().join("taskbench.sqlite"))
}

/// Asserts that `output`, of `taskbench ARGS`, was refused as bad input is: a non-zero exit
/// and one line on stderr holding `expect`.
pub fn assert_refused(output: &Output, args: &[&str], expect: &str) {
    let err = stderr(output);
    assert!(!output.status.success(), "{args:?} succeeded");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line, got:\n{err}"
    );
    assert!(
        err.contains(expect),
        "{args:?}: expected '{expect}' in: {err}"
    );
}

/// Runs `taskbench ARGS` within [`DEADLINE`].
pub fn taskbench(args: &[&str]) -> Output {
    taskbench_within(args, DEADLINE)
}

/// Runs `taskbench ARGS`; past `limit` it is killed with everything it started, and the
/// test fails.
pub fn taskbench_within(args: &[&str], limit: Duration) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
    with_test_store(&mut command).args(args);
    output_within(&mut command, limit).unwrap_or_else(|e| panic!("taskbench {args:?}: {e}"))
}

/// Runs `command` with stdin empty, collecting its output like [`Command::output`], in a
/// process group of its own; past `limit` that group and every process descended from it
/// are killed and the error says so, with the last lines it printed.
pub fn output_within(command: &mut Command, limit: Duration) -> Result<Output, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
    let pid = child.id() as i32;
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = match status {
        Some(status) => status,
        None => {
            // Unreaped, so its group id is still its own.
            kill_descendants(pid);
            // SAFETY: kill has no memory preconditions; an empty group gives ESRCH.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            let _ = child.wait();
            let err = String::from_utf8_lossy(&finish(stderr)).into_owned();
            let lines: Vec<&str> = err.lines().collect();
            return Err(format!(
                "killed after {limit:?}; its last lines:\n{}",
                lines[lines.len().saturating_sub(20)..].join("\n")
            ));
        }
    };
    Ok(Output {
        status,
        stdout: finish(stdout),
        stderr: finish(stderr),
    })
}

/// Kills every process descended from `root` with its process group (taskbench starts
/// each launcher and contestant in a group of its own).
fn kill_descendants(root: i32) {
    // (pid, parent, group) of every live process.
    let processes: Vec<(i32, i32, i32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
            fields.next()?;
            Some((
                pid,
                fields.next()?.parse().ok()?,
                fields.next()?.parse().ok()?,
            ))
        })
        .collect();
    let mut tree = vec![root];
    let mut index = 0;
    while index < tree.len() {
        let parent = tree[index];
        tree.extend(processes.iter().filter(|p| p.1 == parent).map(|p| p.0));
        index += 1;
    }
    // SAFETY: getpgrp has no preconditions.
    let own = unsafe { libc::getpgrp() };
    for (pid, _, group) in processes.iter().filter(|p| tree[1..].contains(&p.0)) {
        // SAFETY: kill has no memory preconditions; a process gone already gives ESRCH.
        unsafe {
            libc::kill(
                if *group > 0 && *group != own {
                    -group
                } else {
                    *pid
                },
                libc::SIGKILL,
            )
        };
    }
}

type Collected = (Arc<Mutex<Vec<u8>>>, std::thread::JoinHandle<()>);

/// Reads `source` to its end on a thread of its own.
fn collect(mut source: impl Read + Send + 'static) -> Collected {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let shared = Arc::clone(&kept);
    let thread = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = source.read(&mut buf) {
            shared.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    (kept, thread)
}

/// What was read, once the stream ended or a few seconds passed (a process that escaped
/// the kills may hold the pipe open).
fn finish((kept, thread): Collected) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !thread.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::mem::take(&mut *kept.lock().unwrap())
}

/// Runs `taskbench run` on the fixtures into a fresh folder with `args`, and requires it to
/// succeed; the folder and what the run printed.
pub fn fixture_run(args: &[&str]) -> (tempfile::TempDir, Output) {
    let out = tempfile::tempdir().unwrap();
    let fixtures = fixtures();
    let mut all = vec![
        "--contestants",
        fixtures.to_str().unwrap(),
        "run",
        "--out",
        out.path().to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let output = taskbench(&all);
    assert!(
        output.status.success(),
        "taskbench failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (out, output)
}

/// Runs `taskbench run --quiet` on the fixtures into a fresh folder; the parsed results.json.
pub fn run_fixtures(args: &[&str]) -> (tempfile::TempDir, serde_json::Value) {
    let mut all = vec!["--quiet"];
    all.extend_from_slice(args);
    let (out, _) = fixture_run(&all);
    let results = read_json(&out.path().join("results.json"));
    (out, results)
}

pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The measured runs of one contestant in a results document.
pub fn measured<'a>(
    results: &'a serde_json::Value,
    contestant: &str,
) -> Vec<&'a serde_json::Value> {
    results["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["contestant"] == contestant && r["phase"] == "measured")
        .collect()
}

/// stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
