//! `taskbench bisect`'s oracle: each step of the search (bisect/search.rs) is a run of
//! two releases — `-c BASE,NEW -s POINT`, their rounds interleaved in random order as every
//! run's are — in a folder of its own under the bisect's, its figure NEW / BASE by
//! `compare::change::pair_change`. A pair run again pools its records with the earlier
//! run's; a release the run could not build is unavailable from then on, so it is never
//! built twice, and a built release's fetch and build are kept in the variant's folder of
//! the build cache, so the next pair that holds it only runs it.

use crate::bisect::search::{Bisect, Figure, Measured, Oracle, Unavailable};
use crate::compare::change::pair_change;
use crate::scheduler::{Scheduler, SessionOptions};
use anyhow::Context;
use contestant::Places;
use results::Results;
use run::{RunRecord, interrupt};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Runs pairs of releases through the scheduler.
pub(crate) struct RunOracle<'a> {
    /// Every step's options but its contestants and folder (`-s`, `--runs`, the store).
    template: SessionOptions,
    contestants_dir: &'a Path,
    places: &'a Places,
    /// The bisect's folder; each run goes in a folder of its own inside it.
    out: PathBuf,
    figure: Figure,
    /// The taskbench command line, kept in each run's run.json.
    command: Vec<String>,
    /// Each pair's records, pooled over its runs.
    records: HashMap<(String, String), Vec<RunRecord>>,
    /// Releases that could not be built or run, with the reason.
    unavailable: HashMap<String, String>,
    /// Each run's folder, in the order run.
    pub(crate) folders: Vec<PathBuf>,
    /// A run that failed as a whole (no release to blame: the launcher, the disk): the
    /// search stops and the command ends with it.
    pub(crate) error: Option<anyhow::Error>,
}

impl<'a> RunOracle<'a> {
    /// An oracle running `template`'s cases into folders under `out`.
    pub(crate) fn new(
        template: SessionOptions,
        (contestants_dir, places): (&'a Path, &'a Places),
        out: &Path,
        figure: Figure,
        command: Vec<String>,
    ) -> RunOracle<'a> {
        RunOracle {
            template,
            contestants_dir,
            places,
            out: out.to_path_buf(),
            figure,
            command,
            records: HashMap::new(),
            unavailable: HashMap::new(),
            folders: Vec::new(),
            error: None,
        }
    }

    /// One run of `base` and `new` into a folder of its own: its results.
    fn run(&mut self, base: &str, new: &str, attempt: u32) -> anyhow::Result<Results> {
        let folder = self.out.join(format!(
            "{:02}-{base}-{new}{}",
            self.folders.len() + 1,
            if attempt > 0 {
                format!("-more{attempt}")
            } else {
                String::new()
            }
        ));
        self.folders.push(folder.clone());
        let mut options = self.template.clone();
        options.contestants = vec![base.to_string(), new.to_string()];
        options.out = Some(folder);
        options.show.quiet = true;
        let finished = Scheduler::plan(&options, self.contestants_dir, self.places)?
            .prepare(self.command.clone(), None)?
            .build()?
            .measure()?
            .finish()?;
        Ok(finished.into_results())
    }
}

impl Oracle for RunOracle<'_> {
    fn compare(&mut self, base: &str, new: &str, attempt: u32) -> Result<Measured, Unavailable> {
        let unavailable = |release: &str, reason: String| Unavailable {
            release: release.to_string(),
            reason,
        };
        for release in [base, new] {
            if let Some(reason) = self.unavailable.get(release) {
                return Err(unavailable(release, reason.clone()));
            }
        }
        let results = match self.run(base, new, attempt) {
            Ok(results) => results,
            Err(error) => {
                let reason = format!("{error:#}");
                self.error = Some(error);
                return Err(unavailable(new, reason));
            }
        };
        let failed = (results.contestants.iter())
            .filter(|c| c.name == base || c.name == new)
            .find_map(|c| Some((c.name.clone(), c.unavailable.clone()?)));
        if let Some((release, reason)) = failed {
            let reason = reason.lines().next().unwrap_or_default().to_string();
            self.unavailable.insert(release.clone(), reason.clone());
            return Err(unavailable(&release, reason));
        }
        let pooled = self.records.entry((base.into(), new.into())).or_default();
        pooled.extend(results.runs);
        let change = pair_change(pooled, base, new);
        let figure = change.as_ref().and_then(|c| self.figure.of(c));
        let Some(figure) = figure else {
            let lacking = [base, new]
                .into_iter()
                .find(|r| {
                    !pooled
                        .iter()
                        .any(|p| p.contestant == *r && p.status.is_ok())
                })
                .unwrap_or(new);
            let reason = "no valid run of the case".to_string();
            self.unavailable.insert(lacking.to_string(), reason.clone());
            return Err(unavailable(lacking, reason));
        };
        let processes = (pooled.iter())
            .filter(|r| r.contestant == new && r.timed == Some(true) && r.status.is_ok())
            .count();
        Ok(Measured {
            change: figure,
            processes,
        })
    }

    fn stopped(&self) -> bool {
        interrupt::requested() || self.error.is_some()
    }
}

/// What bisect.json keeps: the question, the search's path and answer, and each run's
/// folder, so that any step can be read again (`taskbench show DIR/03-…`).
#[derive(Debug, Serialize)]
pub(crate) struct Record<'a> {
    /// `go@1.22..1.26`.
    pub(crate) range: &'a str,
    pub(crate) scenario: &'a str,
    pub(crate) figure: Figure,
    /// 0.10 for 10 %.
    pub(crate) threshold: f64,
    /// Releases the coarse pass sampled inside each line besides its ends.
    pub(crate) probes: usize,
    pub(crate) wall_seconds: f64,
    #[serde(flatten)]
    pub(crate) bisect: &'a Bisect,
    /// Each run's folder, in the order run.
    pub(crate) runs: &'a [PathBuf],
}

impl Record<'_> {
    /// Writes DIR/bisect.json, and DIR/report.html: the path as `path` tabulates it.
    pub(crate) fn write(&self, dir: &Path, path: &words::Table) -> anyhow::Result<()> {
        let json = serde_json::to_string_pretty(self).expect("a bisect serialises");
        export::write_atomically(&dir.join("bisect.json"), json.as_bytes())?;
        let page = html::standalone(&path.title, &html::figures_table(path));
        export::write_atomically(&dir.join("report.html"), page.as_bytes())
    }
}

/// Keeps `record` in the store its steps were added to (`--store`; none without it), so
/// that a reader of the store alone finds the answer beside the steps' sessions.
pub(crate) fn keep_in_store(
    keep: &crate::scheduler::Keep,
    dir: &Path,
    started: &str,
    record: &Record<'_>,
) -> anyhow::Result<()> {
    let Some(location) = keep.store.as_ref().filter(|_| !keep.no_store) else {
        return Ok(());
    };
    let json = serde_json::to_value(record).expect("a bisect serialises");
    let mut store = store::open(location)?;
    store::record_bisect(&mut store, started, &dir.display().to_string(), &json).with_context(
        || {
            format!(
                "bisect.json is in {}, but the store was not written",
                dir.display()
            )
        },
    )
}

/// `--out`, or `results/<start time>-bisect`, made.
pub(crate) fn folder(out: Option<&Path>) -> anyhow::Result<PathBuf> {
    let dir = out.map(Path::to_path_buf).unwrap_or_else(|| {
        let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        PathBuf::from("results").join(format!("{}-bisect", stamp.replace(':', "-")))
    });
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("--out: cannot create {}", dir.display()))?;
    Ok(dir)
}
