//! docs/FAIRNESS.md has an entry for every contestant in contestants/ — its name as an
//! anchor (`<a id="tokio">`) or a heading — and every manifest says how it is built and
//! which toolchains it runs on and, where it runs the socket scenarios, its networking
//! stack, so that each row's terms are written where its figures are
//! read (issue 25 item 5); its table of toolchain ages is contestants/toolchains.toml's.

use contestant::home::repository_root;
use contestant::{age, discover};

#[test]
fn every_contestant_has_an_entry_in_fairness_md_and_states_its_build() {
    let root = repository_root();
    let page = std::fs::read_to_string(root.join("docs/FAIRNESS.md")).unwrap();
    let contestants = discover(&root.join("contestants")).unwrap();
    assert!(contestants.len() > 50, "{}", contestants.len());
    let has_entry = |name: &str| {
        page.contains(&format!(r#"<a id="{name}"></a>"#))
            || page
                .lines()
                .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == name)
    };
    let missing: Vec<&str> = contestants
        .iter()
        .map(|c| c.name())
        .filter(|name| !has_entry(name))
        .collect();
    assert!(
        missing.is_empty(),
        "no entry in docs/FAIRNESS.md: {missing:?}"
    );
    let unstated: Vec<&str> = contestants
        .iter()
        .filter(|c| c.manifest.build_flags().is_none_or(|b| b.contains('{')))
        .map(|c| c.name())
        .collect();
    assert!(unstated.is_empty(), "no build_flags: {unstated:?}");
    // Each row that runs the socket scenarios names its networking stack; one that cannot
    // says so in its manifest (and docs/FAIRNESS.md says why).
    let unnamed: Vec<&str> = contestants
        .iter()
        .filter(|c| {
            c.manifest.sockets.is_none() != c.manifest.unsupported.iter().any(|s| s == "echo")
        })
        .map(|c| c.name())
        .collect();
    assert!(
        unnamed.is_empty(),
        "`sockets` missing, or given to a row without echo: {unnamed:?}"
    );
    // docs/FAIRNESS.md's table of stacks is the manifests': a row each, n/a with its reason.
    let untabled: Vec<&str> = contestants
        .iter()
        .filter(|c| {
            let m = &c.manifest;
            let stack = m.sockets.clone().unwrap_or_else(|| "n/a: ".into());
            !page.contains(&format!("| {} | {} | {stack}", m.name, m.language))
        })
        .map(|c| c.name())
        .collect();
    assert!(
        untabled.is_empty(),
        "docs/FAIRNESS.md's stacks table lacks or misstates: {untabled:?}"
    );
    let references: Vec<&str> = contestants
        .iter()
        .filter(|c| c.manifest.reference)
        .map(|c| c.name())
        .collect();
    assert_eq!(references, ["floor"], "floor is the reference, and only it");
}

/// Every row named beside a published figure (seeds::counterparts) is a contestant here, so
/// that the seeds and million presets run it (issue 25 item 7).
#[test]
fn every_counterpart_of_a_published_figure_is_a_contestant() {
    use seeds::{SeedId, counterparts};
    let root = repository_root();
    let names: Vec<String> = discover(&root.join("contestants"))
        .unwrap()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let named = counterparts::contestants(&SeedId::ALL);
    assert!(named.len() > 15, "{named:?}");
    let missing: Vec<&&str> = named
        .iter()
        .filter(|n| !names.iter().any(|m| m == *n))
        .collect();
    assert!(missing.is_empty(), "not contestants: {missing:?}");
}

/// Every manifest states the toolchains it runs on, each an entry of
/// contestants/toolchains.toml with the release this machine runs and the newest stable
/// one as checked; every entry is some row's; docs/FAIRNESS.md's table of toolchain ages
/// is the one `taskbench list` prints from them.
#[test]
fn every_manifest_states_its_toolchains_age_and_fairness_md_holds_the_table() {
    let root = repository_root();
    let contestants_dir = root.join("contestants");
    let contestants = discover(&contestants_dir).unwrap();
    let unstated: Vec<&str> = contestants
        .iter()
        .filter(|c| c.toolchains.is_empty())
        .map(|c| c.name())
        .collect();
    assert!(unstated.is_empty(), "no `toolchains`: {unstated:?}");
    for age in contestants.iter().flat_map(|c| &c.toolchains) {
        assert!(
            !age.runs.is_empty() && !age.newest.is_empty() && !age.checked.is_empty(),
            "{age:?}"
        );
    }
    let known = age::load(&contestants_dir.join(age::FILE)).unwrap();
    let unused: Vec<&String> = known
        .keys()
        .filter(|id| {
            !contestants
                .iter()
                .flat_map(|c| &c.toolchains)
                .any(|a| &a.id == *id)
        })
        .collect();
    assert!(unused.is_empty(), "no row runs on {unused:?}");
    let table = age::markdown(&age::by_toolchain(
        &contestants,
        &contestants_dir.canonicalize().unwrap(),
    ));
    let page = std::fs::read_to_string(root.join("docs/FAIRNESS.md")).unwrap();
    assert!(
        page.contains(&table),
        "docs/FAIRNESS.md#toolchain-ages should hold contestants/toolchains.toml's table:\n{table}"
    );
}
