// The `node-deferred` contestant: the scenarios of lib/promise-chains.js on medikoo's
// deferred. Its promises come from defers, `deferred()`, and a resolved one from
// `deferred(value)`; lib/defer-promise.js builds the constructor the scenarios use from
// them. Fake I/O goes through deferred.promisify, sleeps through deferred.delay (a function
// decorator: the decorated no-op is called once per sleep), and joins through deferred.map,
// which the seed used for want of an `all`. A yield is a defer resolved by setImmediate.
//
// deferred calls back at once, within `.then`, when a promise is already resolved, where
// the other libraries queue the callback for a later turn. So chain's "task k starts task
// k + 1 as a `.then` job" nests each link inside the last: at the default length of 10,000
// the stack overflows, inside a callback whose error deferred keeps in a promise nobody
// reads, and the run hangs. chain is left out (n/a) rather than written some other way.

import deferred from "deferred";
import { deferredTurn, promiseOfDefers } from "../lib/defer-promise.js";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

const noop = () => undefined;

const scenarios = promiseScenarios({
  Promise: promiseOfDefers({
    defer: deferred,
    all: (promises) => deferred.map(promises),
    resolve: (value) => deferred(value),
  }),
  promiseIo: (ioMs) => deferred.promisify(fakeIo(ioMs)),
  sleep: (ms) => deferred.delay(noop, ms)(),
  nextTurn: deferredTurn(deferred),
});
delete scenarios.chain;

run(scenarios);
