// One doxbee upload (PROTOCOL.md §4) as one chain of `.flatMap` steps ending in a `.map`,
// the way the observable libraries of bluebird's suite (rx 4, Kefir, Bacon.js, Highland)
// all write it: shared so that each of them only says how it makes an observable of a fake
// I/O op and how it joins.

import { Upload } from "./requests.js";

/**
 * The upload of `request`: `io(tx)` is an observable of one fake I/O op that emits once;
 * the result emits the request's I/O count.
 */
export function flatMapUpload(request, io) {
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
