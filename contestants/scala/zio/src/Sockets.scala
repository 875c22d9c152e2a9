// The socket scenarios of scala-zio (docs/PROTOCOL.md §4, echo and connections) with ZIO's
// own NIO library, zio-nio: its AsynchronousServerSocketChannel and AsynchronousSocketChannel
// (java.nio's asynchronous channels, whose completions the JDK's default channel group
// delivers from its epoll port; zio-nio turns each into a fiber's resumption), each channel
// closed with its Scope. The acceptor is a fiber that accepts every connection and forks a
// fiber to serve each; the clients are a fiber each (`ZIO.foreachPar`, as the task scenarios
// spawn). connections signals "connected" over a `Queue` and "go" with a `Promise` every
// client awaits. (zio-nio's other channels are blocking ones, a thread per blocked call, or
// non-blocking ones a program polls with its own Selector loop; ZIO's ZStream socket server
// takes no backlog and has no client side.)
package taskbench

import java.io.{EOFException, IOException}
import java.net.StandardSocketOptions
import zio.{Chunk, Exit, Fiber, IO, Promise, Queue, Scope, UIO, ZIO}
import zio.nio.{Buffer, ByteBuffer, InetSocketAddress}
import zio.nio.channels.{AsynchronousServerSocketChannel, AsynchronousSocketChannel}

object ZioSockets:
  /** The listener on 127.0.0.1, an ephemeral port, a backlog of `connections`; closed with the scope at the latest. */
  private def listen(connections: Int): ZIO[Scope, IOException, AsynchronousServerSocketChannel] =
    for
      server <- AsynchronousServerSocketChannel.open
      address <- InetSocketAddress.hostName(Sockets.Host, 0)
      _ <- server.bindTo(address, connections)
    yield server

  private def portOf(server: AsynchronousServerSocketChannel): IO[IOException, Int] =
    server.localAddress.map(_.collect { case address: InetSocketAddress => address.port }.get)

  /** A client's connection, with TCP_NODELAY, closed with the scope. */
  private def connect(port: Int): ZIO[Scope, IOException, AsynchronousSocketChannel] =
    for
      channel <- AsynchronousSocketChannel.open
      _ <- channel.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)
      address <- InetSocketAddress.hostName(Sockets.Host, port)
      _ <- channel.connect(address)
    yield channel

  /**
   * The acceptor: accepts `connections` connections, each with TCP_NODELAY and a scope of
   * its own that its server fiber closes when it ends; then closes the listener, runs
   * `accepted` and joins every server fiber.
   */
  private def acceptor(server: AsynchronousServerSocketChannel, connections: Int, accepted: UIO[Unit])(
      serve: AsynchronousSocketChannel => IO[IOException, Unit]
  ): IO[IOException, Unit] =
    for
      servers <- ZIO.foreach(0 until connections) { _ =>
        for
          scope <- Scope.make
          channel <- scope.extend(server.accept)
          _ <- channel.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)
          fiber <- serve(channel).ensuring(scope.close(Exit.unit)).fork
        yield fiber
      }
      _ <- server.close
      _ <- accepted
      _ <- Fiber.joinAll(servers)
    yield ()

  /** A read of what has arrived into `buffer`; false at end of stream (where zio-nio's read fails with EOFException). */
  private def readSome(channel: AsynchronousSocketChannel, buffer: ByteBuffer): IO[IOException, Boolean] =
    channel.read(buffer).as(true).catchSome { case _: EOFException => ZIO.succeed(false) }

  /** Writes what `buffer` holds, all of it. */
  private def writeAll(channel: AsynchronousSocketChannel, buffer: ByteBuffer): IO[IOException, Unit] =
    channel.write(buffer).repeatWhileZIO(_ => buffer.hasRemaining).unit

  def echo(connections: Int, rounds: Int, bytes: Int): UIO[Long] =
    ZIO.scoped {
      for
        server <- listen(connections)
        port <- portOf(server)
        serving <- acceptor(server, connections, ZIO.unit)(serveEcho).fork
        sum <- Zio.spawnSum(connections)(c => echoClient(port, c, rounds, bytes))
        _ <- serving.join
      yield sum
    }.orDie

  /** Reads what has arrived (up to 64 KiB) and writes it all back, until end of stream. */
  private def serveEcho(channel: AsynchronousSocketChannel): IO[IOException, Unit] =
    Buffer.byte(Sockets.ReadMax).flatMap { buffer =>
      def serve: IO[IOException, Unit] =
        readSome(channel, buffer).flatMap { read =>
          if !read then ZIO.unit
          else buffer.flip *> writeAll(channel, buffer) *> buffer.clear *> serve
        }
      serve
    }

  /** Client c: `rounds` writes of `bytes` bytes b(c, r), each read back whole; the bytes' sum. */
  private def echoClient(port: Int, c: Int, rounds: Int, bytes: Int): UIO[Long] =
    ZIO.scoped {
      for
        channel <- connect(port)
        echoed <- Buffer.byte(bytes)
        sum <- ZIO.foldLeft(0 until rounds)(0L) { (sum, r) =>
          for
            _ <- channel.writeChunk(Chunk.fill(bytes)(Sockets.pattern(c, r)))
            // Until exactly `bytes` bytes are back; end of stream first fails with EOFException.
            _ <- channel.read(echoed).repeatWhileZIO(_ => echoed.hasRemaining)
            _ <- echoed.flip
            received <- echoed.getChunk()
            _ <- echoed.clear
          yield received.foldLeft(sum)((total, byte) => total + (byte & 0xff))
        }
      yield sum
    }.orDie

  def connections(connections: Int): UIO[Long] =
    ZIO.scoped {
      for
        server <- listen(connections)
        port <- portOf(server)
        connected <- Queue.unbounded[Unit]
        go <- Promise.make[Nothing, Unit]
        accepted <- Promise.make[Nothing, Unit]
        serving <- acceptor(server, connections, accepted.succeed(()).unit)(hold).fork
        clients <- Zio.spawnSum(connections)(c => heldClient(port, c, connected.offer(()).unit, go.await)).fork
        _ <- ZIO.foreachDiscard(0 until connections)(_ => connected.take)
        _ <- accepted.await
        _ <- go.succeed(())
        sum <- clients.join
        _ <- serving.join
      yield sum
    }.orDie

  /** The server of one held connection: waits for its byte, writes it back, waits for end of stream. */
  private def hold(channel: AsynchronousSocketChannel): IO[IOException, Unit] =
    Buffer.byte(1).flatMap { buffer =>
      def drain: IO[IOException, Unit] =
        readSome(channel, buffer).flatMap(read => if read then buffer.clear *> drain else ZIO.unit)
      readSome(channel, buffer).flatMap { read =>
        if !read then ZIO.unit
        else buffer.flip *> writeAll(channel, buffer) *> buffer.clear *> drain
      }
    }

  /** Client c of `connections`: connects, says so, awaits "go", then one byte each way. */
  private def heldClient(port: Int, c: Int, connected: UIO[Unit], go: UIO[Unit]): UIO[Long] =
    ZIO.scoped {
      for
        channel <- connect(port)
        _ <- connected
        _ <- go
        _ <- channel.writeChunk(Chunk.single(Sockets.pattern(c, 0)))
        echoed <- Buffer.byte(1)
        _ <- channel.read(echoed)
        byte <- echoed.get(0)
      yield (byte & 0xff).toLong
    }.orDie
