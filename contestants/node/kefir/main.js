// The `node-kefir` contestant: doxbee, parallel and sleep as Kefir streams, in Kefir's
// idiom: a fake I/O op is Kefir.fromNodeCallback around lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; a fan-out is Kefir.combine, which emits
// once every stream has; the join over requests merges them and scans them to the sum, its
// last value the result; a sleep is Kefir.later. The socket scenarios are Kefir streams
// of Node's socket events (see echo below). Kefir has no tasks or channels, so the other
// scenarios are n/a.

import Kefir from "kefir";
import net from "node:net";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { LOOPBACK, countBytes, listenOptions, request } from "../lib/sockets.js";

/** The fake I/O op as a Kefir stream of one event. */
const kefirIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Kefir.fromNodeCallback((callback) => io(tx, callback));
};

run({
  sleep: ({ tasks, delayMs }, done) => joinSum(tasks, (i) => Kefir.later(delayMs, i), done),
  doxbee: ({ requests, ioMs }, done) => {
    const io = kefirIo(ioMs);
    joinSum(requests, (i) => flatMapUpload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = kefirIo(ioMs);
    joinSum(requests, () => fanOut(fanout, io), done);
  },
  echo: ({ connections, rounds, bytes }, done) =>
    observe(
      onListener(connections, (port, acceptor) =>
        Kefir.merge([
          acceptor(echoBack),
          ...Array.from({ length: connections }, (_, c) => echoClient(port, c, rounds, bytes)),
        ]),
      ),
      done,
    ),
  connections: ({ connections }, done) => {
    const connected = Kefir.pool();
    const accepted = Kefir.pool();
    const goes = Kefir.pool();
    // An active Property keeps its current value for every later subscriber.
    const go = goes.toProperty();
    const hold = () => undefined;
    go.onValue(hold);
    // go, once every client has said it is connected and every connection is accepted
    Kefir.combine([connected.take(connections).last(), accepted.take(1)])
      .take(1)
      .onValue(() => goes.plug(Kefir.constant(true)));
    observe(
      onListener(connections, (port, acceptor) =>
        Kefir.merge([
          acceptor(holdServer, accepted),
          ...Array.from({ length: connections }, (_, c) => holdClient(port, c, connected, go)),
        ]),
      ),
      (err, total) => {
        go.offValue(hold);
        done(err, total);
      },
    );
  },
});

/** Merges task(0) … task(n - 1) and sums them; `done` gets the sum once all have ended. */
function joinSum(n, task, done) {
  Kefir.merge(Array.from({ length: n }, (_, i) => task(i)))
    .scan((total, value) => total + value, 0)
    .last()
    .observe({ value: (total) => done(null, total), error: (err) => done(err) });
}

/** One madeup-parallel request: `fanout` ops in one Kefir.combine, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Kefir.combine(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}

/** Observes the last value of `stream`: `done` gets it. */
function observe(stream, done) {
  stream.last().observe({ value: (value) => done(null, value), error: (err) => done(err) });
}

/**
 * echo (PROTOCOL.md §4) as Kefir streams of Node's `net` events: the listener's
 * 'listening' and 'close', a socket's 'connect', 'data' (what has arrived), 'end' and
 * 'close' are Kefir.fromEvents. The acceptor is the listener's 'connection' events,
 * take(connections), each served by an inner stream (flatMap), the listener closed once all
 * are accepted; a client is one stream per connection, its rounds a Kefir.repeat, each
 * round a write and the 'data' events scanned until `bytes` bytes have come. The
 * listener's 'close' (0), the server streams (0 each) and the clients (each its sum) are
 * merged and scanned to the sum, as the other scenarios join.
 *
 * `scenario(port, acceptor)` makes the scenario's stream on the listener
 * (`acceptor(serve, accepted)` serves the connections, and plugs a value into the pool
 * `accepted`, if given, once all are accepted).
 */
function onListener(connections, scenario) {
  const server = net.createServer();
  server.listen(listenOptions(connections));
  const acceptor = (serve, accepted) => {
    const acceptedAll = () => {
      server.close();
      accepted?.plug(Kefir.constant(true));
    };
    if (connections === 0) return Kefir.constant(0).map(acceptedAll).map(() => 0);
    let count = 0;
    return Kefir.fromEvents(server, "connection")
      .take(connections)
      .flatMap((socket) => {
        socket.setNoDelay(true);
        if (++count === connections) acceptedAll();
        return closing(socket, serve(socket));
      });
  };
  return Kefir.fromEvents(server, "listening")
    .take(1)
    .flatMap(() =>
      Kefir.merge([
        Kefir.fromEvents(server, "close")
          .take(1)
          .map(() => 0),
        scenario(server.address().port, acceptor),
      ]),
    )
    .scan((total, value) => total + value, 0);
}

/** `source`, then the socket's end: its last value once the socket has closed. */
function closing(socket, source) {
  return source.last().flatMap((value) => {
    socket.end();
    return Kefir.fromEvents(socket, "close")
      .take(1)
      .map(() => value);
  });
}

/** A stream of a connected socket (TCP_NODELAY set). */
function connect(port) {
  return Kefir.constant(port).flatMap(() => {
    const socket = net.connect({ host: LOOPBACK, port });
    return Kefir.fromEvents(socket, "connect")
      .take(1)
      .map(() => {
        socket.setNoDelay(true);
        return socket;
      });
  });
}

/** The sum of the next `bytes` bytes of the socket's 'data' events. */
function readBytes(socket, bytes) {
  return Kefir.fromEvents(socket, "data")
    .scan(countBytes, { read: 0, total: 0 })
    .skipWhile(({ read }) => read < bytes)
    .take(1)
    .map(({ total }) => total);
}

/** A server socket's 'data' events until its 'end'. */
function received(socket) {
  return Kefir.fromEvents(socket, "data").takeUntilBy(Kefir.fromEvents(socket, "end"));
}

/** An echo server: writes back every chunk until the end of stream; ends with 0. */
function echoBack(socket) {
  return received(socket)
    .map((chunk) => socket.write(chunk))
    .ignoreValues()
    .beforeEnd(() => 0);
}

/** An echo client: `rounds` round trips of `bytes` bytes; the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  return connect(port).flatMap((socket) =>
    closing(
      socket,
      Kefir.repeat((r) => {
        if (r === rounds) return false;
        socket.write(request(c, r, bytes));
        return readBytes(socket, bytes);
      }).scan((total, sum) => total + sum, 0),
    ),
  );
}

/** A connections server: one byte back, then its events until the end of stream; 0. */
function holdServer(socket) {
  return received(socket)
    .take(1)
    .flatMap((byte) => {
      socket.write(byte);
      return Kefir.fromEvents(socket, "end").take(1);
    })
    .ignoreValues()
    .beforeEnd(() => 0);
}

/**
 * A connections client: once connected it says so on the pool `connected`, waits for
 * `go`, writes its byte and ends with the byte echoed.
 */
function holdClient(port, c, connected, go) {
  return connect(port).flatMap((socket) => {
    connected.plug(Kefir.constant(c));
    return closing(
      socket,
      go.take(1).flatMap(() => {
        socket.write(request(c, 0, 1));
        return readBytes(socket, 1);
      }),
    );
  });
}
