// The scala-zio contestant: the nine task scenarios (lib/src/Scenarios.scala) on ZIO 2 as a
// ZIOAppDefault runs it, each primitive ZIO's own: `ZIO.foreachPar` (a fiber per element)
// to spawn and join, `fork`/`join` for a pingpong pair's ponger and `forkDaemon` for chain's
// links; `ZIO.sleep`; `Queue.bounded` for pingpong, a `Promise` for chain's signal;
// `ZIO.yieldNow` to yield. The socket scenarios over zio-nio are in Sockets.scala.
package taskbench

import zio.{Duration, Promise, Queue, UIO, ZIO, ZIOAppDefault}

/** ZIO's primitives for the shared scenarios. */
object Zio extends Runtime[UIO]:
  def delay[A](thunk: => A): UIO[A] = ZIO.succeed(thunk)

  def suspend[A](fa: => UIO[A]): UIO[A] = ZIO.suspendSucceed(fa)

  def flatMap[A, B](fa: UIO[A])(f: A => UIO[B]): UIO[B] = fa.flatMap(f)

  def map[A, B](fa: UIO[A])(f: A => B): UIO[B] = fa.map(f)

  def spawnSum(n: Int)(task: Int => UIO[Long]): UIO[Long] =
    ZIO.foreachPar(0 until n)(task).map(_.sum)

  def spawnAll(n: Int)(task: Int => UIO[Unit]): UIO[Unit] =
    ZIO.foreachParDiscard(0 until n)(task)

  def fork[A](fa: UIO[A]): UIO[UIO[A]] = fa.fork.map(_.join)

  // A fiber forked with `fork` is interrupted when its parent ends; a chain link's next
  // link outlives it, so it is a daemon fiber.
  def detach(fa: UIO[Unit]): UIO[Unit] = fa.forkDaemon.unit

  type Span = Duration

  def nanos(n: Long): Duration = Duration.fromNanos(n)

  def sleep(span: Duration): UIO[Unit] = ZIO.sleep(span)

  def yieldNow: UIO[Unit] = ZIO.yieldNow

  def channel: UIO[Channel[UIO]] = Queue.bounded[Int](1).map { queue =>
    new Channel[UIO]:
      def send(message: Int): UIO[Unit] = queue.offer(message).unit
      def receive: UIO[Int] = queue.take
  }

  def promise: UIO[OneShot[UIO]] = Promise.make[Nothing, Long].map { promise =>
    new OneShot[UIO]:
      def complete(value: Long): UIO[Unit] = promise.succeed(value).unit
      def get: UIO[Long] = promise.await
  }

  def echo(connections: Int, rounds: Int, bytes: Int): UIO[Long] = ZioSockets.echo(connections, rounds, bytes)

  def connections(connections: Int): UIO[Long] = ZioSockets.connections(connections)

/** The process: the protocol's loop as the app's main effect, on ZIO's default runtime. */
object Main extends ZIOAppDefault:
  def run =
    for
      args <- getArgs
      code <- Protocol.serve("scala-zio", args, Zio)
      _ <- exit(zio.ExitCode(code))
    yield ()
