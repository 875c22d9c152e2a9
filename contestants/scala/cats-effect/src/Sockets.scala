// The socket scenarios of scala-cats-effect (docs/PROTOCOL.md §4, echo and connections) as
// the Typelevel stack writes a server: fs2-io's sockets, which under an IOApp poll their
// non-blocking java.nio channels with Cats Effect's own polling system (a Selector per
// worker thread of the work-stealing pool, epoll on Linux). The clients connect with
// `Network[IO].connect`; the listener is fs2's too but for its backlog (Listener.scala:
// fs2's `bind` takes none). The accepted sockets are served with `parJoinUnbounded` (a
// fiber per connection, holding its socket's scope until it ends), each echo by fs2's own
// `reads.through(writes)`; every client is a fiber of its own (`start`). connections
// signals "connected" with a `CountDownLatch` and "go" with a `Deferred` every client awaits.
package taskbench

import cats.effect.{Deferred, IO}
import cats.effect.std.CountDownLatch
import cats.syntax.all.*
import com.comcast.ip4s.{Host, Port, SocketAddress}
import fs2.{Chunk, Stream}
import fs2.io.net.{BacklogListener, Network, ServerSocket, Socket, SocketOption}

object CatsEffectSockets:
  private val loopback: Host = Host.fromString(Sockets.Host).get

  /**
   * TCP_NODELAY on both ends: on the clients' sockets, and on every socket the listener
   * accepts (fs2 applies a listener's options to the sockets it accepts).
   */
  private val noDelay = List(SocketOption.noDelay(true))

  /**
   * The listener on 127.0.0.1, an ephemeral port, a backlog of `connections`, and the
   * effect that closes it. It is held as `allocated` rather than `use`d so that the
   * acceptor closes it once every connection is accepted, not when the last one is served.
   */
  private def listen(connections: Int): IO[(ServerSocket[IO], IO[Unit])] =
    BacklogListener.bind(Sockets.Host, connections, noDelay).allocated

  private def portOf(server: ServerSocket[IO]): Port = server.address.asIpUnsafe.port

  /** A client's connection, closed when `use` ends. */
  private def connect(port: Port) = Network[IO].connect(SocketAddress(loopback, port), noDelay)

  /**
   * The acceptor: accepts `connections` connections, serves each in a fiber of its own
   * (parJoin's), then closes the listener and runs `accepted`; ends once every connection
   * has been served and its socket closed.
   */
  private def acceptor(server: ServerSocket[IO], closeListener: IO[Unit], connections: Int, accepted: IO[Unit])(
      serve: Socket[IO] => Stream[IO, Nothing]
  ): IO[Unit] =
    (server.accept.take(connections.toLong) ++ Stream.exec(closeListener >> accepted))
      .map(serve)
      .parJoinUnbounded
      .compile
      .drain

  def echo(connections: Int, rounds: Int, bytes: Int): IO[Long] =
    listen(connections).flatMap { (server, closeListener) =>
      val port = portOf(server)
      for
        serving <- acceptor(server, closeListener, connections, IO.unit)(socket =>
          socket.reads.through(socket.writes)
        ).start
        sum <- CatsEffect.spawnSum(connections)(c => echoClient(port, c, rounds, bytes))
        _ <- serving.joinWithNever
      yield sum
    }

  /** Client c: `rounds` writes of `bytes` bytes b(c, r), each read back whole; the bytes' sum. */
  private def echoClient(port: Port, c: Int, rounds: Int, bytes: Int): IO[Long] =
    connect(port).use { socket =>
      val message = new Array[Byte](bytes)
      def round(r: Int, sum: Long): IO[Long] =
        if r == rounds then IO.pure(sum)
        else
          IO(java.util.Arrays.fill(message, Sockets.pattern(c, r))) >>
            socket.write(Chunk.array(message)) >>
            socket.readN(bytes).flatMap { echoed =>
              if echoed.size != bytes then
                IO.raiseError(IllegalStateException(s"echo: end of stream after ${echoed.size} of $bytes bytes"))
              else round(r + 1, echoed.foldLeft(sum)((total, byte) => total + (byte & 0xff)))
            }
      round(0, 0L)
    }

  def connections(connections: Int): IO[Long] =
    listen(connections).flatMap { (server, closeListener) =>
      val port = portOf(server)
      for
        // CountDownLatch takes at least one count; with no connections nobody waits.
        latch <- if connections == 0 then IO.pure(None) else CountDownLatch[IO](connections).map(Some(_))
        go <- Deferred[IO, Unit]
        accepted <- Deferred[IO, Unit]
        serving <- acceptor(server, closeListener, connections, accepted.complete(()).void)(hold).start
        clients <- List.range(0, connections).traverse { c =>
          heldClient(port, c, latch.fold(IO.unit)(_.release), go.get).start
        }
        _ <- latch.fold(IO.unit)(_.await)
        _ <- accepted.get
        _ <- go.complete(())
        sum <- clients.foldLeftM(0L)((sum, client) => client.joinWithNever.map(sum + _))
        _ <- serving.joinWithNever
      yield sum
    }

  /** The server of one held connection: waits for its byte, writes it back, waits for end of stream. */
  private def hold(socket: Socket[IO]): Stream[IO, Nothing] =
    Stream.exec(
      socket.read(1).flatMap {
        case Some(byte) => socket.write(byte) >> socket.reads.compile.drain
        case None => IO.unit
      }
    )

  /** Client c of `connections`: connects, says so, awaits "go", then one byte each way. */
  private def heldClient(port: Port, c: Int, connected: IO[Unit], go: IO[Unit]): IO[Long] =
    connect(port).use { socket =>
      connected >> go >> socket.write(Chunk.singleton(Sockets.pattern(c, 0))) >>
        socket.readN(1).flatMap { echoed =>
          if echoed.size != 1 then IO.raiseError(IllegalStateException("connections: end of stream"))
          else IO.pure((echoed(0) & 0xff).toLong)
        }
    }
