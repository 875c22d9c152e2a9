//! Release sweeps: a contestant run at two or more releases of its runtime in one run
//! (`-c go@1.20,go@1.22,go@1.24,go@1.26`, contestant/variant) is one runtime across its
//! releases. Found here from the names alone, oldest release first, so that the report
//! draws them in that order, results.json carries them, and `compare` sets the newest
//! against each older one.

use serde::{Deserialize, Serialize};

/// One contestant across its releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseSweep {
    /// The contestant (`go`).
    pub contestant: String,
    /// Its variants, oldest release first (`go@1.20`, …, `go@1.26`).
    pub releases: Vec<String>,
}

impl ReleaseSweep {
    /// The newest release's name.
    pub fn newest(&self) -> &str {
        self.releases.last().map_or("", String::as_str)
    }
}

/// The sweeps among `names`: each contestant with two or more release variants (a
/// `patch`, a `--cpus` subject or a merged machine's row is none), in first-seen order.
pub fn release_sweeps<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<ReleaseSweep> {
    let mut sweeps: Vec<ReleaseSweep> = Vec::new();
    for name in names {
        let Some((contestant, _)) = name.split_once('@') else {
            continue;
        };
        if !is_release_variant(name) {
            continue;
        }
        match sweeps.iter_mut().find(|s| s.contestant == contestant) {
            Some(sweep) if !sweep.releases.iter().any(|r| r == name) => {
                sweep.releases.push(name.to_string());
            }
            Some(_) => {}
            None => sweeps.push(ReleaseSweep {
                contestant: contestant.to_string(),
                releases: vec![name.to_string()],
            }),
        }
    }
    sweeps.retain(|s| s.releases.len() > 1);
    for sweep in &mut sweeps {
        sweep.releases.sort_by_key(|r| release_order(r));
    }
    sweeps
}

/// Whether `name` is one release of a contestant that a sweep is made of (`go@1.22.12`):
/// not a `--cpus` subject or a merged machine's row (`tokio@1.38.0 cpus=1`).
pub fn is_release_variant(name: &str) -> bool {
    release_order(name).is_some() && !name.contains(' ')
}

/// `go@1.22.12` → `[1, 22, 12]`, `node-q@node22` → `[22]`: the numbers of a release variant's
/// version, what orders them; `None` for a name that is no release variant.
pub fn release_order(name: &str) -> Option<Vec<u64>> {
    let (_, spec) = name.split_once('@')?;
    let version = spec.trim_start_matches(|c: char| c.is_ascii_lowercase());
    let core = version.split('-').next()?;
    core.split('.').map(|p| p.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_of_one_contestant_are_a_sweep_oldest_first() {
        let names = [
            "go@1.26",
            "go",
            "go@1.9",
            "go@1.22",
            "tokio@patch",
            "tokio@1.38.0",
            "node-q@node24",
            "node-q@node18",
            "go@1.22 cpus=2",
            "node-q@node9",
        ];
        let sweeps = release_sweeps(names);
        assert_eq!(
            sweeps,
            [
                ReleaseSweep {
                    contestant: "go".into(),
                    releases: vec!["go@1.9".into(), "go@1.22".into(), "go@1.26".into()],
                },
                ReleaseSweep {
                    contestant: "node-q".into(),
                    releases: vec![
                        "node-q@node9".into(),
                        "node-q@node18".into(),
                        "node-q@node24".into()
                    ],
                },
            ],
            "tokio has one release and a patch: no sweep"
        );
        assert_eq!(sweeps[0].newest(), "go@1.26");
        assert_eq!(release_order("go@1.22.12"), Some(vec![1, 22, 12]));
        assert_eq!(release_order("smol@2.0.0-rc.1"), Some(vec![2, 0, 0]));
        assert_eq!(release_order("tokio@patch"), None);
        assert_eq!(release_order("go"), None);
    }
}
