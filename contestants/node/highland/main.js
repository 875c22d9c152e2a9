// The `node-highland` contestant: doxbee and parallel as Highland streams, in caolan's
// Highland idiom: a fake I/O op is _.wrapCallback of lib/requests.js's callback op, a stream
// of one value; a request is one chain of flatMaps, one per step; a fan-out is a stream of
// the op streams merged and collected; the join over requests merges the request streams
// and reduces them to the sum, handed to a callback with toCallback. Highland has no timer,
// tasks or channels, so the other scenarios are n/a.

import _ from "highland";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";

run({
  doxbee: ({ requests, ioMs }, done) => {
    const io = _.wrapCallback(fakeIo(ioMs));
    joinSum(requests, (i) => flatMapUpload(i, io), done);
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

/** One madeup-parallel request: `fanout` op streams merged and collected, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return _(Array.from({ length: fanout }, () => io(tx)))
    .merge()
    .collect()
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}
