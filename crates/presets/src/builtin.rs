//! The built-in presets: `quick` (the default of `run`), `seeds` (each seed benchmark at its
//! own parameters, tagged with the seed it reproduces), `million` (the "1 million tasks"
//! articles) and `runtime` (tokio's own benchmark shapes). Facts and sources of every
//! size are in docs/SEEDS.md. Each carries the lineup it runs when `-c` names none: `quick`
//! and `million` the headline, `seeds` the systems its seeds compared, `runtime` the Rust
//! runtimes; `seeds` and `million` also run the runtimes people compare that no seed
//! measured.

use super::{Preset, PresetCase};
use run::Stopping;
use std::time::Duration;

/// A stopping rule: at least `min`, at most `max` time processes, ±`pct` %, a budget.
const fn until(min: u32, max: u32, pct: f64, max_time_ms: u64) -> Stopping {
    Stopping {
        min_runs: min,
        max_runs: max,
        precision: pct / 100.0,
        max_time: Duration::from_millis(max_time_ms),
        budget: None,
    }
}

/// The runtimes people compare that no seed measured (issue 27): the seeds and million
/// presets run them beside the seeds' own rows, on every case whose primitive they have,
/// so that their per-task memory and seed figures stand beside the others'. Not
/// scala-cats-effect: its work-stealing pool can spin for ever at 10k sleeping fibers
/// (typelevel/cats-effect#4674, docs/CONTESTANTS.md), and a million-task case would then
/// spend its whole timeout on it.
pub(crate) const COMPARED: &[&str] = &[
    "crystal-fibers",
    "nim-async",
    "python-gevent",
    "java-structured",
    "node-effect",
    "scala-zio",
];

/// The seed tags of the built-in cases (seeds.rs, where each is resolved).
pub(crate) use seeds::tag as seed;

/// The presets that ship with taskbench, `quick` first.
pub(crate) fn presets() -> Vec<Preset> {
    vec![quick(), seeds(), million(), runtime()]
}

fn quick() -> Preset {
    Preset {
        name: "quick".into(),
        about: "every scenario at a modest size: the default of `run`".into(),
        // Five minutes of measuring for the whole run (issue 24), spent where it buys most
        // (run/allocate.rs, issue 45): every case first gets a time process (its figure)
        // and a memory one, then the goals — each case's ±5 % cheapest first (the target its
        // cells are judged at; the stopping rule confirms it with the tables' own interval,
        // so a case stopped at ±5 % shows ±5 %), then its 95 % level (6 time processes).
        // A minimum of one, not three: three processes give a 75 % interval no cell is
        // judged by, and three of a dear case (a JIT's warm-up, 10,000 OS threads: 1–3 s a
        // process) buy another case's 95 % level. A case gets at most 120 time processes
        // and 30 s: the goals keep a hopeless case (a bimodal one) from the budget, and a
        // cheap case whose tails ask for a hundred processes or a dear one for twenty can
        // have them (replayed over three default runs, 2026-12-07: 3–17 % more cells within
        // ±5 % than 60 and 8 s). No warm-up processes (each process warms up in itself)
        // and one idle-footprint process, as slow starters (the BEAM: 0.3 s) pay per
        // process. Sleeps are short so that a process holds several iterations.
        stopping: Stopping {
            budget: Some(Duration::from_secs(300)),
            ..until(1, 120, 5.0, 30_000)
        },
        warm_up: 0,
        idle_runs: 1,
        // Every scenario at its reference point: the sizes warm-up curves are measured at.
        cases: catalogue::SCENARIOS
            .iter()
            .map(|spec| {
                let scenario = catalogue::Scenario::reference(spec.name)
                    .expect("the catalogue's quick sizes are valid");
                PresetCase {
                    scenario: spec,
                    params: scenario
                        .params()
                        .into_iter()
                        .map(|(n, v)| (n, vec![v]))
                        .collect(),
                    seed: None,
                }
            })
            .collect(),
        contestants: super::headline(),
    }
}

// The seeds' own systems: bluebird's Node field (doxbee, parallel); Node, Python and
// Elixir as async_bench ran them (sleep); GHC's forkIO, async and streamly
// (concurrency-benchmarks, GHC #1523).
fn seeds() -> Preset {
    use seed::*;
    Preset {
        name: "seeds".into(),
        about: "each seed benchmark at its own parameters, beside its published figures".into(),
        // Its long points wait 1–5 s an iteration, and a time process runs two (the cold
        // start, then a steady one): 85 minutes of measuring, spent as the quick preset's
        // budget is (run/allocate.rs) — every case a figure, then the ±2 % targets cheapest
        // first, then the 95 % levels. No warm-up processes: each process warms up in itself.
        stopping: Stopping {
            budget: Some(Duration::from_secs(85 * 60)),
            ..until(1, 30, 2.0, 30_000)
        },
        warm_up: 0,
        idle_runs: 3,
        cases: vec![
            case(
                "sleep",
                &[("tasks", &[10_000]), ("delay-ms", &[0, 5_000])],
                Some(CONCURRENCY_BENCHMARKS),
            ),
            case(
                "doxbee",
                &[("requests", &[10_000]), ("io-ms", &[1])],
                Some(BLUEBIRD_DOXBEE),
            ),
            case(
                "parallel",
                &[("requests", &[10_000]), ("fanout", &[25]), ("io-ms", &[1])],
                Some(BLUEBIRD_PARALLEL),
            ),
            case(
                "sleep",
                &[("tasks", &[1_000, 10_000, 100_000]), ("delay-ms", &[1_000])],
                Some(ASYNC_BENCH),
            ),
            case(
                "timer",
                &[
                    ("step-us", &[1_000_000, 100_000, 10_000, 1_000]),
                    ("total-ms", &[1_000]),
                ],
                Some(GHC_1523),
            ),
        ],
        // bluebird's field, the rest of the seeds' counterparts, every Haskell row, and
        // the runtimes compared beside them.
        contestants: with_compared(
            with_counterparts(
                lineup(&["@bluebird"]),
                &[CONCURRENCY_BENCHMARKS, ASYNC_BENCH, GHC_1523],
            )
            .into_iter()
            .chain(lineup(&["@haskell"]))
            .collect(),
        ),
    }
}

fn million() -> Preset {
    use seed::*;
    Preset {
        name: "million".into(),
        about: "1 to 1M tasks sleeping 10 s, skynet's 1M leaves, 1k and 10k held connections: \
                per-task memory"
            .into(),
        // At most three time processes each, as the articles' single runs at most, within 70
        // minutes of measuring: every case first a time process and a memory one (a 10 s
        // sleep is 20 s a time process, its cold start and a steady iteration), then up to
        // three, cheapest first. No warm-up processes: a 1M-task process is its own warm-up,
        // and memory is what is asked.
        stopping: Stopping {
            budget: Some(Duration::from_secs(70 * 60)),
            ..until(1, 3, 5.0, 600_000)
        },
        warm_up: 0,
        idle_runs: 3,
        cases: vec![
            case(
                "sleep",
                &[
                    ("tasks", &[1, 10_000, 100_000, 1_000_000]),
                    ("delay-ms", &[10_000]),
                ],
                Some(ASYNC_RUNTIMES),
            ),
            case("skynet", &[("size", &[1_000_000])], Some(SKYNET)),
            // What a held connection costs, the same question of a server (issue 48): 10k
            // pairs hold 20k descriptors, past some machines' hard limit, where the point is
            // left out with a warning naming it.
            case("connections", &[("connections", &[1_000, 10_000])], None),
        ],
        contestants: with_compared(with_counterparts(
            super::headline(),
            &[ASYNC_RUNTIMES, SKYNET],
        )),
    }
}

fn runtime() -> Preset {
    Preset {
        name: "runtime".into(),
        about: "tokio's bench shapes: spawn_many, ping_pong, yield_many, chained_spawn".into(),
        stopping: until(10, 100, 2.0, 5_000),
        warm_up: 1,
        idle_runs: 3,
        cases: vec![
            case("spawn", &[("tasks", &[10_000])], None),
            case("pingpong", &[("pairs", &[1_000]), ("rounds", &[1])], None),
            case("yield", &[("tasks", &[200]), ("yields", &[1_000])], None),
            case("chain", &[("length", &[1_000])], None),
        ],
        contestants: lineup(&["@rust"]),
    }
}

/// `base`, then the contestants that stand beside the published figures of the seeds
/// `tags` name (seeds::counterparts), each once.
fn with_counterparts(mut base: Vec<String>, tags: &[&str]) -> Vec<String> {
    let seeds: Vec<_> = tags
        .iter()
        .flat_map(|t| seeds::tagged(t).unwrap_or_default())
        .collect();
    for name in seeds::counterparts::contestants(&seeds) {
        if !base.iter().any(|b| b == name) {
            base.push(name.to_string());
        }
    }
    base
}

/// `base`, then the [`COMPARED`] runtimes it does not name yet.
fn with_compared(mut base: Vec<String>) -> Vec<String> {
    for name in COMPARED {
        if !base.iter().any(|b| b == name) {
            base.push((*name).to_string());
        }
    }
    base
}

/// A built-in lineup: names and `@group`s.
fn lineup(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| (*i).to_string()).collect()
}

fn case(scenario: &str, params: &[(&'static str, &[u64])], seed: Option<&str>) -> PresetCase {
    PresetCase {
        scenario: catalogue::spec(scenario).expect("built-in presets name catalogue scenarios"),
        params: params.iter().map(|(n, v)| (*n, v.to_vec())).collect(),
        seed: seed.map(str::to_string),
    }
}
