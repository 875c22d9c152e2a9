// The `node-vow` contestant: the scenarios of lib/promise-chains.js on dfilatov's vow, with
// vow.Promise, vow.all and vow.delay. vow has no helper for Node callbacks (that is the
// separate vow-node package; the seed borrowed when/node's lift), so each fake I/O op
// resolves a vow.defer(), vow's own way of making a promise from a callback. A yield wraps
// setImmediate in a vow.Promise.

import vow from "vow";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

/** The fake I/O op as a vow promise: a deferred that the op's callback resolves. */
const vowIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => {
    const deferred = vow.defer();
    io(tx, (err) => (err ? deferred.reject(err) : deferred.resolve()));
    return deferred.promise();
  };
};

run(
  promiseScenarios({
    Promise: vow.Promise,
    promiseIo: vowIo,
    sleep: (ms) => vow.delay(undefined, ms),
    nextTurn: () => new vow.Promise((resolve) => setImmediate(resolve)),
  }),
);
