## The socket scenarios (docs/PROTOCOL.md §4): echo, request/response rounds over TCP on
## 127.0.0.1, and connections, every pair held open at once. std/asyncnet's AsyncSocket on
## asyncdispatch's selector (epoll): an acceptor that starts an async proc per accepted
## connection, and an async proc per client; `all` joins them, a FutureStream carries the
## clients' "connected", one Future[void] that every client awaits is the "go".
##
## The sockets are unbuffered (`buffered = false`, the server's inherited by every socket it
## accepts): a read returns what has arrived, as the protocol's "read of up to 64 KiB"
## needs; a buffered AsyncSocket's recv waits until the whole size it was asked for is in.

import std/[asyncdispatch, asyncnet, asyncstreams, nativesockets, net]
import tasks

const echoBuffer = 64 * 1024 ## what an echo server reads at most at once: 64 KiB

type Session = proc (socket: AsyncSocket): Future[void] {.closure, gcsafe.}
  ## What a server task does with the connection it was started for.

proc patternByte(c, r: int): byte =
  ## The byte client `c` sends in round `r`: (c + r) mod 255 + 1, never 0.
  byte((c + r) mod 255 + 1)

proc noDelay(socket: AsyncSocket) =
  ## TCP_NODELAY, an option of the TCP level (setSockOpt's default level is the socket's).
  socket.setSockOpt(OptNoDelay, true, level = IPPROTO_TCP.cint)

proc listener(backlog: int): AsyncSocket =
  ## The listener on 127.0.0.1, an ephemeral port, with a backlog of `backlog` (the kernel
  ## caps it at net.core.somaxconn).
  result = newAsyncSocket(buffered = false)
  result.bindAddr(Port(0), "127.0.0.1")
  result.listen(backlog.cint)

proc acceptAll(server: AsyncSocket, n: int, session: Session): Future[seq[Future[void]]] {.async.} =
  ## The acceptor: accepts `n` connections, sets TCP_NODELAY on each and starts a server
  ## task for it, then closes the listener; its future holds the server tasks' futures.
  var sessions = newSeqOfCap[Future[void]](n)
  for _ in 1 .. n:
    let socket = await server.accept()
    socket.noDelay()
    sessions.add session(socket)
  server.close()
  return sessions

proc dial(port: Port): Future[AsyncSocket] {.async.} =
  ## A client's connection to the listener, TCP_NODELAY set.
  let socket = newAsyncSocket(buffered = false)
  await socket.connect("127.0.0.1", port)
  socket.noDelay()
  return socket

proc echoServer(socket: AsyncSocket) {.async.} =
  ## Writes back what each read brings until the client closes its end.
  var buffer = newSeq[byte](echoBuffer)
  while true:
    let n = await socket.recvInto(addr buffer[0], echoBuffer)
    if n == 0:
      break
    await socket.send(addr buffer[0], n)
  socket.close()

proc echoClient(port: Port, c, rounds, bytes: int): Future[int] {.async.} =
  ## Client `c`: each round one write of `bytes` bytes of b(c, r), then reads until all
  ## are back, adding up every byte received; returns that sum.
  let socket = await dial(port)
  var sent = newSeq[byte](bytes)
  var back = newSeq[byte](bytes)
  var sum = 0
  for r in 0 ..< rounds:
    let b = patternByte(c, r)
    for k in 0 ..< bytes:
      sent[k] = b
    await socket.send(addr sent[0], bytes)
    var got = 0
    while got < bytes:
      let n = await socket.recvInto(addr back[got], bytes - got)
      if n == 0:
        raise newException(IOError, "the server closed the connection")
      got += n
    for v in back:
      sum += int(v)
  socket.close()
  return sum

proc echoRounds*(connections, rounds, bytes: int): Future[int] {.async.} =
  let server = listener(connections)
  let port = server.getLocalAddr()[1]
  let acceptor = acceptAll(server, connections, echoServer)
  proc client(c: int): Future[int] = echoClient(port, c, rounds, bytes)
  let sum = await spawnSum(connections, client)
  await all(await acceptor)
  return sum

proc holdServer(socket: AsyncSocket) {.async.} =
  ## Waits in a read for the client's one byte, writes it back, then waits for the end of
  ## the stream.
  var one: array[1, byte]
  if await(socket.recvInto(addr one[0], 1)) != 1:
    raise newException(IOError, "the client closed before its byte")
  await socket.send(addr one[0], 1)
  if await(socket.recvInto(addr one[0], 1)) != 0:
    raise newException(IOError, "expected the end of the stream")
  socket.close()

proc holdClient(port: Port, c: int, connected: FutureStream[int],
    go: Future[void]): Future[int] {.async.} =
  ## Client `c`: connects, says so, waits for the go, sends b(c, 0), reads it back, closes
  ## and returns it.
  let socket = await dial(port)
  await connected.write(c)
  await go
  var one = [patternByte(c, 0)]
  await socket.send(addr one[0], 1)
  if await(socket.recvInto(addr one[0], 1)) != 1:
    raise newException(IOError, "the server closed before the echo")
  socket.close()
  return int(one[0])

proc holdConnections*(connections: int): Future[int] {.async.} =
  ## Opens every pair; completes the go once every client has said it is connected and
  ## the acceptor has started every server task, then joins the clients and the servers.
  let server = listener(connections)
  let port = server.getLocalAddr()[1]
  let acceptor = acceptAll(server, connections, holdServer)
  let connected = newFutureStream[int]("connected")
  let go = newFuture[void]("go")
  proc client(c: int): Future[int] = holdClient(port, c, connected, go)
  let clients = spawnSum(connections, client)
  for _ in 1 .. connections:
    discard await connected.read()
  let sessions = await acceptor
  go.complete()
  let sum = await clients
  await all(sessions)
  return sum
