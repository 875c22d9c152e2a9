//! Presets against what they must run: the seeds' own parameters with their tags, the
//! command line's overrides, user presets from TOML and their mistakes.

use super::*;

/// What `taskbench run -s LIST` (empty: no `-s`) with these parameters (`--tasks 10,20`)
/// hands over; how the command line reads its flags into it is cli.rs's, tested there.
fn scenarios_at(list: &str, params: &[(&'static str, &[u64])]) -> PlanOptions {
    PlanOptions {
        scenarios: (list.split(',').filter(|s| !s.is_empty()))
            .map(String::from)
            .collect(),
        params: ParamArgs(params.iter().map(|(n, v)| (*n, v.to_vec())).collect()),
        ..PlanOptions::default()
    }
}

/// What `taskbench run --preset NAME` with these parameters hands over.
fn preset_at(name: &str, params: &[(&'static str, &[u64])]) -> PlanOptions {
    PlanOptions {
        preset: Some(name.into()),
        ..scenarios_at("", params)
    }
}

/// The seed `plan` tags the point labelled `label` with.
fn seed_at<'a>(plan: &'a Plan, label: &str) -> Option<&'a str> {
    let tag = plan
        .seeds
        .iter()
        .find(|tag| tag.point.to_string() == label)?;
    plan.seed_of(&tag.point)
}

fn scenarios(plan: &Plan) -> Vec<Scenario> {
    plan.workloads
        .iter()
        .map(|w| match w {
            Workload::Scenario { scenario, .. } => *scenario,
            Workload::Command => panic!("no commands here"),
        })
        .collect()
}

fn sleep(tasks: u64, delay_ms: u64) -> Scenario {
    Scenario::Sleep { tasks, delay_ms }
}

#[test]
fn lists_expand_into_a_sweep() {
    let plan = plan(&scenarios_at(
        "sleep",
        &[("tasks", &[10, 20]), ("delay-ms", &[1, 2])],
    ))
    .unwrap();
    assert_eq!(
        scenarios(&plan),
        [sleep(10, 1), sleep(10, 2), sleep(20, 1), sleep(20, 2)]
    );
    assert_eq!(
        (plan.preset, plan.stopping, plan.warm_up),
        (None, DEFAULT_STOPPING, 1)
    );
}

#[test]
fn a_parameter_applies_to_every_scenario_that_has_it() {
    let plan = plan(&PlanOptions {
        inner_warm_up: Some(0),
        ..scenarios_at("spawn,yield", &[("tasks", &[7])])
    })
    .unwrap();
    assert_eq!(
        scenarios(&plan),
        [
            Scenario::Spawn { tasks: 7 },
            Scenario::Yield {
                tasks: 7,
                yields: 1_000
            }
        ]
    );
    assert!(plan.workloads.iter().all(|w| matches!(
        w,
        Workload::Scenario {
            inner_warm_up: 0,
            ..
        }
    )));
}

#[test]
fn quick_is_the_default_covers_every_scenario_and_takes_overrides() {
    let plan = plan(&scenarios_at("", &[("tasks", &[5])])).unwrap();
    assert_eq!(plan.preset.as_deref(), Some("quick"));
    let got = scenarios(&plan);
    assert_eq!(got.len(), catalogue::SCENARIOS.len());
    assert_eq!(got[0], Scenario::Spawn { tasks: 5 });
    assert_eq!(got[1], sleep(5, 20));
}

#[test]
fn seeds_run_each_seed_at_its_own_parameters_tagged() {
    let plan = plan(&preset_at("seeds", &[])).unwrap();
    let timer = |step_us| Scenario::Timer {
        step_us,
        total_ms: 1_000,
    };
    assert_eq!(
        scenarios(&plan),
        [
            sleep(10_000, 0),
            sleep(10_000, 5_000),
            Scenario::Doxbee {
                requests: 10_000,
                io_ms: 1
            },
            Scenario::Parallel {
                requests: 10_000,
                fanout: 25,
                io_ms: 1
            },
            sleep(1_000, 1_000),
            sleep(10_000, 1_000),
            sleep(100_000, 1_000),
            timer(1_000_000),
            timer(100_000),
            timer(10_000),
            timer(1_000),
        ]
    );
    assert_eq!(plan.seeds.len(), 11, "every point is tagged");
    assert_eq!(
        seed_at(&plan, "sleep tasks=10000 delay-ms=5000"),
        Some(seed::CONCURRENCY_BENCHMARKS)
    );
    assert_eq!(
        seed_at(&plan, "parallel requests=10000 fanout=25 io-ms=1"),
        Some(seed::BLUEBIRD_PARALLEL)
    );
    assert_eq!(
        seed_at(&plan, "sleep tasks=10000 delay-ms=1000"),
        Some(seed::ASYNC_BENCH)
    );
    assert_eq!(
        seed_at(&plan, "timer step-us=1000 total-ms=1000"),
        Some(seed::GHC_1523)
    );
    assert_eq!((plan.stopping.min_runs, plan.warm_up), (1, 0));
    assert_eq!(plan.stopping.budget, Some(Duration::from_secs(85 * 60)));
}

#[test]
fn preset_runs_and_warm_ups_yield_to_the_command_line() {
    let million = plan(&preset_at("million", &[])).unwrap();
    let runs = |p: &Plan| (p.stopping.min_runs, p.stopping.max_runs);
    assert_eq!((runs(&million), million.warm_up), ((1, 3), 0));
    assert_eq!(million.stopping.budget, Some(Duration::from_secs(70 * 60)));
    // Its 10k connections are left out where the machine cannot hold them.
    assert_eq!(million.workloads.len() + million.held_back.len(), 7);
    let mine = plan(&PlanOptions {
        runs: Some(1),
        warm_up: Some(2),
        ..preset_at("million", &[])
    })
    .unwrap();
    assert_eq!((runs(&mine), mine.warm_up), ((1, 1), 2));
    let quick = plan(&PlanOptions {
        min_runs: Some(4),
        precision: Some(0.05),
        max_time: Some(Duration::from_secs(9)),
        ..PlanOptions::default()
    })
    .unwrap();
    assert_eq!(
        (
            quick.stopping.min_runs,
            quick.stopping.precision,
            quick.stopping.max_time
        ),
        (4, 0.05, Duration::from_secs(9))
    );
    // The quick preset's run budget, a flag's over it, none for exactly N runs.
    assert_eq!(quick.stopping.budget, Some(Duration::from_secs(300)));
    let longer = plan(&PlanOptions {
        budget: Some(Duration::from_secs(30 * 60)),
        ..PlanOptions::default()
    })
    .unwrap();
    assert_eq!(longer.stopping.budget, Some(Duration::from_secs(1_800)));
    let exactly = PlanOptions {
        runs: Some(2),
        ..PlanOptions::default()
    };
    assert_eq!(plan(&exactly).unwrap().stopping.budget, None);
    // Idle processes: the preset's (quick: 1; --scenario: 3), `--idle-runs` over either.
    assert_eq!(quick.idle_runs, 1);
    let spawn = scenarios_at("spawn", &[]);
    assert_eq!(plan(&spawn).unwrap().idle_runs, 3);
    let idle = |options: PlanOptions, runs| {
        let options = PlanOptions {
            idle_runs: Some(runs),
            ..options
        };
        plan(&options).unwrap().idle_runs
    };
    assert_eq!((idle(spawn, 1), idle(PlanOptions::default(), 0)), (1, 0));
    let min_above_max = PlanOptions {
        min_runs: Some(50),
        max_runs: Some(10),
        ..PlanOptions::default()
    };
    assert!(plan(&min_above_max).is_err(), "min above max");
    let runtime = plan(&preset_at("runtime", &[])).unwrap();
    assert_eq!(
        scenarios(&runtime)[1],
        Scenario::Pingpong {
            pairs: 1_000,
            rounds: 1
        }
    );
}

#[test]
fn an_overridden_case_loses_its_seed_and_duplicates_run_once() {
    // --tasks 5 turns every sleep case of seeds into tasks=5: the async-bench case then
    // repeats one point three times, and none reproduces its seed any more.
    let plan = plan(&preset_at("seeds", &[("tasks", &[5])])).unwrap();
    let sleeps: Vec<Scenario> = scenarios(&plan)
        .into_iter()
        .filter(|s| s.name() == "sleep")
        .collect();
    assert_eq!(sleeps, [sleep(5, 0), sleep(5, 5_000), sleep(5, 1_000)]);
    assert_eq!(seed_at(&plan, "sleep tasks=5 delay-ms=0"), None);
    assert_eq!(
        seed_at(&plan, "doxbee requests=10000 io-ms=1"),
        Some(seed::BLUEBIRD_DOXBEE),
        "cases without the parameter keep their tag"
    );
}

#[test]
fn mistakes_are_named() {
    let err = |options: PlanOptions| plan(&options).unwrap_err().to_string();
    assert!(
        err(scenarios_at("spawn", &[("fanout", &[2])]))
            .starts_with("--fanout does not apply to the selected scenarios (spawn)"),
    );
    assert!(err(scenarios_at("nap", &[])).contains("unknown scenario"));
    assert!(err(scenarios_at("spawn,spawn", &[])).contains("named twice"));
    assert!(err(scenarios_at("skynet", &[("size", &[99])])).contains("power of 10"));
    assert!(
        err(preset_at("runtime", &[("delay-ms", &[1])])).starts_with(
            "--delay-ms does not apply to the selected scenarios (spawn, pingpong, yield, chain)"
        )
    );
    let unknown = err(preset_at("nope", &[]));
    assert!(
        unknown.starts_with("--preset: no preset 'nope' (known: quick, seeds, million, runtime;"),
        "{unknown}"
    );
}

const SLEEPY: &str = r#"
[sleepy]
about = "sleeping tasks at three sizes"
runs = 3

[[sleepy.case]]
scenario = "sleep"
tasks = [1000, "10k"]
delay-ms = 50
seed = "async-bench"

[[sleepy.case]]
scenario = "spawn"
"#;

#[test]
fn user_presets_parse_from_toml() {
    let presets = file::parse(SLEEPY).unwrap();
    assert_eq!(presets.len(), 1);
    let p = &presets[0];
    assert_eq!(
        (
            p.name.as_str(),
            p.about.as_str(),
            p.stopping.max_runs,
            p.warm_up
        ),
        (
            "sleepy",
            "sleeping tasks at three sizes",
            3,
            DEFAULT_WARM_UP
        )
    );
    assert_eq!(
        p.cases[0].params,
        [("tasks", vec![1_000, 10_000]), ("delay-ms", vec![50])]
    );
    assert_eq!(p.cases[0].seed.as_deref(), Some("async-bench"));
    let (workloads, seeds) = expand(&p.cases, &ParamArgs::default(), None).unwrap();
    assert_eq!(workloads.len(), 3);
    assert_eq!(seeds.len(), 2);
}

#[test]
fn a_preset_carries_its_default_lineup() {
    let lineup = |options: PlanOptions| default_lineup(&options).unwrap();
    assert_eq!(
        lineup(PlanOptions::default()),
        ["@headline"],
        "quick, the default of run"
    );
    assert_eq!(lineup(scenarios_at("spawn", &[])), ["@headline"]);
    assert_eq!(lineup(preset_at("runtime", &[])), ["@rust"]);
    let seeds = lineup(preset_at("seeds", &[]));
    for member in [
        "@bluebird",
        "python-asyncio",
        "elixir-task",
        "@haskell",
        "node-promises",
        "python-gevent",
        "java-structured",
        "node-effect",
    ] {
        assert!(seeds.iter().any(|m| m == member), "{member}: {seeds:?}");
    }
    // The million preset adds the studies' own rows to the headline (seeds::counterparts).
    let million = lineup(preset_at("million", &[]));
    assert_eq!(million[0], "@headline");
    for member in [
        "futures-joinall",
        "async-std",
        "java-threads",
        "node-promises",
        "node-bluebird",
        "python-gevent",
        "java-structured",
        "node-effect",
    ] {
        assert!(million.iter().any(|m| m == member), "{member}: {million:?}");
    }
    // Both also run the runtimes compared beside the seeds' rows (issue 27).
    for member in builtin::COMPARED {
        assert!(seeds.iter().any(|m| m == member), "{member}: {seeds:?}");
        assert!(million.iter().any(|m| m == member), "{member}: {million:?}");
    }
    for preset in builtin::presets() {
        let written = preset.contestants.join(",");
        assert_eq!(
            contestant::groups::parse_lineup(&written),
            Ok(preset.contestants.clone()),
            "{}",
            preset.name
        );
    }
    let sleepy = file::parse(SLEEPY).unwrap();
    assert_eq!(
        sleepy[0].contestants,
        ["@headline"],
        "a user preset's default"
    );
    let own = file::parse(&SLEEPY.replace("runs = 3", "runs = 3\ncontestants = \"@python, go\""))
        .unwrap();
    assert_eq!(own[0].contestants, ["@python", "go"]);
}

#[test]
fn a_bad_field_is_named_in_the_error() {
    let cases = [
        ("[a]\nrnus = 3\n[[a.case]]\nscenario = \"spawn\"\n", "rnus"),
        ("[a]\n[[a.case]]\nscenario = \"spawn\"\ntaks = 5\n", "taks"),
        ("[a]\n[[a.case]]\nscenario = \"slep\"\n", "slep"),
        ("[a]\n[[a.case]]\ntasks = 5\n", "scenario"),
        (
            "[a]\n[[a.case]]\nscenario = \"spawn\"\ntasks = \"lots\"\n",
            "tasks",
        ),
        (
            "[a]\n[[a.case]]\nscenario = \"spawn\"\ntasks = -1\n",
            "tasks",
        ),
        (
            "[a]\n[[a.case]]\nscenario = \"skynet\"\nsize = 99\n",
            "size",
        ),
        ("[a]\nabout = \"nothing\"\n", "no cases"),
        (
            "[a]\n[[a.case]]\nscenario = \"sleep\"\nseed = \"async-runtime\"\n",
            "unknown seed 'async-runtime' (known: async-runtimes,",
        ),
        (
            "[a]\nprecision = \"lots\"\n[[a.case]]\nscenario = \"spawn\"\n",
            "precision",
        ),
        (
            "[a]\nmax-time = \"soon\"\n[[a.case]]\nscenario = \"spawn\"\n",
            "max-time",
        ),
        (
            "[a]\ncontestants = \"@rust,@nope\"\n[[a.case]]\nscenario = \"spawn\"\n",
            "`contestants`: unknown group '@nope' (known: @headline",
        ),
        (
            "[a]\ncontestants = \"go,,tokio\"\n[[a.case]]\nscenario = \"spawn\"\n",
            "`contestants`: 'go,,tokio' is not a lineup",
        ),
    ];
    for (text, named) in cases {
        let err = format!("{:#}", file::parse(text).unwrap_err());
        assert!(err.contains(named), "{text:?}: {err}");
        assert!(err.contains("preset 'a'"), "{text:?}: {err}");
    }
    let err = format!(
        "{:#}",
        file::parse("[a]\nabout = \"x\"\nruns = \n").unwrap_err()
    );
    assert!(err.starts_with("line 3: "), "{err}");
    let err = format!(
        "{:#}",
        file::parse(
            SLEEPY
                .replace("taks", "x")
                .replace("tasks = [", "taks = [")
                .as_str()
        )
        .unwrap_err()
    );
    assert!(
        err.contains("case 1: unknown field `taks` (sleep takes tasks, delay-ms"),
        "{err}"
    );
}

#[test]
fn a_user_preset_cannot_take_a_built_in_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("presets.toml");
    std::fs::write(&path, "[quick]\n[[quick.case]]\nscenario = \"spawn\"\n").unwrap();
    let err = available(Some(&path)).unwrap_err().to_string();
    assert!(
        err.contains("preset 'quick' has the name of a built-in preset"),
        "{err}"
    );
    std::fs::write(&path, SLEEPY).unwrap();
    let names: Vec<String> = available(Some(&path))
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["quick", "seeds", "million", "runtime", "sleepy"]);
    let plan = plan(&PlanOptions {
        preset_file: Some(path),
        ..preset_at("sleepy", &[])
    })
    .unwrap();
    assert_eq!(
        (plan.preset.as_deref(), plan.stopping.min_runs),
        (Some("sleepy"), 3)
    );
}

#[test]
fn every_seed_tag_of_a_built_in_preset_finds_published_figures() {
    for preset in super::builtin::presets() {
        for case in &preset.cases {
            let Some(tag) = &case.seed else { continue };
            let seeds = seeds::tagged(tag)
                .unwrap_or_else(|| panic!("{}: the tag '{tag}' is no seed's", preset.name));
            // Some point of the case is an experiment of each seed the tag stands for.
            for seed in seeds {
                let found = seeds::EXPERIMENTS.iter().any(|e| {
                    e.seed == seed
                        && e.scenario == case.scenario.name
                        && e.params.iter().all(|(k, v)| {
                            case.params
                                .iter()
                                .any(|(name, values)| name == k && values.contains(v))
                        })
                });
                assert!(
                    found,
                    "{}: no point of '{tag}' is one of {}'s",
                    preset.name,
                    seed.as_str()
                );
            }
        }
    }
}

#[test]
fn a_socket_point_the_machine_cannot_hold_is_left_out_of_a_preset_and_refused_when_asked() {
    let small = SocketLimits {
        open_files: 5_000,
        client_ports: 28_232,
        listen_queue: 4_096,
    };
    let options = preset_at("million", &[]);
    let (mut workloads, _) =
        expand(&chosen(&options).unwrap().cases, &options.params, None).unwrap();
    let lines = hold_back(&mut workloads, &options, &small).unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("connections · connections=10000 holds 20256 open files"),
        "{}",
        lines[0]
    );
    assert_eq!(workloads.len(), 6);
    assert!(
        workloads
            .iter()
            .any(|w| w.point().to_string() == "connections connections=1000")
    );
    // Sized by the user: refused in the same one line.
    for asked in [
        preset_at("million", &[("connections", &[10_000])]),
        scenarios_at("connections", &[("connections", &[10_000])]),
    ] {
        let (mut workloads, _) =
            expand(&chosen(&asked).unwrap().cases, &asked.params, None).unwrap();
        let err = hold_back(&mut workloads, &asked, &small)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("past this machine's hard limit of 5000"),
            "{err}"
        );
    }
    // Nothing of a socket point is held back where the limits allow it.
    let (mut workloads, _) =
        expand(&chosen(&options).unwrap().cases, &options.params, None).unwrap();
    let roomy = SocketLimits {
        open_files: 1 << 20,
        ..small
    };
    assert!(
        hold_back(&mut workloads, &options, &roomy)
            .unwrap()
            .is_empty()
    );
    assert_eq!(workloads.len(), 7);
}
