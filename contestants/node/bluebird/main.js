// The `node-bluebird` contestant: the scenarios of lib/promise-chains.js on bluebird's
// Promise, in its default configuration, as bluebird users write them: fake I/O through
// Promise.promisify, sleeps with Promise.delay. Bluebird has no promise of the next turn of
// the event loop, so a yield wraps setImmediate in a bluebird promise.

import Promise from "bluebird";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

run(
  promiseScenarios({
    Promise,
    promiseIo: (ioMs) => Promise.promisify(fakeIo(ioMs)),
    sleep: (ms) => Promise.delay(ms),
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
  }),
);
