// The scala-cats-effect contestant: the nine task scenarios (lib/src/Scenarios.scala) on
// Cats Effect 3's IO as an IOApp runs it, each primitive Cats Effect's own: a fiber per task
// with `start`, joined with `joinWithNever`; `IO.sleep`; `Queue.bounded` for pingpong, a
// `Deferred` for chain's signal; `IO.cede` to yield. The socket scenarios over fs2-io's
// Network are in Sockets.scala.
package taskbench

import cats.effect.{Deferred, ExitCode, IO, IOApp}
import cats.effect.std.Queue
import cats.syntax.all.*
import scala.concurrent.duration.*

/** Cats Effect's primitives for the shared scenarios. */
object CatsEffect extends Runtime[IO]:
  def delay[A](thunk: => A): IO[A] = IO(thunk)

  def suspend[A](fa: => IO[A]): IO[A] = IO.defer(fa)

  def flatMap[A, B](fa: IO[A])(f: A => IO[B]): IO[B] = fa.flatMap(f)

  def map[A, B](fa: IO[A])(f: A => B): IO[B] = fa.map(f)

  // A fiber per task, started in order, then joined in order. (`parTraverse` would fold the
  // tasks pairwise with `both`, a tree of racing pairs: about two fibers per task.)
  def spawnSum(n: Int)(task: Int => IO[Long]): IO[Long] =
    List.range(0, n).traverse(i => IO.defer(task(i)).start).flatMap { fibers =>
      fibers.foldLeftM(0L)((sum, fiber) => fiber.joinWithNever.map(sum + _))
    }

  def spawnAll(n: Int)(task: Int => IO[Unit]): IO[Unit] =
    List.range(0, n).traverse(k => IO.defer(task(k)).start).flatMap(_.traverse_(_.joinWithNever))

  def fork[A](fa: IO[A]): IO[IO[A]] = fa.start.map(_.joinWithNever)

  def detach(fa: IO[Unit]): IO[Unit] = fa.start.void

  type Span = FiniteDuration

  def nanos(n: Long): FiniteDuration = n.nanos

  def sleep(span: FiniteDuration): IO[Unit] = IO.sleep(span)

  def yieldNow: IO[Unit] = IO.cede

  def channel: IO[Channel[IO]] = Queue.bounded[IO, Int](1).map { queue =>
    new Channel[IO]:
      def send(message: Int): IO[Unit] = queue.offer(message)
      def receive: IO[Int] = queue.take
  }

  def promise: IO[OneShot[IO]] = Deferred[IO, Long].map { deferred =>
    new OneShot[IO]:
      def complete(value: Long): IO[Unit] = deferred.complete(value).void
      def get: IO[Long] = deferred.get
  }

  def echo(connections: Int, rounds: Int, bytes: Int): IO[Long] =
    CatsEffectSockets.echo(connections, rounds, bytes)

  def connections(connections: Int): IO[Long] = CatsEffectSockets.connections(connections)

/** The process: the protocol's loop as the IOApp's main fiber, on the default runtime. */
object Main extends IOApp:
  // `--cpus N` (the manifest's `workers`): N worker threads, where the default is the
  // processor count but never below 2.
  override protected def computeWorkerThreadCount: Int =
    sys.props.get("taskbench.workers").fold(super.computeWorkerThreadCount)(_.toInt)

  def run(args: List[String]): IO[ExitCode] =
    Protocol.serve("scala-cats-effect", args, CatsEffect).map(ExitCode(_))
