// The kotlin-coroutines contestant: the scenarios of docs/PROTOCOL.md §4 with
// kotlinx.coroutines as its users get it, on Dispatchers.Default: `async`/`launch` to
// spawn, `awaitAll` or the scope to join, `delay` to sleep, rendezvous `Channel`s, `yield`;
// the socket scenarios, echo and connections, over ktor-network (Sockets.kt).
@file:JvmName("Main")

package taskbench

import kotlin.math.ceil
import kotlin.time.Duration.Companion.microseconds
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.yield

val scenarios = mapOf(
    "spawn" to Scenario("tasks") { p -> Outcome(spawnSum(p["tasks"]) { i -> i.toLong() }) },
    "sleep" to Scenario("tasks", "delay-ms") { p ->
        val delay = p["delay-ms"].milliseconds
        Outcome(
            spawnSum(p["tasks"]) { i ->
                delay(delay)
                i.toLong()
            },
        )
    },
    "timer" to Scenario("step-us", "total-ms") { p ->
        timer(p["step-us"], p["total-ms"] * 1000L / p["step-us"])
    },
    "doxbee" to Scenario("requests", "io-ms") { p ->
        val io = p["io-ms"].milliseconds
        Outcome(spawnSum(p["requests"]) { i -> upload(i, io).toLong() })
    },
    "parallel" to Scenario("requests", "fanout", "io-ms") { p ->
        val fanout = p["fanout"]
        val io = p["io-ms"].milliseconds
        Outcome(spawnSum(p["requests"]) { parallelRequest(fanout, io).toLong() })
    },
    // The root is a task of its own, as in the original.
    "skynet" to Scenario("size") { p -> Outcome(spawnSum(1) { skynet(0, p["size"].toLong()) }) },
    "pingpong" to Scenario("pairs", "rounds") { p ->
        val rounds = p["rounds"]
        Outcome(spawnSum(p["pairs"]) { pair(rounds).toLong() })
    },
    "chain" to Scenario("length") { p -> Outcome(chain(p["length"])) },
    "yield" to Scenario("tasks", "yields") { p ->
        val yields = p["yields"]
        Outcome(
            spawnSum(p["tasks"]) {
                var count = 0L
                while (count < yields) {
                    yield()
                    count++
                }
                count
            },
        )
    },
    "echo" to Scenario("connections", "rounds", "bytes") { p ->
        Outcome(echo(p["connections"], p["rounds"], p["bytes"]))
    },
    "connections" to Scenario("connections") { p -> Outcome(connections(p["connections"])) },
)

fun main(args: Array<String>): Unit = serve("kotlin-coroutines", args, scenarios)

/** Runs task(0) … task(n − 1) each in a coroutine of its own, awaits them all and sums. */
suspend inline fun spawnSum(n: Int, crossinline task: suspend (Int) -> Long): Long =
    coroutineScope { List(n) { i -> async { task(i) } }.awaitAll().sum() }

/** One coroutine sleeps `step` µs `count` times in sequence, timing every sleep. */
suspend fun timer(stepUs: Int, count: Long): Outcome {
    // delay() counts whole milliseconds and rounds a fraction up.
    val step = stepUs.microseconds
    val slept = LongArray(count.toInt())
    for (k in slept.indices) {
        val start = System.nanoTime()
        delay(step)
        slept[k] = System.nanoTime() - start
    }
    // Nearest-rank percentiles of how much later than the step each sleep ended, clamped at 0.
    val over = slept.map { (it - stepUs * 1000L).coerceAtLeast(0) }.sorted()
    fun rank(q: Double) = if (over.isEmpty()) 0 else over[ceil(q * over.size).toInt().coerceIn(1, over.size) - 1]
    return Outcome(
        slept.size.toLong(),
        listOf("oversleep_p50_ns" to rank(0.50), "oversleep_p99_ns" to rank(0.99), "oversleep_max_ns" to rank(1.0)),
    )
}

/** A leaf returns its number, an inner node the sum of its ten children's, joined. */
suspend fun skynet(num: Long, size: Long): Long {
    if (size == 1L) return num
    val part = size / 10
    return spawnSum(10) { k -> skynet(num + k * part, part) }
}

/**
 * The pinger of one pair: starts its ponger, plays `rounds` round trips with it over two
 * rendezvous channels, then closes its pings, which ends the ponger; returns the round trips.
 */
suspend fun pair(rounds: Int): Int = coroutineScope {
    val pings = Channel<Int>()
    val pongs = Channel<Int>()
    launch { for (ball in pings) pongs.send(ball) }
    var trips = 0
    while (trips < rounds) {
        pings.send(trips)
        pongs.receive()
        trips++
    }
    pings.close()
    trips
}

/**
 * Link 1 is started with the sum 0; link n adds n to the sum it was handed, starts link
 * n + 1 with the new sum and ends; the last one sends the sum to the waiting main coroutine
 * (length·(length+1)/2, a Long). Links are launched in the iteration's scope, not each in
 * its spawner's, so that no link waits for the next, as a chain of detached tasks.
 */
suspend fun chain(length: Int): Long = coroutineScope {
    val done = Channel<Long>()
    fun link(n: Int, sum: Long) {
        launch {
            val total = sum + n
            if (n == length) done.send(total) else link(n + 1, total)
        }
    }
    link(1, 0)
    done.receive()
}

