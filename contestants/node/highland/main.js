// The `node-highland` contestant: doxbee and parallel as Highland streams, in caolan's
// Highland idiom: a fake I/O op is _.wrapCallback of lib/requests.js's callback op, a stream
// of one value; a request is one chain of flatMaps, one per step; a fan-out is a stream of
// the op streams merged and collected; the join over requests merges the request streams
// and reduces them to the sum, handed to a callback with toCallback. Highland has no timer,
// tasks or channels, so the other scenarios are n/a.

import _ from "highland";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";

run({
  doxbee: ({ requests, ioMs }, done) => {
    const io = _.wrapCallback(fakeIo(ioMs));
    joinSum(requests, (i) => upload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = _.wrapCallback(fakeIo(ioMs));
    joinSum(requests, () => fanOut(fanout, io), done);
  },
});

/** Merges task(0) … task(n - 1); `done` gets the sum of their values. */
function joinSum(n, task, done) {
  _(Array.from({ length: n }, (_unused, i) => task(i)))
    .merge()
    .reduce(0, (total, value) => total + value)
    .toCallback(done);
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

/** One madeup-parallel request: `fanout` op streams merged and collected, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return _(Array.from({ length: fanout }, () => io(tx)))
    .merge()
    .collect()
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
