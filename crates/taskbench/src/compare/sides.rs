//! What a comparison sets side by side, found by name: a results folder, or a session the
//! store holds (`last`, `last~N`, a baseline, a tag); and BASE against NEW with each case
//! widened by the store's other sessions of it (store/spread.rs gives the spreads).

use super::gate::{Comparison, Side, across};
use exit::{ExitClass, cannot_compare, fail};
use results::Results;
use store::{Location, condition, find, runs, spreads};

impl Side {
    /// `results` as a side of a comparison, called `label`.
    pub(crate) fn of(results: Results, label: String) -> Side {
        Side {
            label,
            runs: results.runs,
            machine: results.platform.machine(),
            started: results.platform.started,
            condition: results.machine.and_then(|m| m.condition),
        }
    }
}

/// A side of a comparison by its name: a results folder by its path, else the session of
/// that name in the store at `location` (`last`, `last~N`, a baseline, a tag).
pub(crate) fn side(name: &str, location: &Location) -> anyhow::Result<Side> {
    let dir = std::path::Path::new(name);
    if dir.is_dir() {
        let results = results::read_results(&dir.join("results.json"))?;
        return Ok(Side::of(results, name.to_string()));
    }
    if !location.exists() {
        return Err(fail(
            ExitClass::CannotCompare,
            missing_store(name, location),
        ));
    }
    let mut db = store::open(location).map_err(cannot_compare)?;
    let session = find(&mut db, name).map_err(cannot_compare)?;
    Ok(Side {
        label: session.label,
        runs: runs(&mut db, session.id)?,
        condition: condition(&mut db, session.id)?,
        started: session.started,
        machine: session.machine,
    })
}

/// Why `name` cannot be looked up: no store where `location` says, or no location at all (a
/// `TASKBENCH_STORE` set empty, as a fork's pull request sees a secret).
fn missing_store(name: &str, location: &Location) -> String {
    match location {
        Location::Sqlite(path) if path.as_os_str().is_empty() => format!(
            "'{name}' is not a results folder, and the store is named by nothing \
             (--store or TASKBENCH_STORE is empty)"
        ),
        _ => format!(
            "'{name}' is not a results folder, and there is no store at {location} to look it \
             up in (--store PATH)"
        ),
    }
}

/// BASE against NEW, each case widened by the store's other sessions of it on NEW's machine;
/// sides of different machines only with `mixed_machines`.
pub(crate) fn across_sessions(
    base: &Side,
    new: &Side,
    location: &Location,
    mixed_machines: bool,
) -> anyhow::Result<Comparison> {
    if !location.exists() {
        return across(base, new, None, mixed_machines);
    }
    let mut db = store::open(location).map_err(cannot_compare)?;
    let exclude = [base.started.clone(), new.started.clone()];
    across(
        base,
        new,
        Some(&mut |point, contestant| spreads(&mut db, &new.machine, point, contestant, &exclude)),
        mixed_machines,
    )
    .map_err(cannot_compare)
}
