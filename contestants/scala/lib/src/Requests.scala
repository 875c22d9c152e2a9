// The bluebird request scenarios (docs/SEEDS.md#doxbee-sequential, #madeup-parallel):
// doxbee, seven fake I/O steps in sequence per request, and parallel, a fan-out of fake I/O
// ops per request, written once over a contestant's Runtime. Fake I/O is the effect
// library's own sleep, and the op's completion is the effect that follows it.
package taskbench

import java.lang.ref.Reference
import java.time.Instant
import java.util.concurrent.atomic.AtomicInteger

/** A request's transaction: counts the fake I/O ops completed in it (a fan-out's at once). */
final class Transaction:
  private val done = AtomicInteger()

  /**
   * The fake database call of op `index` (docs/PROTOCOL.md §4 "One fake I/O op"): it makes
   * the op's query, with new params, and lets it go once the call is made, as the seed does
   * (the JIT may elide it, as V8 may elide the seed's).
   */
  def call(index: Int): Unit =
    Query(QueryParams(index), this)
    ()

  /** An op's timer fired: the op counts in this transaction. */
  def complete(): Unit =
    done.incrementAndGet()
    ()

  /** The ops of this transaction that have completed. */
  def ops: Long = done.get

/** The query of one fake I/O op: its params and the transaction it runs in. */
final class Query(val params: QueryParams, val tx: Transaction)

/** A query's parameters: the op's number within its request. */
final class QueryParams(val index: Int)

/** The version record of doxbee's step 4. */
final case class Version(
    userId: Int,
    created: Instant,
    blobId: Int,
    creator: String,
    previousId: Option[Int],
    hash: String
)

/**
 * One doxbee upload (docs/PROTOCOL.md §4): what its synchronous steps build stays here,
 * alive until the request ends, as it stays in the original's closures.
 */
final class Upload(request: Int):
  // 1. Create the blob and begin the transaction (its ops are steps 2 … 9).
  private val blob = s"blob-$request"
  val tx = Transaction()
  private var version: Version = null
  private var fileName: String = null
  private var uuid: String = null

  /** Step 4: the version record (the lookup of step 3 found no file). */
  def buildVersion(): Unit =
    version = Version(request, Instant.now(), request, s"user-$request", None, "hash")

  /** Step 6: the file name (the path's last segment) and uuid of the "create file" query. */
  def buildFileQuery(): Unit =
    fileName = s"/files/$request/upload.bin".split('/').last
    uuid = f"$request%032x"

  /** The request ends: its fake I/O count. What the steps built was alive until now. */
  def finish(): Long =
    Reference.reachabilityFence(this)
    tx.ops

/** doxbee's and parallel's requests as effects of `runtime`. */
final class Requests[F[_]](runtime: Runtime[F]):
  private given Runtime[F] = runtime

  /**
   * `requests` uploads at once, each in a fiber of its own, each I/O op `ioMs` long; the sum
   * of their I/O counts.
   */
  def doxbee(requests: Int, ioMs: Int): F[Long] =
    val io = runtime.nanos(ioMs * 1_000_000L)
    runtime.spawnSum(requests)(i => upload(i, io))

  /** `requests` requests at once, each fanning out `fanout` ops, then its commit. */
  def parallel(requests: Int, fanout: Int, ioMs: Int): F[Long] =
    val io = runtime.nanos(ioMs * 1_000_000L)
    runtime.spawnSum(requests)(_ => fanOut(fanout, io))

  /**
   * One fake I/O op: the call makes the op's query and lets it go, then the library's sleep,
   * whose completion — the effect that follows it — counts the op in the transaction.
   */
  private def op(tx: Transaction, index: Int, io: runtime.Span): F[Unit] =
    runtime.delay(tx.call(index)).flatMap(_ => runtime.sleep(io)).flatMap(_ => runtime.delay(tx.complete()))

  /** One doxbee upload: its steps in sequence, each I/O op's params its step number. */
  private def upload(i: Int, io: runtime.Span): F[Long] =
    for
      upload <- runtime.delay(Upload(i))
      _ <- op(upload.tx, 2, io) // put the blob
      _ <- op(upload.tx, 3, io) // look the file up: it never exists
      _ <- runtime.delay(upload.buildVersion()) // 4. the version record; the file is new
      _ <- op(upload.tx, 5, io) // insert the version
      _ <- runtime.delay(upload.buildFileQuery()) // 6. name and uuid, then the query
      _ <- op(upload.tx, 6, io)
      _ <- op(upload.tx, 7, io) // insert the file–version link
      _ <- op(upload.tx, 8, io) // update the file's current version
      count <- op(upload.tx, 9, io).map(_ => upload.finish()) // commit
    yield count

  /**
   * One madeup-parallel request: `fanout` ops at once (numbers 0 … fanout − 1), each in a
   * fiber of its own and all joined, then the commit (number fanout).
   */
  private def fanOut(fanout: Int, io: runtime.Span): F[Long] =
    for
      tx <- runtime.delay(Transaction())
      _ <- runtime.spawnAll(fanout)(k => op(tx, k, io))
      count <- op(tx, fanout, io).map(_ => tx.ops) // commit
    yield count
