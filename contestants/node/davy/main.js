// The `node-davy` contestant: the scenarios of lib/promise-chains.js on lvivski's davy, a
// small Promises/A+ library, with davy.all and davy.wrap, its helper for Node callbacks.
// Three quirks of davy 1.3 shape the code. davy.wrap makes one deferred per wrapped function,
// not per call, so a function wrapped once returns the first call's promise to every later
// call (the seed wrapped each fake once, at load, so its davy runs waited for almost no
// I/O: every op after a fake's first got a promise already resolved); here the op is
// wrapped afresh for each call. And davy.resolve(value) passes the value to the
// constructor, which throws unless it is a function, so a resolved promise is made with
// the constructor; davy.all([]) fulfils with a TypeError instead of [], so an empty join
// is a resolved []. davy has no timer of its own: sleeps and yields wrap setTimeout and
// setImmediate in its promise.

import Davy from "davy";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

/** davy's constructor, resolve and all, as lib/promise-chains.js uses them (see above). */
function DavyPromise(executor) {
  return new Davy(executor);
}
DavyPromise.resolve = (value) => new Davy((resolve) => resolve(value));
DavyPromise.all = (promises) =>
  promises.length === 0 ? DavyPromise.resolve([]) : Davy.all(promises);

/** The fake I/O op through davy.wrap, wrapped for each call (see above). */
const davyIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Davy.wrap(io)(tx);
};

run(
  promiseScenarios({
    Promise: DavyPromise,
    promiseIo: davyIo,
    sleep: (ms) => new Davy((resolve) => setTimeout(resolve, ms)),
    nextTurn: () => new Davy((resolve) => setImmediate(resolve)),
  }),
);
