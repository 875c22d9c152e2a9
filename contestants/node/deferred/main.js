// The `node-deferred` contestant: the scenarios of lib/promise-chains.js on medikoo's
// deferred. Its promises come from defers, `deferred()`, and a resolved one from
// `deferred(value)`; lib/defer-promise.js builds the constructor the scenarios use from
// them. Fake I/O goes through deferred.promisify, sleeps through deferred.delay (a function
// decorator: the decorated no-op is called once per sleep), and joins through deferred.map,
// which the seed used for want of an `all`. A yield is a defer resolved by setImmediate.
//
// deferred calls back at once, within `.then`, when a promise is already resolved, where
// the other libraries queue the callback for a later turn. So lib/promise-chains.js's
// chain, "task k starts task k + 1 as a `.then` job", would nest each link inside the last:
// by 3,000 links the stack overflows, inside a callback whose error deferred keeps in a
// promise nobody reads, and the run hangs. chain is written here instead the way deferred
// starts a function on a later turn: deferred.delay with no timeout (below). For the same
// reason a task with nothing to wait for (spawn's, a skynet leaf) returns through
// deferred.delay too, `resolveLater`, not through a `.then` on a resolved promise, which
// would settle within its spawner's call (lib/tasks.js).

import deferred from "deferred";
import { deferredTurn, promiseOfDefers } from "../lib/defer-promise.js";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

const noop = () => undefined;

/** A promise of `value`, resolved on the next tick: the identity, decorated by deferred.delay. */
const resolveLater = deferred.delay((value) => value);

const scenarios = promiseScenarios({
  Promise: promiseOfDefers({
    defer: deferred,
    all: (promises) => deferred.map(promises),
    resolve: (value) => deferred(value),
  }),
  promiseIo: (ioMs) => deferred.promisify(fakeIo(ioMs)),
  sleep: (ms) => deferred.delay(noop, ms)(),
  nextTurn: deferredTurn(deferred),
  resolveLater,
});

/**
 * Task k adds k to the sum it was handed and starts task k + 1 with the new sum; the last
 * resolves the defer the main task waits on with the sum, length·(length+1)/2. A link is a
 * function decorated by deferred.delay without a timeout, deferred's own way to run a
 * function on a later turn (the next tick, through the next-tick package): calling it
 * returns a promise of its result at once, and the link runs once its spawner has ended,
 * not nested in it.
 */
scenarios.chain = ({ length }) => {
  const done = deferred();
  const link = deferred.delay((k, sum) => {
    if (k === length) done.resolve(sum + k);
    else link(k + 1, sum + k);
  });
  link(1, 0);
  return done.promise;
};

run(scenarios);
