// The `node-lie` contestant: the scenarios of lib/promise-chains.js on calvinmetcalf's lie,
// a minimal Promises/A+ library with only the constructor, all, race, resolve and reject.
// With no helper for callbacks and no timer, fake I/O, sleeps and yields are each a
// `new Lie` around the callback op, setTimeout and setImmediate, as the seed wraps them.

import Lie from "lie";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

/** The fake I/O op in a `new Lie`. */
const lieIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => new Lie((resolve, reject) => io(tx, (err) => (err ? reject(err) : resolve())));
};

run(
  promiseScenarios({
    Promise: Lie,
    promiseIo: lieIo,
    sleep: (ms) => new Lie((resolve) => setTimeout(resolve, ms)),
    nextTurn: () => new Lie((resolve) => setImmediate(resolve)),
  }),
);
