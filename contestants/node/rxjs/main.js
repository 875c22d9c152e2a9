// The `node-rxjs` contestant: doxbee, parallel and sleep as observables of today's RxJS 7,
// in its idiom of pipeable operators: a fake I/O op is bindNodeCallback of
// lib/requests.js's callback op; a request is one pipe of mergeMaps, one per step; fan-outs
// and the joins over requests are forkJoin, the last awaited with lastValueFrom; a sleep is
// timer(). As in node-rx, the other scenarios have no natural form in observables and are
// n/a.

import { bindNodeCallback, forkJoin, lastValueFrom, map, mergeMap, timer } from "rxjs";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { sum } from "../lib/sum.js";

run({
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => timer(delayMs).pipe(map(() => i))),
  doxbee: ({ requests, ioMs }) => {
    const io = bindNodeCallback(fakeIo(ioMs));
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = bindNodeCallback(fakeIo(ioMs));
    return joinSum(requests, () => fanOut(fanout, io));
  },
});

/**
 * Subscribes to task(0) … task(n - 1) with forkJoin: a promise of the sum of their values
 * (0 for no tasks: a forkJoin of none completes without a value).
 */
function joinSum(n, task) {
  const tasks = Array.from({ length: n }, (_, i) => task(i));
  return lastValueFrom(forkJoin(tasks).pipe(map(sum)), { defaultValue: 0 });
}

/** One doxbee upload (PROTOCOL.md §4): every step a mergeMap of one pipe. */
function upload(request, io) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  // 2. put the blob, then each mergeMap the next step
  return io(tx).pipe(
    mergeMap(() => io(tx)), // 3. look the file up: it never exists
    mergeMap(() => {
      upload.buildVersion(); // 4. the version record
      return io(tx); // 5. insert the version
    }),
    mergeMap(() => {
      upload.buildFileQuery(); // 6. the "create file" query, executed
      return io(tx);
    }),
    mergeMap(() => io(tx)), // 7. insert the file–version link
    mergeMap(() => io(tx)), // 8. update the file's current version
    mergeMap(() => io(tx)), // 9. commit
    map(() => upload.tx.ios),
  );
}

/** One madeup-parallel request: `fanout` ops in one forkJoin, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return forkJoin(Array.from({ length: fanout }, () => io(tx))).pipe(
    mergeMap(() => io(tx)), // commit
    map(() => tx.ios),
  );
}
