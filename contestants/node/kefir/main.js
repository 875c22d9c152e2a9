// The `node-kefir` contestant: doxbee, parallel and sleep as Kefir streams, in Kefir's
// idiom: a fake I/O op is Kefir.fromNodeCallback around lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; a fan-out is Kefir.combine, which emits
// once every stream has; the join over requests merges them and scans them to the sum, its
// last value the result; a sleep is Kefir.later. Kefir has no tasks or channels, so the
// other scenarios are n/a.

import Kefir from "kefir";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";

/** The fake I/O op as a Kefir stream of one event. */
const kefirIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Kefir.fromNodeCallback((callback) => io(tx, callback));
};

run({
  sleep: ({ tasks, delayMs }, done) => joinSum(tasks, (i) => Kefir.later(delayMs, i), done),
  doxbee: ({ requests, ioMs }, done) => {
    const io = kefirIo(ioMs);
    joinSum(requests, (i) => upload(i, io), done);
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

/** One madeup-parallel request: `fanout` ops in one Kefir.combine, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Kefir.combine(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
