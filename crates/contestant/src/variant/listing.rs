//! The releases a registry serves in a range (`go@1.22..1.26`, `node-q@node22..26`), down
//! to patch releases, for `taskbench bisect`: each registry's module lists its package's
//! versions beside the code that fetches one (`versions`, one signature for all), and this
//! file reads the range, keeps the releases inside it, oldest first, without pre-releases.

use super::{Fetch, Spec, split};
use crate::toolchain::checked;
use crate::{Contestant, Places, VersionSource};
use anyhow::{Context, bail};

/// Most releases one bisect may search: each costs a fetch (a Go toolchain is ~70 MB) and
/// a build, and the halving's cost grows with their number.
pub(crate) const MOST_RELEASES: usize = 200;

/// `go@1.22..1.26`: a contestant and the ends of a range of its runtime's releases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    /// `go`.
    pub contestant: String,
    /// The runtime word before the versions (`node`), or empty.
    pub(crate) word: String,
    /// `1.22`: the lowest release, or the line it starts.
    pub(crate) from: String,
    /// `1.26`: the highest, or the line it ends.
    pub(crate) to: String,
}

impl Range {
    /// Reads `NAME@FROM..TO` (`go@1.22..1.26`, `go@1.24.0..1.24.3`, `node-q@node22..26`).
    pub fn parse(text: &str) -> anyhow::Result<Range> {
        let fail = || {
            anyhow::anyhow!(
                "'{text}': bisect takes a contestant and a range of its runtime's releases, \
                 the lower first (go@1.22..1.26, go@1.24.0..1.24.3, node-async-await@node22..26)"
            )
        };
        let (contestant, spec) = text.split_once('@').ok_or_else(fail)?;
        anyhow::ensure!(!contestant.is_empty(), fail());
        let (from, to) = spec.split_once("..").ok_or_else(fail)?;
        let word_end = from
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(from.len());
        let (word, from) = from.split_at(word_end);
        let to = to.strip_prefix(word).unwrap_or(to);
        let range = Range {
            contestant: contestant.to_string(),
            word: word.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        };
        // Each end must read as a release of its own (`go@1.22`).
        for end in [&range.from, &range.to] {
            let (_, spec) = split(&range.name(end)).map_err(|_| fail())?;
            anyhow::ensure!(is_release(end) && spec.is_some(), fail());
        }
        match (numbers(&range.from), numbers(&range.to)) {
            (Some(a), Some(b)) if a <= b => Ok(range),
            _ => Err(fail()),
        }
    }

    /// The variant's name of `version` (`go@1.24.3`, `node-q@node22.3.1`).
    pub(crate) fn name(&self, version: &str) -> String {
        format!("{}@{}{version}", self.contestant, self.word)
    }

    /// Whether `version` lies in the range: its leading numbers at or past `from`'s, at or
    /// before `to`'s (`1.26` takes in `1.26.3`).
    pub(crate) fn holds(&self, version: &str) -> bool {
        let (Some(v), Some(from), Some(to)) =
            (numbers(version), numbers(&self.from), numbers(&self.to))
        else {
            return false;
        };
        let head = |n: usize| &v[..n.min(v.len())];
        head(from.len()) >= from.as_slice() && head(to.len()) <= to.as_slice()
    }

    /// The releases in the range, oldest first, as variants' names: `versions` (a
    /// registry's list) kept when inside it and no pre-release.
    pub(crate) fn releases(&self, versions: &[String]) -> Vec<String> {
        let mut inside: Vec<&String> = (versions.iter())
            .filter(|v| is_release(v) && self.holds(v))
            .collect();
        inside.sort_by_key(|v| numbers(v));
        inside.dedup();
        inside.into_iter().map(|v| self.name(v)).collect()
    }
}

/// The releases `range` names, listed from the registry its contestant's variants are
/// fetched from; one line when it names none, or more than [`MOST_RELEASES`].
pub fn list(
    range: &Range,
    contestant: &Contestant,
    places: &Places,
) -> anyhow::Result<Vec<String>> {
    let spec = Spec::Release {
        runtime: (!range.word.is_empty()).then(|| range.word.clone()),
        version: range.from.clone(),
    };
    let variant = contestant.variant(&spec, &[], places)?;
    let versions = versions(&variant)
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| format!("cannot list the releases of {}", contestant.name()))?;
    let releases = range.releases(&versions);
    let written = format!(
        "{}@{}{}..{}",
        range.contestant, range.word, range.from, range.to
    );
    match releases.len() {
        0 | 1 => bail!(
            "'{written}': the registry lists {} release(s) in the range: a bisect needs two",
            releases.len()
        ),
        n if n > MOST_RELEASES => bail!(
            "'{written}': {n} releases, more than the {MOST_RELEASES} one bisect searches: \
             narrow the range"
        ),
        _ => Ok(releases),
    }
}

/// Every version the registry of `variant`'s runtime lists, pre-releases among them.
fn versions(variant: &Contestant) -> Result<Vec<String>, String> {
    let fetch = variant.variant.as_ref().and_then(|v| v.fetch.as_ref());
    match (fetch, &variant.manifest.version) {
        (Some(Fetch::Go(release)), _) => release.versions(),
        (Some(Fetch::Npm(release)), _) => release.versions(),
        (Some(Fetch::Maven(release)), _) => release.versions(),
        (Some(Fetch::Pypi(release)), _) => release.versions(),
        (None, VersionSource::Crate(krate)) => super::cargo::versions(krate, &variant.dir),
        (None, VersionSource::Crates(crates)) if !crates.is_empty() => {
            super::cargo::versions(&crates[0], &variant.dir)
        }
        _ => Err(format!("{} names no registry to list", variant.name())),
    }
}

/// `1.22.12`, `22`: numbers and dots alone, so no pre-release (`1.23rc1`, `2.0.0-rc.1`).
pub(super) fn is_release(version: &str) -> bool {
    numbers(version).is_some()
}

/// `1.22.12` → [1, 22, 12].
fn numbers(version: &str) -> Option<Vec<u64>> {
    let parts = version.split('.');
    parts
        .map(|p| {
            (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())).then(|| p.parse().ok())?
        })
        .collect()
}

/// The body at `url`, fetched by curl (a registry's list is a few hundred kB at most).
pub(super) fn download(url: &str, dir: &std::path::Path) -> Result<String, String> {
    let command = ["curl", "-fsSL", "--max-time", "60", url].map(String::from);
    checked(&command, dir, super::FETCH_TIMEOUT).map_err(|e| format!("{url}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_reads_its_ends_and_holds_the_patches_of_its_lines() {
        let go = Range::parse("go@1.22..1.26").unwrap();
        assert_eq!(
            (go.word.as_str(), go.from.as_str(), go.to.as_str()),
            ("", "1.22", "1.26")
        );
        let listed: Vec<String> = ["1.21.13", "1.22.0", "1.26.3", "1.27.0", "1.23rc1", "1.24.2"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            go.releases(&listed),
            ["go@1.22.0", "go@1.24.2", "go@1.26.3"]
        );
        let node = Range::parse("node-q@node22..node26").unwrap();
        assert_eq!(node.word, "node");
        assert_eq!(node.name("22.3.1"), "node-q@node22.3.1");
        assert!(node.holds("26.0.0") && !node.holds("21.9.9") && !node.holds("27.0.0"));
        let patch = Range::parse("go@1.24.0..1.24.3").unwrap();
        assert!(patch.holds("1.24.3") && !patch.holds("1.24.4"));
    }

    #[test]
    fn a_bad_range_is_one_line_naming_it() {
        for bad in [
            "go",
            "go@1.22",
            "go@1.26..1.22",
            "go@1.22..x",
            "go@1.22..1.26rc1",
            "@1..2",
        ] {
            let err = Range::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("'{bad}': bisect takes")), "{err}");
            assert!(!err.contains('\n'));
        }
    }

    #[test]
    fn a_release_is_numbers_alone() {
        assert!(is_release("1.22.12") && is_release("22"));
        for pre in ["1.23rc1", "2.0.0-rc.1", "1..2", "", "0.25.0b1"] {
            assert!(!is_release(pre), "{pre}");
        }
    }
}
