// What the bluebird request scenarios (doxbee, parallel; docs/SEEDS.md#bluebird) do
// besides waiting, shared by every Node contestant so that each one only says how it
// waits: the fake I/O operation, the transaction that counts it, and the synchronous steps
// of one doxbee upload.

/**
 * A request's transaction. Every fake I/O op done within it counts itself here once it
 * completes, so a request returns the number of operations it really waited for.
 */
export class Transaction {
  ios = 0;
  issued = 0;
}

/** The query a fake database call makes (bluebird's fakemaker.js `queryish()`). */
class Query {
  constructor(tx, params) {
    this.tx = tx;
    this.params = params;
  }
}

/**
 * The fake I/O operation of bluebird's benchmark for `ioMs` (PROTOCOL.md §4, "One fake I/O
 * op"): `io(tx, callback)` makes this call's query and params, as the seed's fake database
 * does, and drops them, as the seed's do once the call is made (V8 may then elide them, in
 * both); the timer fires after `ioMs` (on the next tick at 0), counts the op in the
 * transaction and calls back with no error and no result. The completion is the caller's
 * callback, made per call by every promise wrapper (promisify, `new Promise`). Every
 * language's contestants make and drop the query the same way (the one rule of
 * PROTOCOL.md §4); holding it until the op completed instead cost Node 40 % more time at
 * parallel's default size (201 against 142 ms for node-callbacks, measured before the rule).
 */
export function fakeIo(ioMs) {
  return ioMs === 0
    ? (tx, callback) => {
        makeQuery(tx);
        process.nextTick(complete, tx, callback);
      }
    : (tx, callback) => {
        makeQuery(tx);
        setTimeout(complete, ioMs, tx, callback);
      };
}

function makeQuery(tx) {
  return new Query(tx, { index: tx.issued++ });
}

function complete(tx, callback) {
  tx.ios += 1;
  callback();
}

/**
 * The fake I/O op for the native Promise: `io(tx)` returns a `new Promise` around the same
 * callback op, the wrapper bluebird's benchmark gives native promises. util.promisify would
 * do the same through a general wrapper for any arguments and results, which holds about a
 * quarter more memory at the parallel scenario's default size.
 */
export function nativePromiseIo(ioMs) {
  const io = fakeIo(ioMs);
  return (tx) => new Promise((resolve, reject) => io(tx, (err) => (err ? reject(err) : resolve())));
}

// The original's createHash returns a constant.
const HASH = "hash";

/**
 * One doxbee upload (PROTOCOL.md §4): the values its synchronous steps build stay here,
 * alive until the request ends, as they stay in the original's closures. A request ends by
 * returning `upload.tx.ios`, so the upload is reachable until then.
 */
export class Upload {
  /** Step 1: create the blob and begin the transaction. */
  constructor(request) {
    this.request = request;
    this.blob = `blob-${request}`;
    this.tx = new Transaction();
    this.version = null;
    this.fileName = null;
    this.uuid = null;
  }

  /** Step 4: the version record (the lookup of step 3 found no file). */
  buildVersion() {
    this.version = {
      userId: this.request,
      created: new Date(),
      blobId: this.request,
      creator: `user-${this.request}`,
      previousId: null,
      hash: HASH,
    };
  }

  /** Step 6: the file name (last path segment) and uuid of the "create file" query. */
  buildFileQuery() {
    const path = `/files/${this.request}/upload.bin`;
    this.fileName = path.split("/").at(-1);
    this.uuid = this.request.toString(16).padStart(32, "0");
  }
}
