//! User presets from a TOML file (`--preset-file FILE`). Each top-level table is a preset;
//! its `case` array lists scenarios with parameter values (a number, a count like `"10k"`,
//! or a list of them):
//!
//! ```toml
//! [sleepy]
//! about = "sleeping tasks at three sizes"
//! runs = 3           # optional: exactly this many time processes per case
//! min-runs = 5       # optional, instead: at least … (default 5)
//! max-runs = 50      # optional: at most … (default 100)
//! precision = "2%"   # optional: stop at this half-width of the interval (default 2 %)
//! max-time = "3s"    # optional: time budget of a case (default 3 s)
//! warmup = 0         # optional: warm-up processes per case (default 1)
//! contestants = "@python,node-async-await"  # optional: its lineup without -c (default @headline)
//!
//! [[sleepy.case]]
//! scenario = "sleep"
//! tasks = [1000, "10k", "100k"]
//! delay-ms = 1000
//! seed = "async-bench"   # optional: the seed benchmark it reproduces
//! ```
//!
//! Every mistake is reported with the file, the preset, the case and the field at fault.

use super::{
    DEFAULT_IDLE_RUNS, DEFAULT_STOPPING, DEFAULT_WARM_UP, PlanOptions, Preset, PresetCase,
};
use anyhow::{Context, anyhow, bail};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A preset as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    #[serde(default)]
    about: String,
    runs: Option<u32>,
    #[serde(rename = "min-runs")]
    min_runs: Option<u32>,
    #[serde(rename = "max-runs")]
    max_runs: Option<u32>,
    precision: Option<String>,
    #[serde(rename = "max-time")]
    max_time: Option<String>,
    #[serde(rename = "warmup")]
    warm_up: Option<u32>,
    contestants: Option<String>,
    #[serde(default)]
    case: Vec<toml::Table>,
}

/// Reads and checks every preset of `path`, in name order.
pub(crate) fn read(path: &Path) -> anyhow::Result<Vec<Preset>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--preset-file: cannot read {}", path.display()))?;
    parse(&text).with_context(|| format!("--preset-file {}", path.display()))
}

/// The presets of a TOML document.
pub(crate) fn parse(text: &str) -> anyhow::Result<Vec<Preset>> {
    let document: BTreeMap<String, toml::Value> =
        toml::from_str(text).map_err(|e| one_line(text, &e))?;
    document
        .into_iter()
        .map(|(name, value)| preset(&name, value).with_context(|| format!("preset '{name}'")))
        .collect()
}

/// toml's message with its line, on one line (its own Display adds a snippet).
fn one_line(text: &str, error: &toml::de::Error) -> anyhow::Error {
    match error.span() {
        Some(span) => {
            let line = 1 + text.as_bytes()[..span.start.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            anyhow!("line {line}: {}", joined(error.message()))
        }
        None => anyhow!("{}", joined(error.message())),
    }
}

/// toml's message is `invalid string` and `expected …` on lines of their own.
fn joined(message: &str) -> String {
    message.trim_end().lines().collect::<Vec<_>>().join("; ")
}

fn preset(name: &str, value: toml::Value) -> anyhow::Result<Preset> {
    let written: Written = value
        .try_into()
        .map_err(|e: toml::de::Error| anyhow!("{}", e.message().trim_end()))?;
    if written.case.is_empty() {
        bail!("no cases: add at least one [[{name}.case]] with a `scenario`");
    }
    for (field, value) in [
        ("runs", written.runs),
        ("min-runs", written.min_runs),
        ("max-runs", written.max_runs),
    ] {
        if value == Some(0) {
            bail!("`{field}` must be at least 1");
        }
    }
    let given = PlanOptions {
        runs: written.runs,
        min_runs: written.min_runs,
        max_runs: written.max_runs,
        precision: written
            .precision
            .as_deref()
            .map(units::parse_percent)
            .transpose()
            .map_err(|e| anyhow!("`precision`: {e}"))?,
        max_time: written
            .max_time
            .as_deref()
            .map(units::parse_duration)
            .transpose()
            .map_err(|e| anyhow!("`max-time`: {e}"))?,
        ..PlanOptions::default()
    };
    let cases = written
        .case
        .into_iter()
        .enumerate()
        .map(|(i, table)| case(table).with_context(|| format!("case {}", i + 1)))
        .collect::<anyhow::Result<Vec<PresetCase>>>()?;
    let preset = Preset {
        name: name.to_string(),
        about: written.about,
        stopping: given.stopping(DEFAULT_STOPPING)?,
        warm_up: written.warm_up.unwrap_or(DEFAULT_WARM_UP),
        idle_runs: DEFAULT_IDLE_RUNS,
        cases,
        contestants: match &written.contestants {
            Some(text) => {
                contestant::groups::parse_lineup(text).map_err(|e| anyhow!("`contestants`: {e}"))?
            }
            None => super::headline(),
        },
    };
    super::expand(&preset.cases, &Default::default(), None)?;
    Ok(preset)
}

fn case(mut table: toml::Table) -> anyhow::Result<PresetCase> {
    let scenario = match table.remove("scenario") {
        Some(toml::Value::String(name)) => catalogue::spec(&name)?,
        Some(other) => bail!("`scenario` must be a name, got {other}"),
        None => bail!("no `scenario`"),
    };
    let seed = match table.remove("seed") {
        Some(toml::Value::String(seed)) if seeds::tagged(&seed).is_some() => Some(seed),
        Some(toml::Value::String(seed)) => bail!(
            "unknown seed '{seed}' (known: {})",
            seeds::tags().join(", ")
        ),
        Some(other) => bail!("`seed` must be a string, got {other}"),
        None => None,
    };
    let mut params = Vec::new();
    for (key, value) in table {
        let Some(spec) = scenario.params.iter().find(|p| p.name == key) else {
            let known: Vec<&str> = scenario.params.iter().map(|p| p.name).collect();
            bail!(
                "unknown field `{key}` ({} takes {}; a case may also have `scenario` and `seed`)",
                scenario.name,
                known.join(", ")
            );
        };
        let values = match value {
            toml::Value::Array(items) => items.iter().map(|v| count(spec.name, v)).collect(),
            single => count(spec.name, &single).map(|v| vec![v]),
        }?;
        if values.is_empty() {
            bail!("`{key}` is an empty list");
        }
        params.push((spec.name, values));
    }
    params.sort_by_key(|(name, _)| scenario.params.iter().position(|p| p.name == *name));
    Ok(PresetCase {
        scenario,
        params,
        seed,
    })
}

/// A count written as a number or as a string such as `"10k"`.
fn count(param: &str, value: &toml::Value) -> anyhow::Result<u64> {
    match value {
        toml::Value::Integer(n) => {
            u64::try_from(*n).map_err(|_| anyhow!("`{param}`: {n} is negative; expected a count"))
        }
        toml::Value::String(text) => Ok(catalogue::parse_count(param, text)?),
        other => bail!("`{param}`: {other} is not a count (examples: 1000, \"10k\", [1, 10, 100])"),
    }
}

#[cfg(test)]
mod proptests;
