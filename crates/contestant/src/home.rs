//! Where the contestants are, so that a copied or installed binary finds them: the folder
//! `--contestants DIR` names, else `TASKBENCH_HOME`'s `contestants/` (a checkout), else a
//! `contestants/` beside the binary, else the source tree the binary was built from. The
//! checkout they belong to (`{root}` in manifests: its Cargo.lock, its `target/`) is the
//! folder above them when it is one (it has a Cargo.lock), else the source tree.

use super::Places;
use anyhow::bail;
use std::path::{Path, PathBuf};

/// The repository this binary was built from: where `contestants/`, `Cargo.lock` and the
/// contestants' build output live.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| ".".into())
}

/// The default places for placeholders, under the repository's `target/`.
pub fn places() -> Places {
    places_in(repository_root())
}

/// The places for placeholders of the checkout at `root`, under its `target/`.
pub fn places_in(root: PathBuf) -> Places {
    Places {
        target: root.join("target/contestants"),
        cache: root.join("target/cache"),
        root,
    }
}

/// The places the contestants may be, in the order they are tried.
#[derive(Debug, Clone)]
pub struct Sources {
    /// `--contestants DIR`.
    pub(crate) flag: Option<PathBuf>,
    /// `TASKBENCH_HOME`: a checkout of taskbench.
    pub(crate) home: Option<PathBuf>,
    /// The folder of the running binary.
    pub(crate) beside: Option<PathBuf>,
    /// The source tree the binary was built from.
    pub(crate) source: PathBuf,
}

impl Sources {
    /// This process's: its flag, its environment, its binary, its build.
    pub fn here(flag: Option<&Path>) -> Sources {
        Sources {
            flag: flag.map(Path::to_path_buf),
            home: std::env::var_os("TASKBENCH_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            beside: std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(Path::to_path_buf)),
            source: repository_root(),
        }
    }

    /// The contestants folder: a flag or `TASKBENCH_HOME` that names none is an error; the
    /// others are tried in turn, the source tree's taken when none has one.
    pub fn contestants(&self) -> anyhow::Result<PathBuf> {
        if let Some(dir) = &self.flag {
            if !dir.is_dir() {
                bail!(
                    "--contestants {}: not a folder (give the contestants/ folder of a checkout)",
                    dir.display()
                );
            }
            return Ok(dir.clone());
        }
        if let Some(home) = &self.home {
            let dir = home.join("contestants");
            if !dir.is_dir() {
                bail!(
                    "TASKBENCH_HOME={}: no contestants/ folder in it (set it to a checkout of \
                     taskbench)",
                    home.display()
                );
            }
            return Ok(dir);
        }
        let beside = self.beside.as_ref().map(|b| b.join("contestants"));
        Ok(beside
            .filter(|dir| dir.is_dir())
            .unwrap_or_else(|| self.source.join("contestants")))
    }

    /// The checkout `contestants` belongs to: the folder above it when it has a Cargo.lock,
    /// else the source tree (fixture folders, a copy of a few contestants).
    pub fn root_of(&self, contestants: &Path) -> PathBuf {
        contestants
            .parent()
            .filter(|parent| parent.join("Cargo.lock").is_file())
            .map_or_else(|| self.source.clone(), Path::to_path_buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with `contestants/` (and a Cargo.lock, as a checkout has) in it.
    fn checkout(parent: &Path, name: &str) -> PathBuf {
        let dir = parent.join(name);
        std::fs::create_dir_all(dir.join("contestants")).unwrap();
        std::fs::write(dir.join("Cargo.lock"), "").unwrap();
        dir
    }

    #[test]
    fn the_flag_then_home_then_beside_the_binary_then_the_source_tree() {
        let temp = tempfile::tempdir().unwrap();
        let (flag, home, beside, source) = (
            checkout(temp.path(), "flag"),
            checkout(temp.path(), "home"),
            checkout(temp.path(), "bin"),
            checkout(temp.path(), "source"),
        );
        let mut sources = Sources {
            flag: Some(flag.join("contestants")),
            home: Some(home.clone()),
            beside: Some(beside.clone()),
            source: source.clone(),
        };
        let found = |s: &Sources| s.contestants().unwrap();
        assert_eq!(found(&sources), flag.join("contestants"));
        sources.flag = None;
        assert_eq!(found(&sources), home.join("contestants"));
        sources.home = None;
        assert_eq!(found(&sources), beside.join("contestants"));
        sources.beside = Some(temp.path().join("elsewhere"));
        assert_eq!(found(&sources), source.join("contestants"));
        sources.beside = None;
        assert_eq!(found(&sources), source.join("contestants"));
    }

    #[test]
    fn a_flag_or_home_without_contestants_is_one_line_naming_it() {
        let temp = tempfile::tempdir().unwrap();
        let sources = Sources {
            flag: Some(temp.path().join("nope")),
            home: None,
            beside: None,
            source: temp.path().to_path_buf(),
        };
        let err = sources.contestants().unwrap_err().to_string();
        assert!(
            err.starts_with("--contestants ") && !err.contains('\n'),
            "{err}"
        );
        let sources = Sources {
            flag: None,
            home: Some(temp.path().to_path_buf()),
            ..sources
        };
        let err = sources.contestants().unwrap_err().to_string();
        assert!(
            err.starts_with("TASKBENCH_HOME=") && !err.contains('\n'),
            "{err}"
        );
    }

    #[test]
    fn the_root_is_the_checkout_above_else_the_source_tree() {
        let temp = tempfile::tempdir().unwrap();
        let (other, source) = (checkout(temp.path(), "other"), temp.path().join("src"));
        let sources = Sources {
            flag: None,
            home: None,
            beside: None,
            source: source.clone(),
        };
        assert_eq!(sources.root_of(&other.join("contestants")), other);
        let fixtures = temp.path().join("fixtures");
        std::fs::create_dir(&fixtures).unwrap();
        assert_eq!(sources.root_of(&fixtures), source);
    }
}
