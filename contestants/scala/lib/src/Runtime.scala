// What a Scala contestant passes in: its effect library's own primitives — how to suspend
// and sequence effects, spawn and join fibers, sleep on its timer, yield, and its queue and
// one-shot promise — so that the nine task scenarios (Scenarios.scala) and the protocol's
// loop are written once and every step of them is a call into that library; and the two
// socket scenarios, written by each contestant with its ecosystem's own TCP library.
package taskbench

/** An effect library's primitives, for effects of type `F[A]`. */
trait Runtime[F[_]]:
  /** A side effect, suspended until the effect runs. */
  def delay[A](thunk: => A): F[A]

  /** `fa`, built only when the effect runs (so a recursive effect is built step by step). */
  def suspend[A](fa: => F[A]): F[A]

  def flatMap[A, B](fa: F[A])(f: A => F[B]): F[B]

  def map[A, B](fa: F[A])(f: A => B): F[B]

  /**
   * task(0) … task(n − 1), each in a fiber of its own, joined; the sum of their results.
   * Each task's effect is built in its own fiber (a skynet node builds its children when it
   * runs, not when its parent is built).
   */
  def spawnSum(n: Int)(task: Int => F[Long]): F[Long]

  /** task(0) … task(n − 1), each in a fiber of its own, all joined. */
  def spawnAll(n: Int)(task: Int => F[Unit]): F[Unit]

  /** `fa` in a fiber of its own; the effect that joins it. */
  def fork[A](fa: F[A]): F[F[A]]

  /** `fa` in a fiber that nobody joins, outliving the fiber that started it. */
  def detach(fa: F[Unit]): F[Unit]

  /** A duration as the library's timer takes it, made once per iteration. */
  type Span

  def nanos(n: Long): Span

  /** A sleep on the library's timer. */
  def sleep(span: Span): F[Unit]

  /** Gives the worker thread to the next fiber that is ready. */
  def yieldNow: F[Unit]

  /** The library's queue, holding one message: a sender waits while it is full. */
  def channel: F[Channel[F]]

  /** The library's one-shot promise. */
  def promise: F[OneShot[F]]

  /**
   * echo (docs/PROTOCOL.md §4) over the ecosystem's own TCP sockets: `connections` clients
   * each make `rounds` round trips of `bytes` bytes to a server fiber of their own; the sum
   * of every byte the clients read back.
   */
  def echo(connections: Int, rounds: Int, bytes: Int): F[Long]

  /**
   * connections (docs/PROTOCOL.md §4) over the ecosystem's own TCP sockets: `connections`
   * client/server pairs held open at once, then one byte each way; the sum of the bytes
   * the clients read back.
   */
  def connections(connections: Int): F[Long]

/** A channel between two fibers. */
trait Channel[F[_]]:
  def send(message: Int): F[Unit]

  def receive: F[Int]

/** A value completed once by one fiber and awaited by another. */
trait OneShot[F[_]]:
  def complete(value: Long): F[Unit]

  def get: F[Long]

/** For-comprehensions over any contestant's effect. */
extension [F[_], A](fa: F[A])(using runtime: Runtime[F])
  def flatMap[B](f: A => F[B]): F[B] = runtime.flatMap(fa)(f)
  def map[B](f: A => B): F[B] = runtime.map(fa)(f)
