// The bluebird request scenarios (doxbee, parallel) in streamline.js's `_` style, a
// source of both streamline contestants (tasks._js holds the other seven scenarios): build.sh compiles it with streamline's own
// compiler (`_node -c`) into each contestant's compiled/ folder, once in the callbacks
// mode and once in the generators mode, as bluebird's benchmark ran its streamline._js
// files compiled in those two modes. CommonJS, since that is what streamline 2 compiles.
//
// `_` marks where a call waits: `f(a, _)` suspends until f calls back, and returns what
// it called back with. `f(a, !_)` starts f at once and returns a future; `future(_)` then
// waits for its result. A function with a `_` parameter is a streamlined function: called
// with an error-first callback in that place, it calls back with its return value. The
// fake I/O op is the plain callback op of lib/requests.js, called with `_` directly. A
// fan-out's ops are futures, as in the seed; the requests themselves are started from a
// plain loop with a callback each, as the seed's harness starts them.

"use strict";

/**
 * The scenarios, each a streamlined function `(params, _)` that returns the checksum;
 * `Upload`, `Transaction` and `fakeIo` are those of lib/requests.js (an ES module, which
 * this compiled CommonJS file cannot require), handed in by lib/streamline/contestant.js.
 */
module.exports = function streamlineScenarios(Upload, Transaction, fakeIo) {
  /**
   * Starts task(0, cb) … task(n - 1, cb) from a plain loop, as the seed's harness starts
   * its requests (calling the compiled upload with a callback), and calls back once with
   * the first error or the sum of their results. Joining them with n futures instead, as a
   * fan-out is joined, costs 41 % more CPU on doxbee in the callbacks mode and 59 % in the
   * generators mode (docs/FAIRNESS.md#node-streamline-callbacks).
   */
  function loopSum(n, task, callback) {
    let pending = n;
    let total = 0;
    const joined = function (err, result) {
      if (pending === 0) return; // an error has ended the join already
      if (err) {
        pending = 0;
        return callback(err);
      }
      total += result;
      if (--pending === 0) callback(null, total);
    };
    if (n === 0) return callback(null, 0);
    for (let i = 0; i < n; i++) task(i, joined);
  }

  /** One doxbee upload (PROTOCOL.md §4): every step waited for in turn. */
  function upload(request, io, _) {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const tx = upload.tx;
    io(tx, _); // 2. put the blob
    io(tx, _); // 3. look the file up: it never exists
    upload.buildVersion(); // 4. the version record
    io(tx, _); // 5. insert the version
    upload.buildFileQuery(); // 6. the "create file" query, executed
    io(tx, _);
    io(tx, _); // 7. insert the file–version link
    io(tx, _); // 8. update the file's current version
    io(tx, _); // 9. commit
    return upload.tx.ios;
  }

  /** One op as a streamlined function: a future is made from one, as in the seed. */
  function insert(io, tx, _) {
    io(tx, _);
  }

  /** One madeup-parallel request: `fanout` futures, each waited for, then a commit. */
  function fanOut(fanout, io, _) {
    const tx = new Transaction();
    const inserts = new Array(fanout);
    for (let k = 0; k < fanout; k++) inserts[k] = insert(io, tx, !_);
    for (let k = 0; k < fanout; k++) inserts[k](_);
    io(tx, _); // commit
    return tx.ios;
  }

  function doxbee(params, _) {
    const io = fakeIo(params.ioMs);
    return loopSum(params.requests, function (i, callback) { upload(i, io, callback); }, _);
  }

  function parallel(params, _) {
    const io = fakeIo(params.ioMs);
    const fanout = params.fanout;
    return loopSum(params.requests, function (i, callback) { fanOut(fanout, io, callback); }, _);
  }

  return { doxbee: doxbee, parallel: parallel };
};
