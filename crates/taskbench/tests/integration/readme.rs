//! What the README tells a reader to type builds what was tested: `cargo install` with
//! `--locked`, the dependencies of Cargo.lock rather than the newest that resolve (issue 35).

use contestant::home::repository_root;

#[test]
fn the_readme_installs_with_cargo_lock() {
    let readme = std::fs::read_to_string(repository_root().join("README.md")).unwrap();
    let installs: Vec<&str> = readme
        .lines()
        .filter(|l| l.trim_start().starts_with("cargo install "))
        .collect();
    assert!(!installs.is_empty(), "the README shows how to install");
    let unlocked: Vec<&&str> = installs
        .iter()
        .filter(|l| !l.split_whitespace().any(|word| word == "--locked"))
        .collect();
    assert!(unlocked.is_empty(), "without --locked: {unlocked:?}");
}
