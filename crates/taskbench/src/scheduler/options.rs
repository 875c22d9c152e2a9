//! What a run is asked to do, apart from clap: the scheduler's only input. cli.rs turns the
//! command line into it once; a test, a preset file or another front end can build one
//! directly; `--resume` reads the one a run kept beside its run.json.

use crate::compare::gate::Thresholds;
use anyhow::Context;
use contestant::variant::Patch;
use export::Format;
use presets::PlanOptions;
use run::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;
use store::Location;

/// A run's settings: what it runs, on whom, how, and where it writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct SessionOptions {
    /// The cases and how much each is measured (`--preset`, `--scenario`, parameters, `-r`…).
    pub(crate) plan: PlanOptions,
    /// `--contestants DIR`, when given: a resumed run finds its contestants there again.
    #[serde(default)]
    pub(crate) contestants_dir: Option<PathBuf>,
    /// Contestants and @groups (empty: the preset's lineup).
    #[serde(default)]
    pub(crate) contestants: Vec<String>,
    /// `--command`s timed as whole processes instead of contestants.
    #[serde(default)]
    pub(crate) commands: Commands,
    /// `--cpus`: each contestant pinned to each of these core counts.
    #[serde(default)]
    pub(crate) cpus: Vec<u32>,
    /// `--patch`: crates replaced in the NAME@patch variants.
    #[serde(default)]
    pub(crate) patches: Vec<Patch>,
    /// `--shard K/N`.
    #[serde(default)]
    pub(crate) shard: Option<Shard>,
    /// `--instructions`: also count each case's instructions.
    #[serde(default)]
    pub(crate) instructions: bool,
    /// How each process is watched and cut short.
    pub(crate) limits: ProcessLimits,
    /// `--out` (default: results/<start time>).
    #[serde(default)]
    pub(crate) out: Option<PathBuf>,
    /// `--export-<flag> PATH`s, by format.
    #[serde(default)]
    pub(crate) exports: Vec<Export>,
    /// Where the run is kept, and under which names.
    #[serde(default)]
    pub(crate) keep: Keep,
    /// `--baseline NAME` and the gate against it (or within the run's variants).
    #[serde(default)]
    pub(crate) gate: Gate,
    /// What the terminal shows.
    #[serde(default)]
    pub(crate) show: Show,
}

/// `--command`s: timed as processes, like hyperfine's.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Commands {
    pub(crate) commands: Vec<String>,
    /// `-n`: their names, in order.
    pub(crate) names: Vec<String>,
    /// The shell for shell syntax, or `none` (`-N`).
    pub(crate) shell: String,
}

/// `--timeout`, `--sample-ms`, `--memory-limit`, `--full-warmup`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct ProcessLimits {
    pub(crate) timeout: Duration,
    pub(crate) sample_ms: u64,
    /// Default: half the machine's memory.
    pub(crate) memory_limit: Option<u64>,
    #[serde(rename = "full_warmup")]
    pub(crate) full_warm_up: bool,
}

impl Default for ProcessLimits {
    fn default() -> ProcessLimits {
        ProcessLimits {
            timeout: Duration::from_secs(120),
            sample_ms: 20,
            memory_limit: None,
            full_warm_up: false,
        }
    }
}

/// One `--export-<flag> PATH`: written as its flag and path.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Export {
    #[serde(with = "by_flag")]
    pub(crate) format: &'static Format,
    pub(crate) path: PathBuf,
}

/// The store: `--store` (default: beside the run's folder), `--no-store`, `--tag`s,
/// `--save-baseline`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Keep {
    pub(crate) store: Option<Location>,
    pub(crate) no_store: bool,
    pub(crate) tags: Vec<String>,
    pub(crate) save_baseline: Option<String>,
}

/// `--baseline`, `--fail-if-*` and `--mixed-machines`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Gate {
    pub(crate) baseline: Option<String>,
    pub(crate) thresholds: Thresholds,
    pub(crate) mixed_machines: bool,
}

/// `--quiet`, `--tables`, `--cold`.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub(crate) struct Show {
    pub(crate) quiet: bool,
    pub(crate) tables: bool,
    pub(crate) cold: bool,
}

/// The file beside run.json that keeps a run's options for `--resume`.
const OPTIONS_FILE: &str = "options.json";

impl SessionOptions {
    /// Each export asked for, with its path.
    pub(crate) fn exports(&self) -> Vec<(&'static Format, &Path)> {
        (self.exports.iter())
            .map(|e| (e.format, e.path.as_path()))
            .collect()
    }

    /// Whether an export goes to stdout (`--export-<flag> -`).
    pub(crate) fn exports_to_stdout(&self) -> bool {
        (self.exports.iter()).any(|e| export::is_stdout(&e.path))
    }

    /// Whether the run prints no tables on stdout: `--quiet`, or an export there, which
    /// they would spoil.
    pub(crate) fn is_quiet(&self) -> bool {
        self.show.quiet || self.exports_to_stdout()
    }

    /// DIR/options.json, beside run.json.
    pub(crate) fn path(dir: &Path) -> PathBuf {
        dir.join(OPTIONS_FILE)
    }

    /// Keeps these options in `dir` for `--resume`.
    pub(crate) fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(self).expect("options serialise");
        export::write_atomically(&SessionOptions::path(dir), json.as_bytes())
    }

    /// The options kept in `dir`, or `None` when it has none (a run of a taskbench that
    /// kept only its command line).
    pub(crate) fn read(dir: &Path) -> anyhow::Result<Option<SessionOptions>> {
        let path = SessionOptions::path(dir);
        let Some(text) = export::read_if_there(&path)? else {
            return Ok(None);
        };
        let options = serde_json::from_str(&text)
            .with_context(|| format!("{}: not the options of a run", path.display()))?;
        Ok(Some(options))
    }
}

/// A format written as its flag (`"bmf"`), the name users know it by.
mod by_flag {
    use export::Format;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(
        format: &&'static Format,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(format.flag())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<&'static Format, D::Error> {
        let flag = String::deserialize(d)?;
        Format::of_flag(&flag)
            .ok_or_else(|| serde::de::Error::custom(format!("no export format {flag}")))
    }
}
