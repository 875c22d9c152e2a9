// The nine task scenarios written once in the style of promises with `.then` chains and
// Promise.all, no async/await (and the two socket scenarios of lib/sockets.js, in the same
// style), for two contestants that differ only in the promise library:
// `node-promises` (the native Promise) and `node-bluebird`.
//
// A task is a function returning a promise of its result; spawning one is calling it, and
// Promise.all joins. A task with nothing to wait for (spawn's, a skynet leaf) returns its
// result through one job of the library's own queue, `Promise.resolve().then(() => i)`, so
// that its promise settles once its spawner has moved on, not within the call (lib/tasks.js;
// TASKBENCH_JS_TASKS=inline returns `Promise.resolve(i)`, settled at once, instead). A loop
// is a recursive chain, the way `.then` code writes one: each iteration's promise is
// resolved with the next one's, so a loop holds a promise per iteration until it ends
// (resolving an outer promise from inside instead is what bluebird's docs call the
// explicit-construction anti-pattern). A yield is a promise resolved by setImmediate.

import { Channel } from "./channel.js";
import { Transaction, Upload } from "./requests.js";
import { promiseSocketScenarios } from "./sockets.js";
import { sum } from "./sum.js";
import { scheduledTasks } from "./tasks.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "./timer.js";

/**
 * The scenarios for one promise library: its `Promise`; `promiseIo(ioMs)`, the fake I/O op
 * of lib/requests.js wrapped in its promises; `sleep(ms)`, a promise resolved by the
 * runtime's timer; `nextTurn()`, one resolved on the next turn of the event loop; and,
 * where the library's timer can resolve with a value, `sleepWith(ms, value)`: then each
 * sleep task is that bare timer promise (the async-runtimes studies' and async_bench's
 * Node task, docs/SEEDS.md), not a timer promise and a `then` for its number. A library
 * whose `.then` calls back at once on a resolved promise passes `resolveLater(value)`, its
 * own promise of `value` resolved on a later turn; the others' is `resolve().then`.
 */
export function promiseScenarios({ Promise, promiseIo, sleep, nextTurn, sleepWith, resolveLater }) {
  const sleeper = sleepWith ?? ((ms, value) => sleep(ms).then(() => value));
  /** A task with nothing to wait for: its result, in the form lib/tasks.js chose. */
  const returner = scheduledTasks
    ? (resolveLater ?? ((value) => Promise.resolve().then(() => value)))
    : (value) => Promise.resolve(value);
  const startAll = (n, task) => Promise.all(Array.from({ length: n }, (_, i) => task(i)));
  const joinSum = (n, task) => startAll(n, task).then(sum);

  const timer = ({ stepUs, totalMs }) => {
    const sleeps = sleepCount(stepUs, totalMs);
    const slept = [];
    const sleepFrom = (start) =>
      sleep(stepMs(stepUs)).then(() => {
        slept.push(since(start));
        return slept.length < sleeps ? sleepFrom(now()) : oversleepOutcome(slept, stepUs);
      });
    return sleepFrom(now());
  };

  /** One doxbee upload (PROTOCOL.md §4): every step a link of one chain. */
  const upload = (request, io) => {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    return io(tx) // 2. put the blob
      .then(() => io(tx)) // 3. look the file up: it never exists
      .then(() => {
        upload.buildVersion(); // 4. the version record
        return io(tx); // 5. insert the version
      })
      .then(() => {
        upload.buildFileQuery(); // 6. the "create file" query, executed
        return io(tx);
      })
      .then(() => io(tx)) // 7. insert the file–version link
      .then(() => io(tx)) // 8. update the file's current version
      .then(() => io(tx)) // 9. commit
      .then(() => upload.tx.ios);
  };

  /** One madeup-parallel request: `fanout` ops at once, Promise.all, then a commit. */
  const fanOut = (fanout, io) => {
    const tx = new Transaction();
    return startAll(fanout, () => io(tx))
      .then(() => io(tx)) // commit
      .then(() => tx.ios);
  };

  const skynet = (num, size) => {
    if (size === 1) return returner(num);
    const child = size / 10;
    return joinSum(10, (k) => skynet(num + k * child, child));
  };

  /** One pair: the ponger returns every ball; the pinger counts the replies it received. */
  const pair = (rounds) => {
    const pings = new Channel(Promise);
    const pongs = new Channel(Promise);
    const pong = (left) =>
      pings.receive().then((ball) => {
        pongs.send(ball);
        return left > 1 ? pong(left - 1) : null;
      });
    let replies = 0;
    const ping = (ball) => {
      pings.send(ball);
      return pongs.receive().then(() => {
        replies += 1;
        return replies < rounds ? ping(ball + 1) : replies;
      });
    };
    return Promise.all([ping(0), pong(rounds)]).then(() => replies);
  };

  /**
   * Task k adds k to the sum it was handed and starts task k + 1 as a `.then` job on a
   * promise of the new sum; the last resolves the main task's promise with the sum,
   * length·(length+1)/2.
   */
  const chain = ({ length }) =>
    new Promise((signal) => {
      const link = (k, sum) =>
        k === length
          ? signal(sum + k)
          : Promise.resolve(sum + k).then((total) => link(k + 1, total));
      Promise.resolve(0).then((sum) => link(1, sum));
    });

  const yielder = (yields, count = 0) =>
    count === yields ? Promise.resolve(count) : nextTurn().then(() => yielder(yields, count + 1));

  return {
    spawn: ({ tasks }) => joinSum(tasks, returner),
    sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => sleeper(delayMs, i)),
    timer,
    doxbee: ({ requests, ioMs }) => {
      const io = promiseIo(ioMs);
      return joinSum(requests, (i) => upload(i, io));
    },
    parallel: ({ requests, fanout, ioMs }) => {
      const io = promiseIo(ioMs);
      return joinSum(requests, () => fanOut(fanout, io));
    },
    skynet: ({ size }) => skynet(0, size),
    pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
    chain,
    yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
    ...promiseSocketScenarios(Promise),
  };
}
