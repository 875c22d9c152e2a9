// The `node-bacon` contestant: doxbee, parallel and sleep as Bacon.js streams, in Bacon's
// idiom: a fake I/O op is Bacon.fromNodeCallback of lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; fan-outs and the joins over requests are
// Bacon.combineAsArray, the last handed over with toPromise; a sleep is Bacon.later. Bacon
// has no tasks or channels, so the other scenarios are n/a.

import * as Bacon from "baconjs";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { sum } from "../lib/sum.js";

/** The fake I/O op as a Bacon stream of one event. */
const baconIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Bacon.fromNodeCallback(io, tx);
};

run({
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => Bacon.later(delayMs, i)),
  doxbee: ({ requests, ioMs }) => {
    const io = baconIo(ioMs);
    return joinSum(requests, (i) => flatMapUpload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = baconIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
});

/** Combines task(0) … task(n - 1): a promise of the sum of their values. */
function joinSum(n, task) {
  return Bacon.combineAsArray(Array.from({ length: n }, (_, i) => task(i)))
    .map(sum)
    .toPromise();
}

/** One madeup-parallel request: `fanout` ops in one Bacon.combineAsArray, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Bacon.combineAsArray(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
