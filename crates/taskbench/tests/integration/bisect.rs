//! `taskbench bisect`'s bad input: an unknown contestant, a range it cannot read, a range
//! the registry has no releases in, a bad threshold or figure — one line each, a non-zero
//! exit, nothing run. The registry is a Go module proxy in a folder (GOPROXY=file://), so
//! no test here downloads anything.

use super::util::{QUICK, assert_refused, output_within, stderr, with_test_store};
use std::process::{Command, Output};

fn bisect(args: &[&str], proxy: &std::path::Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
    with_test_store(&mut command)
        .env("GOPROXY", format!("file://{}", proxy.display()))
        .env("GONOSUMDB", "*")
        .env("GOFLAGS", "-mod=mod")
        .arg("bisect")
        .args(args);
    output_within(&mut command, QUICK).unwrap()
}

fn refused(args: &[&str], proxy: &std::path::Path, expect: &str) {
    assert_refused(&bisect(args, proxy), args, expect);
}

/// A module proxy in a folder that lists Go 1.22.0, 1.22.1 and a release candidate of
/// 1.23 for this machine.
fn proxy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("golang.org/toolchain/@v");
    std::fs::create_dir_all(&list).unwrap();
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        other => other,
    };
    let versions: Vec<String> = ["1.22.0", "1.22.1", "1.23rc1"]
        .iter()
        .map(|v| format!("v0.0.1-go{v}.linux-{arch}"))
        .collect();
    std::fs::write(list.join("list"), versions.join("\n") + "\n").unwrap();
    // What `go list -m -versions` reads of the newest, for its retractions.
    for version in &versions {
        let info = format!("{{\"Version\":\"{version}\"}}");
        std::fs::write(list.join(format!("{version}.info")), info).unwrap();
        let module = "module golang.org/toolchain\n";
        std::fs::write(list.join(format!("{version}.mod")), module).unwrap();
    }
    dir
}

#[test]
fn bisects_bad_input_is_one_line_and_a_failure() {
    let proxy = proxy();
    let p = proxy.path();
    refused(
        &["-c", "nobody@1.22..1.26", "-s", "pingpong"],
        p,
        "'nobody': no contestant",
    );
    refused(
        &["-c", "go@1.26..1.22", "-s", "pingpong"],
        p,
        "the lower first",
    );
    refused(
        &["-c", "go", "-s", "pingpong"],
        p,
        "'go': bisect takes a contestant and a range",
    );
    refused(
        &[
            "-c",
            "go@1.22..1.26",
            "-s",
            "pingpong",
            "--threshold",
            "150%",
        ],
        p,
        "'150%' is not a percentage",
    );
    refused(
        &[
            "-c",
            "go@1.22..1.26",
            "-s",
            "pingpong",
            "--measure",
            "speed",
        ],
        p,
        "'speed' is no figure",
    );
    refused(
        &["-c", "go@1.22..1.26", "-s", "nap"],
        p,
        "unknown scenario 'nap'",
    );
}

#[test]
fn a_range_the_registry_has_no_two_releases_in_is_refused() {
    if Command::new("go").arg("version").output().is_err() {
        return super::util::skip("no go on this machine");
    }
    let proxy = proxy();
    // Only a release candidate of 1.23: pre-releases are left out.
    refused(
        &["-c", "go@1.23..1.26", "-s", "pingpong"],
        proxy.path(),
        "'go@1.23..1.26': the registry lists 0 release(s) in the range",
    );
    refused(
        &["-c", "go@1.22.1..1.22.1", "-s", "pingpong"],
        proxy.path(),
        "lists 1 release(s) in the range: a bisect needs two",
    );
}

#[test]
fn a_dry_run_lists_the_registrys_releases_in_the_range_and_builds_nothing() {
    if Command::new("go").arg("version").output().is_err() {
        return super::util::skip("no go on this machine");
    }
    let proxy = proxy();
    let output = bisect(
        &["-c", "go@1.22..1.23", "-s", "pingpong", "--dry-run"],
        proxy.path(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        out.contains("2 releases: go@1.22.0 go@1.22.1\n"),
        "the release candidate left out: {out}"
    );
    assert!(out.contains("coarse pass: go@1.22.0 → go@1.22.1"), "{out}");
}
