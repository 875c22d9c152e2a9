// The `node-kefir` contestant: doxbee, parallel and sleep as Kefir streams, in Kefir's
// idiom: a fake I/O op is Kefir.fromNodeCallback around lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; a fan-out is Kefir.combine, which emits
// once every stream has; the join over requests merges them and scans them to the sum, its
// last value the result; a sleep is Kefir.later. Kefir has no tasks or channels, so the
// other scenarios are n/a.

import Kefir from "kefir";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";

/** The fake I/O op as a Kefir stream of one event. */
const kefirIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Kefir.fromNodeCallback((callback) => io(tx, callback));
};

run({
  sleep: ({ tasks, delayMs }, done) => joinSum(tasks, (i) => Kefir.later(delayMs, i), done),
  doxbee: ({ requests, ioMs }, done) => {
    const io = kefirIo(ioMs);
    joinSum(requests, (i) => flatMapUpload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = kefirIo(ioMs);
    joinSum(requests, () => fanOut(fanout, io), done);
  },
});

/** Merges task(0) … task(n - 1) and sums them; `done` gets the sum once all have ended. */
function joinSum(n, task, done) {
  Kefir.merge(Array.from({ length: n }, (_, i) => task(i)))
    .scan((total, value) => total + value, 0)
    .last()
    .observe({ value: (total) => done(null, total), error: (err) => done(err) });
}

/** One madeup-parallel request: `fanout` ops in one Kefir.combine, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Kefir.combine(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
