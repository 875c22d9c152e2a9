//! Unix manners: a closed pipe on stdout ends taskbench quietly (`taskbench list | head -1`).

use super::util::QUICK;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Instant;

#[test]
fn a_closed_pipe_on_stdout_ends_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    // Closed before taskbench writes anything: its first line meets a pipe nobody reads.
    drop(reader);
    let mut list = Command::new(env!("CARGO_BIN_EXE_taskbench"))
        .arg("list")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while list.try_wait().unwrap().is_none() {
        if started.elapsed() > QUICK {
            list.kill().unwrap();
            panic!("taskbench list did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let output = list.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(101), "a panic's exit: {err}");
    assert_eq!(output.status.signal(), Some(libc::SIGPIPE), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
