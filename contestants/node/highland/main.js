// The `node-highland` contestant: doxbee and parallel as Highland streams, in caolan's
// Highland idiom: a fake I/O op is _.wrapCallback of lib/requests.js's callback op, a stream
// of one value; a request is one chain of flatMaps, one per step; a fan-out is a stream of
// the op streams merged and collected; the join over requests merges the request streams
// and reduces them to the sum, handed to a callback with toCallback. The socket scenarios
// are Highland streams of Node's sockets and their events (see echo below). Highland has
// no timer, tasks or channels, so the other scenarios are n/a.

import _ from "highland";
import net from "node:net";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { LOOPBACK, byteSum, listenOptions, request } from "../lib/sockets.js";

run({
  doxbee: ({ requests, ioMs }, done) => {
    const io = _.wrapCallback(fakeIo(ioMs));
    joinSum(requests, (i) => flatMapUpload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = _.wrapCallback(fakeIo(ioMs));
    joinSum(requests, () => fanOut(fanout, io), done);
  },
  echo: ({ connections, rounds, bytes }, done) =>
    onListener(
      connections,
      (port, acceptor) => [
        acceptor(echoBack),
        ...Array.from({ length: connections }, (_unused, c) => echoClient(port, c, rounds, bytes)),
      ],
      done,
    ),
  connections: ({ connections }, done) => {
    const connected = _();
    const accepted = _();
    // go, once every connection is accepted and every client has said it is connected:
    // written to each client's own stream, which it sent on `connected`
    accepted
      .collect()
      .flatMap(() => connected.take(connections).collect())
      .each((goes) => goes.forEach((go) => go.end()));
    onListener(
      connections,
      (port, acceptor) => [
        acceptor(holdServer, accepted),
        ...Array.from({ length: connections }, (_unused, c) => holdClient(port, c, connected)),
      ],
      done,
    );
  },
});

/** Merges task(0) … task(n - 1); `done` gets the sum of their values. */
function joinSum(n, task, done) {
  _(Array.from({ length: n }, (_unused, i) => task(i)))
    .merge()
    .reduce(0, (total, value) => total + value)
    .toCallback(done);
}

/** One madeup-parallel request: `fanout` op streams merged and collected, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return _(Array.from({ length: fanout }, () => io(tx)))
    .merge()
    .collect()
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}

/**
 * echo (PROTOCOL.md §4) as Highland streams: a socket's reads are `_(socket)`, Highland's
 * own stream of a Node Readable (with its backpressure), which a server reads to its end
 * and a client pulls from (`pull`, one chunk at a time) until each round's `bytes` bytes
 * have come; the listener's 'listening', 'connection' and 'close' and a socket's 'connect'
 * and 'close' are Highland streams of those events, `_(event, emitter)`. The acceptor is the
 * 'connection' events, take(connections), each mapped to its server stream, merged, the
 * listener closed once all are accepted; a client's rounds are a stream of round streams,
 * sequenced. The listener's 'close' (0), the acceptor (0 for each server) and the clients
 * (each its sum) are merged and reduced to the sum, as the other scenarios join.
 *
 * `scenario(port, acceptor)` makes the scenario's streams on the listener
 * (`acceptor(serve, accepted)` serves the connections, then ends the stream `accepted`,
 * if given, once all are accepted); `done` gets the sum.
 */
function onListener(connections, scenario, done) {
  const server = net.createServer();
  const closed = _("close", server).take(1).map(() => 0);
  const acceptor = (serve, accepted) => {
    const acceptedAll = () => {
      server.close();
      accepted?.end();
    };
    if (connections === 0) {
      acceptedAll();
      return _([0]);
    }
    let count = 0;
    return _("connection", server)
      .take(connections)
      .map((socket) => {
        socket.setNoDelay(true);
        if (++count === connections) acceptedAll();
        return closing(socket, serve(socket));
      })
      .merge();
  };
  _("listening", server)
    .take(1)
    .flatMap(() => _([closed, ...scenario(server.address().port, acceptor)]).merge())
    .reduce(0, (total, value) => total + value)
    .toCallback(done);
  server.listen(listenOptions(connections));
}

/** `source`, then the socket's end: its last value once the socket has closed. */
function closing(socket, source) {
  return source.last().flatMap((value) => {
    socket.end();
    return _("close", socket)
      .take(1)
      .map(() => value);
  });
}

/** A stream of a connected socket (TCP_NODELAY set). */
function connect(port) {
  const socket = net.connect({ host: LOOPBACK, port });
  return _("connect", socket)
    .take(1)
    .map(() => {
      socket.setNoDelay(true);
      return socket;
    });
}

/** A stream of the sum of the next `bytes` bytes pulled from `chunks`. */
function readBytes(chunks, bytes) {
  let read = 0;
  let total = 0;
  return _((push) => {
    const pull = () =>
      chunks.pull((err, chunk) => {
        if (err) return push(err);
        read += chunk.length;
        total += byteSum(chunk);
        if (read < bytes) return pull();
        push(null, total);
        push(null, _.nil);
      });
    pull();
  });
}

/** An echo server: writes back every chunk until the end of stream; then 0. */
function echoBack(socket) {
  return _(socket)
    .doto((chunk) => socket.write(chunk))
    .reduce(0, () => 0);
}

/** An echo client: `rounds` round trips of `bytes` bytes; the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  return connect(port).flatMap((socket) => {
    const chunks = _(socket);
    const roundTrip = (r) => {
      socket.write(request(c, r, bytes));
      return readBytes(chunks, bytes);
    };
    return closing(
      socket,
      _(Array.from({ length: rounds }, (_unused, r) => r))
        .map(roundTrip)
        .sequence()
        .reduce(0, (total, sum) => total + sum),
    );
  });
}

/** A connections server: one byte back, then its reads until the end of stream; then 0. */
function holdServer(socket) {
  const chunks = _(socket);
  return _((push) =>
    chunks.pull((err, byte) => {
      if (err) return push(err);
      socket.write(byte);
      push(null, chunks);
      push(null, _.nil);
    }),
  )
    .sequence()
    .reduce(0, () => 0);
}

/**
 * A connections client: once connected it sends the stream it waits on for its "go" on
 * `connected`; once that ends, it writes its byte and ends with the byte echoed.
 */
function holdClient(port, c, connected) {
  return connect(port).flatMap((socket) => {
    const go = _();
    connected.write(go);
    return closing(
      socket,
      go.collect().flatMap(() => {
        socket.write(request(c, 0, 1));
        return readBytes(_(socket), 1);
      }),
    );
  });
}
