// The `node-bluebird-coroutine` contestant: the scenarios of lib/generators.js run by
// bluebird's Promise.coroutine, the "bluebird with generators" of bluebird's benchmark
// tables: generator functions that yield bluebird promises, fake I/O through
// Promise.promisify, sleeps with Promise.delay, as node-bluebird. A yield to the event loop
// wraps setImmediate in a bluebird promise.

import Promise from "bluebird";
import { generatorScenarios } from "../lib/generators.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

run(
  generatorScenarios({
    coroutine: Promise.coroutine,
    Promise,
    promiseIo: (ioMs) => Promise.promisify(fakeIo(ioMs)),
    sleep: (ms) => Promise.delay(ms),
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
  }),
);
