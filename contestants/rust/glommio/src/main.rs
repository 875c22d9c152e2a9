//! The glommio contestant: one `LocalExecutor` on the main thread (glommio's thread-per-core
//! model on a single core), and every scenario written with glommio's own `spawn_local`,
//! timer, `local_channel` and yield, and glommio::net for the socket scenarios (`sockets`).
//!
//! `spawn_local` polls a new task at once, before the spawner goes on: skynet's tree is
//! therefore walked depth-first, and a chain of spawns nests on the thread's stack.

mod sockets;

use glommio::channels::local_channel::{self, LocalSender};
use glommio::timer::sleep;
use glommio::{LocalExecutor, LocalExecutorBuilder, executor, spawn_local};
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use std::any::Any;
use std::panic;
use std::process::exit;
use std::rc::Rc;
use std::time::Duration;

fn main() {
    let executor = start();
    kit::run(|scenario| Ok(executor.run(iteration(scenario))))
}

/// Makes the executor with the builder's defaults, unpinned. glommio asks for 512 KiB of
/// RLIMIT_MEMLOCK; below the 10 MiB of its storage-I/O buffer it only skips registering the
/// buffer, and no scenario here does storage I/O. When io_uring is refused glommio panics
/// rather than returning an error, so the panic is caught to say so in one line.
fn start() -> LocalExecutor {
    panic::set_hook(Box::new(|_| {}));
    let made = panic::catch_unwind(|| LocalExecutorBuilder::default().make());
    drop(panic::take_hook());
    let reason = match made {
        Ok(Ok(executor)) => return executor,
        Ok(Err(err)) => err.to_string(),
        Err(panic) => panic_message(panic),
    };
    eprintln!(
        "contestant-glommio: cannot start glommio (needs io_uring, 512 KiB memlock): {reason}"
    );
    exit(1);
}

/// The text a panic was raised with.
fn panic_message(panic: Box<dyn Any + Send>) -> String {
    match panic.downcast::<String>() {
        Ok(message) => *message,
        Err(panic) => panic
            .downcast_ref::<&str>()
            .unwrap_or(&"it panicked")
            .to_string(),
    }
}

async fn iteration(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    let checksum = match scenario {
        // The one scenario that reports figures besides its checksum: one task sleeps
        // `step_us` again and again, and kit times each sleep.
        Scenario::Timer { step_us, total_ms } => {
            return spawn_local(kit::timed_sleeps(step_us, total_ms, sleep)).await;
        }
        Scenario::Spawn { tasks } => spawn_sum(tasks, |i| async move { i }).await,
        Scenario::Sleep { tasks, delay_ms } => spawn_sum(tasks, |i| sleeper(i, ms(delay_ms))).await,
        Scenario::Doxbee { requests, io_ms } => {
            spawn_sum(requests, |i| {
                kit::doxbee::upload(i, move |step, tx| fake_io(step, tx, ms(io_ms)))
            })
            .await
        }
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => spawn_sum(requests, |i| fan_out(i, fanout, ms(io_ms))).await,
        Scenario::Skynet { size } => {
            let (tx, rx) = local_channel::new_bounded(1);
            spawn_local(skynet(0, size, Rc::new(tx))).detach();
            rx.recv().await.expect("the root sends its sum")
        }
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, |_| pinger(rounds)).await,
        Scenario::Chain { length } => {
            let (tx, rx) = local_channel::new_bounded(1);
            spawn_local(link(1, length, 0, tx)).detach();
            rx.recv().await.expect("the last task of the chain signals")
        }
        // `yield_now`, not `yield_if_needed`: the latter yields only once the task queue's
        // preemption timer (100 ms by default) has run out, so it would measure a check.
        // The future borrows the proxy `executor()` returns, hence the `async` block.
        Scenario::Yield { tasks, yields } => {
            let yield_now = || async { executor().yield_now().await };
            spawn_sum(tasks, |_| kit::yields(yields, yield_now)).await
        }
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes).await,
        Scenario::Connections { connections } => sockets::connections(connections).await,
    };
    Outcome::from(checksum)
}

/// Spawns `count` tasks, task `i` running `task(i)`, all before the first is awaited; then
/// joins them in spawn order and sums their results.
async fn spawn_sum<F>(count: u64, task: impl Fn(u64) -> F) -> u64
where
    F: Future<Output = u64> + 'static,
{
    let handles: Vec<_> = (0..count).map(|i| spawn_local(task(i))).collect();
    let mut sum = 0;
    for handle in handles {
        sum += handle.await;
    }
    sum
}

/// A task of the sleep scenario: sleeps `delay` on glommio's timer, then returns its number.
async fn sleeper(i: u64, delay: Duration) -> u64 {
    sleep(delay).await;
    i
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on glommio's timer, the op's completion. Returns 1
/// so that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Rc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    sleep(io).await;
    1
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, each
/// its own task, then one commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Rc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    spawn_sum(fanout, op).await + op(fanout).await
}

/// A skynet node: a leaf sends its number to its parent, an inner node the sum of what its
/// ten children send over the node's own local channel.
async fn skynet(num: u64, size: u64, parent: Rc<LocalSender<u64>>) {
    let sum = if size == 1 {
        num
    } else {
        let child = size / 10;
        // A local channel has one sender: the children share it as they share the thread.
        let (tx, rx) = local_channel::new_bounded(10);
        let tx = Rc::new(tx);
        for k in 0..10 {
            spawn_local(skynet(num + k * child, child, tx.clone())).detach();
        }
        let mut sum = 0;
        for _ in 0..10 {
            sum += rx.recv().await.expect("every child sends once");
        }
        sum
    };
    parent
        .try_send(sum)
        .expect("the parent waits for its children");
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a bounded
/// channel of one message per direction (glommio's `local_channel`) and returns the replies
/// it received.
async fn pinger(rounds: u64) -> u64 {
    let (ping_tx, ping_rx) = local_channel::new_bounded(1);
    let (pong_tx, pong_rx) = local_channel::new_bounded(1);
    let ponger = spawn_local(async move {
        while let Some(ball) = ping_rx.recv().await {
            pong_tx
                .send(ball)
                .await
                .expect("the pinger waits for its reply");
        }
    });
    let mut replies = 0;
    for ball in 0..rounds {
        ping_tx
            .send(ball)
            .await
            .expect("the ponger serves until the pinger is done");
        pong_rx
            .recv()
            .await
            .expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping_tx); // ends the ponger's loop
    ponger.await;
    replies
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
async fn link(n: u64, length: u64, sum: u64, done: LocalSender<u64>) {
    let sum = sum + n;
    if n == length {
        done.try_send(sum)
            .expect("the main task waits for the chain");
    } else {
        spawn_local(link(n + 1, length, sum, done)).detach();
    }
}
