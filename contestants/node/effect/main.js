// The `node-effect` contestant: the nine scenarios as programs of the npm `effect` package
// (Effect 4) on its fiber runtime, inside Node's event loop, written as Effect's docs write
// them: Effect.gen for steps in sequence; Effect.all with `concurrency: "unbounded"` to run
// every task in a fiber of its own and join them (Effect 4 has no forkAll); Effect.sleep,
// Effect's clock (a setTimeout); a Queue.unbounded each way for pingpong; a Deferred for
// chain's signal; Effect.yieldNow. Fake I/O is lib/requests.js's op wrapped in
// Effect.callback, the docs' way to bring a callback API in, so its completion is the
// `resume` closure made for the call. Each iteration is one Effect.runPromise.
//
// Effect.all starts each task's fiber at once and takes the result of one that ends within
// that first run without ever scheduling it, so a task with nothing to wait for (spawn's, a
// skynet leaf) first yields to Effect's scheduler, Effect.yieldNow, and returns its number
// from there (lib/tasks.js; TASKBENCH_JS_TASKS=inline returns `Effect.sync(() => i)`, run to
// its end in the fork). chain's links need none: Effect.forkDetach already schedules the
// new fiber rather than running it at once.

import { Deferred, Duration, Effect, Fiber, Queue } from "effect";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { sum } from "../lib/sum.js";
import { scheduledTasks } from "../lib/tasks.js";
import { now, oversleepOutcome, since, sleepCount } from "../lib/timer.js";

/**
 * A task with nothing to wait for, in the form lib/tasks.js chose: one turn through Effect's
 * scheduler, then its value; or `Effect.sync(() => i)`, which ends in the call that forks it.
 */
const returner = scheduledTasks
  ? (i) => Effect.as(Effect.yieldNow, i)
  : (i) => Effect.sync(() => i);

const scenarios = {
  spawn: ({ tasks }) => joinSum(tasks, returner),
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => Effect.as(Effect.sleep(delayMs), i)),
  timer,
  doxbee: ({ requests, ioMs }) => {
    const io = effectIo(ioMs);
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = effectIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
  skynet: ({ size }) => skynet(0, size),
  pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
  chain,
  yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
};

// Effect.sleep takes a Duration, which states any step; Effect's clock hands setTimeout
// its milliseconds, fraction and all, and Node's rounding shows as oversleep.
run(
  Object.fromEntries(
    Object.entries(scenarios).map(([name, program]) => [
      name,
      (params) => Effect.runPromise(program(params)),
    ]),
  ),
  { subMsTimer: true },
);

/**
 * task(0) … task(n - 1), each in a fiber of its own, joined: their results in order. A task
 * that only returns a value is never `Effect.succeed(i)` (see returner): in Effect 4 a
 * succeed is already its own exit, which Effect.all takes as a result without forking a
 * fiber, so no task would exist (skynet 1M took 199 ms that way, 22 B a task).
 */
function startAll(n, task) {
  return Effect.all(
    Array.from({ length: n }, (_, i) => task(i)),
    { concurrency: "unbounded" },
  );
}

function joinSum(n, task) {
  return Effect.map(startAll(n, task), sum);
}

/** lib/requests.js's fake I/O op as an effect: `io(tx)` makes the call when it runs. */
function effectIo(ioMs) {
  const io = fakeIo(ioMs);
  return (tx) => Effect.callback((resume) => io(tx, () => resume(Effect.void)));
}

/** One sleep after another, each timed with the monotonic clock. */
function timer({ stepUs, totalMs }) {
  return Effect.gen(function* () {
    const sleeps = sleepCount(stepUs, totalMs);
    const slept = [];
    while (slept.length < sleeps) {
      const start = now();
      yield* Effect.sleep(Duration.micros(BigInt(stepUs)));
      slept.push(since(start));
    }
    return oversleepOutcome(slept, stepUs);
  });
}

/** One doxbee upload (PROTOCOL.md §4): every step in turn. */
function upload(request, io) {
  return Effect.gen(function* () {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    yield* io(tx); // 2. put the blob
    yield* io(tx); // 3. look the file up: it never exists
    upload.buildVersion(); // 4. the version record
    yield* io(tx); // 5. insert the version
    upload.buildFileQuery(); // 6. the "create file" query, executed
    yield* io(tx);
    yield* io(tx); // 7. insert the file–version link
    yield* io(tx); // 8. update the file's current version
    yield* io(tx); // 9. commit
    return upload.tx.ios;
  });
}

/** One madeup-parallel request: `fanout` ops in fibers of their own, joined, then a commit. */
function fanOut(fanout, io) {
  return Effect.gen(function* () {
    const tx = new Transaction();
    yield* startAll(fanout, () => io(tx));
    yield* io(tx); // commit
    return tx.ios;
  });
}

/** A node's children are made when it runs (Effect.suspend), not all up front. */
function skynet(num, size) {
  if (size === 1) return returner(num);
  const child = size / 10;
  return Effect.suspend(() => joinSum(10, (k) => skynet(num + k * child, child)));
}

/** One pair: the pinger forks its ponger, counts the replies, then joins it. */
function pair(rounds) {
  return Effect.gen(function* () {
    const pings = yield* Queue.unbounded();
    const pongs = yield* Queue.unbounded();
    const ponger = yield* Effect.forkChild(pong(pings, pongs, rounds));
    let replies = 0;
    for (let ball = 0; ball < rounds; ball++) {
      yield* Queue.offer(pings, ball);
      yield* Queue.take(pongs);
      replies += 1;
    }
    yield* Fiber.join(ponger);
    return replies;
  });
}

function pong(pings, pongs, rounds) {
  return Effect.gen(function* () {
    for (let k = 0; k < rounds; k++) yield* Queue.offer(pongs, yield* Queue.take(pings));
  });
}

/**
 * Link k adds k to the sum it was handed, forks link k + 1 with the new sum and ends; the
 * last completes the Deferred the main fiber awaits with the sum, length·(length+1)/2.
 * A link is forked detached (forkDetach): a child fiber (forkChild) is interrupted when its
 * parent ends, and here every link ends right after starting the next.
 */
function chain({ length }) {
  return Effect.gen(function* () {
    const done = yield* Deferred.make();
    const link = (k, sum) =>
      Effect.suspend(() =>
        k === length
          ? Deferred.succeed(done, sum + k)
          : Effect.forkDetach(link(k + 1, sum + k)),
      );
    yield* Effect.forkDetach(link(1, 0));
    return yield* Deferred.await(done);
  });
}

function yielder(yields) {
  return Effect.gen(function* () {
    let count = 0;
    while (count < yields) {
      yield* Effect.yieldNow;
      count += 1;
    }
    return count;
  });
}
