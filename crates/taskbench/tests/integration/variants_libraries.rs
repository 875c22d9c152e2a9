//! Variants of a library release (contestant/variant: maven, pypi): a kotlinx-coroutines or
//! Python library release its registry does not have is one line and the run goes on; a
//! real older release builds in its own folder and runs validly, its version read back.
//! They ask Maven Central and PyPI: without a network the missing releases are still one
//! line each (the registry cannot be reached, quickly: no retries), but the older releases cannot be fetched.

use super::util::{read_json, skip, stderr};
use super::variants::{assert_valid, contestant, ran_small, run_small, version_of};
use std::process::Command;

/// Whether `program args` runs here; skipped with `hint` when it does not.
fn runs(program: &str, args: &[&str], hint: &str) -> bool {
    let found = Command::new(program).args(args).output();
    if !found.is_ok_and(|o| o.status.success()) {
        skip(hint);
        return false;
    }
    true
}

fn python_here() -> bool {
    runs("python3", &["-m", "venv", "--help"], "no python3 with venv")
}

fn kotlin_here() -> bool {
    let jdk = concat!(env!("CARGO_MANIFEST_DIR"), "/../../contestants/java/jdk.sh");
    runs(
        "sh",
        &[jdk, "java", "-version"],
        "no JDK 25 (the Kotlin contestant's JVM: $JAVA_HOME or Temurin 25)",
    ) && runs("mvn", &["--version"], "no Maven (mvn)")
}

#[test]
fn a_library_release_the_registry_lacks_is_one_line_and_the_run_goes_on() {
    if !python_here() || !kotlin_here() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let lineup = "python-trio,python-trio@9.9.9,python-uvloop@9.9.9,kotlin-coroutines@9.9.9";
    let run = run_small(lineup, out.path(), false);
    assert!(run.status.success(), "{}", stderr(&run));
    let said = String::from_utf8_lossy(&run.stdout);
    let results = read_json(&out.path().join("results.json"));
    for (name, lacks, offline) in [
        (
            "python-trio@9.9.9",
            "PyPI has no trio 9.9.9 (newest: ",
            "pip found no release of trio",
        ),
        (
            "python-uvloop@9.9.9",
            "PyPI has no uvloop 9.9.9 (newest: ",
            "pip found no release of uvloop",
        ),
        (
            "kotlin-coroutines@9.9.9",
            "Maven Central has no kotlinx-coroutines-core-jvm 9.9.9",
            "Maven could not fetch",
        ),
    ] {
        let lines: Vec<&str> = said.lines().filter(|l| l.contains(name)).collect();
        assert_eq!(lines.len(), 1, "{said}");
        let reason = contestant(&results, name)["unavailable"].as_str().unwrap();
        assert!(
            reason.starts_with(lacks) || reason.starts_with(offline),
            "{name}: {reason}"
        );
        // The terminal may cut the line at its width (with …), never wrap it.
        let shown = lines[0].trim_end_matches('…');
        assert!(
            format!("unavailable: {name} — {reason}").starts_with(shown)
                && shown.len() > format!("unavailable: {name} — ").len(),
            "{}",
            lines[0]
        );
    }
    assert!(contestant(&results, "python-trio")["unavailable"].is_null());
    assert_valid(&results, "python-trio");
}

#[test]
fn older_trio_and_uvloop_releases_run_validly_in_their_own_venvs() {
    if !python_here() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let results = ran_small("python-trio@0.25.0,python-uvloop@0.19.0", out.path());
    for (name, library) in [
        ("python-trio@0.25.0", "trio 0.25.0"),
        ("python-uvloop@0.19.0", "uvloop 0.19.0"),
    ] {
        let version = version_of(&results, name);
        assert!(version.contains(&format!(", {library} (")), "{version}");
        assert!(version.contains("without hashes"), "{version}");
        assert_valid(&results, name);
    }
}

#[test]
fn an_older_kotlinx_coroutines_builds_the_contestant_and_runs_it_validly() {
    if !kotlin_here() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let results = ran_small("kotlin-coroutines@1.8.1", out.path());
    let version = version_of(&results, "kotlin-coroutines@1.8.1");
    assert!(
        version.starts_with("kotlinx.coroutines 1.8.1 ("),
        "{version}"
    );
    assert_valid(&results, "kotlin-coroutines@1.8.1");
}
