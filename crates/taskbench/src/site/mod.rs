//! `taskbench site`'s feature, whole: a static site from a store — the tournament
//! ([`tournament`]), a page per runtime ([`runtime`]), per case ([`case`]) and per bisect
//! ([`bisect`]), the machines ([`machines`]) and the seeds ([`seeds`]) — every page in
//! one frame ([`frame`]), built incrementally ([`output`]): each file is rendered only
//! where what it is made from changed since the last build into the folder.

mod bisect;
mod case;
mod data;
mod fairness;
mod frame;
mod history;
mod machines;
mod output;
mod runtime;
mod seeds;
mod tournament;

use data::Site;
use frame::{case_href, runtime_href};
use history::Histories;
use output::{Output, key_of};
use std::collections::BTreeMap;
use std::path::Path;

/// What a build did.
#[derive(Debug)]
pub(crate) struct Built {
    pub(crate) files: usize,
    pub(crate) bytes: u64,
    pub(crate) written: usize,
    pub(crate) unchanged: usize,
    pub(crate) removed: usize,
    pub(crate) sessions: usize,
}

/// Builds the site of `store` into `out`; `contestants_dir` describes contestants the
/// store's sessions did not.
pub(crate) fn build(
    store: store::Store,
    out: &Path,
    contestants_dir: &Path,
) -> anyhow::Result<Built> {
    let mut site = Site::read(store, contestants_dir)?;
    let mut output = Output::open(out)?;
    let mut histories = Histories::default();
    assets(&mut output)?;
    lists(&mut site, &mut output)?;
    sessions(&mut site, &mut output)?;
    cases(&mut site, &mut histories, &mut output)?;
    runtimes(&mut site, &mut histories, &mut output)?;
    bisects(&mut site, &mut output)?;
    let (unchanged, written) = (output.unchanged, output.written);
    let (files, removed, bytes) = output.finish()?;
    Ok(Built {
        files,
        bytes,
        written,
        unchanged,
        removed,
        sessions: site.sessions.len(),
    })
}

/// The style sheet and the tournament's script.
fn assets(output: &mut Output) -> anyhow::Result<()> {
    const SCRIPT: &str = include_str!("assets/tournament.js");
    output.file(
        "site.css",
        key_of(&frame::STYLE),
        || Ok(frame::STYLE.into()),
    )?;
    output.file("tournament.js", key_of(&SCRIPT), || Ok(SCRIPT.into()))
}

/// The pages over the whole store: the tournament, the lists, the machines, the seeds.
fn lists(site: &mut Site, output: &mut Output) -> anyhow::Result<()> {
    let everything = key_of(&(
        site.sessions.iter().map(|s| s.id).collect::<Vec<_>>(),
        site.bisects.iter().map(|b| b.id).collect::<Vec<_>>(),
        site.summaries.len(),
    ));
    output.file("index.html", everything, || {
        Ok(tournament::index_page(site))
    })?;
    output.file("data/sessions.js", everything, || {
        Ok(tournament::sessions_data(site))
    })?;
    output.file("machines.html", everything, || {
        Ok(machines::machines_page(site))
    })?;
    output.file("runtimes.html", everything, || {
        Ok(runtime::runtimes_page(site))
    })?;
    output.file("bisects.html", everything, || {
        Ok(bisect::bisects_page(site))
    })?;
    output.file("seeds.html", everything, || seeds::seeds_page(site))
}

/// Each session's data file: a session does not change once kept.
fn sessions(site: &mut Site, output: &mut Output) -> anyhow::Result<()> {
    let ids: Vec<(i64, String)> = (site.sessions.iter())
        .map(|s| (s.id, s.started.clone()))
        .collect();
    for (id, started) in ids {
        let cases = site.summaries_of(id).count();
        output.file(
            &format!("data/session-{id}.js"),
            key_of(&(id, started, cases)),
            || tournament::session_data(site, id),
        )?;
    }
    Ok(())
}

/// Each case's page, keyed on the sessions that hold it.
fn cases(site: &mut Site, histories: &mut Histories, output: &mut Output) -> anyhow::Result<()> {
    let mut cases: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
    for m in &site.summaries {
        let key = (m.contestant.clone(), m.point.clone());
        cases.entry(key).or_default().push(m.session);
    }
    for ((contestant, label), mut ids) in cases {
        ids.sort_unstable();
        let key = key_of(&(&contestant, &label, &ids));
        output.file(&case_href(&contestant, &label), key, || {
            case::case_page(site, histories, &contestant, &label)
        })?;
    }
    Ok(())
}

/// Each runtime's page, keyed on the sessions and bisects that hold it and on how it is
/// described.
fn runtimes(site: &mut Site, histories: &mut Histories, output: &mut Output) -> anyhow::Result<()> {
    for runtime in site.runtimes() {
        let mut ids: Vec<i64> = (site.summaries.iter())
            .filter(|m| data::runtime_of(&m.contestant) == runtime)
            .map(|m| m.session)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let bisects: Vec<i64> = (site.bisects.iter())
            .filter(|b| bisect::runtime_of_range(&b.record) == Some(runtime.as_str()))
            .map(|b| b.id)
            .collect();
        let described = site
            .described(&runtime)
            .info
            .map(|i| serde_json::to_string(&i).ok());
        let terms = fairness::row(&site.fairness, &runtime);
        let key = key_of(&(&runtime, &ids, &bisects, described, terms));
        output.file(&runtime_href(&runtime), key, || {
            runtime::runtime_page(site, histories, &runtime)
        })?;
    }
    Ok(())
}

/// Each bisect's page.
fn bisects(site: &mut Site, output: &mut Output) -> anyhow::Result<()> {
    for b in site.bisects.clone() {
        let steps: Vec<i64> = site.steps_of(&b).iter().map(|s| s.id).collect();
        let key = key_of(&(b.id, b.record.to_string(), steps));
        output.file(&bisect::bisect_href(&b), key, || {
            bisect::bisect_page(site, &b)
        })?;
    }
    Ok(())
}
