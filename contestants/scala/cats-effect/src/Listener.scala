// A listener with a backlog for the socket scenarios of scala-cats-effect, whose accepted
// connections are fs2's own sockets. fs2-io's `Network.bind` takes no backlog, so the
// JDK's default of 50 is what its users get; at the scenarios' 1000 simultaneous connects
// the kernel's accept queue overflows, drops handshakes, and `connections` (whose clients
// write nothing before "go") waits for connections that never arrive. So this file binds
// the listener as fs2's own selecting provider does (a non-blocking ServerSocketChannel on
// Cats Effect's polling system, accepted through its Selector), with the protocol's backlog,
// and hands every accepted channel to fs2's own socket, SelectingSocket: fs2's code from
// then on, package-private to fs2.io.net, hence this file's package.
package fs2.io.net

import cats.effect.{IO, Resource, Selector}
import cats.syntax.all.*
import com.comcast.ip4s.{IpAddress, SocketAddress}
import fs2.Stream
import java.net.InetSocketAddress
import java.nio.channels.{SelectionKey, ServerSocketChannel, SocketChannel}
import scala.concurrent.duration.*

object BacklogListener:
  /**
   * A listener on `host`, an ephemeral port, with `backlog`; each socket it accepts gets
   * `options`, as fs2's `bind` gives them. Released as fs2 releases its own: closed, then
   * waited on until the selector has let it go (until then the JDK keeps its descriptor).
   */
  def bind(host: String, backlog: Int, options: List[SocketOption]): Resource[IO, ServerSocket[IO]] =
    Resource.eval(selector).flatMap { selector =>
      Resource.make(IO(selector.provider.openServerSocketChannel()))(close).evalMap { listener =>
        IO {
          listener.configureBlocking(false)
          listener.bind(InetSocketAddress(host, 0), backlog)
          ServerSocket(SocketInfo.forAsync[IO](listener), accepted(selector, listener, options))
        }
      }
    }

  /** The IOApp runtime's Selector, the polling system fs2's own sockets use. */
  private val selector: IO[Selector] =
    IO.pollers.flatMap(
      _.collectFirst { case selector: Selector => selector }
        .liftTo[IO](IllegalStateException("the runtime has no Selector polling system"))
    )

  /** Every accepted connection as fs2's socket, each closed when its stream element's scope ends. */
  private def accepted(
      selector: Selector,
      listener: ServerSocketChannel,
      options: List[SocketOption]
  ): Stream[IO, Socket[IO]] =
    Stream
      .resource(
        Resource
          .makeFull[IO, SocketChannel](poll => poll(accept(selector, listener)))(channel => IO(channel.close()))
          .evalMap { channel =>
            IO {
              channel.configureBlocking(false)
              options.foreach(option => channel.setOption(option.key, option.value))
              (address(channel.getLocalAddress), address(channel.getRemoteAddress))
            }.flatMap((local, remote) => SelectingSocket[IO](selector, channel, local, remote))
          }
      )
      .repeat

  /** One connection: accepted at once if one is waiting, else when the selector says one is. */
  private def accept(selector: Selector, listener: ServerSocketChannel): IO[SocketChannel] =
    IO(listener.accept()).flatMap {
      case null => selector.select(listener, SelectionKey.OP_ACCEPT) >> accept(selector, listener)
      case channel => IO.pure(channel)
    }

  private def address(address: java.net.SocketAddress): SocketAddress[IpAddress] =
    SocketAddress.fromInetSocketAddress(address.asInstanceOf[InetSocketAddress])

  private def close(listener: ServerSocketChannel): IO[Unit] =
    def deregistered: IO[Unit] = IO(listener.isRegistered).ifM(IO.sleep(2.millis) >> deregistered, IO.unit)
    IO(listener.close()) >> deregistered
