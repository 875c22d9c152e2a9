//! Result folders joined into one, as `taskbench merge DIR… --out DIR` asks — the parts of
//! a run split by `run --shard K/N` across CI runners, or whole runs of several machines.
//! Figures of different machines never share a table unless asked (`mixed_machines`); then
//! each machine's rows stand side by side, named `tokio · m2`, with a machine column and an
//! overview per machine. The merged folder is written as a run's is (run.json, runs.jsonl,
//! results.json and every export), so that everything after a run reads it alike.

use analysis::on_machine;
use anyhow::{Context, bail};
use catalogue::Point;
use contestant::ContestantInfo;
use export::SessionFile;
use measure::Platform;
use measure::machine::{CpuShares, MachineLoad};
use results::{MachineInfo, Results, read_results};
use run::{Phase, RunRecord, Shard};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a merge wrote, for the command to tell.
pub(crate) struct Merge {
    /// The merged folder's results, as written to its results.json.
    pub(crate) results: Results,
    /// How many folders were joined.
    pub(crate) folders: usize,
    /// How many machines they ran on.
    pub(crate) machines: usize,
    /// Why the merged run is not whole (a shard missing, a part interrupted), if it is not:
    /// its results are marked interrupted.
    pub(crate) incomplete: Option<String>,
}

/// Merges the result folders `dirs` into `out` (created if need be) and says what it
/// wrote; folders of different machines only with `mixed_machines`.
pub(crate) fn merge(dirs: &[PathBuf], out: &Path, mixed_machines: bool) -> anyhow::Result<Merge> {
    let inputs = read_inputs(dirs, out)?;
    let machines = machines(&inputs);
    if machines.len() > 1 && !mixed_machines {
        let list: Vec<String> = machines
            .iter()
            .map(|m| format!("{} ({})", m.fingerprint, names(&inputs, &m.inputs)))
            .collect();
        bail!(
            "the folders ran on {} machines — {}: their figures do not belong in one table \
             (--mixed-machines shows each machine's rows side by side)",
            machines.len(),
            list.join("; ")
        );
    }
    let merged = join(&inputs, &machines)?;
    std::fs::create_dir_all(out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    let _lock = export::lock(out)?;
    merged.session_file.write(out)?;
    export::rewrite(&out.join("runs.jsonl"), &merged.records)?;
    let results = export::assemble(
        merged.records,
        &merged.session_file,
        merged.load,
        merged.incomplete.is_some(),
    );
    export::write_results(&results, out, &[])?;
    Ok(Merge {
        results,
        folders: inputs.len(),
        machines: machines.len(),
        incomplete: merged.incomplete,
    })
}

/// Each folder with its results: folders `taskbench run` wrote, none itself a merge of
/// machines, none the folder merged into.
fn read_inputs(dirs: &[PathBuf], out: &Path) -> anyhow::Result<Vec<(PathBuf, Results)>> {
    let inputs: Vec<(PathBuf, Results)> = dirs
        .iter()
        .map(|dir| {
            anyhow::ensure!(
                dir.is_dir(),
                "{} is not a folder (give the folders `taskbench run` wrote)",
                dir.display()
            );
            Ok((dir.clone(), read_results(&dir.join("results.json"))?))
        })
        .collect::<anyhow::Result<_>>()?;
    if let Some((dir, _)) = inputs.iter().find(|(_, r)| !r.machines.is_empty()) {
        bail!(
            "{} holds machines side by side already: merge the folders it was made of",
            dir.display()
        );
    }
    if let Some((dir, _)) = inputs.iter().find(|(dir, _)| same_folder(dir, out)) {
        bail!("--out {}: it is one of the folders merged", dir.display());
    }
    Ok(inputs)
}

/// Whether two paths name one folder (the second need not exist yet).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The folders that ran on one machine.
struct Machine {
    /// `Intel(R) Xeon(R) Processor · 2 cores · 24 GiB`: what tells machines apart.
    fingerprint: String,
    inputs: Vec<usize>,
}

fn machines(inputs: &[(PathBuf, Results)]) -> Vec<Machine> {
    let mut machines: Vec<Machine> = Vec::new();
    for (index, (_, results)) in inputs.iter().enumerate() {
        let fingerprint = results.platform.fingerprint();
        match machines.iter_mut().find(|m| m.fingerprint == fingerprint) {
            Some(machine) => machine.inputs.push(index),
            None => machines.push(Machine {
                fingerprint,
                inputs: vec![index],
            }),
        }
    }
    machines
}

fn names(inputs: &[(PathBuf, Results)], which: &[usize]) -> String {
    let names: Vec<String> = which
        .iter()
        .map(|&i| inputs[i].0.display().to_string())
        .collect();
    names.join(", ")
}

/// What the folders come to.
struct Merged {
    session_file: SessionFile,
    records: Vec<RunRecord>,
    load: Option<MachineLoad>,
    /// Why the merged run is not whole (a shard missing, a part interrupted), if it is not.
    incomplete: Option<String>,
}

fn join(inputs: &[(PathBuf, Results)], machines: &[Machine]) -> anyhow::Result<Merged> {
    let mixed = machines.len() > 1;
    let label = |m: usize| format!("m{}", m + 1);
    let rename = |name: &str, m: usize| {
        if mixed {
            on_machine(name, &label(m))
        } else {
            name.to_string()
        }
    };
    let mut records = Vec::new();
    let mut contestants: Vec<ContestantInfo> = Vec::new();
    let mut seeds: Vec<(Point, String)> = Vec::new();
    let mut infos = Vec::new();
    let mut gaps: Vec<String> = Vec::new();
    for (m, machine) in machines.iter().enumerate() {
        // Each case from one folder only; each contestant's idle footprint from the first
        // folder that measured it (every shard of a contestant measures it again).
        let mut owner: HashMap<(bool, String, Point), usize> = HashMap::new();
        for &i in &machine.inputs {
            let (dir, results) = &inputs[i];
            for record in &results.runs {
                let idle = record.phase == Phase::Idle;
                let key = (idle, record.contestant.clone(), record.point());
                let first = *owner.entry(key).or_insert(i);
                match (first == i, idle) {
                    (true, _) => {}
                    (false, true) => continue,
                    (false, false) => bail!(
                        "{} at {} is in both {} and {}: merge joins the parts of a run \
                         (`run --shard K/N`) or runs of different machines, not repeats",
                        record.contestant,
                        record.point(),
                        inputs[first].0.display(),
                        dir.display()
                    ),
                }
                let mut record = record.clone();
                if mixed {
                    record.contestant = rename(&record.contestant, m);
                    record.machine = Some(label(m));
                }
                records.push(record);
            }
            add_contestants(&mut contestants, &results.contestants, &|n| rename(n, m));
            add_seeds(&mut seeds, results);
            if results.interrupted {
                gaps.push(format!("{} was interrupted", dir.display()));
            }
        }
        let group: Vec<&Results> = machine.inputs.iter().map(|&i| &inputs[i].1).collect();
        gaps.extend(missing_shards(&group));
        infos.push(MachineInfo {
            label: label(m),
            platform: platform(&group, &rename, m),
        });
    }
    let all: Vec<&Results> = inputs.iter().map(|(_, r)| r).collect();
    let session_file = SessionFile {
        schema: export::SESSION_FILE_SCHEMA.into(),
        command: unsharded(&all[0].command),
        platform: Some(infos[0].platform.clone()),
        contestants,
        stopping: all[0].stopping,
        seeds,
        machines: if mixed { infos } else { Vec::new() },
        seed: all[0].seed,
    };
    Ok(Merged {
        session_file,
        records,
        load: load(&all),
        incomplete: (!gaps.is_empty()).then(|| {
            format!(
                "the merged results are not whole: {} (marked interrupted)",
                gaps.join("; ")
            )
        }),
    })
}

/// Adds a part's contestants, each under its name in the merge (`name_of`); a part that
/// could run one says more than one that could not.
fn add_contestants(
    contestants: &mut Vec<ContestantInfo>,
    part: &[ContestantInfo],
    name_of: &dyn Fn(&str) -> String,
) {
    for info in part {
        let name = name_of(&info.name);
        match contestants.iter_mut().find(|c| c.name == name) {
            Some(known) if known.unavailable.is_some() && info.unavailable.is_none() => {
                *known = ContestantInfo {
                    name,
                    ..info.clone()
                }
            }
            Some(_) => {}
            None => contestants.push(ContestantInfo {
                name,
                ..info.clone()
            }),
        }
    }
}

/// Adds the seed tags of a part's points that no earlier part tagged.
fn add_seeds(seeds: &mut Vec<(Point, String)>, part: &Results) {
    for point in &part.points {
        if let Some(seed) = &point.seed
            && !seeds.iter().any(|(p, _)| *p == point.point)
        {
            seeds.push((point.point.clone(), seed.clone()));
        }
    }
}

/// The command line without its `--shard K/N`: the run the parts make together.
fn unsharded(command: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = command.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--shard" => {
                args.next();
            }
            a if a.starts_with("--shard=") => {}
            _ => out.push(arg.clone()),
        }
    }
    out
}

/// The `--shard K/N` of a command line, if any.
fn shard_of(command: &[String]) -> Option<Shard> {
    let at = command.iter().position(|a| a == "--shard");
    let text = match at {
        Some(at) => command.get(at + 1)?.as_str(),
        None => command.iter().find_map(|a| a.strip_prefix("--shard="))?,
    };
    text.parse().ok()
}

/// The parts of a sharded run of one machine that are not among its folders.
fn missing_shards(group: &[&Results]) -> Vec<String> {
    let shards: Vec<Shard> = group.iter().filter_map(|r| shard_of(&r.command)).collect();
    let Some(count) = shards.iter().map(|s| s.count).max() else {
        return Vec::new();
    };
    (1..=count)
        .filter(|&index| !shards.contains(&Shard { index, count }))
        .map(|index| format!("shard {index}/{count} is missing"))
        .collect()
}

/// One machine's platform: the first folder's, started at the earliest start, with every
/// folder's contestant versions.
fn platform(group: &[&Results], rename: &dyn Fn(&str, usize) -> String, m: usize) -> Platform {
    let mut platform = group[0].platform.clone();
    platform.versions.clear();
    for results in group {
        if results.platform.started < platform.started {
            platform.started = results.platform.started.clone();
        }
        for (name, version) in &results.platform.versions {
            let name = rename(name, m);
            if !platform.versions.iter().any(|(n, _)| *n == name) {
                platform.versions.push((name, version.clone()));
            }
        }
    }
    platform
}

/// The parts' loads as one: every sample, the first start, the highest end, and the mean
/// of their CPU shares.
fn load(all: &[&Results]) -> Option<MachineLoad> {
    let loads: Vec<&MachineLoad> = all.iter().filter_map(|r| r.machine.as_ref()).collect();
    let first = loads.first()?;
    let shares: Vec<&CpuShares> = loads.iter().filter_map(|l| l.cpu.as_ref()).collect();
    let mean =
        |f: fn(&CpuShares) -> f64| shares.iter().map(|s| f(s)).sum::<f64>() / shares.len() as f64;
    Some(MachineLoad {
        cores: first.cores,
        load_start: first.load_start,
        load_during: loads.iter().flat_map(|l| l.load_during.clone()).collect(),
        load_end: loads.iter().map(|l| l.load_end).fold(0.0, f64::max),
        cpu: (!shares.is_empty()).then(|| CpuShares {
            ours: mean(|s| s.ours),
            others: mean(|s| s.others),
            steal: mean(|s| s.steal),
            idle: mean(|s| s.idle),
        }),
        // Each part probed its own machine over its own span: their probes are not one
        // run's condition, and stay in each part's own results.
        condition: None,
    })
}

#[cfg(test)]
mod tests;
