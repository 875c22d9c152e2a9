# The socket scenarios (docs/PROTOCOL.md §4): echo, request/response rounds over TCP on
# 127.0.0.1, and connections, every pair held open at once. Crystal's TCPServer and
# TCPSocket, as a Crystal server is written: an acceptor fiber that spawns a fiber per
# connection; every read and write that would block suspends its fiber on the event loop
# (libevent over epoll) until the socket is ready. Sockets are as the standard library
# makes them: writes unbuffered (`sync`), reads through the IO's buffer (32 KiB, allocated
# at a socket's first read smaller than half of it).

require "socket"

module Sockets
  # What an echo server reads at most at once: 64 KiB.
  ECHO_BUFFER = 64 * 1024

  # The byte client `c` sends in round `r`: (c + r) mod 255 + 1, never 0.
  def self.pattern_byte(c : Int32, r : Int32) : UInt8
    ((c + r) % 255 + 1).to_u8
  end

  # A socket error in any fiber ends the process: a failed run, never a hang (an exception
  # that leaves a fiber only ends that fiber).
  private def self.fail(error : Exception) : NoReturn
    STDERR.puts "crystal-fibers: #{error.message} (#{error.class})"
    exit 1
  end

  # The listener on 127.0.0.1, an ephemeral port, with a backlog of `backlog` (the kernel
  # caps it at net.core.somaxconn).
  private def self.listen(backlog : Int32) : TCPServer
    TCPServer.new("127.0.0.1", 0, backlog)
  end

  # What a server fiber does with its connection.
  enum Service
    Echo # echo_server
    Hold # hold_server
  end

  # The acceptor: a fiber that accepts `n` connections, sets TCP_NODELAY on each and serves
  # it in a fiber of its own, then closes the listener. It sends on the first channel once
  # every server fiber is spawned; each server sends on the second once its socket is closed.
  private def self.accept_all(server : TCPServer, n : Int32, service : Service) : {Channel(Nil), Channel(Nil)}
    accepted, served = Channel(Nil).new, Channel(Nil).new
    spawn do
      n.times do
        socket = server.accept
        socket.tcp_nodelay = true
        spawn serve(socket, service, served)
      end
      server.close
      accepted.send(nil)
    rescue error
      fail(error)
    end
    {accepted, served}
  end

  private def self.serve(socket : TCPSocket, service : Service, served : Channel(Nil)) : Nil
    begin
      case service
      in .echo? then echo_server(socket)
      in .hold? then hold_server(socket)
      end
    ensure
      socket.close
    end
    served.send(nil)
  rescue error
    fail(error)
  end

  # A client's connection to the listener, TCP_NODELAY set, closed when the block returns.
  private def self.connect(port : Int32, & : TCPSocket -> T) : T forall T
    TCPSocket.open("127.0.0.1", port) do |socket|
      socket.tcp_nodelay = true
      yield socket
    end
  end

  def self.echo(connections : Int32, rounds : Int32, bytes : Int32) : Int64
    server = listen(connections)
    port = server.local_address.port
    accepted, served = accept_all(server, connections, Service::Echo)
    sum = Tasks.spawn_sum(connections) { |c| echo_client(port, c, rounds, bytes) }
    accepted.receive
    connections.times { served.receive }
    sum
  end

  # Writes back what each read brings until the client closes its end.
  private def self.echo_server(socket : TCPSocket) : Nil
    buffer = Bytes.new(ECHO_BUFFER)
    while (n = socket.read(buffer)) > 0
      socket.write(buffer[0, n])
    end
  end

  # Client `c`: each round one write of `bytes` bytes of b(c, r), then reads until all are
  # back, adding up every byte received; returns that sum.
  private def self.echo_client(port : Int32, c : Int32, rounds : Int32, bytes : Int32) : Int64
    connect(port) do |socket|
      sent, back = Bytes.new(bytes), Bytes.new(bytes)
      sum = 0_i64
      rounds.times do |r|
        sent.fill(pattern_byte(c, r))
        socket.write(sent)
        socket.read_fully(back)
        sum += back.sum(0_i64) # every byte received, each widened to Int64
      end
      sum
    end
  rescue error
    fail(error)
  end

  # Opens every pair: each client says it is connected on one channel, then waits for the
  # go, the closing of another (a broadcast to every fiber waiting on it); the main fiber
  # closes it once every client is connected and every server fiber spawned.
  def self.connections(connections : Int32) : Int64
    server = listen(connections)
    port = server.local_address.port
    accepted, served = accept_all(server, connections, Service::Hold)
    connected, go, results = Channel(Nil).new, Channel(Nil).new, Channel(Int64).new
    connections.times { |c| spawn hold_client(port, c, connected, go, results) }
    connections.times { connected.receive }
    accepted.receive
    go.close
    sum = 0_i64
    connections.times { sum += results.receive }
    connections.times { served.receive }
    sum
  end

  # Waits in a read for the client's one byte, writes it back, then waits for the end of
  # the stream.
  private def self.hold_server(socket : TCPSocket) : Nil
    byte = socket.read_byte || raise IO::EOFError.new
    socket.write_byte(byte)
    raise IO::Error.new("expected the end of the stream") if socket.read_byte
  end

  # Client `c`: connects, says so, waits for the go, sends b(c, 0), reads it back, closes
  # and sends the byte on `results`.
  private def self.hold_client(port : Int32, c : Int32, connected : Channel(Nil),
                               go : Channel(Nil), results : Channel(Int64)) : Nil
    byte = connect(port) do |socket|
      connected.send(nil)
      go.receive?
      socket.write_byte(pattern_byte(c, 0))
      socket.read_byte || raise IO::EOFError.new
    end
    results.send(byte.to_i64)
  rescue error
    fail(error)
  end
end
