//! The pipeline's layering, read from the source: one table says which top-level module of
//! the crate may import which, each only modules above it in the table, so that an import
//! against the pipeline, or a circle, is a failing test (issues 23 and 36). Commands drive
//! the library and never each other. Tests (`#[cfg(test)]` items, and the files they
//! declare) are left out: a test may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module of the harness's crate and the modules it imports, in the
/// pipeline's order: the features, each part where it sits (its deciding, its words, its
/// conclusion); a session from start to end (the scheduler) and the features' steps over
/// it; the command line and the commands on top. A module may only name modules above it
/// here, and the table holds no import the code does not make, so that it reads as the
/// house stands. A feature is one folder (issue 47) whose parts each are a row
/// (`compare::gate`, `compare::words`, `compare::step`): that order within a crate is what
/// Cargo cannot say. Everything under the features — catalogue, contestant, presets,
/// lineup, measure, run, stats, analysis, results, store, words, html, export, seeds, plot,
/// units, exit (issue 47) — is a crate of its own and no module here: what each may use is
/// its Cargo.toml, which the compiler holds it to (docs/ARCHITECTURE.md).
#[rustfmt::skip]
const LAYERS: &[(&str, &[&str])] = &[
    ("warm_up::curves", &[]),
    ("warm_up::words", &["warm_up::curves"]),
    ("agree", &[]),
    ("shards", &[]),
    ("compare::ratio", &[]),
    ("compare::mode_shift", &["compare::ratio"]),
    ("compare::change", &["compare::mode_shift", "compare::ratio"]),
    ("compare::gate", &["compare::change", "compare::ratio"]),
    ("compare::sides", &["compare::gate"]),
    ("compare::words", &["compare::change", "compare::gate", "compare::ratio"]),
    ("compare::conclude", &["compare::gate", "compare::words"]),
    ("history::change_points", &[]),
    ("history::series", &["history::change_points"]),
    ("history::change_gate", &["compare::gate", "history::change_points"]),
    ("history::changes", &["compare::gate", "history::change_points", "history::series"]),
    ("history::table", &[]),
    ("history::words", &["history::change_gate", "history::change_points"]),
    ("history::trend", &["history::change_points"]),
    ("history::conclude", &["history::change_gate", "history::words"]),
    ("scheduler", &["shards", "compare::gate", "compare::sides", "history::changes",
                    "history::table", "history::trend"]),
    ("compare::step", &["compare::conclude", "compare::gate", "compare::sides", "scheduler"]),
    ("compare::confirm", &["scheduler"]),
    ("bisect", &["scheduler", "compare::change", "compare::ratio"]),
    ("site", &["bisect", "history::change_points", "history::changes", "history::trend",
               "history::words"]),
    ("cli", &["scheduler", "bisect", "compare::gate"]),
    ("commands", &["agree", "scheduler", "bisect", "site", "cli", "warm_up::curves", "warm_up::words",
                   "shards", "compare::conclude", "compare::confirm", "compare::gate",
                   "compare::sides", "compare::step", "history::change_gate",
                   "history::change_points", "history::changes", "history::conclude",
                   "history::table", "history::trend", "history::words"]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `path` (or `path` itself; nothing where it is not).
fn sources(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return (path.is_file().then(|| path.to_path_buf()).into_iter()).collect();
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

/// The crate's top-level modules, as lib.rs declares them (test-only ones left out).
fn top_level_modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut modules = BTreeSet::new();
    let mut test_only = false;
    for line in lib.lines().map(str::trim) {
        let name = (line.strip_prefix("pub mod "))
            .or(line.strip_prefix("pub(crate) mod "))
            .or(line.strip_prefix("mod "));
        if let Some(name) = name.and_then(|n| n.strip_suffix(';'))
            && !test_only
        {
            modules.insert(name.to_string());
        }
        test_only = line == "#[cfg(test)]";
    }
    modules
}

/// The layers: each top-level module, or, for a feature whose parts sit at different
/// places in the pipeline (`warm_up::curves` over the analysis, `warm_up::words` over
/// the report), each of its parts the table names.
fn layers() -> BTreeSet<String> {
    let mut layers = BTreeSet::new();
    for module in top_level_modules() {
        let parts = split_parts(&module);
        if parts.is_empty() {
            layers.insert(module);
        } else {
            layers.extend(parts);
        }
    }
    layers
}

/// The parts of `module` that LAYERS names (`module::part`), none where it names the
/// module whole.
fn split_parts(module: &str) -> Vec<String> {
    let prefix = format!("{module}::");
    (LAYERS.iter())
        .filter(|(name, _)| name.starts_with(&prefix))
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The layer of the item at module path `path` (`["warm_up", "rules", "lookup"]` is
/// `warm_up::rules` where the table splits `warm_up`, else `warm_up`).
fn layer_of(path: &[&str], layers: &BTreeSet<String>) -> Option<String> {
    let first = path.first()?.to_string();
    if layers.contains(&first) {
        return Some(first);
    }
    let part = format!("{first}::{}", path.get(1)?);
    layers.contains(&part).then_some(part)
}

/// The module path of a file below src/ (`run/runner.rs` is `run::runner`; a mod.rs is
/// its folder's module).
fn module_path(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap().with_extension("");
    let mut path: Vec<String> = (relative.components())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    path
}

/// The files that only tests compile: those declared by a `#[cfg(test)] mod NAME;`.
fn test_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut tests = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let own = src().join(module_path(file).join("/"));
        for pair in lines.windows(2).filter(|pair| pair[0] == "#[cfg(test)]") {
            let declared = pair[1]
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(name) = declared {
                tests.insert(own.join(format!("{name}.rs")));
                tests.extend(sources(&own.join(name)));
            }
        }
    }
    tests
}

/// A file's code as the crate builds it: comments and `#[cfg(test)]` items left out (a
/// one-line item alone; a block ends the file's code, as test modules close their files).
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let mut code = String::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == "#[cfg(test)]" {
            match lines.next() {
                Some(item) if item.ends_with(';') => continue,
                _ => break,
            }
        }
        if !line.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
    }
    code
}

/// The layers that `code`, of the module at `path`, names: `crate::NAME`, `use crate::{NAME,
/// …}`, or a path through `super::` (`crate::NAME::PART`, or `super::PART` from a sibling,
/// where the table splits NAME into parts).
fn named(code: &str, path: &[String], layers: &BTreeSet<String>) -> BTreeSet<String> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let own = layer_of(&path, layers);
    let mut found = BTreeSet::new();
    let mut starts = vec![("crate::".to_string(), Vec::new())];
    for up in 1..=path.len() {
        starts.push(("super::".repeat(up), path[..path.len() - up].to_vec()));
    }
    for (prefix, base) in &starts {
        for (at, _) in code.match_indices(prefix.as_str()) {
            // The tail of a longer path (`x::super::`, `super::super::` read from its second
            // `super`) is no start.
            if code[..at].ends_with("::") {
                continue;
            }
            for head in heads(&code[at + prefix.len()..]) {
                let mut named = base.clone();
                named.extend(head.split("::").filter(|part| *part != "super"));
                if let Some(layer) = layer_of(&named, layers)
                    && Some(&layer) != own.as_ref()
                {
                    found.insert(layer);
                }
            }
        }
    }
    found
}

/// The paths that start `rest`: one, or each of a `{…}` group's.
fn heads(rest: &str) -> Vec<String> {
    let group = rest
        .strip_prefix('{')
        .map(|g| &g[..g.find('}').unwrap_or(g.len())]);
    let heads: Vec<&str> = match group {
        Some(group) => group.split(',').map(str::trim).collect(),
        None => vec![rest],
    };
    let path = |head: &str| -> String {
        let taken: String = (head.chars())
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        taken.trim_end_matches(':').to_string()
    };
    heads.into_iter().map(path).collect()
}

/// Each top-level module's imports of the others, with the file that makes each.
fn imports() -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let modules = top_level_modules();
    let files: Vec<PathBuf> = (modules.iter())
        .flat_map(|m| {
            let (file, folder) = (src().join(format!("{m}.rs")), src().join(m));
            let mut files = if folder.is_dir() {
                sources(&folder)
            } else {
                Vec::new()
            };
            if file.is_file() {
                files.push(file);
            }
            files
        })
        .collect();
    let tests = test_files(&files);
    let layers = layers();
    let mut edges: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in files.iter().filter(|f| !tests.contains(*f)) {
        let path = module_path(file);
        let parts: Vec<&str> = path.iter().map(String::as_str).collect();
        let Some(layer) = layer_of(&parts, &layers) else {
            continue;
        };
        let from = edges.entry(layer).or_default();
        for to in named(&code(file), &path, &layers) {
            from.entry(to).or_insert_with(|| file.clone());
        }
    }
    edges
}

#[test]
fn every_module_imports_only_what_the_table_allows() {
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, to) in imports() {
        let may = allowed.get(from.as_str()).copied().unwrap_or_default();
        for (to, file) in to.iter().filter(|(to, _)| !may.contains(&to.as_str())) {
            let file = file.strip_prefix(src()).unwrap().display();
            wrong.push(format!("{from} -> {to} ({file}): not in LAYERS"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_table_allows_no_import_the_code_does_not_make() {
    let imports = imports();
    let mut unused = Vec::new();
    for (from, may) in LAYERS {
        let made = imports.get(*from);
        for to in may
            .iter()
            .filter(|to| !made.is_some_and(|m| m.contains_key(**to)))
        {
            unused.push(format!("{from} -> {to}: in LAYERS, but nothing imports it"));
        }
    }
    assert!(unused.is_empty(), "{}", unused.join("\n"));
}

#[test]
fn the_table_names_every_module_once_each_above_what_imports_it() {
    let listed: Vec<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    let layers = layers();
    let names: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(names.len(), listed.len(), "a module twice: {listed:?}");
    assert_eq!(names, layers.iter().map(String::as_str).collect());
    for (at, (module, may)) in LAYERS.iter().enumerate() {
        for to in *may {
            let above = listed[..at].contains(to);
            assert!(
                above,
                "{module} may import {to}, which is not above it: a circle could close"
            );
        }
    }
}

/// A feature split into parts at different layers declares them and nothing else: a
/// re-export from its mod.rs would let a part's import through any layer unseen.
#[test]
fn a_split_feature_re_exports_nothing() {
    for module in top_level_modules() {
        if split_parts(&module).is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(src().join(&module).join("mod.rs")).unwrap();
        for line in text.lines().map(str::trim) {
            let declares = line.is_empty()
                || line.starts_with("//")
                || line.starts_with("pub mod ")
                || line.starts_with("pub(crate) mod ");
            assert!(declares, "{module}/mod.rs: {line}: only `mod` lines");
        }
    }
}

#[test]
fn no_command_imports_another() {
    let commands: Vec<String> = sources(&src().join("commands"))
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| stem != "mod")
        .collect();
    for file in sources(&src().join("commands")) {
        let code = code(&file);
        for command in &commands {
            for path in [
                format!("super::{command}"),
                format!("super::super::{command}"),
                format!("crate::commands::{command}"),
            ] {
                assert!(!names(&code, &path), "{}: {path}", file.display());
            }
        }
    }
}

/// Whether `text` names the module path `module` (not a longer name that starts with it).
fn names(text: &str, module: &str) -> bool {
    text.match_indices(module).any(|(at, _)| {
        let after = text[at + module.len()..].chars().next();
        !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn the_checks_see_an_import_when_there_is_one() {
    let modules: BTreeSet<String> = ["words", "run", "store"].map(String::from).into();
    let path = ["run".to_string(), "runner".to_string()];
    let seen = |code: &str| named(code, &path, &modules);
    assert_eq!(
        seen("use crate::words::units;"),
        ["words".to_string()].into()
    );
    assert_eq!(seen("use crate::{words::x, store};").len(), 2);
    assert_eq!(
        seen("super::super::store::open()"),
        ["store".to_string()].into()
    );
    assert!(seen("use crate::wordsmith; use super::store; crate::run::x").is_empty());
    let parts: BTreeSet<String> = ["warm_up::rules", "report"].map(String::from).into();
    let seen_parts = named("use crate::warm_up::rules::lookup;", &path, &parts);
    assert_eq!(seen_parts, ["warm_up::rules".to_string()].into());
    let sibling = ["warm_up".to_string(), "words".to_string()];
    let seen_sibling = named("use super::rules::lookup;", &sibling, &parts);
    assert_eq!(seen_sibling, ["warm_up::rules".to_string()].into());
    assert!(names("use super::merge;", "super::merge") && !names("super::merged", "super::merge"));
    let search = src().join("bisect/search.rs");
    assert!(!code(&search).contains("mod tests"));
    assert!(test_files(&[search]).contains(&src().join("bisect/search/tests.rs")));
    assert!(imports()["scheduler"].contains_key("shards"));
}
