//! The seed benchmarks' published figures, as data, so that a report can put them beside
//! ours: each number with the seed it comes from, the experiment (the taskbench point that
//! re-runs it), the implementation, what it measures, its unit, and the year and machine it
//! was measured on. Transcribed from docs/SEEDS.md, which describes each seed's workload,
//! measurement and source (one section per seed, cited below); a figure with no year is
//! one whose source does not date it.

use catalogue::Point;

pub mod counterparts;

/// A seed benchmark's id: one variant per seed, so that presets, the figures and the report
/// cannot spell one two ways; [`SeedId::as_str`] is the tag preset files write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SeedId {
    ConcurrencyBenchmarks,
    BluebirdDoxbee,
    BluebirdParallel,
    AsyncBench,
    Ghc1523,
    AsyncRuntimes2023,
    AsyncRuntimes2024,
    Skynet,
}

impl SeedId {
    pub const ALL: [SeedId; 8] = [
        SeedId::ConcurrencyBenchmarks,
        SeedId::BluebirdDoxbee,
        SeedId::BluebirdParallel,
        SeedId::AsyncBench,
        SeedId::Ghc1523,
        SeedId::AsyncRuntimes2023,
        SeedId::AsyncRuntimes2024,
        SeedId::Skynet,
    ];

    /// The id as preset tags and results write it (`bluebird-doxbee`).
    pub const fn as_str(self) -> &'static str {
        match self {
            SeedId::ConcurrencyBenchmarks => "concurrency-benchmarks",
            SeedId::BluebirdDoxbee => "bluebird-doxbee",
            SeedId::BluebirdParallel => "bluebird-parallel",
            SeedId::AsyncBench => "async-bench",
            SeedId::Ghc1523 => "ghc-1523",
            SeedId::AsyncRuntimes2023 => "async-runtimes-2023",
            SeedId::AsyncRuntimes2024 => "async-runtimes-2024",
            SeedId::Skynet => "skynet",
        }
    }
}

/// A seed benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed {
    /// The id preset points are tagged with (`bluebird-doxbee`).
    pub(crate) id: SeedId,
    pub title: &'static str,
    /// Where the figures were published.
    pub source: &'static str,
    /// How they were measured, which a reader must know before comparing them with ours
    /// (docs/SEEDS.md, the seed's measurement section).
    pub measured: &'static str,
}

/// One experiment of a seed and the taskbench point that reproduces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Experiment {
    pub seed: SeedId,
    pub name: &'static str,
    pub scenario: &'static str,
    /// Parameters the point must have; parameters not listed may take any value.
    pub params: &'static [(&'static str, u64)],
}

/// What a published number measures; each has a counterpart in our results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SeedMetric {
    /// Time of the whole experiment (ours: the contestant's elapsed).
    Time,
    /// Time beyond the sleep (ours: elapsed − ideal).
    Overhead,
    /// Peak resident memory of the process (ours: peak RSS).
    PeakMemory,
    /// Resident memory gained during the measured part (ours: peak RSS and idle footprint).
    MemoryGrowth,
    /// Time a single sleep adds beyond what was asked (ours: oversleep percentiles).
    SleepOverhead,
}

/// One published number (or range).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    pub seed: SeedId,
    pub(crate) experiment: &'static str,
    pub implementation: &'static str,
    pub metric: SeedMetric,
    pub value: f64,
    /// The upper end, when the source gives a range (`100–200 ms`).
    pub upto: Option<f64>,
    /// As published: `ms`, `s`, `MB` (bluebird's MB are 2^20 bytes; the others do not say).
    pub unit: &'static str,
    pub year: Option<u16>,
    pub machine: &'static str,
}

/// The tags preset cases carry (`seed = "…"`): each a seed's id, or a family of seeds.
pub mod tag {
    use super::SeedId;

    /// composewell/concurrency-benchmarks: 10,000 tasks × 0 s and 5 s.
    pub const CONCURRENCY_BENCHMARKS: &str = SeedId::ConcurrencyBenchmarks.as_str();
    /// bluebird's doxbee-sequential: 10,000 requests, 1 ms fake I/O.
    pub const BLUEBIRD_DOXBEE: &str = SeedId::BluebirdDoxbee.as_str();
    /// bluebird's madeup-parallel: 10,000 requests × 25 fake I/O ops of 1 ms.
    pub const BLUEBIRD_PARALLEL: &str = SeedId::BluebirdParallel.as_str();
    /// nathan-cruz77/async_bench: 1k/10k/100k tasks × 1 s sleep.
    pub const ASYNC_BENCH: &str = SeedId::AsyncBench.as_str();
    /// GHC ticket #1523: sequential sleeps of one step summing to 1 s.
    pub const GHC_1523: &str = SeedId::Ghc1523.as_str();
    /// The async-runtimes memory benchmarks, both of them: 1 … 1M tasks × 10 s.
    pub const ASYNC_RUNTIMES: &str = "async-runtimes";
    /// atemerev/skynet: a 10-ary tree of 1M leaves.
    pub const SKYNET: &str = SeedId::Skynet.as_str();
}

/// Tags that stand for several seeds.
const FAMILIES: &[(&str, &[SeedId])] = &[(
    tag::ASYNC_RUNTIMES,
    &[SeedId::AsyncRuntimes2023, SeedId::AsyncRuntimes2024],
)];

/// The seeds `tag` stands for: the seed of that id, or a family's; `None` for a tag no
/// seed answers to.
pub fn tagged(tag: &str) -> Option<Vec<SeedId>> {
    if let Some((_, family)) = FAMILIES.iter().find(|(t, _)| *t == tag) {
        return Some(family.to_vec());
    }
    SeedId::ALL
        .into_iter()
        .find(|s| s.as_str() == tag)
        .map(|s| vec![s])
}

/// Every tag a preset may use, for messages.
pub fn tags() -> Vec<&'static str> {
    let mut all: Vec<&str> = FAMILIES.iter().map(|(t, _)| *t).collect();
    all.extend(SeedId::ALL.map(SeedId::as_str));
    all
}

/// Every seed with published figures (docs/SEEDS.md#at-a-glance).
pub(crate) const SEEDS: &[Seed] = &[
    Seed {
        id: SeedId::ConcurrencyBenchmarks,
        title: "composewell/concurrency-benchmarks",
        source: "charts/results.csv, commit 68bc820",
        measured: "gauge (nfIO), one benchmark per process, one quick sample including the first iteration; time of the 5 s group is overhead only (5 s subtracted); memory is maxrss; GHC 8, 2018",
    },
    Seed {
        id: SeedId::BluebirdDoxbee,
        title: "bluebird doxbee-sequential",
        source: "bluebird README (2018-07-16) and docs/benchmarks.md",
        measured: "in-process (performance.js child): time from Date.now() after a warm-up of 350 requests to the last completion, including one process.memoryUsage() call per finished request (8–10 µs each on our machine, ~90 ms per 10k requests); memory = highest sampled RSS − RSS at the start (MB = 2^20 bytes), a growth not a peak; Node 10.6 on 4 threads (README 2018), Node 8.6 (docs/benchmarks.md); its promise variants overlap steps 2 and 3 and do not await the commit",
    },
    Seed {
        id: SeedId::BluebirdParallel,
        title: "bluebird madeup-parallel",
        source: "bluebird README (2018-07-16) and docs/benchmarks.md",
        measured: "in-process (performance.js child): time from Date.now() after a warm-up of 350 requests to the last completion, including one process.memoryUsage() call per finished request (8–10 µs each on our machine); memory = highest sampled RSS − RSS at the start (MB = 2^20 bytes), a growth not a peak; Node 10.6 on 4 threads (README 2018), Node 8.6 (docs/benchmarks.md)",
    },
    Seed {
        id: SeedId::AsyncBench,
        title: "nathan-cruz77/async_bench",
        source: "data/all.dat, commit b399990",
        measured: "a wall clock inside each program around creating and awaiting the tasks, in ms; no memory measured; repetitions not stated; 2018",
    },
    Seed {
        id: SeedId::Ghc1523,
        title: "GHC #1523, constant overhead of threadDelay",
        source: "gitlab.haskell.org/ghc/ghc/-/issues/1523",
        measured: "a report, not a benchmark: threadDelay adds a constant 100–200 ms on GHC 6.7, macOS 10.4 (2007), seen in a kernel trace",
    },
    Seed {
        id: SeedId::AsyncRuntimes2023,
        title: "async-runtimes-benchmarks (2023)",
        source: "pkolaczk, \"How much memory do you need to run 1 million concurrent tasks?\"",
        measured: "peak memory of the whole process, the tool not stated; one run per variant; Xeon E3-1505M, Linux 5.15, 2023",
    },
    Seed {
        id: SeedId::AsyncRuntimes2024,
        title: "async-runtimes-benchmarks-2024 (take 2)",
        source: "hez2010/async-runtimes-benchmarks-2024, RESULT.md",
        measured: "memory (MB), CPU (%) and time (s) per run, the tool not named (GNU time's columns by the look of them); i7-13700K, Debian 12, 2024",
    },
    Seed {
        id: SeedId::Skynet,
        title: "atemerev/skynet",
        source: "README, commit b5829d7",
        measured: "a wall clock in the program from just before the root is spawned until the result arrives, ms; no memory; undated README",
    },
];

/// Every experiment with published figures (its point: docs/SEEDS.md#at-a-glance).
#[rustfmt::skip]
pub const EXPERIMENTS: &[Experiment] = &[
    experiment(SeedId::ConcurrencyBenchmarks, "delay-0ms-10k", "sleep", &[("tasks", 10_000), ("delay-ms", 0)]),
    experiment(SeedId::ConcurrencyBenchmarks, "delay-5000ms-10k", "sleep", &[("tasks", 10_000), ("delay-ms", 5_000)]),
    experiment(SeedId::BluebirdDoxbee, "doxbee-sequential", "doxbee", &[("requests", 10_000), ("io-ms", 1)]),
    experiment(SeedId::BluebirdParallel, "madeup-parallel", "parallel", &[("requests", 10_000), ("fanout", 25), ("io-ms", 1)]),
    experiment(SeedId::AsyncBench, "1k tasks × 1 s", "sleep", &[("tasks", 1_000), ("delay-ms", 1_000)]),
    experiment(SeedId::AsyncBench, "10k tasks × 1 s", "sleep", &[("tasks", 10_000), ("delay-ms", 1_000)]),
    experiment(SeedId::AsyncBench, "100k tasks × 1 s", "sleep", &[("tasks", 100_000), ("delay-ms", 1_000)]),
    experiment(SeedId::Ghc1523, "threadDelay", "timer", &[("total-ms", 1_000)]),
    experiment(SeedId::AsyncRuntimes2023, "1 task × 10 s", "sleep", &[("tasks", 1), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2023, "10k tasks × 10 s", "sleep", &[("tasks", 10_000), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2023, "100k tasks × 10 s", "sleep", &[("tasks", 100_000), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2023, "1M tasks × 10 s", "sleep", &[("tasks", 1_000_000), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2024, "1 task × 10 s", "sleep", &[("tasks", 1), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2024, "10k tasks × 10 s", "sleep", &[("tasks", 10_000), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2024, "100k tasks × 10 s", "sleep", &[("tasks", 100_000), ("delay-ms", 10_000)]),
    experiment(SeedId::AsyncRuntimes2024, "1M tasks × 10 s", "sleep", &[("tasks", 1_000_000), ("delay-ms", 10_000)]),
    experiment(SeedId::Skynet, "1M leaves", "skynet", &[("size", 1_000_000)]),
];

const fn experiment(
    seed: SeedId,
    name: &'static str,
    scenario: &'static str,
    params: &'static [(&'static str, u64)],
) -> Experiment {
    Experiment {
        seed,
        name,
        scenario,
        params,
    }
}

/// Figures measured together: one seed, experiment, metric, unit, year and machine.
struct Set {
    seed: SeedId,
    experiment: &'static str,
    metric: SeedMetric,
    unit: &'static str,
    year: Option<u16>,
    machine: &'static str,
    /// Implementation, value, and the upper end of a range.
    values: &'static [(&'static str, f64, Option<f64>)],
}

const BLUEBIRD_2018: &str = "Node 10.6.0 · macOS 17.7 · i5-7360U ×4";
const BLUEBIRD_DOCS: &str = "Node 8.6.0 · Linux 4.4 · i5-6600K ×4";
const COMPOSEWELL: &str = "not stated (GHC -O2 -threaded, streamly 0.7.2, async 2.2.2)";
const ASYNC_BENCH: &str = "8 threads · 7.7 GiB · Python 3.6.6, Elixir 1.6.6 (OTP 19), Node 10.2.1";
const GHC_1523: &str = "x86 · macOS 10.4.10 · GHC 6.7";
const RUNTIMES_2023: &str = "Xeon E3-1505M v6 · Ubuntu 22.04 (Linux 5.15)";
const RUNTIMES_2024: &str = "i7-13700K · Debian 12";
const SKYNET_MAC: &str = "MacBook 12\" 2015, Core M · OS X";
const SKYNET_WIN: &str = "i7-4770 · Windows 8.1";
const SKYNET_LINUX: &str = "i7-4771 · Ubuntu 15.10";

/// Shorthand for a value without a range.
const fn v(name: &'static str, value: f64) -> (&'static str, f64, Option<f64>) {
    (name, value, None)
}

/// Shorthand for a range.
const fn r(name: &'static str, low: f64, high: f64) -> (&'static str, f64, Option<f64>) {
    (name, low, Some(high))
}

use SeedMetric::{MemoryGrowth, Overhead, PeakMemory, SleepOverhead, Time};

#[rustfmt::skip]
const SETS: &[Set] = &[
    // docs/SEEDS.md#bluebird-published-figures: the README (2018) and docs/benchmarks.md.
    Set { seed: SeedId::BluebirdDoxbee, experiment: "doxbee-sequential", metric: Time, unit: "ms", year: Some(2018), machine: BLUEBIRD_2018,
        values: &[v("callbacks-baseline", 162.0), v("neo-async", 195.0), v("bluebird", 257.0), v("native async/await", 245.0), v("native ES6 promises", 335.0), v("Q", 3505.0), v("bacon.js", 5224.0)] },
    Set { seed: SeedId::BluebirdDoxbee, experiment: "doxbee-sequential", metric: MemoryGrowth, unit: "MB", year: Some(2018), machine: BLUEBIRD_2018,
        values: &[v("callbacks-baseline", 28.1), v("neo-async", 42.4), v("bluebird", 47.0), v("native async/await", 57.4), v("native ES6 promises", 65.4), v("Q", 367.1), v("bacon.js", 660.1)] },
    Set { seed: SeedId::BluebirdDoxbee, experiment: "doxbee-sequential", metric: Time, unit: "ms", year: None, machine: BLUEBIRD_DOCS,
        values: &[v("callbacks-baseline", 116.0), v("bluebird", 214.0), v("native async/await", 422.0), v("streamline-generators", 809.0), v("streamline-callbacks", 1127.0), v("Q", 8533.0)] },
    Set { seed: SeedId::BluebirdDoxbee, experiment: "doxbee-sequential", metric: MemoryGrowth, unit: "MB", year: None, machine: BLUEBIRD_DOCS,
        values: &[v("callbacks-baseline", 34.0), v("bluebird", 43.4), v("native async/await", 104.2), v("streamline-generators", 154.4), v("streamline-callbacks", 196.5), v("Q", 435.5)] },
    Set { seed: SeedId::BluebirdParallel, experiment: "madeup-parallel", metric: Time, unit: "ms", year: Some(2018), machine: BLUEBIRD_2018,
        values: &[v("callbacks-baseline", 309.0), v("neo-async", 374.0), v("bluebird", 472.0), v("native async/await", 1087.0), v("native ES6 promises", 1509.0)] },
    Set { seed: SeedId::BluebirdParallel, experiment: "madeup-parallel", metric: MemoryGrowth, unit: "MB", year: Some(2018), machine: BLUEBIRD_2018,
        values: &[v("callbacks-baseline", 74.5), v("neo-async", 84.2), v("bluebird", 98.0), v("native async/await", 242.0), v("native ES6 promises", 242.9)] },
    Set { seed: SeedId::BluebirdParallel, experiment: "madeup-parallel", metric: Time, unit: "ms", year: None, machine: BLUEBIRD_DOCS,
        values: &[v("callbacks-baseline", 274.0), v("bluebird", 407.0), v("native async/await", 1260.0), v("streamline-generators", 13068.0), v("streamline-callbacks", 25509.0)] },
    Set { seed: SeedId::BluebirdParallel, experiment: "madeup-parallel", metric: MemoryGrowth, unit: "MB", year: None, machine: BLUEBIRD_DOCS,
        values: &[v("callbacks-baseline", 75.1), v("bluebird", 107.3), v("native async/await", 323.7), v("streamline-generators", 919.2), v("streamline-callbacks", 1141.6)] },
    // docs/SEEDS.md#concurrency-benchmarks-published-figures. With no delay the published
    // time is all overhead; with 5 s the source subtracted it.
    Set { seed: SeedId::ConcurrencyBenchmarks, experiment: "delay-0ms-10k", metric: Overhead, unit: "ms", year: Some(2021), machine: COMPOSEWELL,
        values: &[v("streamly fromAhead", 8.5), v("streamly fromAsync", 2.9), v("async mapConcurrently", 102.0)] },
    Set { seed: SeedId::ConcurrencyBenchmarks, experiment: "delay-0ms-10k", metric: PeakMemory, unit: "MB", year: Some(2021), machine: COMPOSEWELL,
        values: &[v("streamly fromAhead", 10.2), v("streamly fromAsync", 8.9), v("async mapConcurrently", 43.9)] },
    Set { seed: SeedId::ConcurrencyBenchmarks, experiment: "delay-5000ms-10k", metric: Overhead, unit: "ms", year: Some(2021), machine: COMPOSEWELL,
        values: &[v("streamly fromAhead", 116.0), v("streamly fromAsync", 105.0), v("async mapConcurrently_", 128.0), v("async mapConcurrently", 135.0)] },
    Set { seed: SeedId::ConcurrencyBenchmarks, experiment: "delay-5000ms-10k", metric: PeakMemory, unit: "MB", year: Some(2021), machine: COMPOSEWELL,
        values: &[v("streamly fromAhead", 85.4), v("streamly fromAsync", 81.2), v("async mapConcurrently_", 119.3), v("async mapConcurrently", 132.8)] },
    // docs/SEEDS.md#async_bench-published-figures.
    Set { seed: SeedId::AsyncBench, experiment: "1k tasks × 1 s", metric: Time, unit: "ms", year: Some(2018), machine: ASYNC_BENCH,
        values: &[v("Elixir", 1015.7), v("Node", 1009.6), v("Python", 1026.4)] },
    Set { seed: SeedId::AsyncBench, experiment: "10k tasks × 1 s", metric: Time, unit: "ms", year: Some(2018), machine: ASYNC_BENCH,
        values: &[v("Elixir", 1062.0), v("Node", 1025.8), v("Python", 1122.6)] },
    Set { seed: SeedId::AsyncBench, experiment: "100k tasks × 1 s", metric: Time, unit: "ms", year: Some(2018), machine: ASYNC_BENCH,
        values: &[v("Elixir", 1410.5), v("Node", 1117.5), v("Python", 2435.3)] },
    // docs/SEEDS.md#ghc-1523-the-report.
    Set { seed: SeedId::Ghc1523, experiment: "threadDelay", metric: SleepOverhead, unit: "ms", year: None, machine: GHC_1523,
        values: &[r("GHC threadDelay", 100.0, 200.0)] },
    // docs/SEEDS.md#async-runtimes-2023.
    Set { seed: SeedId::AsyncRuntimes2023, experiment: "1 task × 10 s", metric: PeakMemory, unit: "MB", year: Some(2023), machine: RUNTIMES_2023,
        values: &[v("Rust threads", 2.5), v("Rust tokio", 3.0), v("Rust async-std", 3.0), v("Go", 1.8), v("Java threads", 38.2), v("Java virtual threads", 40.1), v("C#", 131.1), v("Node", 36.2), v("Python", 17.3), v("Elixir", 57.4)] },
    Set { seed: SeedId::AsyncRuntimes2023, experiment: "10k tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2023), machine: RUNTIMES_2023,
        values: &[v("Rust threads", 48.3), v("Rust tokio", 4.6), v("Rust async-std", 8.1), v("Go", 28.6), v("Java threads", 244.4), v("Java virtual threads", 78.5), v("C#", 131.4), v("Node", 48.3), v("Python", 40.0), v("Elixir", 99.4)] },
    Set { seed: SeedId::AsyncRuntimes2023, experiment: "100k tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2023), machine: RUNTIMES_2023,
        values: &[v("Rust tokio", 23.7), v("Rust async-std", 54.6), v("Go", 269.0), v("Java virtual threads", 223.0), v("C#", 130.9), v("Node", 112.5), v("Python", 240.5), v("Elixir", 445.0)] },
    Set { seed: SeedId::AsyncRuntimes2023, experiment: "1M tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2023), machine: RUNTIMES_2023,
        values: &[v("Rust tokio", 213.6), v("Rust async-std", 527.7), v("Go", 2658.0), v("Java virtual threads", 1154.0), v("C#", 461.0), v("Node", 494.0), v("Python", 2232.0), v("Elixir", 4009.0)] },
    // docs/SEEDS.md#async-runtimes-2024: take 2 (the first run's KB figures are not shown).
    Set { seed: SeedId::AsyncRuntimes2024, experiment: "1 task × 10 s", metric: PeakMemory, unit: "MB", year: Some(2024), machine: RUNTIMES_2024,
        values: &[v("Rust tokio", 4.7), v("Rust async_std", 5.1), v("Rust futures", 3.0), v("C#", 24.4), v("C# NativeAOT", 3.6), v("Go", 3.6), v("Java OpenJDK", 46.9), v("Java GraalVM", 112.4), v("GraalVM native-image", 8.3), v("Node", 41.9), v("Python", 19.5)] },
    Set { seed: SeedId::AsyncRuntimes2024, experiment: "10k tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2024), machine: RUNTIMES_2024,
        values: &[v("Rust tokio", 9.0), v("Rust async_std", 8.1), v("Rust futures", 4.8), v("C#", 28.1), v("C# NativeAOT", 7.6), v("Go", 34.3), v("Java OpenJDK", 108.4), v("Java GraalVM", 181.8), v("GraalVM native-image", 22.8), v("Node", 64.8), v("Python", 33.3)] },
    Set { seed: SeedId::AsyncRuntimes2024, experiment: "100k tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2024), machine: RUNTIMES_2024,
        values: &[v("Rust tokio", 46.2), v("Rust async_std", 53.2), v("Rust futures", 22.8), v("C#", 50.1), v("C# NativeAOT", 30.0), v("Go", 262.7), v("Java OpenJDK", 197.0), v("Java GraalVM", 419.0), v("GraalVM native-image", 100.8), v("Node", 125.1), v("Python", 146.5)] },
    Set { seed: SeedId::AsyncRuntimes2024, experiment: "1M tasks × 10 s", metric: PeakMemory, unit: "MB", year: Some(2024), machine: RUNTIMES_2024,
        values: &[v("Rust tokio", 439.1), v("Rust async_std", 502.3), v("Rust futures", 207.4), v("C#", 218.4), v("C# NativeAOT", 196.6), v("Go", 2585.6), v("Java OpenJDK", 1095.2), v("Java GraalVM", 1546.8), v("GraalVM native-image", 1057.3), v("Node", 563.9), v("Python", 1275.7)] },
    Set { seed: SeedId::AsyncRuntimes2024, experiment: "1M tasks × 10 s", metric: Time, unit: "s", year: Some(2024), machine: RUNTIMES_2024,
        values: &[v("Rust tokio", 10.41), v("Rust async_std", 10.35), v("Rust futures", 10.30), v("C#", 10.50), v("C# NativeAOT", 10.58), v("Go", 10.83), v("Java OpenJDK", 15.98), v("Java GraalVM", 15.60), v("GraalVM native-image", 13.41), v("Node", 10.51), v("Python", 19.36)] },
    // docs/SEEDS.md#skynet-published-figures: one set per machine.
    Set { seed: SeedId::Skynet, experiment: "1M leaves", metric: Time, unit: "ms", year: None, machine: SKYNET_MAC,
        values: &[v("Scala/Akka", 6379.0), v("Erlang", 4414.0), v("Erlang (HiPE)", 3999.0), v("Haskell GHC 7.10.3", 6181.0), v("Go", 979.0), v(".NET Core", 650.0), v("RxJava", 219.0)] },
    Set { seed: SeedId::Skynet, experiment: "1M leaves", metric: Time, unit: "ms", year: None, machine: SKYNET_WIN,
        values: &[v("Scala/Akka", 4419.0), v("Erlang", 1700.0), v("Haskell", 2820.0), v("Go", 629.0), v("F# MailboxProcessor", 756.0), v(".NET Core async", 290.0), v("Node-bluebird", 285.0), v(".NET TPL", 118.0)] },
    Set { seed: SeedId::Skynet, experiment: "1M leaves", metric: Time, unit: "ms", year: None, machine: SKYNET_LINUX,
        values: &[r("Scala/Akka", 1700.0, 2700.0), r("Haskell", 41.0, 44.0), r("Erlang", 700.0, 1100.0), r("Erlang (HiPE)", 2100.0, 3500.0), r("Go", 200.0, 224.0), v("LuaJIT", 297.0)] },
];

/// Every published figure, in the order of the sources.
pub fn figures() -> impl Iterator<Item = Figure> {
    SETS.iter().flat_map(|set| {
        set.values
            .iter()
            .map(move |&(implementation, value, upto)| Figure {
                seed: set.seed,
                experiment: set.experiment,
                implementation,
                metric: set.metric,
                value,
                upto,
                unit: set.unit,
                year: set.year,
                machine: set.machine,
            })
    })
}

/// The seed with this id.
pub fn seed(id: SeedId) -> &'static Seed {
    SEEDS
        .iter()
        .find(|s| s.id == id)
        .expect("every seed id has its seed (tested)")
}

/// The experiments a point reproduces: those of its tagged seed, or, untagged, of any seed,
/// whose scenario and listed parameters it matches.
pub fn experiments_for(point: &Point, tag: Option<&str>) -> Vec<&'static Experiment> {
    EXPERIMENTS
        .iter()
        .filter(|e| tag.is_none_or(|t| tagged(t).is_some_and(|seeds| seeds.contains(&e.seed))))
        .filter(|e| e.scenario == point.scenario)
        .filter(|e| {
            e.params
                .iter()
                .all(|(k, v)| point.params.get(*k) == Some(v))
        })
        .collect()
}

/// The published figures of one experiment.
pub fn figures_of(experiment: &Experiment) -> Vec<Figure> {
    figures()
        .filter(|f| f.seed == experiment.seed && f.experiment == experiment.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(scenario: &str, list: &[(&str, u64)]) -> Point {
        let params = list.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Point::new(scenario, &params)
    }

    #[test]
    fn a_family_tag_finds_each_of_its_seeds() {
        let million = point("sleep", &[("tasks", 1_000_000), ("delay-ms", 10_000)]);
        let found: Vec<SeedId> = experiments_for(&million, Some(tag::ASYNC_RUNTIMES))
            .iter()
            .map(|e| e.seed)
            .collect();
        assert_eq!(
            found,
            [SeedId::AsyncRuntimes2023, SeedId::AsyncRuntimes2024]
        );
        assert_eq!(tagged("async-bench"), Some(vec![SeedId::AsyncBench]));
        assert_eq!(tagged("async-runtime"), None);
        for tag in tags() {
            assert!(tagged(tag).is_some_and(|s| !s.is_empty()), "{tag}");
        }
    }

    #[test]
    fn every_seed_id_has_its_seed_and_spells_its_tag() {
        for id in SeedId::ALL {
            assert_eq!(seed(id).id, id);
            assert_eq!(tagged(id.as_str()), Some(vec![id]));
        }
        assert_eq!(SEEDS.len(), SeedId::ALL.len());
    }

    #[test]
    fn every_figure_belongs_to_a_known_seed_and_experiment() {
        for figure in figures() {
            assert!(
                EXPERIMENTS
                    .iter()
                    .any(|e| e.seed == figure.seed && e.name == figure.experiment),
                "{figure:?}"
            );
            assert!(figure.value > 0.0 && figure.upto.is_none_or(|u| u > figure.value));
        }
        for experiment in EXPERIMENTS {
            assert!(!figures_of(experiment).is_empty(), "{experiment:?}");
            let spec = catalogue::spec(experiment.scenario).unwrap();
            for (name, _) in experiment.params {
                assert!(
                    spec.params.iter().any(|p| p.name == *name),
                    "{experiment:?}"
                );
            }
        }
    }

    #[test]
    fn published_numbers_as_the_reference_gives_them() {
        let find = |seed: SeedId, experiment: &str, implementation: &str, metric: SeedMetric| {
            figures()
                .find(|f| {
                    f.seed == seed
                        && f.experiment == experiment
                        && f.implementation == implementation
                        && f.metric == metric
                        && f.year.is_some()
                })
                .unwrap()
        };
        let doxbee = find(
            SeedId::BluebirdDoxbee,
            "doxbee-sequential",
            "callbacks-baseline",
            SeedMetric::MemoryGrowth,
        );
        assert_eq!(
            (doxbee.value, doxbee.unit, doxbee.year),
            (28.1, "MB", Some(2018))
        );
        let tokio = find(
            SeedId::AsyncRuntimes2023,
            "1M tasks × 10 s",
            "Rust tokio",
            SeedMetric::PeakMemory,
        );
        assert_eq!(tokio.value, 213.6);
        let python = find(
            SeedId::AsyncBench,
            "100k tasks × 1 s",
            "Python",
            SeedMetric::Time,
        );
        assert_eq!(python.value, 2435.3);
        // docs/benchmarks.md is undated: its streamline rows (issue 25 item 8).
        let streamline = figures()
            .find(|f| {
                f.implementation == "streamline-generators"
                    && f.experiment == "madeup-parallel"
                    && f.metric == SeedMetric::Time
            })
            .unwrap();
        assert_eq!((streamline.value, streamline.year), (13068.0, None));
        assert_eq!(
            figures()
                .filter(|f| f.seed == SeedId::AsyncRuntimes2024)
                .count(),
            55
        );
    }

    #[test]
    fn points_find_their_experiments_by_tag_or_by_parameters() {
        let ten_k_1s = point("sleep", &[("tasks", 10_000), ("delay-ms", 1_000)]);
        let names = |found: Vec<&Experiment>| found.iter().map(|e| e.name).collect::<Vec<_>>();
        assert_eq!(names(experiments_for(&ten_k_1s, None)), ["10k tasks × 1 s"]);
        assert_eq!(
            names(experiments_for(&ten_k_1s, Some("async-bench"))),
            ["10k tasks × 1 s"]
        );
        assert!(experiments_for(&ten_k_1s, Some("bluebird-doxbee")).is_empty());
        // Both memory studies ran 1M tasks × 10 s.
        let million = point("sleep", &[("tasks", 1_000_000), ("delay-ms", 10_000)]);
        assert_eq!(experiments_for(&million, None).len(), 2);
        // GHC #1523 is any step over one second.
        let timer = point("timer", &[("step-us", 10_000), ("total-ms", 1_000)]);
        assert_eq!(names(experiments_for(&timer, None)), ["threadDelay"]);
        assert!(
            experiments_for(
                &point("timer", &[("step-us", 1_000), ("total-ms", 200)]),
                None
            )
            .is_empty()
        );
    }
}
