// The `node-kew` contestant: the scenarios of lib/promise-chains.js on Medium's kew, a
// faster subset of Q. kew has no `new Promise(executor)`; its promises come from defers, so
// lib/defer-promise.js builds the constructor the scenarios use from kew.defer, with
// kew.all and kew.resolve. Fake I/O goes through kew.nfcall, sleeps through kew.delay; a
// yield is a defer resolved by setImmediate.

import kew from "kew";
import { deferredTurn, promiseOfDefers } from "../lib/defer-promise.js";
import { promiseScenarios } from "../lib/promise-chains.js";
import { run } from "../lib/protocol.js";
import { fakeIo } from "../lib/requests.js";

const kewIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => kew.nfcall(io, tx);
};

run(
  promiseScenarios({
    Promise: promiseOfDefers({ defer: kew.defer, all: kew.all, resolve: kew.resolve }),
    promiseIo: kewIo,
    sleep: (ms) => kew.delay(ms),
    nextTurn: deferredTurn(kew.defer),
  }),
);
