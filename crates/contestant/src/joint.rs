//! The Rust contestants built in one cargo invocation: cargo then resolves the workspace
//! once, compiles the dependencies they share once, and spreads its jobs over every crate,
//! where one cargo per contestant waited for the last to finish and checked the workspace
//! again each time. Contestants are built together when their build commands are the same
//! `cargo build` but for the package (`-p contestant-tokio`).

use super::toolchain::{BUILD_TIMEOUT, checked};
use super::{Contestant, Places};

/// Contestants that build as one cargo command.
#[derive(Debug, Clone, PartialEq)]
pub struct JointBuild {
    /// `cargo build … -p a -p b …`.
    pub(crate) command: Vec<String>,
    /// The names of the contestants it builds, in order.
    pub names: Vec<String>,
}

/// The joint builds among `contestants`: each set of two or more whose expanded build
/// commands differ only in their one `-p PACKAGE`.
pub fn joint_builds(contestants: &[&Contestant], places: &Places) -> Vec<JointBuild> {
    let mut joint: Vec<JointBuild> = Vec::new();
    for contestant in contestants {
        let Some(build) = &contestant.manifest.build else {
            continue;
        };
        let command = contestant.manifest.expand(build, &contestant.dir, places);
        let Some((package, rest)) = cargo_package(&command) else {
            continue;
        };
        match joint
            .iter_mut()
            .find(|j| without_packages(&j.command) == rest)
        {
            Some(found) => {
                // Contestants of one package (the test fixtures) name it once.
                if !found
                    .command
                    .windows(2)
                    .any(|w| w[0] == "-p" && w[1] == package)
                {
                    found.command.extend(["-p".to_string(), package]);
                }
                found.names.push(contestant.name().to_string());
            }
            None => joint.push(JointBuild {
                command,
                names: vec![contestant.name().to_string()],
            }),
        }
    }
    joint.retain(|j| j.names.len() > 1);
    joint
}

impl JointBuild {
    /// Runs the joint build from the first contestant's folder; `Err` with the build's last
    /// lines when it fails, after which each contestant builds alone (one broken crate must
    /// not make the others unavailable).
    pub fn run(&self, contestants: &[&Contestant]) -> Result<(), String> {
        let dir = contestants
            .iter()
            .find(|c| self.names.iter().any(|n| n == c.name()))
            .map_or_else(|| ".".into(), |c| c.dir.clone());
        checked(&self.command, &dir, BUILD_TIMEOUT)
            .map(drop)
            .map_err(|e| format!("joint build failed: {e}"))
    }
}

/// A `cargo build` with exactly one `-p PACKAGE`: the package, and the command without it.
fn cargo_package(command: &[String]) -> Option<(String, Vec<String>)> {
    if command.first()? != "cargo" || command.get(1)? != "build" {
        return None;
    }
    let at = command.iter().position(|w| w == "-p")?;
    let package = command.get(at + 1)?.clone();
    let rest = without_packages(command);
    (rest.len() + 2 == command.len() && !rest.iter().any(|w| w.starts_with("--package")))
        .then_some((package, rest))
}

/// A command without its `-p PACKAGE` pairs.
fn without_packages(command: &[String]) -> Vec<String> {
    let mut rest = Vec::new();
    let mut words = command.iter();
    while let Some(word) = words.next() {
        if word == "-p" {
            words.next();
        } else {
            rest.push(word.clone());
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Manifest;

    fn contestant(name: &str, build: &str) -> Contestant {
        let manifest: Manifest = toml::from_str(&format!(
            "name = {name:?}\nlanguage = \"Rust\"\nruntime = \"r\"\ndetect = [\"true\"]\n\
             install = \"rustup\"\nrun = [\"true\"]\nversion = {{ crate = \"x\" }}\n\
             build = {build}\n"
        ))
        .unwrap();
        Contestant {
            manifest,
            dir: format!("/repo/contestants/rust/{name}").into(),
            variant: None,
            toolchains: Vec::new(),
        }
    }

    fn cargo(package: &str) -> String {
        format!(
            "[\"cargo\", \"build\", \"--profile\", \"contestant\", \"-p\", \"{package}\", \"--target-dir\", \"{{target}}\"]"
        )
    }

    #[test]
    fn cargo_builds_that_differ_only_in_package_are_joined() {
        let places = Places {
            root: "/repo".into(),
            target: "/repo/target/contestants".into(),
            cache: "/repo/target/cache".into(),
        };
        let all = [
            contestant("tokio", &cargo("contestant-tokio")),
            contestant("make", "[\"make\"]"),
            contestant("smol", &cargo("contestant-smol")),
            contestant(
                "patched",
                "[\"cargo\", \"build\", \"--manifest-path\", \"/v/Cargo.toml\", \"-p\", \"contestant-tokio\"]",
            ),
            contestant("floor", &cargo("contestant-floor")),
            contestant("tokio-again", &cargo("contestant-tokio")),
        ];
        let refs: Vec<&Contestant> = all.iter().collect();
        let joint = joint_builds(&refs, &places);
        assert_eq!(joint.len(), 1, "{joint:?}");
        assert_eq!(joint[0].names, ["tokio", "smol", "floor", "tokio-again"]);
        assert_eq!(
            joint[0].command.join(" "),
            "cargo build --profile contestant -p contestant-tokio --target-dir /repo/target/contestants \
             -p contestant-smol -p contestant-floor",
            "a package named once"
        );
        assert!(
            joint_builds(&refs[..2], &places).is_empty(),
            "one is not joint"
        );
    }
}
