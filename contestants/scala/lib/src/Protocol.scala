// The contestant protocol of docs/PROTOCOL.md (version 2) for the Scala contestants: reads
// the command line, runs the unmeasured warm-up iterations, then the M measured ones, each
// timed with the monotonic clock and the process CPU clock (clock_gettime through the FFM
// API, as the Java and Kotlin contestants: every thread, nanoseconds; the JVM's
// getProcessCpuTime counts 10 ms ticks on Linux) and followed by its one line. It is
// written once over the contestant's effect type, so the whole loop runs as effects in the
// library's own runtime (an IOApp, a ZIOAppDefault), as every scenario does.
package taskbench

import java.lang.foreign.{Arena, FunctionDescriptor, Linker, ValueLayout}
import java.lang.invoke.MethodHandle

/** What one iteration produced: its checksum and scenario-specific figures ("extra"). */
final case class Outcome(checksum: Long, extra: Seq[(String, Long)] = Nil)

/** The value of every parameter of a scenario by its command-line name. */
final class Params(values: Map[String, Int]):
  def apply(name: String): Int = values(name)

/** A command line understood: the scenario, its parameters and the iteration counts. */
final case class Invocation(
    scenario: String,
    params: Params,
    warmupParams: Params,
    warmups: Int,
    iterations: Int
)

object Protocol:
  /** The exit status of a command line not understood. */
  val ExitUsage = 2

  private val WarmupFlag = "inner-warmup"
  private val IterationsFlag = "iterations"
  // `--warmup-<param> V`: the warm-up iterations run with <param> = V.
  private val WarmupParamPrefix = "warmup-"

  /**
   * The whole process as one effect: parses `args`, runs the invocation on `runtime` and
   * gives the exit status (0 after the last result line, 2 with one line on stderr when the
   * command line is not understood), which the app then exits with.
   */
  def serve[F[_]](name: String, args: Seq[String], runtime: Runtime[F]): F[Int] =
    parse(args) match
      case Left(message) =>
        runtime.delay {
          System.err.println(s"$name: $message")
          ExitUsage
        }
      case Right(invocation) =>
        val scenarios = Scenarios(runtime)
        given Runtime[F] = runtime
        val warmup = scenarios.iteration(invocation.scenario, invocation.warmupParams)
        val measured = for
          clocks <- runtime.delay(Clocks.start())
          outcome <- scenarios.iteration(invocation.scenario, invocation.params)
        yield clocks.print(outcome)
        for
          _ <- repeat(invocation.warmups, warmup)
          _ <- repeat(invocation.iterations, measured)
        yield 0

  /** `fa` run `n` times in sequence (each run a new evaluation of the same description). */
  private def repeat[F[_], A](n: Int, fa: F[A])(using runtime: Runtime[F]): F[Unit] =
    if n == 0 then runtime.delay(())
    else runtime.flatMap(fa)(_ => repeat(n - 1, fa))

  /**
   * `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
   * --iterations M`; every parameter is required, every value a non-negative integer.
   */
  def parse(args: Seq[String]): Either[String, Invocation] =
    for
      name <- args.headOption.toRight("missing scenario")
      params <- Scenarios.params
        .get(name)
        .toRight(s"unknown scenario '$name' (expected one of ${Scenarios.params.keys.mkString(", ")})")
      pairs <- pairsOf(args.drop(1))
      read <- sort(name, params, pairs)
      _ <- (params :+ WarmupFlag :+ IterationsFlag)
        .find(key => !read.values.contains(key))
        .map(key => s"$name needs --$key")
        .toLeft(())
      iterations = read.values(IterationsFlag)
      _ <- Either.cond(iterations >= 1, (), s"--$IterationsFlag must be at least 1")
      own = read.values -- Seq(WarmupFlag, IterationsFlag)
    yield Invocation(name, Params(own), Params(own ++ read.overrides), read.values(WarmupFlag), iterations)

  /** `--<key> <count>` pairs: each key without its dashes, each value a count. */
  private def pairsOf(rest: Seq[String]): Either[String, Seq[(String, String, Int)]] =
    if rest.size % 2 != 0 then Left(s"expected --<param> <value> pairs, got ${rest.mkString(" ")}")
    else
      val parsed = rest.grouped(2).toSeq.map { case Seq(flag, text) =>
        text.toIntOption.filter(_ >= 0) match
          case _ if !flag.startsWith("--") => Left(s"unexpected argument '$flag'")
          case None => Left(s"$flag: '$text' is not a count")
          case Some(value) => Right((flag, flag.stripPrefix("--"), value))
      }
      parsed.collectFirst { case Left(error) => error }.toLeft(parsed.collect { case Right(p) => p })

  /** The values a command line gives: the scenario's own (with the two counts), the warm-up's. */
  private final case class Given(values: Map[String, Int], overrides: Map[String, Int])

  /** Sorts the pairs into the scenario's own values and the warm-up overrides. */
  private def sort(name: String, params: Seq[String], pairs: Seq[(String, String, Int)]): Either[String, Given] =
    pairs.foldLeft[Either[String, Given]](Right(Given(Map.empty, Map.empty))) {
      case (Right(read), (flag, key, value)) =>
        val overridden = key.stripPrefix(WarmupParamPrefix)
        if key.startsWith(WarmupParamPrefix) && params.contains(overridden) then
          Right(read.copy(overrides = read.overrides + (overridden -> value)))
        else if params.contains(key) || key == WarmupFlag || key == IterationsFlag then
          Right(read.copy(values = read.values + (key -> value)))
        else Left(s"$name has no parameter $flag")
      case (error, _) => error
    }

/** Both clocks read just before an iteration: its line is printed from them once it ends. */
final class Clocks private (cpuStart: Long, start: Long):
  /** Reads both clocks, prints the iteration's one line and flushes it. */
  def print(outcome: Outcome): Unit =
    val elapsed = System.nanoTime() - start
    val cpu = Clocks.processCpuNs() - cpuStart
    val extra = outcome.extra.map((name, value) => s"\"$name\":$value").mkString(",")
    System.out.println(
      s"{\"elapsed_ns\":$elapsed,\"cpu_ns\":$cpu,\"checksum\":${outcome.checksum},\"extra\":{$extra}}"
    )
    System.out.flush()

object Clocks:
  /** The process CPU clock, then the monotonic one. */
  def start(): Clocks =
    val cpu = processCpuNs()
    Clocks(cpu, System.nanoTime())

  /** Linux's CLOCK_PROCESS_CPUTIME_ID. */
  private val ProcessCpuClock = 2

  /** libc's `int clock_gettime(clockid_t, struct timespec *)`. */
  private val clockGettime: MethodHandle =
    val linker = Linker.nativeLinker()
    linker.downcallHandle(
      linker.defaultLookup().find("clock_gettime").orElseThrow(),
      FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)
    )

  /** The CPU time (user + system, every thread) the process has used, in nanoseconds. */
  def processCpuNs(): Long =
    val arena = Arena.ofConfined()
    try
      val timespec = arena.allocate(ValueLayout.JAVA_LONG, 2)
      val status = clockGettime.invokeWithArguments(Integer.valueOf(ProcessCpuClock), timespec)
      if status.asInstanceOf[Int] != 0 then 0
      else
        timespec.getAtIndex(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L +
          timespec.getAtIndex(ValueLayout.JAVA_LONG, 1)
    finally arena.close()
