// The `node-callbacks` contestant: the nine scenarios in plain Node callbacks, no promises
// at all — the "callbacks-baseline" of bluebird's benchmark tables
// (docs/SEEDS.md#bluebird-published-figures).
//
// Node has one event loop and no task objects; a task here is an asynchronous function
// that takes an error-first callback. Spawning one is calling it, and it delivers its
// result asynchronously, never within the call: with process.nextTick when it has nothing
// to wait for (as bluebird's fake I/O does for 0 ms), or from its timer. Joins count the
// callbacks that are still due. A yield is setImmediate, a turn of the event loop.

import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "../lib/timer.js";

run({
  spawn: ({ tasks }, done) => joinSum(tasks, returnAsync, done),
  sleep: ({ tasks, delayMs }, done) =>
    joinSum(tasks, (i, callback) => setTimeout(callback, delayMs, null, i), done),
  timer,
  doxbee: ({ requests, ioMs }, done) => {
    const io = fakeIo(ioMs);
    joinSum(requests, (i, callback) => upload(i, io, callback), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = fakeIo(ioMs);
    joinSum(requests, (_, callback) => fanOut(fanout, io, callback), done);
  },
  skynet: ({ size }, done) => skynet(0, size, done),
  pingpong: ({ pairs, rounds }, done) =>
    joinSum(pairs, (_, callback) => pair(rounds, callback), done),
  chain,
  yield: ({ tasks, yields }, done) =>
    joinSum(tasks, (_, callback) => yielder(yields, callback), done),
});

/** Starts task(0, cb) … task(n - 1, cb); `done` gets the sum of their results (see join). */
function joinSum(n, task, done) {
  const joined = join(n, done);
  for (let i = 0; i < n; i++) task(i, joined);
}

/**
 * The callback that joins `n` tasks: calls `done` once, with the first error or, when all
 * `n` have called back, with the sum of their results.
 */
function join(n, done) {
  let pending = n;
  let total = 0;
  if (pending === 0) done(null, total);
  return (err, result) => {
    if (pending === 0) return; // an error has ended the join already
    if (err) {
      pending = 0;
      return done(err);
    }
    total += result;
    if (--pending === 0) done(null, total);
  };
}

/** The task of the spawn scenario: returns i, on the next tick. */
function returnAsync(i, callback) {
  process.nextTick(callback, null, i);
}

/** One sleep after another on setTimeout, each timed with the monotonic clock. */
function timer({ stepUs, totalMs }, done) {
  const sleeps = sleepCount(stepUs, totalMs);
  const slept = [];
  const sleepFrom = (start) =>
    setTimeout(() => {
      slept.push(since(start));
      if (slept.length < sleeps) sleepFrom(now());
      else done(null, oversleepOutcome(slept, stepUs));
    }, stepMs(stepUs));
  sleepFrom(now());
}

/** One doxbee upload (PROTOCOL.md §4), nested as the callback baseline is. */
function upload(request, io, callback) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  // 2. put the blob
  io(tx, (err) => {
    if (err) return callback(err);
    // 3. look the file up: it never exists
    io(tx, (err) => {
      if (err) return callback(err);
      upload.buildVersion(); // 4. the version record
      // 5. insert the version
      io(tx, (err) => {
        if (err) return callback(err);
        upload.buildFileQuery(); // 6. the "create file" query, executed
        io(tx, (err) => {
          if (err) return callback(err);
          // 7. insert the file–version link
          io(tx, (err) => {
            if (err) return callback(err);
            // 8. update the file's current version
            io(tx, (err) => {
              if (err) return callback(err);
              io(tx, (err) => callback(err, upload.tx.ios)); // 9. commit
            });
          });
        });
      });
    });
  });
}

/** One madeup-parallel request: `fanout` ops at once, joined by a counter, then a commit. */
function fanOut(fanout, io, callback) {
  const tx = new Transaction();
  let pending = fanout;
  const inserted = (err) => {
    if (pending === 0) return; // an error has ended the request already
    if (err) {
      pending = 0;
      return callback(err);
    }
    if (--pending === 0) io(tx, (err) => callback(err, tx.ios)); // commit
  };
  for (let k = 0; k < fanout; k++) io(tx, inserted);
}

/** A skynet node: a leaf returns its number, an inner node sums its ten children. */
function skynet(num, size, callback) {
  if (size === 1) return returnAsync(num, callback);
  const child = size / 10;
  joinSum(10, (k, joined) => skynet(num + k * child, child, joined), callback);
}

/**
 * One pair of the pingpong scenario. Node has no channel between callbacks; the stand-in
 * for sending a message to a task waiting on one is handing it to the receiver's handler
 * on the next tick. The pinger counts the replies it received.
 */
function pair(rounds, callback) {
  let replies = 0;
  const ponger = (ball) => process.nextTick(pinger, ball); // returns the ball
  const pinger = (ball) => {
    replies += 1;
    if (replies === rounds) callback(null, replies);
    else process.nextTick(ponger, ball + 1);
  };
  process.nextTick(ponger, 0);
}

/**
 * Task k adds k to the sum it was handed and starts task k + 1 with the new sum on the next
 * tick; the last one calls the waiting main back with the sum, length·(length+1)/2.
 */
function chain({ length }, done) {
  const link = (k, sum) =>
    k === length ? done(null, sum + k) : process.nextTick(link, k + 1, sum + k);
  process.nextTick(link, 1, 0);
}

/** A task that yields to the event loop `yields` times and returns its count. */
function yielder(yields, callback) {
  let count = 0;
  const turn = () => {
    if (count === yields) return callback(null, count);
    count += 1;
    setImmediate(turn);
  };
  turn();
}
