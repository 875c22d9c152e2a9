// The `node-q` contestant: the scenarios of lib/promise-chains.js on kriskowal's Q 1.x, the
// line the seed measured: fake I/O through Q.denodeify, sleeps through Q.delay, joins with
// Q.all, and Q.Promise, Q's constructor with an executor. A yield wraps setImmediate in a
// Q.Promise.

import Q from "q";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

run(
  promiseScenarios({
    Promise: Q.Promise,
    promiseIo: (ioMs) => Q.denodeify(fakeIo(ioMs)),
    sleep: (ms) => Q.delay(ms),
    nextTurn: () => Q.Promise((resolve) => setImmediate(resolve)),
  }),
);
