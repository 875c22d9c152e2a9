//! The contestant manifest (`contestant.toml`, docs/PROTOCOL.md §5): what a contestant is,
//! how to tell that its toolchain is present, how to build it, run it and learn its version.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// File name that makes a folder under `contestants/` a contestant.
pub const MANIFEST_FILE: &str = "contestant.toml";

/// A parsed `contestant.toml`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Unique name, used in `--contestant` and every table.
    pub name: String,
    /// Programming language (`Rust`, `JavaScript`, `Haskell`, …).
    pub language: String,
    /// What is measured: the runtime and its flavour.
    pub runtime: String,
    /// Optional remark shown by `taskbench list` (configuration, stand-ins, status upstream).
    #[serde(default)]
    pub notes: Option<String>,
    /// Command whose success means the toolchain is present.
    pub(crate) detect: Vec<String>,
    /// How to install the toolchain when `detect` fails.
    pub(crate) install: String,
    /// Optional build command, run once per `taskbench run` before the first run.
    #[serde(default)]
    pub(crate) build: Option<Vec<String>>,
    /// How it is built as shipped, in words (`g++ -std=c++20 -O3 -DNDEBUG -pthread`), or that
    /// it is interpreted; `{rust_profile}` stands for the workspace's contestant profile
    /// (`release (codegen-units = 1, lto = thin, opt-level = 3)`, measure/platform.rs).
    /// Shown beside its figures (results.json, report.html, `taskbench list`).
    #[serde(default)]
    pub(crate) build_flags: Option<String>,
    /// Its networking stack, in words, for the socket scenarios (`tokio::net over mio
    /// (epoll)`, `Go's net (the netpoller, epoll)`): shown by `taskbench list` and in
    /// docs/FAIRNESS.md. Every contestant that runs `echo` names it (a test checks).
    #[serde(default)]
    pub sockets: Option<String>,
    /// A hand-written bound, not a runtime to choose (`floor`): shown beside the ranking as
    /// what the machine allows, never ranked and never the best.
    #[serde(default)]
    pub reference: bool,
    /// The command the protocol arguments are appended to.
    pub(crate) run: Vec<String>,
    /// How to learn the runtime's version.
    pub(crate) version: VersionSource,
    /// Scenarios the runtime cannot express; shown as n/a without being run.
    #[serde(default)]
    pub unsupported: Vec<String>,
    /// Scenarios whose tasks run inside their caller, never passing the runtime's scheduler
    /// (futures-joinall's `join_all` polls every future itself): each such cell is marked
    /// *inline* and ranked apart, never the best (docs/FAIRNESS.md, "A task is a task").
    #[serde(default)]
    pub inline: Vec<String>,
    /// How the runtime is told its worker count under `--cpus N`: environment variables,
    /// `{cpus}` in each value standing for N (`TOKIO_WORKER_THREADS = "{cpus}"`). A runtime
    /// without a knob runs pinned to N cores with its own default.
    #[serde(default)]
    pub(crate) workers: std::collections::BTreeMap<String, String>,
    /// The curated groups it belongs to (`["headline"]`; contestant/groups.rs): its
    /// language family and `all` follow without being written.
    #[serde(default)]
    pub(crate) groups: Vec<String>,
    /// The runtime whose measured minimum of warm-up iterations its time processes run
    /// where its own curves of a scenario were not measured (`"jvm"`, `"v8"`, `"jsc"`,
    /// `"beam"`; contestant/warm_up.rs `RUNTIMES`). Absent: the common minimum.
    #[serde(default)]
    pub(crate) warm_up: Option<String>,
    /// The toolchains it runs on, as entries of the contestants folder's `toolchains.toml`
    /// (`["elixir", "otp"]`; contestant/age.rs): the release this machine runs and the
    /// newest stable one, shared by the rows on each.
    #[serde(default)]
    pub(crate) toolchains: Vec<String>,
}

/// Where a contestant's version comes from.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum VersionSource {
    /// The version of this package in the workspace `Cargo.lock`.
    Crate(String),
    /// The versions of these packages in the workspace `Cargo.lock`, joined.
    Crates(Vec<String>),
    /// The first line this command prints.
    Command(Vec<String>),
}

/// The folders a manifest's placeholders stand for.
#[derive(Debug, Clone)]
pub struct Places {
    /// `{root}`: the repository root.
    pub root: PathBuf,
    /// `{target}`: the cargo target directory of Rust contestants.
    pub target: PathBuf,
    /// `{cache}`: parent of every contestant's build cache (`{cache}` is `<this>/<name>`).
    pub cache: PathBuf,
}

impl Manifest {
    /// Reads and checks a manifest; every error names the file.
    pub(crate) fn load(path: &Path) -> anyhow::Result<Manifest> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let manifest: Manifest = toml::from_str(&text).map_err(|e| {
            // toml puts `invalid …` and `expected …` on lines of their own.
            let reason = e
                .message()
                .trim_end()
                .lines()
                .collect::<Vec<_>>()
                .join("; ");
            anyhow::anyhow!("{}: {reason}", path.display())
        })?;
        manifest
            .check()
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(manifest)
    }

    fn check(&self) -> Result<(), String> {
        if self.name.is_empty()
            || self.name.starts_with('@')
            || self.name.contains(|c: char| c == ',' || c.is_whitespace())
        {
            return Err(format!(
                "name '{}' must be non-empty, without commas or spaces, and not start with @",
                self.name
            ));
        }
        for (field, command) in [("detect", &self.detect), ("run", &self.run)] {
            if command.is_empty() {
                return Err(format!("`{field}` must name a command"));
            }
        }
        if self.build.as_ref().is_some_and(Vec::is_empty) {
            return Err("`build` must name a command (or be left out)".into());
        }
        if matches!(&self.version, VersionSource::Command(command) if command.is_empty()) {
            return Err("`version.command` must name a command".into());
        }
        for scenario in &self.unsupported {
            catalogue::spec(scenario).map_err(|e| format!("unsupported: {e}"))?;
        }
        for scenario in &self.inline {
            catalogue::spec(scenario).map_err(|e| format!("inline: {e}"))?;
            if self.is_unsupported(scenario) {
                return Err(format!(
                    "inline: '{scenario}' is also unsupported (an inline cell is measured)"
                ));
            }
        }
        if let Some(runtime) = &self.warm_up {
            crate::warm_up::lookup(runtime)?;
        }
        self.check_toolchains()?;
        if let Some(group) = self.groups.iter().find(|g| !super::groups::is_curated(g)) {
            return Err(format!(
                "groups: '{group}' is not a curated group (known: {}; the language family \
                 and `all` follow from `language`)",
                super::groups::curated_names().join(", ")
            ));
        }
        Ok(())
    }

    /// `toolchains`: each an entry's name (no blank, space or comma), none twice.
    fn check_toolchains(&self) -> Result<(), String> {
        for (index, id) in self.toolchains.iter().enumerate() {
            if id.is_empty() || id.contains(|c: char| c == ',' || c.is_whitespace()) {
                return Err(format!(
                    "toolchains: '{id}' is not the name of an entry of {}",
                    super::age::FILE
                ));
            }
            if self.toolchains[..index].contains(id) {
                return Err(format!("toolchains: '{id}' is named twice"));
            }
        }
        Ok(())
    }

    /// A command with its placeholders filled in.
    pub(crate) fn expand(&self, command: &[String], dir: &Path, places: &Places) -> Vec<String> {
        let cache = places.cache.join(&self.name);
        command
            .iter()
            .map(|word| {
                word.replace("{dir}", &dir.to_string_lossy())
                    .replace("{root}", &places.root.to_string_lossy())
                    .replace("{target}", &places.target.to_string_lossy())
                    .replace("{cache}", &cache.to_string_lossy())
            })
            .collect()
    }

    /// The environment that tells the runtime to use `cpus` workers.
    pub fn workers_env(&self, cpus: u32) -> Vec<(String, String)> {
        self.workers
            .iter()
            .map(|(var, value)| (var.clone(), value.replace("{cpus}", &cpus.to_string())))
            .collect()
    }

    /// How it is built, in words, `{rust_profile}` filled in.
    pub fn build_flags(&self) -> Option<String> {
        self.build_flags
            .as_ref()
            .map(|flags| flags.replace("{rust_profile}", measure::platform::rust_profile()))
    }

    /// Its time processes' warm-up by scenario: the `warm-up.toml` in `dir` over its
    /// runtime's minimum (contestant/warm_up.rs).
    pub fn warm_up_table(&self, dir: &Path) -> anyhow::Result<super::WarmUpTable> {
        super::WarmUpTable::load(dir, self.warm_up.as_deref())
    }

    /// Whether the manifest marks a scenario as not expressible.
    pub fn is_unsupported(&self, scenario: &str) -> bool {
        self.unsupported.iter().any(|s| s == scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKIO: &str = r#"
        name = "tokio"
        language = "Rust"
        runtime = "tokio multi-thread"
        detect = ["cargo", "--version"]
        install = "install Rust with rustup"
        build = ["cargo", "build", "--profile", "contestant", "--target-dir", "{target}"]
        run = ["{target}/contestant/contestant-tokio"]
        version = { crate = "tokio" }
        unsupported = ["timer"]
        workers = { TOKIO_WORKER_THREADS = "{cpus}" }
        groups = ["headline"]
        build_flags = "cargo --profile contestant: {rust_profile}"
        toolchains = ["rust"]
    "#;

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(MANIFEST_FILE);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn reads_a_complete_manifest() {
        let (_dir, path) = write(TOKIO);
        let manifest = Manifest::load(&path).unwrap();
        assert_eq!(manifest.version, VersionSource::Crate("tokio".into()));
        assert!(manifest.is_unsupported("timer"));
        assert!(!manifest.reference);
        assert_eq!(
            manifest.build_flags(),
            Some(format!(
                "cargo --profile contestant: {}",
                measure::platform::rust_profile()
            ))
        );
        assert_eq!(manifest.groups(), ["headline", "rust", "all"]);
        assert_eq!(manifest.toolchains, ["rust"]);
        assert!(manifest.in_group("rust") && !manifest.in_group("jvm"));
        assert_eq!(
            manifest.workers_env(2),
            [("TOKIO_WORKER_THREADS".to_string(), "2".to_string())]
        );
        let places = Places {
            root: "/r".into(),
            target: "/r/target/contestants".into(),
            cache: "/r/target/cache".into(),
        };
        assert_eq!(
            manifest.expand(&manifest.run, Path::new("/d"), &places),
            ["/r/target/contestants/contestant/contestant-tokio"]
        );
        let cmd = vec!["{cache}/bin".to_string(), "{dir}".to_string()];
        assert_eq!(
            manifest.expand(&cmd, Path::new("/d"), &places),
            ["/r/target/cache/tokio/bin", "/d"]
        );
    }

    #[test]
    fn a_missing_field_is_named_with_the_file() {
        let (_dir, path) =
            write(&TOKIO.replace("run = [\"{target}/contestant/contestant-tokio\"]", ""));
        let err = Manifest::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("contestant.toml") && err.contains("missing field `run`"),
            "{err}"
        );
    }

    #[test]
    fn a_warm_up_minimum_is_read_and_a_bad_one_refused_in_one_line() {
        let (_dir, path) = write(TOKIO);
        let common = Manifest::load(&path).unwrap();
        let dir = path.parent().unwrap();
        assert_eq!(&common.warm_up, &None);
        assert_eq!(
            common.warm_up_table(dir).unwrap(),
            crate::WarmUpTable::common()
        );
        let (_dir, path) = write(&format!("{TOKIO}\nwarm_up = \"jvm\""));
        let manifest = Manifest::load(&path).unwrap();
        let jvm = crate::warm_up::lookup("jvm").unwrap();
        let table = manifest.warm_up_table(path.parent().unwrap()).unwrap();
        assert_eq!(table.iterations("skynet"), jvm.iterations);
        for (bad, says) in [
            (
                "\"v9\"",
                "warm_up: 'v9' is not a measured runtime (known: jvm",
            ),
            ("40", "invalid type: integer `40`, expected a string"),
            ("{ iterations = 40 }", "expected a string"),
        ] {
            let (_dir, path) = write(&format!("{TOKIO}\nwarm_up = {bad}"));
            let err = format!("{:#}", Manifest::load(&path).unwrap_err());
            assert!(
                err.contains("contestant.toml") && err.contains(says) && !err.contains('\n'),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn unknown_fields_and_scenarios_are_refused() {
        let (_dir, path) = write(&format!("{TOKIO}\nflavour = \"x\""));
        assert!(
            Manifest::load(&path)
                .unwrap_err()
                .to_string()
                .contains("flavour")
        );
        let (_dir, path) = write(&TOKIO.replace("[\"timer\"]", "[\"nap\"]"));
        assert!(
            Manifest::load(&path)
                .unwrap_err()
                .to_string()
                .contains("unknown scenario 'nap'")
        );
        let (_dir, path) = write(&TOKIO.replace("name = \"tokio\"", "name = \"a b\""));
        assert!(Manifest::load(&path).is_err());
        let (_dir, path) = write(&TOKIO.replace("name = \"tokio\"", "name = \"@tokio\""));
        assert!(Manifest::load(&path).is_err());
        for (bad, says) in [
            ("[\"rust\", \"rust\"]", "toolchains: 'rust' is named twice"),
            (
                "[\"a b\"]",
                "toolchains: 'a b' is not the name of an entry of toolchains.toml",
            ),
            (
                "\"rust\"",
                "invalid type: string \"rust\", expected a sequence",
            ),
        ] {
            let (_dir, path) = write(&TOKIO.replace("[\"rust\"]", bad));
            let err = format!("{:#}", Manifest::load(&path).unwrap_err());
            assert!(err.contains(says), "{bad}: {err}");
        }
        let (_dir, path) = write(&TOKIO.replace("[\"headline\"]", "[\"rust\"]"));
        let err = Manifest::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("groups: 'rust' is not a curated group (known: headline, bluebird"),
            "{err}"
        );
    }
}

#[cfg(test)]
mod proptests;
