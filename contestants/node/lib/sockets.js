// The socket scenarios, echo and connections (PROTOCOL.md §4), for every Node contestant:
// what they all share (the byte pattern, the listen options), and the two scenarios
// written once in the style of promises with `.then` chains, for the contestants of
// lib/promise-chains.js (node-promises and the promise libraries), on the library's own
// Promise as lib/promise-chains.js is. The coroutine styles (lib/generators.js) reuse this
// file's promise-wrapped socket calls; the other styles (callbacks, async/await, caolan's
// async, streamline, Effect, the stream libraries) write their own around Node's `net`.
//
// Node's own networking is `net`: net.createServer and net.connect over libuv's TCP
// handles (epoll), one event loop for every socket. A server socket's task here is its
// handlers plus the chain that reads it, the same for a client. A Node socket delivers
// what has arrived as 'data' events (a read of up to 64 KiB by libuv); a read in the
// promise styles is the next event of a Channel (lib/channel.js) of the library's promises
// fed by those events, with `null` for the end of stream. Every socket's 'close' is
// awaited, and the listener's, before an iteration ends.

import net from "node:net";
import { Channel } from "./channel.js";
import { sum } from "./sum.js";

/** The loopback address both ends use. */
export const LOOPBACK = "127.0.0.1";

/** The listen options of both scenarios: an ephemeral port, a backlog of `connections`. */
export function listenOptions(connections) {
  return { host: LOOPBACK, port: 0, backlog: connections };
}

/** b(c, r) = (c + r) mod 255 + 1, the byte client c sends in round r. */
export function patternByte(client, round) {
  return ((client + round) % 255) + 1;
}

/** Client c's request of round r: `bytes` bytes of b(c, r), one write. */
export function request(client, round, bytes) {
  return Buffer.alloc(bytes, patternByte(client, round));
}

/**
 * A read so far, `{ read, total }`: the bytes read and their sum, with `chunk` added; for
 * the stream libraries' scan of a socket's 'data' events, from `{ read: 0, total: 0 }`.
 */
export function countBytes({ read, total }, chunk) {
  return { read: read + chunk.length, total: total + byteSum(chunk) };
}

/** The sum of the bytes of a chunk. */
export function byteSum(chunk) {
  let total = 0;
  for (let k = 0; k < chunk.length; k++) total += chunk[k];
  return total;
}

/**
 * Node's socket calls wrapped in a library's promises (`new Promise(executor)`, which is
 * the library's defer for kew and deferred: lib/defer-promise.js):
 * - `listen(connections)`, a promise of a listening net.Server, its `closed` promise on it;
 * - `accept(server, connections, serve)`, the acceptor: it starts `serve(connection)` for
 *   each of `connections` connections as it is accepted, then closes the listener, and
 *   its promise is of the tasks it started;
 * - `connect(port)`, a promise of a connected client connection;
 * - a connection is `{ socket, chunks, closed }`: its socket (TCP_NODELAY set once it
 *   is connected: Bun's and Deno's `net` may not keep it from before), the
 *   channel of what it reads (`chunks.receive()`, a promise of the next chunk or of `null`
 *   at the end of stream) and a promise of its 'close';
 * - `latch(n)`, a counter: `countDown()` n times resolves its `done`;
 * - `gate()`, the one "go" every client awaits: `open()` resolves its `opened`.
 */
export function promiseSockets(Promise) {
  const closing = (emitter) => new Promise((resolve) => emitter.once("close", resolve));

  const connection = (socket) => {
    const chunks = new Channel(Promise);
    socket.on("data", (chunk) => chunks.send(chunk));
    socket.on("end", () => chunks.send(null));
    return { socket, chunks, closed: closing(socket) };
  };

  const listen = (connections) =>
    new Promise((resolve) => {
      const server = net.createServer();
      server.closed = closing(server);
      server.listen(listenOptions(connections), () => resolve(server));
    });

  const accept = (server, connections, serve) =>
    new Promise((resolve) => {
      const tasks = [];
      const acceptedAll = () => {
        server.off("connection", accepted);
        server.close();
        resolve(tasks);
      };
      const accepted = (socket) => {
        socket.setNoDelay(true);
        tasks.push(serve(connection(socket)));
        if (tasks.length === connections) acceptedAll();
      };
      if (connections === 0) acceptedAll();
      else server.on("connection", accepted);
    });

  const connect = (port) =>
    new Promise((resolve) => {
      const client = connection(net.connect({ host: LOOPBACK, port }));
      client.socket.once("connect", () => {
        client.socket.setNoDelay(true);
        resolve(client);
      });
    });

  const latch = (n) => {
    let pending = n;
    let release;
    const done = new Promise((resolve) => {
      release = resolve;
    });
    if (n === 0) release();
    const countDown = () => {
      if (--pending === 0) release();
    };
    return { countDown, done };
  };

  const gate = () => {
    let open;
    const opened = new Promise((resolve) => {
      open = resolve;
    });
    return { open, opened };
  };

  return { listen, accept, connect, latch, gate };
}

/** echo and connections as `.then` chains on `Promise` (see promiseSockets). */
export function promiseSocketScenarios(Promise) {
  const { listen, accept, connect, latch, gate } = promiseSockets(Promise);
  const startAll = (n, task) => Promise.all(Array.from({ length: n }, (_, i) => task(i)));

  /** Reads until `bytes` bytes have come; a promise of their sum. */
  const readBytes = (chunks, bytes, got = 0, total = 0) =>
    chunks.receive().then((chunk) => {
      const sum = total + byteSum(chunk);
      const read = got + chunk.length;
      return read < bytes ? readBytes(chunks, bytes, read, sum) : sum;
    });

  /** Reads until the end of stream. */
  const drain = (chunks) =>
    chunks.receive().then((chunk) => (chunk === null ? null : drain(chunks)));

  /** Ends the write side and waits for the socket's close. */
  const close = ({ socket, closed }) => {
    socket.end();
    return closed;
  };

  /** An echo server task: writes back every chunk until the end of stream, then closes. */
  const echoBack = (conn) =>
    conn.chunks.receive().then((chunk) => {
      if (chunk === null) return close(conn);
      conn.socket.write(chunk);
      return echoBack(conn);
    });

  /** An echo client task: `rounds` round trips of `bytes` bytes; the sum it read back. */
  const echoClient = (port, c, rounds, bytes) =>
    connect(port).then((conn) => {
      const round = (r, total) => {
        if (r === rounds) return close(conn).then(() => total);
        conn.socket.write(request(c, r, bytes));
        return readBytes(conn.chunks, bytes).then((sum) => round(r + 1, total + sum));
      };
      return round(0, 0);
    });

  /** A connections server task: one byte back, then the end of stream, then close. */
  const holdServer = (conn) =>
    conn.chunks
      .receive()
      .then((chunk) => {
        conn.socket.write(chunk);
        return drain(conn.chunks);
      })
      .then(() => close(conn));

  /** A connections client task: connected, counted, waits for go; its byte, echoed. */
  const holdClient = (port, c, connected, go) =>
    connect(port).then((conn) => {
      connected();
      return go
        .then(() => {
          conn.socket.write(request(c, 0, 1));
          return readBytes(conn.chunks, 1);
        })
        .then((byte) => close(conn).then(() => byte));
    });

  return {
    echo: ({ connections, rounds, bytes }) =>
      listen(connections).then((server) => {
        const { port } = server.address();
        const servers = accept(server, connections, echoBack);
        const clients = startAll(connections, (c) => echoClient(port, c, rounds, bytes));
        return Promise.all([clients, servers.then((tasks) => Promise.all(tasks)), server.closed]);
      }).then(([sums]) => sum(sums)),
    connections: ({ connections }) =>
      listen(connections).then((server) => {
        const { port } = server.address();
        const ready = latch(connections);
        const go = gate();
        const servers = accept(server, connections, holdServer);
        const clients = startAll(connections, (c) =>
          holdClient(port, c, ready.countDown, go.opened),
        );
        return servers
          .then((tasks) =>
            ready.done.then(() => {
              go.open();
              return Promise.all([clients, Promise.all(tasks), server.closed]);
            }),
          );
      }).then(([bytes]) => sum(bytes)),
  };
}

/**
 * The callback styles' channel (caolan's async has none): `send(message)` hands it to the
 * first waiting receiver or keeps it; `receive(callback)` calls back `(null, message)`
 * with the first one kept, or once one is sent. Receivers wait in turn.
 */
export class CallbackChannel {
  #messages = [];
  #receivers = [];

  send(message) {
    if (this.#receivers.length > 0) this.#receivers.shift()(null, message);
    else this.#messages.push(message);
  }

  receive(callback) {
    if (this.#messages.length > 0) callback(null, this.#messages.shift());
    else this.#receivers.push(callback);
  }
}

/**
 * A socket for the callback styles: `{ socket, chunks, closed }`, its socket, a
 * CallbackChannel of what it reads (`null` at the end of stream) and one that gets its
 * 'close' (`closed.receive(callback)` calls back once the socket has closed).
 */
export function callbackConnection(socket) {
  const chunks = new CallbackChannel();
  const closed = new CallbackChannel();
  socket.on("data", (chunk) => chunks.send(chunk));
  socket.on("end", () => chunks.send(null));
  socket.once("close", () => closed.send(null));
  return { socket, chunks, closed };
}
