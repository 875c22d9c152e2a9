// The `node-then-promise` contestant: the scenarios of lib/promise-chains.js on then/promise
// (npm `promise`), a small Promises/A+ library: fake I/O through its Promise.denodeify, joins
// with its Promise.all. It has no timer of its own, so sleeps and yields wrap setTimeout and
// setImmediate in its Promise.

import Promise from "promise";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

run(
  promiseScenarios({
    Promise,
    promiseIo: (ioMs) => Promise.denodeify(fakeIo(ioMs), 1),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
  }),
);
