// The scenarios of docs/PROTOCOL.md §4, the nine task ones written once over a contestant's
// Runtime: every spawn, join, sleep, yield, queue and promise in them is the effect
// library's own (Runtime.scala); the request scenarios, doxbee and parallel, are in
// Requests.scala. The socket scenarios, echo and connections, are each contestant's own
// (its Sockets.scala), over its ecosystem's TCP library.
package taskbench

import scala.collection.immutable.ListMap

/** One iteration of each scenario, as effects of `runtime`. */
final class Scenarios[F[_]](runtime: Runtime[F]):
  private given Runtime[F] = runtime
  private val requests = Requests(runtime)

  /** One iteration of scenario `name` with `p`, built anew each time the effect runs. */
  def iteration(name: String, p: Params): F[Outcome] = runtime.suspend(build(name, p))

  private def build(name: String, p: Params): F[Outcome] = name match
    case "spawn" => counted(runtime.spawnSum(p("tasks"))(i => runtime.delay(i.toLong)))
    case "sleep" => counted(sleep(p("tasks"), runtime.nanos(p("delay-ms") * 1_000_000L)))
    case "timer" => timer(p("step-us"), p("total-ms") * 1000L / p("step-us"))
    case "doxbee" => counted(requests.doxbee(p("requests"), p("io-ms")))
    case "parallel" => counted(requests.parallel(p("requests"), p("fanout"), p("io-ms")))
    // The root is a task of its own, as in the original.
    case "skynet" => counted(runtime.spawnSum(1)(_ => skynet(0, p("size"))))
    case "pingpong" => counted(runtime.spawnSum(p("pairs"))(_ => pair(p("rounds"))))
    case "chain" => counted(chain(p("length")))
    case "yield" => counted(runtime.spawnSum(p("tasks"))(_ => yields(p("yields"))))
    case "echo" => counted(runtime.echo(p("connections"), p("rounds"), p("bytes")))
    case "connections" => counted(runtime.connections(p("connections")))

  private def counted(checksum: F[Long]): F[Outcome] = checksum.map(Outcome(_))

  /** `tasks` fibers, each sleeping `delay` and returning its number. */
  private def sleep(tasks: Int, delay: runtime.Span): F[Long] =
    runtime.spawnSum(tasks)(i => runtime.sleep(delay).map(_ => i.toLong))

  /** One fiber sleeps `stepUs` µs `count` times in sequence, timing every sleep. */
  private def timer(stepUs: Int, count: Long): F[Outcome] =
    val step = runtime.nanos(stepUs * 1000L)
    def from(slept: Array[Long], k: Int): F[Unit] =
      if k == slept.length then runtime.delay(())
      else
        val one = runtime.delay(System.nanoTime()).flatMap { start =>
          runtime.sleep(step).flatMap(_ => runtime.delay(slept(k) = System.nanoTime() - start))
        }
        one.flatMap(_ => from(slept, k + 1))
    runtime.delay(new Array[Long](count.toInt)).flatMap { slept =>
      from(slept, 0).map(_ => oversleep(slept, stepUs * 1000L))
    }

  /**
   * The timer's outcome: the number of sleeps, and the nearest-rank percentiles of how much
   * later than the step each sleep ended, clamped at 0.
   */
  private def oversleep(slept: Array[Long], stepNs: Long): Outcome =
    val over = slept.map(ns => (ns - stepNs).max(0)).sorted
    def rank(q: Double): Long =
      if over.isEmpty then 0 else over(math.ceil(q * over.length).toInt.max(1).min(over.length) - 1)
    Outcome(
      slept.length,
      Seq("oversleep_p50_ns" -> rank(0.50), "oversleep_p99_ns" -> rank(0.99), "oversleep_max_ns" -> rank(1.0))
    )

  /** A leaf returns its number, an inner node the sum of its ten children's, joined. */
  private def skynet(num: Long, size: Long): F[Long] =
    if size == 1 then runtime.delay(num)
    else
      val part = size / 10
      runtime.spawnSum(10)(k => skynet(num + k * part, part))

  /**
   * The pinger of one pair: starts its ponger, plays `rounds` round trips with it over two
   * queues, joins it and returns the round trips.
   */
  private def pair(rounds: Int): F[Long] =
    def echo(pings: Channel[F], pongs: Channel[F], left: Int): F[Unit] =
      if left == 0 then runtime.delay(())
      else pings.receive.flatMap(pongs.send).flatMap(_ => echo(pings, pongs, left - 1))
    def play(pings: Channel[F], pongs: Channel[F], trips: Int): F[Long] =
      if trips == rounds then runtime.delay(trips.toLong)
      else pings.send(trips).flatMap(_ => pongs.receive).flatMap(_ => play(pings, pongs, trips + 1))
    for
      pings <- runtime.channel
      pongs <- runtime.channel
      ponger <- runtime.fork(echo(pings, pongs, rounds))
      trips <- play(pings, pongs, 0)
      _ <- ponger
    yield trips

  /**
   * Link 1 is started with the sum 0; link n adds n to the sum it was handed, starts link
   * n + 1 with the new sum in a fiber nobody joins and ends; the last one completes the
   * promise the main fiber waits on with the sum.
   */
  private def chain(length: Int): F[Long] =
    def link(n: Int, sum: Long, done: OneShot[F]): F[Unit] =
      val total = sum + n
      if n == length then done.complete(total)
      else runtime.detach(runtime.suspend(link(n + 1, total, done)))
    for
      done <- runtime.promise
      _ <- runtime.detach(link(1, 0L, done))
      sum <- done.get
    yield sum

  /** A task that yields `yields` times and returns its count. */
  private def yields(yields: Int): F[Long] =
    def from(count: Long): F[Long] =
      if count == yields then runtime.delay(count)
      else runtime.yieldNow.flatMap(_ => from(count + 1))
    from(0)

object Scenarios:
  /** Each scenario's parameters in catalogue order (docs/SCENARIOS.md). */
  val params: ListMap[String, Seq[String]] = ListMap(
    "spawn" -> Seq("tasks"),
    "sleep" -> Seq("tasks", "delay-ms"),
    "timer" -> Seq("step-us", "total-ms"),
    "doxbee" -> Seq("requests", "io-ms"),
    "parallel" -> Seq("requests", "fanout", "io-ms"),
    "skynet" -> Seq("size"),
    "pingpong" -> Seq("pairs", "rounds"),
    "chain" -> Seq("length"),
    "yield" -> Seq("tasks", "yields"),
    "echo" -> Seq("connections", "rounds", "bytes"),
    "connections" -> Seq("connections")
  )

/** What both socket scenarios share, whatever the library. */
object Sockets:
  /** The address every listener binds and every client connects to. */
  val Host = "127.0.0.1"

  /** A server's read: up to 64 KiB. */
  val ReadMax: Int = 64 * 1024

  /** b(c, r) = (c + r) mod 255 + 1, every byte client c sends in round r. */
  def pattern(c: Int, r: Int): Byte = ((c + r) % 255 + 1).toByte
