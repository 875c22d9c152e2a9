//! Helpers for tests that run taskbench as a terminal would — in a session of its own,
//! signalled through its process group — on fixture contestants made for the test, and
//! check that nothing it started is left running.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Long enough for the fixture's first build; every wait below ends by then.
pub const DEADLINE: Duration = Duration::from_secs(180);
pub const MARKER: &str = "TASKBENCH_INTERRUPT_TEST";

/// One run of fixtures (`fixture-NAME` behaving as BEHAVIOUR for each pair) at `spawn` of
/// `tasks` (`10,20`), three time processes each and no warm-up, kept out of the store: its
/// results, a real document for tests that make sessions of it.
pub fn unstored_run(fixtures: &[(&str, &str)], tasks: &str) -> results::Results {
    let contestants = fixture_contestants(fixtures);
    let out = tempfile::tempdir().unwrap();
    let run = super::util::taskbench(&[
        "--contestants",
        contestants.path().to_str().unwrap(),
        "run",
        "--quiet",
        "--no-store",
        "--out",
        out.path().to_str().unwrap(),
        "--scenario",
        "spawn",
        "--tasks",
        tasks,
        "-r",
        "3",
        "-w",
        "0",
    ]);
    assert!(run.status.success(), "{}", super::util::stderr(&run));
    results::read_results(&out.path().join("results.json")).unwrap()
}

/// A contestants folder of fixtures: `fixture-NAME` behaving as BEHAVIOUR for each pair.
pub fn fixture_contestants(fixtures: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, behaviour) in fixtures {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        write_fixture(dir.path(), name, behaviour);
    }
    dir
}

/// Writes the manifest of `fixture-NAME`, behaving as BEHAVIOUR, into `contestants/NAME`.
/// `daemon-version` answers honestly and daemonises from its `version` command.
pub fn write_fixture(contestants: &Path, name: &str, behaviour: &str) {
    let crate_version = r#"{ crate = "taskbench-catalogue" }"#;
    let (behaviour, version) = match behaviour {
        "daemon-version" => (
            "honest",
            r#"{ command = ["{target}/release/taskbench-fixture", "daemon-version"] }"#,
        ),
        other => (other, crate_version),
    };
    let manifest = format!(
        r#"name = "fixture-{name}"
language = "Rust"
runtime = "test fixture ({behaviour})"
detect = ["cargo", "--version"]
install = "install Rust with rustup"
build = ["cargo", "build", "--release", "--quiet", "-p", "taskbench-fixture", "--manifest-path", "{{root}}/Cargo.toml", "--target-dir", "{{target}}"]
run = ["{{target}}/release/taskbench-fixture", "{behaviour}"]
version = {version}
"#
    );
    std::fs::write(contestants.join(name).join("contestant.toml"), manifest).unwrap();
}

/// The fixture binary, built as the fixture contestants' manifests build it.
pub fn fixture_binary() -> PathBuf {
    let places = contestant::home::places();
    let status = Command::new("cargo")
        .args(["build", "--release", "--quiet", "-p", "taskbench-fixture"])
        .arg("--manifest-path")
        .arg(places.root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&places.target)
        .status()
        .expect("cargo starts");
    assert!(status.success(), "the fixture did not build");
    places.target.join("release/taskbench-fixture")
}

/// [`start`] under the fixture's `reap-into`: a child subreaper around taskbench, so that
/// whatever taskbench leaves behind — a daemon that left its session, a zombie nobody
/// reaped — is its to see; [`nothing_left`] reads what it saw once taskbench has exited.
pub fn start_reaped(
    contestants: &Path,
    args: &[&str],
    marker: &str,
    stderr: &Path,
    left: &Path,
) -> Child {
    let fixture = fixture_binary();
    let taskbench = env!("CARGO_BIN_EXE_taskbench");
    let mut wrapped = vec!["reap-into", left.to_str().unwrap(), taskbench];
    wrapped.push("--contestants");
    wrapped.push(contestants.to_str().unwrap());
    wrapped.extend_from_slice(args);
    let stderr: Stdio = File::create(stderr).unwrap().into();
    let mut command = Command::new(fixture);
    super::util::with_test_store(&mut command)
        .args(&wrapped)
        .env(MARKER, marker)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    in_a_session(&mut command)
        .spawn()
        .expect("the reaper starts")
}

/// The pid of taskbench under the reaper [`start_reaped`] started, once it runs.
pub fn reaped_pid(reaper: &Child) -> u32 {
    let mut found = None;
    wait_for("taskbench under the reaper", || {
        found = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .find(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                let after = stat.rsplit(')').next().unwrap_or_default();
                let parent = after.split_whitespace().nth(1);
                stat.contains("(taskbench)") && parent == Some(&reaper.id().to_string())
            });
        found.is_some()
    });
    found.unwrap()
}

/// Asserts that taskbench, run by [`start_reaped`], left no process behind, running or a
/// zombie: the process table's children of the subreaper, as it wrote them to `left`.
pub fn nothing_left(left: &Path) {
    let seen = std::fs::read_to_string(left).expect("the reaper wrote what was left");
    assert!(seen.is_empty(), "left behind (pid state name):\n{seen}");
}

/// taskbench in a session of its own, its stderr to `stderr`, every descendant marked by
/// `marker` in its environment.
pub fn start(contestants: &Path, args: &[&str], marker: &str, stderr: &Path) -> Child {
    let stderr = File::create(stderr).unwrap().into();
    start_to(contestants, args, marker, Stdio::null(), stderr)
}

/// [`start`], its stdout to `stdout` and its stderr to `stderr`.
pub fn start_to(
    contestants: &Path,
    args: &[&str],
    marker: &str,
    stdout: Stdio,
    stderr: Stdio,
) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
    super::util::with_test_store(&mut command)
        .arg("--contestants")
        .arg(contestants)
        .args(args)
        .env(MARKER, marker)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    in_a_session(&mut command)
        .spawn()
        .expect("taskbench starts")
}

/// `command`, to start in a session (and process group) of its own, as under a terminal.
fn in_a_session(command: &mut Command) -> &mut Command {
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        command.pre_exec(|| match libc::setsid() {
            -1 => Err(std::io::Error::last_os_error()),
            _ => Ok(()),
        })
    }
}

/// Waits for `child`; past `limit` its session's group is killed and the test fails.
pub fn finish(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            signal_group(child, libc::SIGKILL);
            let _ = child.wait();
            panic!("taskbench did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn signal_group(child: &Child, signal: i32) {
    // SAFETY: kill has no memory preconditions.
    unsafe { libc::kill(-(child.id() as i32), signal) };
}

/// Waits until `ready` holds, failing the test past the deadline.
pub fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while !ready() {
        assert!(Instant::now() < deadline, "never happened: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether runs.jsonl holds a measured record of `contestant`.
pub fn has_measured(out: &Path, contestant: &str) -> bool {
    let text = std::fs::read_to_string(out.join("runs.jsonl")).unwrap_or_default();
    text.lines().filter(|l| l.ends_with('}')).any(|l| {
        let record: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
        record["contestant"] == contestant && record["phase"] == "measured"
    })
}

/// Processes whose environment holds the marker.
pub fn marked(marker: &str) -> Vec<u32> {
    let needle = format!("{MARKER}={marker}\0");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
        .collect()
}

/// Whether a process marked by `marker` has `arg` among its arguments.
pub fn running(marker: &str, arg: &str) -> bool {
    marked(marker).into_iter().any(|pid| {
        std::fs::read(format!("/proc/{pid}/cmdline"))
            .is_ok_and(|line| line.split(|&b| b == 0).any(|a| a == arg.as_bytes()))
    })
}

pub fn no_process_left(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !marked(marker).is_empty() {
        assert!(
            Instant::now() < deadline,
            "left behind: {:?}",
            marked(marker)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn marker(name: &str) -> String {
    format!("{name}-{}", std::process::id())
}
