// The `node-rx` contestant: doxbee, parallel and sleep as RxJS 4 observables (the `rx`
// package, the version bluebird's benchmark measured), in Rx 4's own idiom of chained
// operators. A fake I/O op is Observable.fromNodeCallback of lib/requests.js's callback op;
// a request is one chain of flatMaps, one per step; fan-outs and the joins over requests
// are forkJoin (a merge of 10,000 observables overflows Rx 4's immediate scheduler); a
// sleep is Observable.timer. The other scenarios have no natural Rx form (observables are
// not tasks, and Rx has no channel), so they are n/a.

import Rx from "rx";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { sum } from "../lib/sum.js";

const { Observable } = Rx;

run({
  sleep: ({ tasks, delayMs }, done) =>
    joinSum(tasks, (i) => Observable.timer(delayMs).map(() => i), done),
  doxbee: ({ requests, ioMs }, done) => {
    const io = Observable.fromNodeCallback(fakeIo(ioMs));
    joinSum(requests, (i) => flatMapUpload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = Observable.fromNodeCallback(fakeIo(ioMs));
    joinSum(requests, () => fanOut(fanout, io), done);
  },
});

/**
 * Subscribes to task(0) … task(n - 1) with forkJoin; `done` gets the sum of their values
 * (0 for no tasks: a forkJoin of none completes without a value).
 */
function joinSum(n, task, done) {
  Observable.forkJoin(Array.from({ length: n }, (_, i) => task(i)))
    .map(sum)
    .defaultIfEmpty(0)
    .subscribe(
      (total) => done(null, total),
      (err) => done(err),
    );
}

/** One madeup-parallel request: `fanout` ops in one forkJoin, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Observable.forkJoin(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
