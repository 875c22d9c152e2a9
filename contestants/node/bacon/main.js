// The `node-bacon` contestant: doxbee, parallel and sleep as Bacon.js streams, in Bacon's
// idiom: a fake I/O op is Bacon.fromNodeCallback of lib/requests.js's callback op; a
// request is one chain of flatMaps, one per step; fan-outs and the joins over requests are
// Bacon.combineAsArray, the last handed over with toPromise; a sleep is Bacon.later. The
// socket scenarios are Bacon streams of Node's socket events (see echo below). Bacon has no
// tasks or channels, so the other scenarios are n/a.

import * as Bacon from "baconjs";
import net from "node:net";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { LOOPBACK, countBytes, listenOptions, request } from "../lib/sockets.js";
import { sum } from "../lib/sum.js";

/** The fake I/O op as a Bacon stream of one event. */
const baconIo = (ioMs) => {
  const io = fakeIo(ioMs);
  return (tx) => Bacon.fromNodeCallback(io, tx);
};

run({
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => Bacon.later(delayMs, i)),
  doxbee: ({ requests, ioMs }) => {
    const io = baconIo(ioMs);
    return joinSum(requests, (i) => flatMapUpload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = baconIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
  echo: ({ connections, rounds, bytes }) =>
    onListener(connections, (port, acceptor) =>
      Bacon.combineAsArray([
        acceptor(echoBack),
        joinAll(connections, (c) => echoClient(port, c, rounds, bytes)).map(sum),
      ]),
    ).toPromise(),
  connections: ({ connections }) => {
    const connected = new Bacon.Bus();
    const accepted = new Bacon.Bus();
    const goes = new Bacon.Bus();
    // A Property with a subscriber keeps its current value for every later one.
    const go = goes.toProperty(false);
    const unsubscribe = go.onValue(() => undefined);
    // go, once every client has said it is connected and every connection is accepted
    Bacon.combineAsArray([
      connected.take(connections).fold(0, (n) => n + 1),
      accepted.fold(0, (n) => n + 1),
    ]).onValue(() => goes.push(true));
    return onListener(connections, (port, acceptor) =>
      Bacon.combineAsArray([
        acceptor(holdServer, accepted),
        joinAll(connections, (c) => holdClient(port, c, connected, go)).map(sum),
      ]),
    )
      .doEnd(unsubscribe)
      .toPromise();
  },
});

/** Combines task(0) … task(n - 1): a promise of the sum of their values. */
function joinSum(n, task) {
  return Bacon.combineAsArray(Array.from({ length: n }, (_, i) => task(i)))
    .map(sum)
    .toPromise();
}

/** One madeup-parallel request: `fanout` ops in one Bacon.combineAsArray, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Bacon.combineAsArray(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}

/** task(0) … task(n - 1) combined: a Property of the array of their values. */
function joinAll(n, task) {
  return Bacon.combineAsArray(Array.from({ length: n }, (_, i) => task(i)));
}

/**
 * echo (PROTOCOL.md §4) as Bacon streams of Node's `net` events: the listener's
 * 'listening' and 'close', a socket's 'connect', 'data' (what has arrived), 'end' and
 * 'close' are Bacon.fromEvent. The acceptor is the listener's 'connection' events,
 * take(connections), each served by an inner stream (flatMap), the listener closed once all
 * are accepted; a client is one stream per connection, its rounds a flatMapConcat over the
 * round numbers, each round a write and the 'data' events scanned until `bytes` bytes have
 * come. The listener's 'close', the acceptor and the clients are combined with
 * Bacon.combineAsArray.
 *
 * `scenario(port, acceptor)` makes the scenario's Property of [servers, the clients' sum]
 * on the listener (`acceptor(serve, accepted)` serves the connections, then ends
 * `accepted`, if given, once all are accepted).
 */
function onListener(connections, scenario) {
  const server = net.createServer();
  server.listen(listenOptions(connections));
  const acceptor = (serve, accepted) => {
    const acceptedAll = () => {
      server.close();
      accepted?.end();
    };
    // take(0) is Bacon.never(), which ends without calling doEnd
    if (connections === 0) return Bacon.once(0).doAction(acceptedAll);
    return Bacon.fromEvent(server, "connection")
      .take(connections)
      .doEnd(acceptedAll)
      .flatMap((socket) => {
        socket.setNoDelay(true);
        return closing(socket, serve(socket));
      })
      .fold(0, (n) => n + 1);
  };
  return Bacon.fromEvent(server, "listening")
    .first()
    .flatMap(() =>
      Bacon.combineAsArray([
        Bacon.fromEvent(server, "close").first(),
        scenario(server.address().port, acceptor),
      ]),
    )
    .map(([, [, total]]) => total);
}

/** `source`, then the socket's end: its last value once the socket has closed. */
function closing(socket, source) {
  return source.last().flatMap((value) => {
    socket.end();
    return Bacon.fromEvent(socket, "close")
      .first()
      .map(() => value);
  });
}

/** A stream of a connected socket (TCP_NODELAY set). */
function connect(port) {
  return Bacon.once(port).flatMap(() => {
    const socket = net.connect({ host: LOOPBACK, port });
    return Bacon.fromEvent(socket, "connect")
      .first()
      .map(() => {
        socket.setNoDelay(true);
        return socket;
      });
  });
}

/** The sum of the next `bytes` bytes of the socket's 'data' events. */
function readBytes(socket, bytes) {
  return Bacon.fromEvent(socket, "data")
    .scan({ read: 0, total: 0 }, countBytes)
    .skipWhile(({ read }) => read < bytes)
    .first()
    .map(({ total }) => total);
}

/** A server socket's 'data' events until its 'end'. */
function received(socket) {
  return Bacon.fromEvent(socket, "data").takeUntil(Bacon.fromEvent(socket, "end"));
}

/** An echo server: writes back every chunk until the end of stream; ends with 0. */
function echoBack(socket) {
  return received(socket)
    .doAction((chunk) => socket.write(chunk))
    .fold(0, () => 0);
}

/** An echo client: `rounds` round trips of `bytes` bytes; the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  return connect(port).flatMap((socket) =>
    closing(
      socket,
      Bacon.fromArray(Array.from({ length: rounds }, (_, r) => r))
        .flatMapConcat((r) => {
          socket.write(request(c, r, bytes));
          return readBytes(socket, bytes);
        })
        .fold(0, (total, sum) => total + sum),
    ),
  );
}

/** A connections server: one byte back, then its events until the end of stream; 0. */
function holdServer(socket) {
  return received(socket)
    .first()
    .doAction((byte) => socket.write(byte))
    .flatMap(() => Bacon.fromEvent(socket, "end").first())
    .fold(0, () => 0);
}

/**
 * A connections client: once connected it says so on `connected`, waits for `go`, writes
 * its byte and ends with the byte echoed.
 */
function holdClient(port, c, connected, go) {
  return connect(port).flatMap((socket) => {
    connected.push(c);
    return closing(
      socket,
      go
        .filter(Boolean)
        .first()
        .flatMap(() => {
          socket.write(request(c, 0, 1));
          return readBytes(socket, 1);
        }),
    );
  });
}
