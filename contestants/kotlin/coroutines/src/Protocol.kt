// The contestant protocol of docs/PROTOCOL.md (version 2) for the Kotlin contestants: reads
// the command line, runs the unmeasured warm-up iterations, then the M measured ones, each
// timed with the monotonic clock and the process CPU clock (clock_gettime through the FFM
// API, as the Java contestants: every thread, nanoseconds; the JVM's getProcessCpuTime
// counts 10 ms ticks on Linux) and followed by its one line, and exits.
package taskbench

import java.lang.foreign.Arena
import java.lang.foreign.FunctionDescriptor
import java.lang.foreign.Linker
import java.lang.foreign.ValueLayout
import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking

/** What one iteration produced: its checksum and scenario-specific figures ("extra"). */
class Outcome(val checksum: Long, val extra: List<Pair<String, Long>> = emptyList())

/** One scenario: its parameters in catalogue order and one iteration of it. */
class Scenario(vararg val params: String, val iteration: suspend (Params) -> Outcome)

/** The value of every parameter of a scenario by its command-line name. */
class Params(private val values: Map<String, Int>) {
    operator fun get(name: String): Int = values.getValue(name)
}

private class Invocation(
    val scenario: Scenario,
    val params: Params,
    val warmupParams: Params,
    val warmups: Int,
    val iterations: Int,
)

private class UsageError(message: String) : Exception(message)

private const val WARMUP_FLAG = "inner-warmup"
private const val ITERATIONS_FLAG = "iterations"
// `--warmup-<param> V`: the warm-up iterations run with <param> = V.
private const val WARMUP_PARAM_PREFIX = "warmup-"

/**
 * Runs the invocation in [args] and exits: 0 after the last result line, 2 when the command
 * line is not understood. Every iteration runs in one `runBlocking` on `Dispatchers.Default`,
 * so the scenario's own coroutine is on the default pool like every task it starts.
 */
fun serve(name: String, args: Array<String>, scenarios: Map<String, Scenario>): Nothing {
    val invocation = try {
        parse(args, scenarios)
    } catch (e: UsageError) {
        System.err.println("$name: ${e.message}")
        exitProcess(2)
    }
    runBlocking(Dispatchers.Default) {
        repeat(invocation.warmups) { invocation.scenario.iteration(invocation.warmupParams) }
        repeat(invocation.iterations) {
            val cpuStart = processCpuNs()
            val start = System.nanoTime()
            val outcome = invocation.scenario.iteration(invocation.params)
            val elapsed = System.nanoTime() - start
            val cpu = processCpuNs() - cpuStart
            println(resultLine(elapsed, cpu, outcome))
            System.out.flush()
        }
    }
    // Exit at once: tearing the runtime down is not part of the workload.
    exitProcess(0)
}

/**
 * `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
 * --iterations M`; every parameter is required, every value a non-negative integer.
 */
private fun parse(args: Array<String>, scenarios: Map<String, Scenario>): Invocation {
    val name = args.firstOrNull() ?: throw UsageError("missing scenario")
    val scenario = scenarios[name]
        ?: throw UsageError("unknown scenario '$name' (expected one of ${scenarios.keys.joinToString()})")
    val values = mutableMapOf<String, Int>()
    val overrides = mutableMapOf<String, Int>()
    val rest = args.drop(1)
    if (rest.size % 2 != 0) throw UsageError("expected --<param> <value> pairs, got ${rest.joinToString(" ")}")
    for ((flag, text) in rest.chunked(2)) {
        val key = flag.removePrefix("--")
        val value = text.toIntOrNull()?.takeIf { it >= 0 }
        when {
            key == flag -> throw UsageError("unexpected argument '$flag'")
            value == null -> throw UsageError("$flag: '$text' is not a count")
            key.startsWith(WARMUP_PARAM_PREFIX) && key.removePrefix(WARMUP_PARAM_PREFIX) in scenario.params ->
                overrides[key.removePrefix(WARMUP_PARAM_PREFIX)] = value
            key in scenario.params || key == WARMUP_FLAG || key == ITERATIONS_FLAG -> values[key] = value
            else -> throw UsageError("$name has no parameter $flag")
        }
    }
    for (key in listOf(*scenario.params, WARMUP_FLAG, ITERATIONS_FLAG)) {
        if (key !in values) throw UsageError("$name needs --$key")
    }
    val iterations = values.remove(ITERATIONS_FLAG)!!
    if (iterations < 1) throw UsageError("--$ITERATIONS_FLAG must be at least 1")
    val warmups = values.remove(WARMUP_FLAG)!!
    return Invocation(scenario, Params(values), Params(values + overrides), warmups, iterations)
}

/** Linux's CLOCK_PROCESS_CPUTIME_ID. */
private const val PROCESS_CPU_CLOCK = 2

/** libc's `int clock_gettime(clockid_t, struct timespec *)`. */
private val clockGettime = Linker.nativeLinker().let { linker ->
    linker.downcallHandle(
        linker.defaultLookup().find("clock_gettime").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
    )
}

/** The CPU time (user + system, every thread) the process has used, in nanoseconds. */
private fun processCpuNs(): Long = Arena.ofConfined().use { arena ->
    val timespec = arena.allocate(ValueLayout.JAVA_LONG, 2)
    val status = clockGettime.invokeWithArguments(PROCESS_CPU_CLOCK, timespec) as Int
    if (status != 0) return 0
    timespec.getAtIndex(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L +
        timespec.getAtIndex(ValueLayout.JAVA_LONG, 1)
}

/** `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`, written by hand as every figure is an integer. */
private fun resultLine(elapsedNs: Long, cpuNs: Long, outcome: Outcome): String {
    val extra = outcome.extra.joinToString(",") { (name, value) -> "\"$name\":$value" }
    return "{\"elapsed_ns\":$elapsedNs,\"cpu_ns\":$cpuNs,\"checksum\":${outcome.checksum},\"extra\":{$extra}}"
}
