// The `node-promises` contestant: the scenarios of lib/promise-chains.js on the native
// Promise, with Node's own promise timers (node:timers/promises) and fake I/O in a
// `new Promise`, the native counterparts of what node-bluebird takes from bluebird. A sleep
// task is the bare timer promise resolving with the task's number, as the studies' Node is.

import { setImmediate, setTimeout } from "node:timers/promises";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { nativePromiseIo } from "../lib/requests.js";

run(
  promiseScenarios({
    Promise,
    promiseIo: nativePromiseIo,
    sleep: (ms) => setTimeout(ms),
    sleepWith: (ms, value) => setTimeout(ms, value),
    nextTurn: () => setImmediate(),
  }),
);
