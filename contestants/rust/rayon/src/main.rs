//! taskbench contestant for rayon: jobs on rayon's global work-stealing pool (default
//! configuration: one thread per core), spawned with `rayon::scope` and `Scope::spawn`.
//!
//! rayon runs CPU-bound jobs to completion: it has no timer, no channel, and no yield that
//! suspends a job, nor any reactor or socket type. So it takes part in spawn, skynet and
//! chain only, and exits 69 for the others, which the manifest lists as unsupported.

use kit::{NotImplemented, Scenario};
use rayon::Scope;
use std::sync::OnceLock;

const NO_TIMER: &str = "rayon has no timer: a job that sleeps blocks one of the pool's \
                        threads, so rayon cannot wait on a clock without holding a thread";
const NO_CHANNEL: &str = "rayon has no channel: a job waiting for another's reply blocks one \
                          of the pool's threads until the reply comes";
const NO_SOCKETS: &str = "rayon has no reactor and no socket types: a job waiting in a blocking \
                          read holds one of the pool's threads until its data comes";
const NO_YIELD: &str = "rayon has no yield that suspends a job: rayon::yield_now runs another \
                        pending job to its end on top of the caller, or finds none, so jobs \
                        never take turns (of 200 tasks x 1000 yields, 199 calls ran a job)";

fn main() {
    rayon::ThreadPoolBuilder::new()
        .build_global()
        .expect("the global pool is built once, before any job");
    kit::run(|scenario| {
        let checksum = match scenario {
            Scenario::Spawn { tasks } => spawn_sum(tasks, |i| i),
            Scenario::Skynet { size } => skynet(0, size),
            Scenario::Chain { length } => chain(length),
            Scenario::Sleep { .. }
            | Scenario::Timer { .. }
            | Scenario::Doxbee { .. }
            | Scenario::Parallel { .. } => return Err(NotImplemented(NO_TIMER)),
            Scenario::Pingpong { .. } => return Err(NotImplemented(NO_CHANNEL)),
            Scenario::Yield { .. } => return Err(NotImplemented(NO_YIELD)),
            Scenario::Echo { .. } | Scenario::Connections { .. } => {
                return Err(NotImplemented(NO_SOCKETS));
            }
        };
        Ok(checksum.into())
    })
}

/// Spawns `count` jobs in one scope, job i storing `task(i)` in its own slot (rayon's spawn
/// returns nothing, so the slot is its join handle); the scope joins them all, then the
/// results are summed.
fn spawn_sum(count: u64, task: impl Fn(u64) -> u64 + Sync) -> u64 {
    let mut results = vec![0; count as usize];
    rayon::scope(|scope| {
        for (i, result) in (0..count).zip(&mut results) {
            let task = &task;
            scope.spawn(move |_| *result = task(i));
        }
    });
    results.iter().sum()
}

/// A skynet node: a leaf returns its number, an inner node spawns its ten children and sums
/// what they return.
fn skynet(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let child = size / 10;
    spawn_sum(10, |k| skynet(num + k * child, child))
}

/// Starts the chain in a scope with the sum 0 and waits for it; the last link leaves the sum.
fn chain(length: u64) -> u64 {
    let last = OnceLock::new();
    rayon::scope(|scope| scope.spawn(|scope| link(scope, 1, length, 0, &last)));
    last.into_inner().expect("the last link signals")
}

/// Link `n` of the chain: adds n to the sum it was handed, then spawns link n + 1 with the
/// new sum, or, being the last, signals it.
fn link<'scope>(scope: &Scope<'scope>, n: u64, length: u64, sum: u64, last: &'scope OnceLock<u64>) {
    let sum = sum + n;
    if n == length {
        last.set(sum).expect("only the last link signals");
    } else {
        scope.spawn(move |scope| link(scope, n + 1, length, sum, last));
    }
}
