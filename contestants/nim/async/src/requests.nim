## The bluebird request scenarios (docs/SEEDS.md#bluebird): doxbee, seven fake I/O steps in
## sequence per request, and parallel, a fan-out of fake I/O ops per request. Fake I/O is
## `sleepAsync`, asyncdispatch's timer.

import std/[asyncdispatch, options, strutils, times]
import tasks

type
  Transaction = ref object
    ## A request's transaction: it counts the fake I/O ops completed in it.
    ops: int
  Query = ref object
    ## One fake I/O op's query, as bluebird's fake database call makes one per call
    ## (docs/PROTOCOL.md §4 "One fake I/O op"): its params and its transaction.
    params: QueryParams
    tx: Transaction
  QueryParams = ref object
    ## A query's parameters: the op's index within its request.
    index: int
  Version = object
    ## The version record of step 4.
    userId: int
    created: Time
    blobId: int
    creator: string
    previousId: Option[int]
    hash: string
  Upload = ref object
    ## What one doxbee request builds in its synchronous steps; it lives until the request
    ## ends, as in the original's closures.
    blob: string
    tx: Transaction
    version: Version
    file, uuid: string

proc complete(tx: Transaction, ioMs: int) {.async.} =
  ## The op's completion, made for its call: its future waits on the timer, then the op
  ## counts in the transaction.
  await sleepAsync(ioMs)
  inc tx.ops

proc call(query: Query, ioMs: int): Future[void] =
  ## The fake database call: it reads the query's transaction and holds the query no
  ## longer (the completion is given the transaction alone).
  complete(query.tx, ioMs)

proc fakeIO(tx: Transaction, index, ioMs: int): Future[void] =
  ## One fake I/O op of the transaction: the call, with a new query for op `index`.
  call(Query(params: QueryParams(index: index), tx: tx), ioMs)

proc doxbeeRequest(i, ioMs: int): Future[int] {.async.} =
  ## Runs the steps of one upload in sequence and returns its fake I/O count. Each I/O op's
  ## params are its step number.
  # 1. Create the blob and begin the transaction.
  let upload = Upload(blob: "blob-" & $i, tx: Transaction())
  let tx = upload.tx
  await tx.fakeIO(2, ioMs) # put the blob
  await tx.fakeIO(3, ioMs) # look the file up: it never exists
  # 4. Build the version record.
  upload.version = Version(userId: i, created: getTime(), blobId: i,
      creator: "user-" & $i,
    previousId: none(int), hash: "hash")
  await tx.fakeIO(5, ioMs) # insert the version
  # 6. Name the file after the path's last segment, make its uuid, run the query.
  upload.file = ("/files/" & $i & "/upload.bin").split('/')[^1]
  upload.uuid = toHex(i, 32)
  await tx.fakeIO(6, ioMs)
  await tx.fakeIO(7, ioMs) # insert the file–version link
  await tx.fakeIO(8, ioMs) # update the file's current version
  await tx.fakeIO(9, ioMs) # commit
  # What the steps built lives until here, held by `upload`.
  return upload.tx.ops

proc doxbee*(requests, ioMs: int): Future[int] =
  proc request(i: int): Future[int] = doxbeeRequest(i, ioMs)
  spawnSum(requests, request)

proc parallelRequest(fanout, ioMs: int): Future[int] {.async.} =
  ## Starts `fanout` fake I/O ops at once (indexes 0 … fanout−1), joins them with `all`,
  ## then commits (index `fanout`); returns the ops done.
  let tx = Transaction()
  var ops = newSeqOfCap[Future[void]](fanout)
  for k in 0 ..< fanout:
    ops.add tx.fakeIO(k, ioMs)
  await all(ops)
  await tx.fakeIO(fanout, ioMs) # commit
  return tx.ops

proc parallel*(requests, fanout, ioMs: int): Future[int] =
  proc request(i: int): Future[int] = parallelRequest(fanout, ioMs)
  spawnSum(requests, request)
