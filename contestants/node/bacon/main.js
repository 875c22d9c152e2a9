// The `node-bacon` contestant: doxbee, parallel and sleep as Bacon.js streams, in Bacon's
// idiom: a fake I/O op is Bacon.fromNodeCallback of lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; fan-outs and the joins over requests are
// Bacon.combineAsArray, the last handed over with toPromise; a sleep is Bacon.later. Bacon
// has no tasks or channels, so the other scenarios are n/a.

import * as Bacon from "baconjs";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
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
    return joinSum(requests, (i) => upload(i, io));
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

/** One doxbee upload (PROTOCOL.md §4): every step a flatMap of one chain. */
function upload(request, io) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  return io(tx) // 2. put the blob
    .flatMap(() => io(tx)) // 3. look the file up: it never exists
    .flatMap(() => {
      upload.buildVersion(); // 4. the version record
      return io(tx); // 5. insert the version
    })
    .flatMap(() => {
      upload.buildFileQuery(); // 6. the "create file" query, executed
      return io(tx);
    })
    .flatMap(() => io(tx)) // 7. insert the file–version link
    .flatMap(() => io(tx)) // 8. update the file's current version
    .flatMap(() => io(tx)) // 9. commit
    .map(() => upload.tx.ios);
}

/** One madeup-parallel request: `fanout` ops in one Bacon.combineAsArray, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Bacon.combineAsArray(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
