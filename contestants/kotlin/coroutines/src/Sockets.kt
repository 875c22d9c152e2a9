// The socket scenarios of docs/PROTOCOL.md §4, echo and connections, as a Kotlin server is
// written with coroutines: ktor-network's raw sockets (`aSocket(selector).tcp()`, bind and
// connect; java.nio's non-blocking channels under one selector coroutine, epoll on Linux),
// a coroutine (`launch`) per accepted connection and one (`async`) per client, each
// socket's ByteReadChannel and ByteWriteChannel. The "connected" signals of `connections`
// go over a kotlinx Channel, its "go" is a CompletableDeferred every client awaits.
package taskbench

import io.ktor.network.selector.SelectorManager
import io.ktor.network.sockets.ServerSocket
import io.ktor.network.sockets.Socket
import io.ktor.network.sockets.aSocket
import io.ktor.network.sockets.openReadChannel
import io.ktor.network.sockets.openWriteChannel
import io.ktor.network.sockets.port
import io.ktor.utils.io.discard
import io.ktor.utils.io.readAvailable
import io.ktor.utils.io.readByte
import io.ktor.utils.io.writeByte
import io.ktor.utils.io.writeFully
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.SendChannel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch

private const val HOST = "127.0.0.1"

/** A read of up to 64 KiB, as the protocol's server does. */
private const val READ_MAX = 64 * 1024

/**
 * The process's one selector, as a ktor server has one: its loop polls java.nio's Selector
 * on Dispatchers.IO and resumes the coroutines whose sockets are ready. It lives as long as
 * the process, like Go's netpoller or tokio's reactor; the sockets of an iteration do not.
 */
private val selector by lazy { SelectorManager(Dispatchers.IO) }

/** b(c, r) = (c + r) mod 255 + 1, every byte client c sends in round r. */
private fun pattern(c: Int, r: Int): Byte = ((c + r) % 255 + 1).toByte()

/** The listener: 127.0.0.1, an ephemeral port, a backlog of `connections`. */
private suspend fun listen(connections: Int): ServerSocket =
    aSocket(selector).tcp().bind(HOST, 0) { backlogSize = connections }

/** A client's connection to the listener, with TCP_NODELAY (ktor sets it on the accepted end). */
private suspend fun connect(port: Int): Socket = aSocket(selector).tcp().connect(HOST, port) { noDelay = true }

/** Closes `socket` and waits until its descriptor is closed (its reader and writer jobs ended). */
private suspend fun closeAndWait(socket: Socket) {
    socket.close()
    socket.socketContext.join()
}

/**
 * `connections` clients each make `rounds` round trips of `bytes` bytes to a server
 * coroutine of their own; the sum of every byte the clients received.
 */
suspend fun echo(connections: Int, rounds: Int, bytes: Int): Long = coroutineScope {
    val server = listen(connections)
    val port = server.port
    // The acceptor: accepts every connection, serves each in a coroutine of its own (its
    // child, so the acceptor ends once they have) and closes the listener.
    launch {
        server.use {
            repeat(connections) {
                val socket = server.accept()
                launch { serveEcho(socket) }
            }
        }
    }
    spawnSum(connections) { c -> echoClient(port, c, rounds, bytes) }
}

/** Reads what has arrived and writes it all back, until end of stream; then closes. */
private suspend fun serveEcho(socket: Socket) {
    val input = socket.openReadChannel()
    val output = socket.openWriteChannel()
    val buffer = ByteArray(READ_MAX)
    try {
        while (true) {
            val n = input.readAvailable(buffer, 0, buffer.size)
            if (n < 0) break
            output.writeFully(buffer, 0, n)
            output.flush()
        }
    } finally {
        closeAndWait(socket)
    }
}

/** Client c: `rounds` writes of `bytes` bytes b(c, r), each read back whole; the bytes' sum. */
private suspend fun echoClient(port: Int, c: Int, rounds: Int, bytes: Int): Long {
    val socket = connect(port)
    val input = socket.openReadChannel()
    val output = socket.openWriteChannel()
    val message = ByteArray(bytes)
    val buffer = ByteArray(minOf(bytes, READ_MAX))
    var sum = 0L
    try {
        for (r in 0 until rounds) {
            message.fill(pattern(c, r))
            output.writeFully(message, 0, bytes)
            output.flush()
            var received = 0
            while (received < bytes) {
                val n = input.readAvailable(buffer, 0, minOf(buffer.size, bytes - received))
                check(n >= 0) { "echo: end of stream after $received of $bytes bytes" }
                for (i in 0 until n) sum += buffer[i].toInt() and 0xFF
                received += n
            }
        }
    } finally {
        closeAndWait(socket)
    }
    return sum
}

/**
 * `connections` client/server pairs opened and held at once; once every client is
 * connected and every connection accepted, one "go": each client writes its byte, reads it
 * back and closes. The sum of the bytes the clients read.
 */
suspend fun connections(connections: Int): Long = coroutineScope {
    val server = listen(connections)
    val port = server.port
    val connected = Channel<Unit>(Channel.UNLIMITED)
    val go = CompletableDeferred<Unit>()
    // The acceptor: a server coroutine per connection (in the iteration's scope), then the
    // listener closed; it ends once every connection is accepted.
    val acceptor = launch {
        server.use {
            repeat(connections) {
                val socket = server.accept()
                this@coroutineScope.launch { hold(socket) }
            }
        }
    }
    val clients = List(connections) { c -> async { heldClient(port, c, connected, go) } }
    repeat(connections) { connected.receive() }
    acceptor.join()
    go.complete(Unit)
    clients.awaitAll().sum()
}

/** The server of one held connection: waits for its byte, writes it back, waits for end of stream. */
private suspend fun hold(socket: Socket) {
    val input = socket.openReadChannel()
    val output = socket.openWriteChannel()
    try {
        output.writeByte(input.readByte())
        output.flush()
        input.discard()
    } finally {
        closeAndWait(socket)
    }
}

/** Client c of `connections`: connects, says so, awaits "go", then one byte each way. */
private suspend fun heldClient(port: Int, c: Int, connected: SendChannel<Unit>, go: Deferred<Unit>): Long {
    val socket = connect(port)
    val input = socket.openReadChannel()
    val output = socket.openWriteChannel()
    try {
        connected.send(Unit)
        go.await()
        output.writeByte(pattern(c, 0))
        output.flush()
        return (input.readByte().toInt() and 0xFF).toLong()
    } finally {
        closeAndWait(socket)
    }
}
