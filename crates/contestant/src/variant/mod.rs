//! Variants: a contestant's same code on another release of its runtime, for the questions
//! users bring ("did goroutines get cheaper from Go 1.22 to 1.26?", "is Node 24's await
//! cheaper than Node 20's?") and for runtime authors (`tokio@patch`). One grammar for every
//! language — `NAME@[RUNTIME]VERSION` or `NAME@patch` — and one table below that maps a
//! contestant's language to the module that fetches its release from the registry that
//! serves it: cargo (crates.io), Go's toolchains (the Go module proxy), the JavaScript
//! runtimes' binaries (npm), kotlinx-coroutines (Maven Central) and the Python contestants'
//! libraries (PyPI). Each variant lives in a folder of its own under the build
//! cache (`{cache}` is that folder once it is named `go@1.22`), so the plain contestant's
//! build is never touched; a release that cannot be fetched makes the variant unavailable
//! with the reason, at its build, and the run goes on.

mod cargo;
mod go;
pub mod listing;
mod maven;
mod npm;
mod pypi;

pub use cargo::{Patch, parse_patch};

use super::{Contestant, Places};
use anyhow::bail;
use std::path::PathBuf;

/// What follows the `@` of a variant's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// `tokio@1.38.0`, `go@1.22`, `node-async-await@node22`: the runtime at this release.
    /// `runtime` is the word before the version when one is written (`node`), which must
    /// be the runtime the contestant runs.
    Release {
        runtime: Option<String>,
        version: String,
    },
    /// `tokio@patch`: built with the `--patch` checkouts.
    Patch,
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Release { runtime, version } => {
                write!(f, "{}{version}", runtime.as_deref().unwrap_or(""))
            }
            Spec::Patch => f.write_str("patch"),
        }
    }
}

/// A variant as built: what its version line is read from, and what it fetches first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// A Rust variant's own lock file, its runtime's version read from it.
    pub(crate) lockfile: Option<PathBuf>,
    /// `patched: /src/tokio @ 1a2b3c4d5e6f (dirty)`, for each checkout.
    pub(crate) note: Option<String>,
    /// The release fetched into its folder before it is built.
    pub(crate) fetch: Option<Fetch>,
}

/// A runtime release fetched from its registry into a variant's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fetch {
    /// A Go toolchain from the module proxy.
    Go(go::Release),
    /// A JavaScript runtime's binary from npm.
    Npm(npm::Release),
    /// A JVM library's release from Maven Central.
    Maven(maven::Release),
    /// A Python library's release from PyPI, into the variant's own venv.
    Pypi(pypi::Release),
}

impl Fetch {
    /// Fetches the release unless it is there already; the reason, in one line, when the
    /// registry does not have it or cannot be reached.
    pub(crate) fn run(&self) -> Result<(), String> {
        match self {
            Fetch::Go(release) => release.fetch(),
            Fetch::Npm(release) => release.fetch(),
            Fetch::Maven(release) => release.fetch(),
            Fetch::Pypi(release) => release.fetch(),
        }
    }
}

/// Splits `go@1.22` into the contestant's name and the variant; a plain name has none.
pub fn split(name: &str) -> anyhow::Result<(&str, Option<Spec>)> {
    let Some((base, spec)) = name.split_once('@') else {
        return Ok((name, None));
    };
    let spec = match spec {
        "patch" => Spec::Patch,
        _ => {
            let at = spec
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(spec.len());
            let (runtime, version) = spec.split_at(at);
            let runtime_ok = runtime.bytes().all(|b| b.is_ascii_lowercase());
            if !runtime_ok || !is_version(version) {
                bail!(
                    "'{name}': after @ comes a release of the runtime (tokio@1.38.0, go@1.22, \
                     node-async-await@node22) or `patch` (with --patch CRATE=PATH)"
                );
            }
            Spec::Release {
                runtime: (!runtime.is_empty()).then(|| runtime.to_string()),
                version: version.to_string(),
            }
        }
    };
    Ok((base, Some(spec)))
}

/// Most releases one range may name.
const MOST_IN_RANGE: u64 = 40;

/// How long one command of a fetch may take: listing a registry's releases, downloading a
/// Go toolchain (~70 MB) or a JavaScript runtime (~50–120 MB), making a venv and installing
/// a library, or Maven fetching a release (and, the first time, its dependency plugin).
const FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// `go@1.20..1.26` → `go@1.20`, `go@1.21`, …, `go@1.26`, and `node-q@node18..24` → every
/// major from 18 to 24: a release sweep written as a range, whose last number steps by one
/// (both ends share the numbers before it). Any other name is returned as it is.
pub fn expand(name: &str) -> anyhow::Result<Vec<String>> {
    let Some((base, (from, to))) = name
        .split_once('@')
        .and_then(|(base, spec)| Some((base, spec.split_once("..")?)))
    else {
        return Ok(vec![name.to_string()]);
    };
    let word_end = from
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(from.len());
    let (word, from) = from.split_at(word_end);
    let to = to.strip_prefix(word).unwrap_or(to);
    let last = |v: &str| -> Option<(String, u64)> {
        let (lead, n) = v.rsplit_once('.').map_or(("", v), |(l, n)| (l, n));
        let lead = if lead.is_empty() {
            String::new()
        } else {
            format!("{lead}.")
        };
        Some((lead, n.parse().ok()?))
    };
    match (last(from), last(to)) {
        (Some((lead, a)), Some((lead_to, b)))
            if lead == lead_to && a < b && b - a < MOST_IN_RANGE && is_version(from) =>
        {
            Ok((a..=b).map(|n| format!("{base}@{word}{lead}{n}")).collect())
        }
        _ => bail!(
            "'{name}': a range of releases steps its last number by one, the lower end first \
             (go@1.20..1.26, node-async-await@node18..24), at most {MOST_IN_RANGE} releases"
        ),
    }
}

/// `1.38.0`, `0.2`, `22`, `2.0.0-rc.1`: a release, whole or its leading numbers.
fn is_version(text: &str) -> bool {
    let (core, pre) = text.split_once('-').unwrap_or((text, ""));
    let parts: Vec<&str> = core.split('.').collect();
    (1..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && pre.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
        && !(text.contains('-') && pre.is_empty())
}

impl Contestant {
    /// This contestant as the variant `spec`, in its own folder under `places.cache`, by
    /// the module of its language; nothing is fetched until it is built.
    pub fn variant(
        &self,
        spec: &Spec,
        patches: &[Patch],
        places: &Places,
    ) -> anyhow::Result<Contestant> {
        let name = format!("{}@{spec}", self.name());
        let language = self.manifest.language.as_str();
        if *spec == Spec::Patch && language != "Rust" {
            bail!("'{name}': `patch` builds a Rust contestant with --patch CRATE=PATH");
        }
        let mut variant = self.clone();
        variant.manifest.name = name;
        let dir = places.cache.join(variant.name());
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        variant.variant = Some(match language {
            "Rust" => cargo::variant(&mut variant, spec, patches, places)?,
            "Go" => go::variant(&mut variant, spec, &dir)?,
            "JavaScript" => npm::variant(&mut variant, spec, &dir)?,
            "Kotlin" => maven::variant(&mut variant, spec, &dir)?,
            "Python" => pypi::variant(&mut variant, spec, &dir)?,
            _ => bail!(
                "'{}': variants are fetched for Rust, Go, JavaScript, Kotlin and Python \
                 contestants (crates.io, the Go module proxy, npm, Maven Central, PyPI); {} is \
                 {language}",
                variant.name(),
                self.name()
            ),
        });
        Ok(variant)
    }
}

/// The version a release spec asks for, its runtime word checked against the runtime the
/// contestant runs (`expected`, e.g. `node`).
fn release<'a>(name: &str, spec: &'a Spec, expected: &str) -> anyhow::Result<&'a str> {
    match spec {
        Spec::Release { runtime, version } if runtime.as_deref().is_none_or(|r| r == expected) => {
            Ok(version)
        }
        Spec::Release { .. } => bail!("'{name}': it runs on {expected} (write {expected}VERSION)"),
        Spec::Patch => bail!("'{name}': `patch` is for Rust contestants"),
    }
}

/// Every word of `command` that is `from` made `to`.
fn replace_word(command: &[String], from: &str, to: &str) -> Vec<String> {
    command
        .iter()
        .map(|w| if w == from { to.to_string() } else { w.clone() })
        .collect()
}

/// For the tests of each registry's variants: the repository's contestants, as variants
/// built into a test's own cache folder.
#[cfg(test)]
mod testing {
    use super::{Contestant, Places, split};
    use std::path::Path;

    /// The repository's places, with `cache` for the build cache.
    pub(crate) fn places(cache: &Path) -> Places {
        Places {
            cache: cache.to_path_buf(),
            ..crate::home::places_in(crate::home::repository_root())
        }
    }

    /// The repository's contestant that `spec` names (`node-q@node22`), as that variant.
    pub(crate) fn variant(spec: &str, cache: &Path) -> anyhow::Result<Contestant> {
        let (name, spec) = split(spec).unwrap();
        let root = crate::home::repository_root();
        let all = crate::discover(&root.join("contestants")).unwrap();
        let contestant = all.iter().find(|c| c.name() == name).unwrap();
        contestant.variant(&spec.unwrap(), &[], &places(cache))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(runtime: Option<&str>, version: &str) -> Option<Spec> {
        Some(Spec::Release {
            runtime: runtime.map(String::from),
            version: version.into(),
        })
    }

    #[test]
    fn names_split_into_contestant_and_variant() {
        assert_eq!(split("tokio").unwrap(), ("tokio", None));
        assert_eq!(
            split("tokio@1.38.0").unwrap(),
            ("tokio", release(None, "1.38.0"))
        );
        assert_eq!(split("go@1.22").unwrap(), ("go", release(None, "1.22")));
        assert_eq!(
            split("node-async-await@node22").unwrap(),
            ("node-async-await", release(Some("node"), "22"))
        );
        assert_eq!(
            split("smol@2.0.0-rc.1").unwrap().1,
            release(None, "2.0.0-rc.1")
        );
        assert_eq!(split("tokio@patch").unwrap().1, Some(Spec::Patch));
        for bad in [
            "tokio@",
            "tokio@latest",
            "tokio@1..2",
            "tokio@1.2.3.4",
            "tokio@1-",
            "node-q@node",
            "node-q@Node22",
            "node-q@node-22",
            "go@go 1.22",
        ] {
            let err = split(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("'{bad}': after @")), "{err}");
        }
    }

    #[test]
    fn a_range_is_every_release_between_its_ends() {
        assert_eq!(expand("go").unwrap(), ["go"]);
        assert_eq!(expand("go@1.22").unwrap(), ["go@1.22"]);
        assert_eq!(
            expand("go@1.20..1.23").unwrap(),
            ["go@1.20", "go@1.21", "go@1.22", "go@1.23"]
        );
        assert_eq!(
            expand("node-q@node18..20").unwrap(),
            ["node-q@node18", "node-q@node19", "node-q@node20"]
        );
        assert_eq!(expand("node-q@node18..node19").unwrap().len(), 2);
        for bad in [
            "go@1.26..1.20",
            "go@1.20..2.1",
            "go@1.2..1.2",
            "go@1..x",
            "go@1.0..1.99",
        ] {
            let err = expand(bad).unwrap_err().to_string();
            assert_eq!(
                err,
                format!(
                    "'{bad}': a range of releases steps its last number by one, the lower end \
                     first (go@1.20..1.26, node-async-await@node18..24), at most {MOST_IN_RANGE} releases"
                )
            );
        }
    }

    #[test]
    fn a_spec_is_written_back_as_it_was_read() {
        for name in ["tokio@1.38.0", "go@1.22", "node-q@node22", "tokio@patch"] {
            let (base, spec) = split(name).unwrap();
            assert_eq!(format!("{base}@{}", spec.unwrap()), name);
        }
    }

    #[test]
    fn the_runtime_word_must_be_the_contestants() {
        let (_, spec) = split("node-q@node22").unwrap();
        assert_eq!(
            super::release("node-q@node22", &spec.unwrap(), "node").unwrap(),
            "22"
        );
        let (_, spec) = split("node-q@bun1.2").unwrap();
        let err = super::release("node-q@bun1.2", &spec.unwrap(), "node").unwrap_err();
        assert_eq!(
            err.to_string(),
            "'node-q@bun1.2': it runs on node (write nodeVERSION)"
        );
    }
}
