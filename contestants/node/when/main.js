// The `node-when` contestant: the scenarios of lib/promise-chains.js on cujojs's when.js,
// as its users write them: fake I/O lifted from the callback op with when/node's lift,
// sleeps with a promise's .delay, joins with when.all (when.Promise.all). when.js has no
// promise of the next turn of the event loop, so a yield wraps setImmediate in when.promise.

import when from "when";
import whenNode from "when/node.js";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

run(
  promiseScenarios({
    Promise: when.Promise,
    promiseIo: (ioMs) => whenNode.lift(fakeIo(ioMs)),
    sleep: (ms) => when.resolve().delay(ms),
    nextTurn: () => when.promise((resolve) => setImmediate(resolve)),
  }),
);
