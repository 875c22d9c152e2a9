// The nine scenarios written once with caolan's async library, for two contestants that
// differ only in the library passed in: `node-async-lib` (async) and `node-neo-async`
// (neo-async, written as a drop-in replacement with the same API).
//
// Tasks are error-first callback functions, as in node-callbacks, but composed with the
// library: async.times spawns n tasks and joins them, async.waterfall runs doxbee's steps,
// async.parallel fans a request out, an async.queue serves pingpong's pinger. A task with
// nothing to wait for calls back through async.nextTick. A yield is setImmediate, a turn of
// the event loop; not async.setImmediate, which async 3 runs as a microtask.

import { Transaction, Upload, fakeIo } from "./requests.js";
import { sum } from "./sum.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "./timer.js";

/** The scenarios on `async`, the module object of caolan's async or of a drop-in for it. */
export function asyncLibScenarios(async) {
  /** Spawns task(0, cb) … task(n - 1, cb) with async.times; `done` gets their sum. */
  const joinSum = (n, task, done) => {
    async.times(n, task, (err, results) => (err ? done(err) : done(null, sum(results))));
  };

  const timer = ({ stepUs, totalMs }, done) => {
    const sleepOnce = (_, next) => {
      const start = now();
      setTimeout(() => next(null, since(start)), stepMs(stepUs));
    };
    async.timesSeries(sleepCount(stepUs, totalMs), sleepOnce, (err, slept) =>
      err ? done(err) : done(null, oversleepOutcome(slept, stepUs)),
    );
  };

  /** One doxbee upload (PROTOCOL.md §4): the steps as one async.waterfall. */
  const upload = (request, io, callback) => {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    const steps = [
      (next) => io(tx, next), // 2. put the blob
      (next) => io(tx, next), // 3. look the file up: it never exists
      (next) => {
        upload.buildVersion(); // 4. the version record
        io(tx, next); // 5. insert the version
      },
      (next) => {
        upload.buildFileQuery(); // 6. the "create file" query, executed
        io(tx, next);
      },
      (next) => io(tx, next), // 7. insert the file–version link
      (next) => io(tx, next), // 8. update the file's current version
      (next) => io(tx, next), // 9. commit
    ];
    async.waterfall(steps, (err) => callback(err, upload.tx.ios));
  };

  /** One madeup-parallel request: `fanout` ops in one async.parallel, then a commit. */
  const fanOut = (fanout, io, callback) => {
    const tx = new Transaction();
    const insert = (next) => io(tx, next);
    async.parallel(new Array(fanout).fill(insert), (err) => {
      if (err) return callback(err);
      io(tx, (err) => callback(err, tx.ios)); // commit
    });
  };

  const skynet = (num, size, callback) => {
    if (size === 1) return async.nextTick(callback, null, num);
    const child = size / 10;
    joinSum(10, (k, next) => skynet(num + k * child, child, next), callback);
  };

  /**
   * One pair. The ponger is the worker of an async.queue, the library's stand-in for a task
   * waiting on a channel; the pinger pushes each ball with the callback the worker replies
   * through, and waits for the reply before the next round. It returns the replies counted.
   */
  const pair = (rounds, callback) => {
    const ponger = async.queue((ball, reply) => reply(null, ball));
    async.timesSeries(
      rounds,
      (ball, replied) => ponger.push(ball, replied),
      (err, replies) => (err ? callback(err) : callback(null, replies.length)),
    );
  };

  /**
   * Task k adds k to the sum it was handed and starts task k + 1 with the new sum through
   * async.nextTick; the last calls the main task back with the sum, length·(length+1)/2.
   */
  const chain = ({ length }, done) => {
    const link = (k, sum) =>
      k === length ? done(null, sum + k) : async.nextTick(link, k + 1, sum + k);
    async.nextTick(link, 1, 0);
  };

  /** A task that yields `yields` times in an async.timesSeries and returns the count. */
  const yielder = (yields, callback) =>
    async.timesSeries(
      yields,
      (_, next) => setImmediate(next),
      (err, turns) => (err ? callback(err) : callback(null, turns.length)),
    );

  return {
    spawn: ({ tasks }, done) => joinSum(tasks, (i, next) => async.nextTick(next, null, i), done),
    sleep: ({ tasks, delayMs }, done) =>
      joinSum(tasks, (i, next) => setTimeout(next, delayMs, null, i), done),
    timer,
    doxbee: ({ requests, ioMs }, done) => {
      const io = fakeIo(ioMs);
      joinSum(requests, (i, next) => upload(i, io, next), done);
    },
    parallel: ({ requests, fanout, ioMs }, done) => {
      const io = fakeIo(ioMs);
      joinSum(requests, (_, next) => fanOut(fanout, io, next), done);
    },
    skynet: ({ size }, done) => skynet(0, size, done),
    pingpong: ({ pairs, rounds }, done) => joinSum(pairs, (_, next) => pair(rounds, next), done),
    chain,
    yield: ({ tasks, yields }, done) => joinSum(tasks, (_, next) => yielder(yields, next), done),
  };
}
