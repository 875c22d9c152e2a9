//! The scenario catalogue: the one definition of every workload taskbench runs.
//!
//! The harness, the Rust contestants (through `taskbench-kit`), the docs and the tests all
//! read the scenarios from here: their parameters and defaults, the checksum a correct run
//! must report, and the ideal time (the part of a run that is pure waiting, so that
//! overhead = elapsed − ideal). Contestants in other languages follow docs/PROTOCOL.md,
//! which is written from this file.
//!
//! This crate has no dependencies, so linking it into a contestant adds nothing but a few
//! tables and an argument parser to the binary that is measured.

mod args;
#[cfg(test)]
mod docs;
mod error;
mod point;
mod socket;
mod value;

pub use args::{INNER_WARM_UP_FLAG, ITERATIONS_FLAG, Invocation};
pub(crate) use error::CatalogueError;
pub use point::Point;
pub use socket::{FD_HEADROOM, pattern_byte};
pub use value::parse_count;

/// Exit code a contestant uses for a scenario it does not implement (sysexits'
/// `EX_UNAVAILABLE`); the harness shows such a case as "n/a", not as a failure.
pub const EXIT_NOT_IMPLEMENTED: i32 = 69;

/// One parameter of a scenario.
#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    /// Name as written on the command line, without the leading `--` (`tasks`, `delay-ms`).
    pub name: &'static str,
    /// Value used when the user gives none.
    pub default: u64,
    /// Smallest accepted value.
    pub(crate) min: u64,
    /// What the parameter means, for `taskbench list` and docs/SCENARIOS.md.
    pub doc: &'static str,
}

/// A scenario as the catalogue describes it.
#[derive(Debug, Clone, Copy)]
pub struct ScenarioSpec {
    /// Name on the command line and in every table.
    pub name: &'static str,
    /// One line: what happens in a run.
    pub summary: &'static str,
    /// One line: which cost the scenario isolates.
    pub measures: &'static str,
    /// Parameters in the order they are passed to contestants.
    pub params: &'static [ParamSpec],
    /// The parameter that counts tasks (or requests, pairs …); per-task figures divide by it.
    pub size_param: Option<&'static str>,
    /// Value of `size_param` for the idle-footprint case (the least work the scenario allows).
    pub(crate) idle_size: u64,
    /// Iterations a contestant runs in-process before the measured one, unless told otherwise.
    pub inner_warm_up: u32,
    /// The seed's warm-up batch: warm-up iterations run with this parameter at most this
    /// large (bluebird warms up with 350 requests, not a whole iteration).
    pub(crate) warm_up_batch: Option<(&'static str, u64)>,
    /// The modest size of the quick preset, where the parameters differ from the defaults:
    /// the reference point at which contestants' warm-up curves are measured, and from
    /// which a warm-up is scaled to other points ([`Scenario::reference`]).
    pub(crate) quick: &'static [(&'static str, u64)],
}

const fn p(name: &'static str, default: u64, min: u64, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        default,
        min,
        doc,
    }
}

/// Requests of bluebird's warm-up (benchmark/performance.js: min(350, N)).
pub(crate) const BLUEBIRD_WARMUP_REQUESTS: u64 = 350;

/// Every scenario, in the order tables and docs list them.
pub const SCENARIOS: &[ScenarioSpec] = &[
    ScenarioSpec {
        name: "spawn",
        summary: "spawn N tasks, task i returns i, join all",
        measures: "the cost of creating, scheduling and joining a task",
        params: &[p("tasks", 10_000, 0, "tasks spawned")],
        size_param: Some("tasks"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: None,
        quick: &[],
    },
    ScenarioSpec {
        name: "sleep",
        summary: "N tasks each sleep D then return i; join all",
        measures: "the memory and time of many concurrent sleeping tasks",
        params: &[
            p("tasks", 10_000, 0, "concurrent tasks"),
            p("delay-ms", 1_000, 0, "sleep of every task, ms"),
        ],
        size_param: Some("tasks"),
        idle_size: 0,
        inner_warm_up: 0,
        warm_up_batch: None,
        quick: &[("delay-ms", 20)],
    },
    ScenarioSpec {
        name: "timer",
        summary: "one task sleeps step sequentially total/step times",
        measures: "the constant overhead of one sleep (GHC #1523); oversleep percentiles",
        params: &[
            p("step-us", 1_000, 1, "length of each sleep, µs"),
            p("total-ms", 1_000, 1, "sum of all sleeps, ms"),
        ],
        size_param: None,
        idle_size: 0,
        inner_warm_up: 0,
        warm_up_batch: None,
        quick: &[("total-ms", 50)],
    },
    ScenarioSpec {
        name: "doxbee",
        summary: "N concurrent requests, each 7 sequential fake I/O steps with sync work between",
        measures: "sequential async steps per request (bluebird doxbee-sequential)",
        params: &[
            p("requests", 10_000, 0, "concurrent requests"),
            p(
                "io-ms",
                1,
                0,
                "duration of one fake I/O op (the runtime's timer), ms",
            ),
        ],
        size_param: Some("requests"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: Some(("requests", BLUEBIRD_WARMUP_REQUESTS)),
        quick: &[("requests", 2_000)],
    },
    ScenarioSpec {
        name: "parallel",
        summary: "each request starts F fake I/O ops at once, joins them, then commits",
        measures: "fan-out/fan-in per request (bluebird madeup-parallel)",
        params: &[
            p("requests", 10_000, 0, "concurrent requests"),
            p("fanout", 25, 1, "fake I/O ops started at once per request"),
            p(
                "io-ms",
                1,
                0,
                "duration of one fake I/O op (the runtime's timer), ms",
            ),
        ],
        size_param: Some("requests"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: Some(("requests", BLUEBIRD_WARMUP_REQUESTS)),
        quick: &[("requests", 400)],
    },
    ScenarioSpec {
        name: "skynet",
        summary: "10-ary tree of tasks; leaves return their ordinal, parents sum children",
        measures: "spawning and message passing through a deep task tree",
        params: &[p("size", 1_000_000, 1, "leaves of the tree, a power of 10")],
        size_param: Some("size"),
        idle_size: 1,
        inner_warm_up: 1,
        warm_up_batch: None,
        quick: &[("size", 10_000)],
    },
    ScenarioSpec {
        name: "pingpong",
        summary: "each pair of tasks exchanges R round trips over the runtime's channels",
        measures: "channel send/receive and the wake-up of a waiting task",
        params: &[
            p("pairs", 1_000, 0, "pairs of tasks"),
            p("rounds", 1_000, 1, "round trips per pair"),
        ],
        size_param: Some("pairs"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: None,
        quick: &[("pairs", 100)],
    },
    ScenarioSpec {
        name: "chain",
        summary: "each task spawns the next and hands it the sum of the links so far; the last signals the sum",
        measures: "spawn latency when every spawn waits on the previous task",
        params: &[p("length", 10_000, 1, "tasks in the chain")],
        size_param: Some("length"),
        idle_size: 1,
        inner_warm_up: 1,
        warm_up_batch: None,
        quick: &[],
    },
    ScenarioSpec {
        name: "yield",
        summary: "each task yields to the scheduler Y times",
        measures: "the cost of a yield (a round through the run queue)",
        params: &[
            p("tasks", 200, 0, "tasks"),
            p("yields", 1_000, 0, "yields per task"),
        ],
        size_param: Some("tasks"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: None,
        quick: &[],
    },
    ScenarioSpec {
        name: "echo",
        summary: "C client tasks each make R round trips of B bytes over loopback TCP to a server task of their own",
        measures: "a socket round trip: the runtime's reactor, its read and write, a task woken by readiness",
        params: &[
            p(
                "connections",
                100,
                0,
                "client connections, each served on a task of its own",
            ),
            p("rounds", 100, 1, "round trips per connection"),
            p("bytes", 64, 1, "bytes of each request and of its echo"),
        ],
        size_param: Some("connections"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: None,
        // 1,000 round trips: a JIT's warm-up (80 iterations on the JVM) of 10,000 took 5–50 s
        // a time process, most of the default run's budget (2026-12-07).
        quick: &[("connections", 50), ("rounds", 20)],
    },
    ScenarioSpec {
        name: "connections",
        summary: "C loopback TCP client/server pairs opened and held, then one byte each way and closed",
        measures: "what a held connection costs: memory per open connection, the time to open them",
        params: &[p(
            "connections",
            1_000,
            0,
            "client/server pairs held open at once",
        )],
        size_param: Some("connections"),
        idle_size: 0,
        inner_warm_up: 1,
        warm_up_batch: None,
        // Under Bun's listen backlog, which it fixes at 512 whatever is asked: past it every
        // iteration waits the kernel's 1 s SYN retry (2026-12-07).
        quick: &[("connections", 500)],
    },
];

/// Looks a scenario up by name.
pub fn spec(name: &str) -> Result<&'static ScenarioSpec, CatalogueError> {
    SCENARIOS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| CatalogueError::UnknownScenario(name.to_string()))
}

/// A scenario with every parameter fixed: what one run executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scenario {
    Spawn {
        tasks: u64,
    },
    Sleep {
        tasks: u64,
        delay_ms: u64,
    },
    Timer {
        step_us: u64,
        total_ms: u64,
    },
    Doxbee {
        requests: u64,
        io_ms: u64,
    },
    Parallel {
        requests: u64,
        fanout: u64,
        io_ms: u64,
    },
    Skynet {
        size: u64,
    },
    Pingpong {
        pairs: u64,
        rounds: u64,
    },
    Chain {
        length: u64,
    },
    Yield {
        tasks: u64,
        yields: u64,
    },
    Echo {
        connections: u64,
        rounds: u64,
        bytes: u64,
    },
    Connections {
        connections: u64,
    },
}

/// Fake I/O ops of one doxbee request: put, lookup, insert version, create file query,
/// insert link, update current version, commit (the callback baseline of
/// docs/SEEDS.md#doxbee-sequential).
pub const DOXBEE_STEPS: u64 = 7;

impl Scenario {
    /// Builds a scenario from named values; parameters not given take their defaults.
    pub fn new(name: &str, values: &[(&str, u64)]) -> Result<Scenario, CatalogueError> {
        let spec = spec(name)?;
        for (param, _) in values {
            if !spec.params.iter().any(|p| p.name == *param) {
                return Err(CatalogueError::UnknownParam {
                    scenario: spec.name,
                    param: param.to_string(),
                });
            }
        }
        let get = |name: &str| -> Result<u64, CatalogueError> {
            let param = spec
                .params
                .iter()
                .find(|p| p.name == name)
                .expect("catalogue names");
            let value = values
                .iter()
                .rev()
                .find(|(n, _)| *n == name)
                .map_or(param.default, |(_, v)| *v);
            if value < param.min {
                return Err(CatalogueError::Invalid {
                    param: param.name,
                    reason: format!("must be at least {}, got {value}", param.min),
                });
            }
            Ok(value)
        };
        let scenario = match spec.name {
            "spawn" => Scenario::Spawn {
                tasks: get("tasks")?,
            },
            "sleep" => Scenario::Sleep {
                tasks: get("tasks")?,
                delay_ms: get("delay-ms")?,
            },
            "timer" => Scenario::Timer {
                step_us: get("step-us")?,
                total_ms: get("total-ms")?,
            },
            "doxbee" => Scenario::Doxbee {
                requests: get("requests")?,
                io_ms: get("io-ms")?,
            },
            "parallel" => Scenario::Parallel {
                requests: get("requests")?,
                fanout: get("fanout")?,
                io_ms: get("io-ms")?,
            },
            "skynet" => Scenario::Skynet { size: get("size")? },
            "pingpong" => Scenario::Pingpong {
                pairs: get("pairs")?,
                rounds: get("rounds")?,
            },
            "chain" => Scenario::Chain {
                length: get("length")?,
            },
            "yield" => Scenario::Yield {
                tasks: get("tasks")?,
                yields: get("yields")?,
            },
            "echo" => Scenario::Echo {
                connections: get("connections")?,
                rounds: get("rounds")?,
                bytes: get("bytes")?,
            },
            "connections" => Scenario::Connections {
                connections: get("connections")?,
            },
            _ => unreachable!("every catalogue entry has a variant"),
        };
        scenario.validate()?;
        Ok(scenario)
    }

    fn validate(&self) -> Result<(), CatalogueError> {
        match *self {
            Scenario::Skynet { size } if !is_power_of_ten(size) => Err(CatalogueError::Invalid {
                param: "size",
                reason: format!("must be a power of 10 (1, 10, 100, …), got {size}"),
            }),
            Scenario::Echo { bytes, .. } if bytes > socket::MAX_BYTES => {
                Err(CatalogueError::Invalid {
                    param: "bytes",
                    reason: format!("must be at most {} (1 MiB), got {bytes}", socket::MAX_BYTES),
                })
            }
            Scenario::Echo { connections, .. } | Scenario::Connections { connections }
                if connections > socket::MAX_CONNECTIONS =>
            {
                Err(CatalogueError::Invalid {
                    param: "connections",
                    reason: format!(
                        "must be at most {} (one loopback address's client ports), got {connections}",
                        socket::MAX_CONNECTIONS
                    ),
                })
            }
            Scenario::Timer { step_us, total_ms } if step_us > total_ms.saturating_mul(1_000) => {
                Err(CatalogueError::Invalid {
                    param: "step-us",
                    reason: format!("{step_us} µs is longer than total-ms ({total_ms} ms)"),
                })
            }
            _ => self.checksum_fits(),
        }
    }

    /// The catalogue entry of this scenario.
    pub(crate) fn spec(&self) -> &'static ScenarioSpec {
        spec(self.name()).expect("every variant is in the catalogue")
    }

    /// Name of the scenario.
    pub fn name(&self) -> &'static str {
        match self {
            Scenario::Spawn { .. } => "spawn",
            Scenario::Sleep { .. } => "sleep",
            Scenario::Timer { .. } => "timer",
            Scenario::Doxbee { .. } => "doxbee",
            Scenario::Parallel { .. } => "parallel",
            Scenario::Skynet { .. } => "skynet",
            Scenario::Pingpong { .. } => "pingpong",
            Scenario::Chain { .. } => "chain",
            Scenario::Yield { .. } => "yield",
            Scenario::Echo { .. } => "echo",
            Scenario::Connections { .. } => "connections",
        }
    }

    /// Every parameter with its value, in catalogue order.
    pub fn params(&self) -> Vec<(&'static str, u64)> {
        let values: Vec<u64> = match *self {
            Scenario::Spawn { tasks } => vec![tasks],
            Scenario::Sleep { tasks, delay_ms } => vec![tasks, delay_ms],
            Scenario::Timer { step_us, total_ms } => vec![step_us, total_ms],
            Scenario::Doxbee { requests, io_ms } => vec![requests, io_ms],
            Scenario::Parallel {
                requests,
                fanout,
                io_ms,
            } => vec![requests, fanout, io_ms],
            Scenario::Skynet { size } => vec![size],
            Scenario::Pingpong { pairs, rounds } => vec![pairs, rounds],
            Scenario::Chain { length } => vec![length],
            Scenario::Yield { tasks, yields } => vec![tasks, yields],
            Scenario::Echo {
                connections,
                rounds,
                bytes,
            } => vec![connections, rounds, bytes],
            Scenario::Connections { connections } => vec![connections],
        };
        self.spec()
            .params
            .iter()
            .map(|p| p.name)
            .zip(values)
            .collect()
    }

    /// The value of the size parameter (tasks, requests, leaves …), if the scenario has one.
    pub fn size(&self) -> Option<u64> {
        let name = self.spec().size_param?;
        self.params()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The same scenario at its idle size: the contestant's footprint with (almost) no work.
    pub fn idle(&self) -> Option<Scenario> {
        let spec = self.spec();
        let size_param = spec.size_param?;
        let values: Vec<(&str, u64)> = self
            .params()
            .into_iter()
            .map(|(n, v)| {
                if n == size_param {
                    (n, spec.idle_size)
                } else {
                    (n, v)
                }
            })
            .collect();
        Some(Scenario::new(spec.name, &values).expect("the idle size is valid"))
    }

    /// The scenario the warm-up iterations run when the seed warms up with a smaller batch
    /// ([`ScenarioSpec::warmup_batch`]); `None` when they run this one.
    pub fn seed_warm_up(&self) -> Option<Scenario> {
        let (param, most) = self.spec().warm_up_batch?;
        self.with(param, |v| v.min(most))
    }

    /// This scenario with `param` mapped by `f`; `None` when that changes nothing.
    pub fn with(&self, param: &str, f: impl Fn(u64) -> u64) -> Option<Scenario> {
        let mut changed = false;
        let values: Vec<(&str, u64)> = self
            .params()
            .into_iter()
            .map(|(n, v)| {
                let new = if n == param { f(v) } else { v };
                changed |= new != v;
                (n, new)
            })
            .collect();
        changed.then(|| Scenario::new(self.name(), &values).expect("a value the catalogue accepts"))
    }

    /// The scenario `name` at its reference point, the quick preset's size
    /// ([`ScenarioSpec::quick`]).
    pub fn reference(name: &str) -> Result<Scenario, CatalogueError> {
        Scenario::new(name, spec(name)?.quick)
    }

    /// This scenario at its reference point ([`Scenario::reference`]).
    pub fn at_reference(&self) -> Scenario {
        Scenario::reference(self.name()).expect("the catalogue's quick sizes are valid")
    }

    /// The operations of one iteration — tasks spawned, messages sent, fake I/O ops,
    /// yields, sleeps: the work it does, whatever it waits.
    pub fn operations(&self) -> u64 {
        match *self {
            Scenario::Spawn { tasks } | Scenario::Sleep { tasks, .. } => tasks,
            Scenario::Timer { step_us, total_ms } => Scenario::timer_count(step_us, total_ms),
            Scenario::Doxbee { requests, .. } => requests.saturating_mul(DOXBEE_STEPS),
            Scenario::Parallel {
                requests, fanout, ..
            } => requests.saturating_mul(fanout.saturating_add(1)),
            // 10 children per inner node: 1.111… tasks per leaf.
            Scenario::Skynet { size } => size + size / 9,
            Scenario::Pingpong { pairs, rounds } => pairs.saturating_mul(rounds).saturating_mul(2),
            Scenario::Chain { length } => length,
            Scenario::Yield { tasks, yields } => tasks.saturating_mul(yields),
            // A round trip is a write and a read on each side.
            Scenario::Echo {
                connections,
                rounds,
                ..
            } => connections.saturating_mul(rounds).saturating_mul(4),
            // A connect, an accept, two tasks, a byte each way, two closes.
            Scenario::Connections { connections } => connections.saturating_mul(8),
        }
    }

    /// Descriptors a run of this scenario holds open at once (both ends of every connection
    /// and [`FD_HEADROOM`]): the open-file limit the harness gives its process. `None` for
    /// the scenarios without sockets, which run with the limit they inherit.
    pub fn open_files(&self) -> Option<u64> {
        self.connections().map(socket::open_files)
    }

    /// The loopback connections a run of this scenario opens at once; `None` for the
    /// scenarios without sockets.
    pub fn connections(&self) -> Option<u64> {
        match *self {
            Scenario::Echo { connections, .. } | Scenario::Connections { connections } => {
                Some(connections)
            }
            _ => None,
        }
    }

    /// Sleeps of the timer scenario.
    pub fn timer_count(step_us: u64, total_ms: u64) -> u64 {
        u64::try_from(Scenario::exact_timer_count(step_us, total_ms))
            .expect("Scenario::new refuses timers of more than u64::MAX sleeps")
    }

    fn exact_timer_count(step_us: u64, total_ms: u64) -> u128 {
        u128::from(total_ms) * 1_000 / u128::from(step_us)
    }

    /// The checksum a correct run reports. Exact: [`Scenario::new`] refuses parameters
    /// whose checksum does not fit the protocol's 64 bits.
    pub fn checksum(&self) -> u64 {
        u64::try_from(self.exact_checksum())
            .expect("Scenario::new refuses parameters whose checksum passes 64 bits")
    }

    /// The checksum in u128, where no product of two parameters overflows.
    fn exact_checksum(&self) -> u128 {
        let product = |a: u64, b: u64| u128::from(a) * u128::from(b);
        let sum_below = |n: u64| product(n, n.saturating_sub(1)) / 2;
        match *self {
            Scenario::Spawn { tasks } | Scenario::Sleep { tasks, .. } => sum_below(tasks),
            Scenario::Timer { step_us, total_ms } => Scenario::exact_timer_count(step_us, total_ms),
            Scenario::Doxbee { requests, .. } => product(requests, DOXBEE_STEPS),
            Scenario::Parallel {
                requests, fanout, ..
            } => u128::from(requests) * (u128::from(fanout) + 1),
            Scenario::Skynet { size } => sum_below(size),
            Scenario::Pingpong { pairs, rounds } => product(pairs, rounds),
            Scenario::Chain { length } => sum_below(length.saturating_add(1)),
            Scenario::Yield { tasks, yields } => product(tasks, yields),
            Scenario::Echo {
                connections,
                rounds,
                bytes,
            } => u128::from(bytes) * socket::echo_sum(connections, rounds),
            Scenario::Connections { connections } => socket::pattern_sum(connections),
        }
    }

    /// Refuses parameters whose checksum passes u64. Wrapping would not do: contestants
    /// disagree past 64 bits (Rust, Go and C++ wrap unsigned, Java and Kotlin print a
    /// negative `long`, Python prints the exact integer, JavaScript rounds), and the
    /// harness reads the checksum as a u64 (docs/PROTOCOL.md). Such a run would take years
    /// anyway; refusing it when the plan is made names the parameter instead.
    fn checksum_fits(&self) -> Result<(), CatalogueError> {
        let exact = self.exact_checksum();
        if u64::try_from(exact).is_ok() {
            return Ok(());
        }
        Err(CatalogueError::Invalid {
            param: self.spec().params[0].name,
            reason: format!(
                "is too large: with {} the checksum would be {exact}, more than the protocol's \
                 64 bits hold",
                self.label()
            ),
        })
    }

    /// Nanoseconds of a run that are pure waiting; overhead = elapsed − ideal.
    pub fn ideal_ns(&self) -> u64 {
        const MS: u64 = 1_000_000;
        match *self {
            Scenario::Sleep { tasks, delay_ms } if tasks > 0 => delay_ms * MS,
            Scenario::Timer { step_us, total_ms } => {
                Scenario::timer_count(step_us, total_ms) * step_us * 1_000
            }
            Scenario::Doxbee { requests, io_ms } if requests > 0 => DOXBEE_STEPS * io_ms * MS,
            Scenario::Parallel {
                requests, io_ms, ..
            } if requests > 0 => 2 * io_ms * MS,
            _ => 0,
        }
    }

    /// A short label of the parameters, e.g. `tasks=10000 delay-ms=1000`.
    pub fn label(&self) -> String {
        self.params()
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn is_power_of_ten(mut n: u64) -> bool {
    if n == 0 {
        return false;
    }
    while n.is_multiple_of(10) {
        n /= 10;
    }
    n == 1
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
