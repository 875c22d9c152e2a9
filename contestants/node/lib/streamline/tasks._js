// The seven task scenarios (spawn, sleep, timer, skynet, pingpong, chain, yield) in
// streamline.js's `_` style, beside the bluebird request scenarios of requests._js: the
// same source of both streamline contestants, compiled by build.sh in each one's mode.
// CommonJS, since that is what streamline 2 compiles.
//
// A task is a streamlined function (one with a `_` parameter); spawning one is calling it
// with `!_`, which starts it at once and returns its future, and joining it is waiting for
// that future, `future(_)`, as requests._js joins a fan-out. Node's own callback functions
// are called with `_` in the callback's place: `setTimeout(_, ms)` sleeps (streamline's
// README writes a sleep so; flows.sleep is the same call), `setImmediate(_)` yields a turn
// of the event loop, `process.nextTick(_)` waits for the next tick. A channel is
// streamline-runtime's `flows.queue`: `put` sends without waiting, `read(_)` waits for the
// next message. A task nobody waits for is started with `flows.check` as its callback,
// the fire-and-forget call of streamline's cheat sheet.
//
// A streamlined function that never waits calls back within its call, and a future of it
// is done before the next line runs, so a task with nothing to wait for (spawn's, a skynet
// leaf) first waits for the next tick, `process.nextTick(_)`, as chain's links do: it then
// returns once its spawner has moved on (lib/tasks.js; with TASKBENCH_JS_TASKS=inline it
// returns at once, and skynet's whole tree is summed within the first call).

"use strict";

var flows = require("streamline-runtime").flows;

/**
 * The scenarios, each a streamlined function `(params, _)` that returns the checksum (the
 * timer scenario its outcome); `timer` holds lib/timer.js's sleepCount, stepMs, now, since
 * and oversleepOutcome, and `scheduledTasks` is lib/tasks.js's switch (ES modules, which
 * this compiled CommonJS file cannot require), handed in by lib/streamline/contestant.js.
 */
module.exports = function streamlineTasks(timer, scheduledTasks) {
  /**
   * Starts task(0, !_) … task(n - 1, !_), each a future, then waits for each in turn and
   * returns the sum of their results.
   */
  function futureSum(n, task, _) {
    var futures = new Array(n);
    for (var i = 0; i < n; i++) futures[i] = task(i, !_);
    var total = 0;
    for (var k = 0; k < n; k++) total += futures[k](_);
    return total;
  }

  /** The task of the spawn scenario: returns its number, at once. */
  function returner(i, _) {
    return i;
  }

  /** The task of the spawn scenario: returns its number on the next tick. */
  function nextTickReturner(i, _) {
    process.nextTick(_);
    return i;
  }

  function spawn(params, _) {
    return futureSum(params.tasks, scheduledTasks ? nextTickReturner : returner, _);
  }

  function sleep(params, _) {
    var delayMs = params.delayMs;
    function sleeper(i, _) {
      setTimeout(_, delayMs);
      return i;
    }
    return futureSum(params.tasks, sleeper, _);
  }

  /** One sleep after another on setTimeout, each timed with the monotonic clock. */
  function timerScenario(params, _) {
    var sleeps = timer.sleepCount(params.stepUs, params.totalMs);
    var ms = timer.stepMs(params.stepUs);
    var slept = [];
    while (slept.length < sleeps) {
      var start = timer.now();
      setTimeout(_, ms);
      slept.push(timer.since(start));
    }
    return timer.oversleepOutcome(slept, params.stepUs);
  }

  /**
   * A skynet node: a leaf returns its number (on the next tick), an inner node sums its ten
   * children's.
   */
  function skynet(num, size, _) {
    if (size === 1) {
      if (scheduledTasks) process.nextTick(_);
      return num;
    }
    var child = size / 10;
    var children = new Array(10);
    for (var k = 0; k < 10; k++) children[k] = skynet(num + k * child, child, !_);
    var total = 0;
    for (var j = 0; j < 10; j++) total += children[j](_);
    return total;
  }

  /** The ponger of a pair: returns every ball it receives. */
  function pong(pings, pongs, rounds, _) {
    for (var k = 0; k < rounds; k++) pongs.put(pings.read(_));
  }

  function pingpong(params, _) {
    var rounds = params.rounds;
    /** One pair: the ponger a future; the pinger counts the replies it received. */
    function pair(i, _) {
      var pings = flows.queue();
      var pongs = flows.queue();
      var ponger = pong(pings, pongs, rounds, !_);
      var replies = 0;
      for (var ball = 0; ball < rounds; ball++) {
        pings.put(ball);
        pongs.read(_);
        replies += 1;
      }
      ponger(_);
      return replies;
    }
    return futureSum(params.pairs, pair, _);
  }

  /**
   * Task k adds k to the sum it was handed and starts task k + 1 with the new sum, fire
   * and forget (`flows.check`); the last one puts the sum, length·(length+1)/2, on the
   * queue the main task reads. Each task first waits for the next tick, so that it runs
   * once its spawner has ended rather than nested in it: a streamlined function runs
   * within its call until it first waits, and 10,000 nested calls would overflow the stack.
   */
  function chain(params, _) {
    var length = params.length;
    var signal = flows.queue();
    function link(k, sum, _) {
      process.nextTick(_);
      var total = sum + k;
      if (k === length) signal.put(total);
      else link(k + 1, total, flows.check);
    }
    link(1, 0, flows.check);
    return signal.read(_);
  }

  function yieldScenario(params, _) {
    var yields = params.yields;
    /** A task that yields to the event loop `yields` times and returns its count. */
    function yielder(i, _) {
      var count = 0;
      while (count < yields) {
        setImmediate(_);
        count += 1;
      }
      return count;
    }
    return futureSum(params.tasks, yielder, _);
  }

  return {
    spawn: spawn,
    sleep: sleep,
    timer: timerScenario,
    skynet: function (params, _) {
      return skynet(0, params.size, _);
    },
    pingpong: pingpong,
    chain: chain,
    yield: yieldScenario,
  };
};
