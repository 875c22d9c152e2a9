// The nine task scenarios and the two socket ones written once with caolan's async library,
// for two contestants that differ only in the library passed in: `node-async-lib` (async)
// and `node-neo-async` (neo-async, written as a drop-in replacement with the same API).
//
// Tasks are error-first callback functions, as in node-callbacks, but composed with the
// library: async.times spawns n tasks and joins them, async.waterfall runs doxbee's steps,
// async.parallel fans a request out, an async.queue serves pingpong's pinger; in the socket
// scenarios async.times spawns the clients and the server tasks, async.timesSeries runs a
// client's rounds and async.parallel joins clients, servers and the listener's close. A
// task with nothing to wait for calls back through async.nextTick. A yield is setImmediate,
// a turn of the event loop; not async.setImmediate, which async 3 runs as a microtask. A
// socket's reads come from a CallbackChannel (lib/sockets.js) fed by its 'data' events:
// the library has no channel, and its loops with a test (whilst, doUntil) take the test
// synchronously in neo-async and with a callback in async 3, so a read loop is a plain
// recursive callback, as a fake I/O op is.

import net from "node:net";
import { Transaction, Upload, fakeIo } from "./requests.js";
import {
  CallbackChannel,
  LOOPBACK,
  byteSum,
  callbackConnection,
  listenOptions,
  request,
} from "./sockets.js";
import { sum } from "./sum.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "./timer.js";

/** The scenarios on `async`, the module object of caolan's async or of a drop-in for it. */
export function asyncLibScenarios(async) {
  /** Spawns task(0, cb) … task(n - 1, cb) with async.times; `done` gets their sum. */
  const joinSum = (n, task, done) => {
    async.times(n, task, (err, results) => (err ? done(err) : done(null, sum(results))));
  };

  const timer = ({ stepUs, totalMs }, done) => {
    const sleepOnce = (_, next) => {
      const start = now();
      setTimeout(() => next(null, since(start)), stepMs(stepUs));
    };
    async.timesSeries(sleepCount(stepUs, totalMs), sleepOnce, (err, slept) =>
      err ? done(err) : done(null, oversleepOutcome(slept, stepUs)),
    );
  };

  /** One doxbee upload (PROTOCOL.md §4): the steps as one async.waterfall. */
  const upload = (request, io, callback) => {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    const steps = [
      (next) => io(tx, next), // 2. put the blob
      (next) => io(tx, next), // 3. look the file up: it never exists
      (next) => {
        upload.buildVersion(); // 4. the version record
        io(tx, next); // 5. insert the version
      },
      (next) => {
        upload.buildFileQuery(); // 6. the "create file" query, executed
        io(tx, next);
      },
      (next) => io(tx, next), // 7. insert the file–version link
      (next) => io(tx, next), // 8. update the file's current version
      (next) => io(tx, next), // 9. commit
    ];
    async.waterfall(steps, (err) => callback(err, upload.tx.ios));
  };

  /** One madeup-parallel request: `fanout` ops in one async.parallel, then a commit. */
  const fanOut = (fanout, io, callback) => {
    const tx = new Transaction();
    const insert = (next) => io(tx, next);
    async.parallel(new Array(fanout).fill(insert), (err) => {
      if (err) return callback(err);
      io(tx, (err) => callback(err, tx.ios)); // commit
    });
  };

  const skynet = (num, size, callback) => {
    if (size === 1) return async.nextTick(callback, null, num);
    const child = size / 10;
    joinSum(10, (k, next) => skynet(num + k * child, child, next), callback);
  };

  /**
   * One pair. The ponger is the worker of an async.queue, the library's stand-in for a task
   * waiting on a channel; the pinger pushes each ball with the callback the worker replies
   * through, and waits for the reply before the next round. It returns the replies counted.
   */
  const pair = (rounds, callback) => {
    const ponger = async.queue((ball, reply) => reply(null, ball));
    async.timesSeries(
      rounds,
      (ball, replied) => ponger.push(ball, replied),
      (err, replies) => (err ? callback(err) : callback(null, replies.length)),
    );
  };

  /**
   * Task k adds k to the sum it was handed and starts task k + 1 with the new sum through
   * async.nextTick; the last calls the main task back with the sum, length·(length+1)/2.
   */
  const chain = ({ length }, done) => {
    const link = (k, sum) =>
      k === length ? done(null, sum + k) : async.nextTick(link, k + 1, sum + k);
    async.nextTick(link, 1, 0);
  };

  /** A task that yields `yields` times in an async.timesSeries and returns the count. */
  const yielder = (yields, callback) =>
    async.timesSeries(
      yields,
      (_, next) => setImmediate(next),
      (err, turns) => (err ? callback(err) : callback(null, turns.length)),
    );

  /** A listening server on an ephemeral loopback port. */
  const listen = (connections, callback) => {
    const server = net.createServer();
    server.listen(listenOptions(connections), () => callback(null, server));
  };

  /**
   * The acceptor: each connection it accepts goes to a channel, where the next of
   * `connections` server tasks, spawned by async.times, takes it and serves it; the
   * listener is closed once all are accepted. `callback` once every server task is done.
   */
  const serveAll = (server, connections, serve, callback) => {
    const accepted = new CallbackChannel();
    let count = 0;
    const onConnection = (socket) => {
      socket.setNoDelay(true);
      accepted.send(callbackConnection(socket));
      if (++count < connections) return;
      server.off("connection", onConnection);
      server.close();
    };
    if (connections === 0) server.close();
    else server.on("connection", onConnection);
    async.times(
      connections,
      (_, served) => accepted.receive((err, conn) => (err ? served(err) : serve(conn, served))),
      callback,
    );
  };

  /**
   * Runs the scenario's server and client tasks on a listener: async.parallel joins the
   * listener's close, the server tasks (serveAll) and the clients (async.times); `done`
   * gets the sum of the clients' results.
   */
  const onListener = (connections, serve, client, done) =>
    async.waterfall(
      [
        (next) => listen(connections, next),
        (server, next) => {
          const { port } = server.address();
          async.parallel(
            [
              (joined) => server.once("close", () => joined(null)),
              (joined) => serveAll(server, connections, serve, joined),
              (joined) => async.times(connections, (c, result) => client(port, c, result), joined),
            ],
            (err, results) => (err ? next(err) : next(null, sum(results[2]))),
          );
        },
      ],
      done,
    );

  const connect = (port, callback) => {
    const socket = net.connect({ host: LOOPBACK, port }, () => {
      socket.setNoDelay(true);
      callback(null, conn);
    });
    const conn = callbackConnection(socket);
  };

  /** Reads until `bytes` bytes have come; calls back with their sum. */
  const readBytes = (chunks, bytes, callback, read = 0, total = 0) =>
    chunks.receive((err, chunk) => {
      if (err) return callback(err);
      if (read + chunk.length < bytes) {
        return readBytes(chunks, bytes, callback, read + chunk.length, total + byteSum(chunk));
      }
      callback(null, total + byteSum(chunk));
    });

  /** Reads until the end of stream. */
  const drain = (chunks, callback) =>
    chunks.receive((err, chunk) =>
      err || chunk === null ? callback(err) : drain(chunks, callback),
    );

  /** Ends the write side; calls back `(null, result)` once the socket has closed. */
  const close = ({ socket, closed }, result, callback) => {
    socket.end();
    closed.receive((err) => callback(err, result));
  };

  /** An echo server task: writes back every chunk until the end of stream, then closes. */
  const echoBack = (conn, callback) =>
    conn.chunks.receive((err, chunk) => {
      if (err) return callback(err);
      if (chunk === null) return close(conn, 0, callback);
      conn.socket.write(chunk);
      echoBack(conn, callback);
    });

  /** An echo client task: `rounds` round trips in an async.timesSeries; the sum read back. */
  const echoClient = (port, c, rounds, bytes, callback) =>
    connect(port, (err, conn) => {
      if (err) return callback(err);
      const roundTrip = (r, next) => {
        conn.socket.write(request(c, r, bytes));
        readBytes(conn.chunks, bytes, next);
      };
      async.timesSeries(rounds, roundTrip, (err, sums) =>
        err ? callback(err) : close(conn, sum(sums), callback),
      );
    });

  /** A connections server task: one byte back, then the end of stream, then close. */
  const holdServer = (conn, callback) =>
    async.waterfall(
      [
        (next) => conn.chunks.receive(next),
        (byte, next) => {
          conn.socket.write(byte);
          drain(conn.chunks, next);
        },
        (next) => close(conn, 0, next),
      ],
      callback,
    );

  /**
   * connections: every client and every server task counts itself ready on one counter
   * (connected, accepted); the last one opens the gate, calling every client's "go".
   */
  const connectionsScenario = ({ connections }, done) => {
    let unready = 2 * connections;
    const waiting = [];
    const ready = () => {
      if (--unready === 0) for (const go of waiting) go(null);
    };
    const serve = (conn, callback) => {
      ready();
      holdServer(conn, callback);
    };
    const client = (port, c, callback) =>
      async.waterfall(
        [
          (next) => connect(port, next),
          (conn, next) => {
            waiting.push((err) => next(err, conn));
            ready();
          },
          (conn, next) => {
            conn.socket.write(request(c, 0, 1));
            readBytes(conn.chunks, 1, (err, byte) => (err ? next(err) : close(conn, byte, next)));
          },
        ],
        callback,
      );
    onListener(connections, serve, client, done);
  };

  return {
    spawn: ({ tasks }, done) => joinSum(tasks, (i, next) => async.nextTick(next, null, i), done),
    sleep: ({ tasks, delayMs }, done) =>
      joinSum(tasks, (i, next) => setTimeout(next, delayMs, null, i), done),
    timer,
    doxbee: ({ requests, ioMs }, done) => {
      const io = fakeIo(ioMs);
      joinSum(requests, (i, next) => upload(i, io, next), done);
    },
    parallel: ({ requests, fanout, ioMs }, done) => {
      const io = fakeIo(ioMs);
      joinSum(requests, (_, next) => fanOut(fanout, io, next), done);
    },
    skynet: ({ size }, done) => skynet(0, size, done),
    pingpong: ({ pairs, rounds }, done) => joinSum(pairs, (_, next) => pair(rounds, next), done),
    chain,
    yield: ({ tasks, yields }, done) => joinSum(tasks, (_, next) => yielder(yields, next), done),
    echo: ({ connections, rounds, bytes }, done) =>
      onListener(
        connections,
        echoBack,
        (port, c, callback) => echoClient(port, c, rounds, bytes, callback),
        done,
      ),
    connections: connectionsScenario,
  };
}
