// The `node-async-await` contestant: the nine scenarios as async functions on the native
// Promise, with Node's own promise timers (node:timers/promises).
//
// A task is an async function; spawning one is calling it, and Promise.all joins. An async
// function runs at once until its first await and its caller sees the result on a later
// turn, through the promise it returned. A task with nothing to wait for (spawn's, a skynet
// leaf) awaits null once, so that it returns from the microtask queue, not within its
// spawner's call (lib/tasks.js; TASKBENCH_JS_TASKS=inline drops that await). Fake I/O is
// lib/requests.js's op in a `new Promise`, as in node-promises. A yield awaits
// setImmediate, a turn of the event loop.

import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import { Channel } from "../lib/channel.js";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, nativePromiseIo } from "../lib/requests.js";
import { sum } from "../lib/sum.js";
import { scheduledTasks } from "../lib/tasks.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "../lib/timer.js";

run({
  spawn: ({ tasks }) => joinSum(tasks, scheduledTasks ? returnLater : async (i) => i),
  sleep: ({ tasks, delayMs }) =>
    joinSum(tasks, async (i) => {
      await sleep(delayMs);
      return i;
    }),
  timer,
  doxbee: ({ requests, ioMs }) => {
    const io = nativePromiseIo(ioMs);
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = nativePromiseIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
  skynet: ({ size }) => skynet(0, size),
  pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
  chain,
  yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
});

/** Calls task(0) … task(n - 1) and awaits them all. */
function startAll(n, task) {
  return Promise.all(Array.from({ length: n }, (_, i) => task(i)));
}

async function joinSum(n, task) {
  return sum(await startAll(n, task));
}

/** One sleep after another, each timed with the monotonic clock. */
async function timer({ stepUs, totalMs }) {
  const sleeps = sleepCount(stepUs, totalMs);
  const slept = [];
  while (slept.length < sleeps) {
    const start = now();
    await sleep(stepMs(stepUs));
    slept.push(since(start));
  }
  return oversleepOutcome(slept, stepUs);
}

/** One doxbee upload (PROTOCOL.md §4): every step awaited in turn. */
async function upload(request, io) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  await io(tx); // 2. put the blob
  await io(tx); // 3. look the file up: it never exists
  upload.buildVersion(); // 4. the version record
  await io(tx); // 5. insert the version
  upload.buildFileQuery(); // 6. the "create file" query, executed
  await io(tx);
  await io(tx); // 7. insert the file–version link
  await io(tx); // 8. update the file's current version
  await io(tx); // 9. commit
  return upload.tx.ios;
}

/** One madeup-parallel request: `fanout` ops at once, Promise.all, then a commit. */
async function fanOut(fanout, io) {
  const tx = new Transaction();
  await startAll(fanout, () => io(tx));
  await io(tx); // commit
  return tx.ios;
}

/** Spawn's task: returns i from the microtask queue, once its spawner has moved on. */
async function returnLater(i) {
  await null;
  return i;
}

/**
 * A skynet node: a leaf returns its number, from the microtask queue; an inner node sums
 * its ten children's.
 */
async function skynet(num, size) {
  if (size === 1) {
    if (scheduledTasks) await null;
    return num;
  }
  const child = size / 10;
  return sum(await startAll(10, (k) => skynet(num + k * child, child)));
}

/** One pair: the ponger returns every ball; the pinger counts the replies it received. */
async function pair(rounds) {
  const pings = new Channel(Promise);
  const pongs = new Channel(Promise);
  const ponger = pong(pings, pongs, rounds);
  let replies = 0;
  for (let ball = 0; ball < rounds; ball++) {
    pings.send(ball);
    await pongs.receive();
    replies += 1;
  }
  await ponger;
  return replies;
}

async function pong(pings, pongs, rounds) {
  for (let k = 0; k < rounds; k++) pongs.send(await pings.receive());
}

/**
 * Task k adds k to the sum it was handed and starts task k + 1 with the new sum by calling
 * it without awaiting it, as async code starts a task. Each task awaits first, so that it
 * runs once its spawner has moved on rather than nested in it (10,000 nested calls would
 * overflow the stack). The last one resolves the promise the main task awaits with the sum,
 * length·(length+1)/2.
 */
function chain({ length }) {
  return new Promise((signal) => {
    const link = async (k, sum) => {
      await null;
      const total = sum + k;
      if (k === length) signal(total);
      else link(k + 1, total);
    };
    link(1, 0);
  });
}

async function yielder(yields) {
  let count = 0;
  while (count < yields) {
    await setImmediate();
    count += 1;
  }
  return count;
}
