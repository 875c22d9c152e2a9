//! Turns the command line's scenario names and parameter lists into the workloads to run:
//! defaults from the catalogue, lists expanded into sweeps, and the quick default set when
//! no scenario is named.

use crate::cli::ParamArgs;
use crate::run::Workload;
use anyhow::bail;
use catalogue::{Scenario, ScenarioSpec};

/// The default set of `taskbench run`: every scenario, sized so that the lot finishes in
/// about a minute on 2 cores with a handful of contestants, OS threads included.
pub const QUICK: &[(&str, &[(&str, u64)])] = &[
    ("spawn", &[("tasks", 10_000)]),
    ("sleep", &[("tasks", 10_000), ("delay-ms", 200)]),
    ("timer", &[("step-us", 1_000), ("total-ms", 200)]),
    ("doxbee", &[("requests", 2_000)]),
    ("parallel", &[("requests", 400)]),
    ("skynet", &[("size", 10_000)]),
    ("pingpong", &[("pairs", 100), ("rounds", 1_000)]),
    ("chain", &[("length", 10_000)]),
    ("yield", &[("tasks", 200), ("yields", 1_000)]),
];

/// The workloads for `names` (or the quick set when empty) with `params` applied; every
/// combination of listed values is one workload, in the order given.
pub fn workloads(
    names: &[String],
    params: &ParamArgs,
    inner_warmup: Option<u32>,
) -> anyhow::Result<Vec<Workload>> {
    let chosen: Vec<(&ScenarioSpec, Vec<(&str, u64)>)> = if names.is_empty() {
        QUICK
            .iter()
            .map(|(name, values)| Ok((catalogue::spec(name)?, values.to_vec())))
            .collect::<anyhow::Result<_>>()?
    } else {
        let mut chosen = Vec::new();
        for name in names {
            let spec = catalogue::spec(name)?;
            if chosen
                .iter()
                .any(|(s, _): &(&ScenarioSpec, _)| s.name == spec.name)
            {
                bail!("scenario '{name}' is named twice");
            }
            chosen.push((spec, Vec::new()));
        }
        chosen
    };
    for (param, _) in &params.0 {
        if !chosen
            .iter()
            .any(|(spec, _)| spec.params.iter().any(|p| p.name == *param))
        {
            let owners: Vec<&str> = catalogue::SCENARIOS
                .iter()
                .filter(|s| s.params.iter().any(|p| p.name == *param))
                .map(|s| s.name)
                .collect();
            let selected: Vec<&str> = chosen.iter().map(|(s, _)| s.name).collect();
            bail!(
                "--{param} does not apply to the selected scenarios ({}); it belongs to {}",
                selected.join(", "),
                owners.join(", ")
            );
        }
    }
    let mut workloads = Vec::new();
    for (spec, base) in chosen {
        let lists: Vec<(&str, Vec<u64>)> = spec
            .params
            .iter()
            .map(|p| {
                let given = params
                    .0
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, v)| v.clone());
                let base = base
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|(_, v)| vec![*v]);
                (p.name, given.or(base).unwrap_or_else(|| vec![p.default]))
            })
            .collect();
        for combination in product(&lists) {
            let scenario = Scenario::new(spec.name, &combination)?;
            workloads.push(Workload::Scenario {
                scenario,
                inner_warmup: inner_warmup.unwrap_or(spec.inner_warmup),
            });
        }
    }
    Ok(workloads)
}

/// Every combination of one value per list, the first list varying slowest.
fn product<'a>(lists: &[(&'a str, Vec<u64>)]) -> Vec<Vec<(&'a str, u64)>> {
    lists.iter().fold(vec![Vec::new()], |acc, (name, values)| {
        acc.iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push((*name, *v));
                    next
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn scenarios(workloads: &[Workload]) -> Vec<Scenario> {
        workloads
            .iter()
            .map(|w| match w {
                Workload::Scenario { scenario, .. } => *scenario,
                Workload::Command => panic!("no commands here"),
            })
            .collect()
    }

    #[test]
    fn lists_expand_into_a_sweep() {
        let params = ParamArgs(vec![("tasks", vec![10, 20]), ("delay-ms", vec![1, 2])]);
        let got = scenarios(&workloads(&names(&["sleep"]), &params, None).unwrap());
        let sleep = |tasks, delay_ms| Scenario::Sleep { tasks, delay_ms };
        assert_eq!(
            got,
            [sleep(10, 1), sleep(10, 2), sleep(20, 1), sleep(20, 2)]
        );
    }

    #[test]
    fn a_parameter_applies_to_every_scenario_that_has_it() {
        let params = ParamArgs(vec![("tasks", vec![7])]);
        let got = scenarios(&workloads(&names(&["spawn", "yield"]), &params, Some(0)).unwrap());
        assert_eq!(
            got,
            [
                Scenario::Spawn { tasks: 7 },
                Scenario::Yield {
                    tasks: 7,
                    yields: 1_000
                }
            ]
        );
    }

    #[test]
    fn the_quick_set_covers_every_scenario_and_takes_overrides() {
        let got = scenarios(&workloads(&[], &ParamArgs(vec![("tasks", vec![5])]), None).unwrap());
        assert_eq!(got.len(), catalogue::SCENARIOS.len());
        assert_eq!(got[0], Scenario::Spawn { tasks: 5 });
        assert_eq!(
            got[1],
            Scenario::Sleep {
                tasks: 5,
                delay_ms: 200
            }
        );
    }

    #[test]
    fn mistakes_are_named() {
        let none = ParamArgs::default();
        let err = workloads(
            &names(&["spawn"]),
            &ParamArgs(vec![("fanout", vec![2])]),
            None,
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("--fanout does not apply to the selected scenarios (spawn)"),
            "{err}"
        );
        assert!(
            workloads(&names(&["nap"]), &none, None)
                .unwrap_err()
                .to_string()
                .contains("unknown scenario")
        );
        assert!(workloads(&names(&["spawn", "spawn"]), &none, None).is_err());
        let err = workloads(
            &names(&["skynet"]),
            &ParamArgs(vec![("size", vec![99])]),
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("power of 10"), "{err}");
    }
}
