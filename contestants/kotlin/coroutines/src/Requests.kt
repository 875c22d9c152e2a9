// The bluebird request scenarios (docs/SEEDS.md#doxbee-sequential, #madeup-parallel):
// doxbee, seven fake I/O steps in sequence per request, and parallel, a fan-out of fake I/O
// ops per request. Fake I/O is `delay`, kotlinx.coroutines' timer, in the op's coroutine.
package taskbench

import java.time.Instant
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch

/** A request's transaction: counts the fake I/O ops completed in it (a fan-out's at once). */
class Transaction {
    val ops = AtomicInteger()

    /**
     * One fake I/O op (docs/PROTOCOL.md §4 "One fake I/O op"): the call makes a new query
     * holding new params (the op's index within its request) and this transaction, and lets
     * it go once the call is made (the JIT may elide it, as V8 may elide the seed's); then
     * `delay`, whose completion is this call's continuation, and the op counts here.
     */
    suspend fun io(index: Int, io: Duration) {
        Query(QueryParams(index), this)
        delay(io)
        ops.incrementAndGet()
    }
}

class QueryParams(val index: Int)

class Query(val params: QueryParams, val tx: Transaction)

/** The version record of doxbee's step 4. */
class Version(
    val userId: Int,
    val created: Instant,
    val blobId: Int,
    val creator: String,
    val previousId: Int?,
    val hash: String,
)

/** What one doxbee request builds in its synchronous steps; it lives until the request ends. */
class Upload(val request: Int) {
    // 1. Create the blob and begin the transaction.
    val blob = "blob-$request"
    val tx = Transaction()
    var version: Version? = null
    var file: String? = null
    var uuid: String? = null
}

/** One doxbee upload: its steps in sequence, each I/O op's params its step number. */
suspend fun upload(i: Int, io: Duration): Int {
    val upload = Upload(i)
    upload.tx.io(2, io) // put the blob
    upload.tx.io(3, io) // look the file up: it never exists
    // 4. Build the version record; the file is new.
    upload.version = Version(i, Instant.now(), i, "user-$i", previousId = null, hash = "hash")
    upload.tx.io(5, io) // insert the version
    // 6. Name the file after the path's last segment, make its uuid, run the query.
    upload.file = "/files/$i/upload.bin".split('/').last()
    upload.uuid = i.toString(16).padStart(32, '0')
    upload.tx.io(6, io)
    upload.tx.io(7, io) // insert the file–version link
    upload.tx.io(8, io) // update the file's current version
    upload.tx.io(9, io) // commit
    return upload.tx.ops.get()
}

/**
 * One madeup-parallel request: `fanout` ops at once (indexes 0 … fanout − 1), each launched
 * in a coroutine of its own and joined by their scope, then the commit (index fanout).
 */
suspend fun parallelRequest(fanout: Int, io: Duration): Int {
    val tx = Transaction()
    coroutineScope { repeat(fanout) { k -> launch { tx.io(k, io) } } }
    tx.io(fanout, io) // commit
    return tx.ops.get()
}
