//! The language table against the manifests under contestants/: every language a manifest
//! names is in the table, every entry is named by a manifest.

use super::*;
use crate::home::repository_root;
use crate::{MANIFEST_FILE, discover};
use std::path::{Path, PathBuf};

/// One line per manifest whose language the table lacks (naming the manifest and the
/// language), then one per table entry no manifest names.
fn mismatches(manifests: &[(PathBuf, String)]) -> Vec<String> {
    let mut wrong: Vec<String> = (manifests.iter())
        .filter(|(_, language)| find(language).is_none())
        .map(|(path, language)| {
            format!(
                "{}: language '{language}' is not in contestant/language.rs's LANGUAGES",
                path.display()
            )
        })
        .collect();
    wrong.extend(
        (LANGUAGES.iter())
            .filter(|entry| !manifests.iter().any(|(_, l)| l == entry.name))
            .map(|entry| format!("LANGUAGES: no manifest is in '{}'", entry.name)),
    );
    wrong
}

/// Every manifest under contestants/ with its language, its path relative to the checkout.
fn manifests() -> Vec<(PathBuf, String)> {
    let root = repository_root();
    let contestants = discover(&root.join("contestants")).unwrap();
    (contestants.into_iter())
        .map(|c| {
            let path = c.dir.join(MANIFEST_FILE);
            let path = path
                .strip_prefix(&root)
                .map_or(path.clone(), Path::to_path_buf);
            (path, c.manifest.language)
        })
        .collect()
}

#[test]
fn every_manifest_names_a_language_of_the_table_and_every_entry_is_named() {
    let manifests = manifests();
    assert!(manifests.len() > LANGUAGES.len(), "{manifests:?}");
    let wrong = mismatches(&manifests);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_misspelt_language_and_an_unused_entry_are_named() {
    let mut manifests: Vec<(PathBuf, String)> = (LANGUAGES.iter())
        .map(|l| {
            (
                PathBuf::from(format!("{}.toml", l.name)),
                l.name.to_string(),
            )
        })
        .collect();
    assert!(mismatches(&manifests).is_empty());
    manifests[0].1 = "Rsut".into();
    assert_eq!(
        mismatches(&manifests),
        [
            "Rust.toml: language 'Rsut' is not in contestant/language.rs's LANGUAGES",
            "LANGUAGES: no manifest is in 'Rust'",
        ]
    );
}

#[test]
fn every_family_has_a_language_and_a_group_of_its_own() {
    for family in FAMILIES {
        assert!(
            LANGUAGES.iter().any(|l| l.family == *family),
            "{}",
            family.group
        );
        let same = FAMILIES.iter().filter(|f| f.group == family.group).count();
        assert_eq!(same, 1, "{}", family.group);
    }
    for language in LANGUAGES {
        assert!(FAMILIES.contains(&language.family), "{}", language.name);
        assert_eq!(
            LANGUAGES.iter().filter(|l| l.name == language.name).count(),
            1
        );
    }
}

#[test]
fn a_language_gives_its_entry_and_an_unknown_one_the_guess() {
    let scala = find("Scala").unwrap();
    assert_eq!(startup("Scala"), Duration::from_millis(scala.startup_ms));
    assert_eq!(family_of("Kotlin").unwrap().group, "jvm");
    assert_eq!(hue("Rust"), RUST.hue);
    assert_eq!(startup("Rsut"), Duration::from_millis(UNKNOWN_STARTUP_MS));
    assert_eq!(startup(""), Duration::from_millis(UNKNOWN_STARTUP_MS));
    assert_eq!(family_of("Rsut"), None);
    assert_eq!(hue("Rsut"), Hue::GREY);
}
