//! The pipeline's layering, read from the source: commands drive the library and never
//! each other, and no stage imports a later one (issue 23).

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `path` (or `path` itself).
fn sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let path = entry.unwrap().path();
        match path.is_dir() {
            true => files.extend(sources(&path)),
            false if path.extension().is_some_and(|e| e == "rs") => files.push(path),
            false => {}
        }
    }
    files
}

/// Whether `text` names the module path `module` (not a longer name that starts with it).
fn names(text: &str, module: &str) -> bool {
    text.match_indices(module).any(|(at, _)| {
        let after = text[at + module.len()..].chars().next();
        !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The lines of the files below `place` that name any of `modules`, tests left out.
fn offending(place: &str, modules: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for file in sources(&src().join(place)) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name == "tests.rs" || name == "proptests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (number, line) in code.lines().enumerate() {
            if modules.iter().any(|m| names(line, m)) {
                found.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

#[test]
fn no_command_imports_another() {
    let commands: Vec<String> = sources(&src().join("commands"))
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| stem != "mod")
        .collect();
    let paths: Vec<String> = commands
        .iter()
        .flat_map(|c| {
            [
                format!("super::{c}"),
                format!("super::super::{c}"),
                format!("crate::commands::{c}"),
            ]
        })
        .collect();
    let found = offending("commands", &paths);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_stage_imports_the_command_line_or_the_report() {
    let later = ["crate::cli".to_string(), "crate::report".to_string()];
    for stage in ["presets", "results.rs", "run", "store", "plot"] {
        let found = offending(stage, &later);
        assert!(found.is_empty(), "{}", found.join("\n"));
    }
}

#[test]
fn the_checks_see_an_import_when_there_is_one() {
    assert!(names("use crate::report::units;", "crate::report"));
    assert!(!names("use crate::reports;", "crate::report"));
    assert!(!offending("commands", &["crate::scheduler".to_string()]).is_empty());
}
