//! Which of our rows stands beside each published implementation: the contestant that runs
//! that study's own workload (its runtime's spawn, timer and join, as the study wrote
//! them), and what still differs — so that a reader of a published figure beside ours
//! knows whether the two measure the same work (docs/SEEDS.md#published-figures-beside-ours).

use super::SeedId;

/// Our row for one published implementation, or why we have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counterpart {
    pub(crate) seed: SeedId,
    /// As the published figures name it (`native async/await`).
    pub(crate) implementation: &'static str,
    /// The contestant that runs its workload; `None` where no contestant can (`differs`
    /// says why).
    pub contestant: Option<&'static str>,
    /// What our row does that the study's does not, or why there is no row.
    pub differs: &'static str,
}

/// The counterpart of `implementation` in `seed`'s figures.
pub fn of(seed: SeedId, implementation: &str) -> Option<&'static Counterpart> {
    COUNTERPARTS
        .iter()
        .find(|c| c.seed == seed && c.implementation == implementation)
}

/// The contestants that stand beside `seeds`' figures, each once, in table order: a
/// preset that re-runs those seeds runs them.
pub fn contestants(seeds: &[SeedId]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in COUNTERPARTS.iter().filter(|c| seeds.contains(&c.seed)) {
        if let Some(name) = c.contestant.filter(|n| !names.contains(n)) {
            names.push(name);
        }
    }
    names
}

const fn ours(
    seed: SeedId,
    implementation: &'static str,
    contestant: &'static str,
    differs: &'static str,
) -> Counterpart {
    Counterpart {
        seed,
        implementation,
        contestant: Some(contestant),
        differs,
    }
}

const fn none(seed: SeedId, implementation: &'static str, why: &'static str) -> Counterpart {
    Counterpart {
        seed,
        implementation,
        contestant: None,
        differs: why,
    }
}

/// Every task returns its number, summed into the checksum (docs/SCENARIOS.md): the one
/// thing every sleep row adds to the studies' tasks, which return nothing.
const CHECKSUM: &str = "each task also returns its number for the checksum";
const DOXBEE: &str = "every step awaited in sequence, the commit included (docs/SEEDS.md#bluebird-its-suite-beside-ours)";
const PARALLEL: &str = "the commit awaited (the seed never awaits it)";
const STREAMLINE_DOXBEE: &str = "streamline 2.0.10 with streamline-runtime 1.2.0 (the seed's 2.0.16 and 1.0.38 are no longer served); every step awaited, the commit included";
const STREAMLINE_PARALLEL: &str = "streamline 2.0.10 with streamline-runtime 1.2.0 (the seed's 2.0.16 and 1.0.38 are no longer served); the commit awaited";
const NO_STREAMLY: &str = "none: streamly is on Hackage only, which this machine cannot reach (haskell-streamly is unavailable)";
const NO_DOTNET: &str = "none: no registry here serves .NET";
const NO_GRAAL: &str = "none: no registry here serves GraalVM";

use SeedId::{
    AsyncBench, AsyncRuntimes2023, AsyncRuntimes2024, BluebirdDoxbee, BluebirdParallel,
    ConcurrencyBenchmarks, Ghc1523, Skynet,
};

#[rustfmt::skip]
const COUNTERPARTS: &[Counterpart] = &[
    ours(BluebirdDoxbee, "callbacks-baseline", "node-callbacks", DOXBEE),
    ours(BluebirdDoxbee, "neo-async", "node-neo-async", DOXBEE),
    ours(BluebirdDoxbee, "bluebird", "node-bluebird", DOXBEE),
    ours(BluebirdDoxbee, "native async/await", "node-async-await", DOXBEE),
    ours(BluebirdDoxbee, "native ES6 promises", "node-promises", "a plain `new Promise` around the op, where the seed's wrapper copies `arguments` per call; every step awaited, the commit included"),
    ours(BluebirdDoxbee, "Q", "node-q", "written in Q's idiom by us: steps 2 and 3 in sequence, where the seed's overlap them"),
    ours(BluebirdDoxbee, "bacon.js", "node-bacon", "baconjs 3 (the seed's Bacon file does not run on it), in its idiom by us, steps in sequence"),
    ours(BluebirdParallel, "callbacks-baseline", "node-callbacks", PARALLEL),
    ours(BluebirdParallel, "neo-async", "node-neo-async", PARALLEL),
    ours(BluebirdParallel, "bluebird", "node-bluebird", PARALLEL),
    ours(BluebirdParallel, "native async/await", "node-async-await", PARALLEL),
    ours(BluebirdParallel, "native ES6 promises", "node-promises", "a plain `new Promise` around the op, where the seed's wrapper copies `arguments` per call; the commit awaited"),
    ours(BluebirdDoxbee, "streamline-generators", "node-streamline-generators", STREAMLINE_DOXBEE),
    ours(BluebirdDoxbee, "streamline-callbacks", "node-streamline-callbacks", STREAMLINE_DOXBEE),
    ours(BluebirdParallel, "streamline-generators", "node-streamline-generators", STREAMLINE_PARALLEL),
    ours(BluebirdParallel, "streamline-callbacks", "node-streamline-callbacks", STREAMLINE_PARALLEL),
    none(ConcurrencyBenchmarks, "streamly fromAhead", NO_STREAMLY),
    none(ConcurrencyBenchmarks, "streamly fromAsync", NO_STREAMLY),
    ours(ConcurrencyBenchmarks, "async mapConcurrently", "haskell-async", "the same call; ours sums the returned numbers (the seed's results are discarded by the benchmark)"),
    ours(ConcurrencyBenchmarks, "async mapConcurrently_", "haskell-async", "ours is mapConcurrently (results kept and summed), not mapConcurrently_"),
    ours(AsyncBench, "Elixir", "elixir-task", CHECKSUM),
    ours(AsyncBench, "Node", "node-promises", "each task is a promise timer resolving with its number (timers/promises setTimeout), joined with Promise.all, as the seed's `new Promise` around setTimeout"),
    ours(AsyncBench, "Python", "python-asyncio", "tasks in an asyncio.TaskGroup, each a coroutine that sleeps and returns its number; the seed hands bare sleep coroutines to asyncio.wait"),
    ours(Ghc1523, "GHC threadDelay", "haskell-forkio", "threadDelay on today's GHC and Linux, a 2007 report on macOS"),
    ours(AsyncRuntimes2023, "Rust threads", "threads", CHECKSUM),
    ours(AsyncRuntimes2023, "Rust tokio", "tokio", CHECKSUM),
    ours(AsyncRuntimes2023, "Rust async-std", "async-std", CHECKSUM),
    ours(AsyncRuntimes2023, "Go", "go", CHECKSUM),
    ours(AsyncRuntimes2023, "Java threads", "java-threads", "through newThreadPerTaskExecutor, a Future per task, where the study starts and joins threads"),
    ours(AsyncRuntimes2023, "Java virtual threads", "java-virtual", CHECKSUM),
    none(AsyncRuntimes2023, "C#", NO_DOTNET),
    ours(AsyncRuntimes2023, "Node", "node-promises", "each task a promise timer resolving with its number (timers/promises setTimeout, what util.promisify(setTimeout) gives), Promise.all"),
    ours(AsyncRuntimes2023, "Python", "python-asyncio", "an asyncio.TaskGroup where the study gathers create_task's tasks"),
    ours(AsyncRuntimes2023, "Elixir", "elixir-task-await-many", CHECKSUM),
    ours(AsyncRuntimes2024, "Rust tokio", "tokio", "each task an async block around the sleep (returning its number), where the study spawns the sleep future itself"),
    ours(AsyncRuntimes2024, "Rust async_std", "async-std", "each task an async block around the sleep (returning its number), where the study spawns the sleep future itself"),
    ours(AsyncRuntimes2024, "Rust futures", "futures-joinall", CHECKSUM),
    none(AsyncRuntimes2024, "C#", NO_DOTNET),
    none(AsyncRuntimes2024, "C# NativeAOT", NO_DOTNET),
    ours(AsyncRuntimes2024, "Go", "go", CHECKSUM),
    ours(AsyncRuntimes2024, "Java OpenJDK", "java-virtual", CHECKSUM),
    none(AsyncRuntimes2024, "Java GraalVM", NO_GRAAL),
    none(AsyncRuntimes2024, "GraalVM native-image", NO_GRAAL),
    ours(AsyncRuntimes2024, "Node", "node-promises", "each task a bare promise timer resolving with its number (timers/promises setTimeout, what util.promisify(setTimeout) gives), no async function, Promise.all — the study's shape"),
    ours(AsyncRuntimes2024, "Python", "python-asyncio", "each task a coroutine in an asyncio.TaskGroup that sleeps and returns its number; the study gathers bare asyncio.sleep coroutines"),
    none(Skynet, "Scala/Akka", "none: no Akka contestant"),
    ours(Skynet, "Erlang", "erlang-processes", "OTP 25 with BeamAsm; +P 2000000 as the original (its process table adds about 21 MiB)"),
    none(Skynet, "Erlang (HiPE)", "none: HiPE left OTP in release 24"),
    ours(Skynet, "Haskell GHC 7.10.3", "haskell-forkio", "GHC 9.0 (Debian 12), -threaded -N"),
    ours(Skynet, "Haskell", "haskell-forkio", "GHC 9.0 (Debian 12), -threaded -N"),
    ours(Skynet, "Go", "go", "the same shape: one unbuffered channel per inner node"),
    none(Skynet, ".NET Core", NO_DOTNET),
    none(Skynet, ".NET Core async", NO_DOTNET),
    none(Skynet, ".NET TPL", NO_DOTNET),
    none(Skynet, "F# MailboxProcessor", NO_DOTNET),
    none(Skynet, "RxJava", "none: no RxJava contestant"),
    ours(Skynet, "Node-bluebird", "node-bluebird", "bluebird promises on our Node (its version in the header), not the original's generator-based code"),
    none(Skynet, "LuaJIT", "none: no Lua contestant"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures;

    #[test]
    fn every_published_implementation_has_its_counterpart_or_a_reason() {
        for figure in figures() {
            let c = of(figure.seed, figure.implementation);
            assert!(c.is_some(), "{figure:?} has no counterpart entry");
            assert!(!c.unwrap().differs.is_empty());
        }
        for c in COUNTERPARTS {
            assert!(
                figures().any(|f| f.seed == c.seed && f.implementation == c.implementation),
                "{c:?} stands beside no published figure"
            );
        }
    }

    #[test]
    fn a_seed_s_contestants_come_once_each_in_table_order() {
        let both = contestants(&[AsyncRuntimes2023, AsyncRuntimes2024]);
        assert_eq!(&both[..3], ["threads", "tokio", "async-std"]);
        assert!(both.contains(&"futures-joinall"));
        assert_eq!(both.iter().filter(|n| **n == "node-promises").count(), 1);
        assert!(contestants(&[Skynet]).contains(&"node-bluebird"));
    }
}
