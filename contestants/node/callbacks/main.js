// The `node-callbacks` contestant: the nine task scenarios and the two socket scenarios in
// plain Node callbacks, no promises at all — the "callbacks-baseline" of bluebird's
// benchmark tables (docs/SEEDS.md#bluebird-published-figures).
//
// Node has one event loop and no task objects; a task here is an asynchronous function
// that takes an error-first callback. Spawning one is calling it, and it delivers its
// result asynchronously, never within the call: with process.nextTick when it has nothing
// to wait for (as bluebird's fake I/O does for 0 ms), or from its timer. Joins count the
// callbacks that are still due. A yield is setImmediate, a turn of the event loop.

import net from "node:net";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { LOOPBACK, byteSum, listenOptions, request } from "../lib/sockets.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "../lib/timer.js";

run({
  spawn: ({ tasks }, done) => joinSum(tasks, returnAsync, done),
  sleep: ({ tasks, delayMs }, done) =>
    joinSum(tasks, (i, callback) => setTimeout(callback, delayMs, null, i), done),
  timer,
  doxbee: ({ requests, ioMs }, done) => {
    const io = fakeIo(ioMs);
    joinSum(requests, (i, callback) => upload(i, io, callback), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = fakeIo(ioMs);
    joinSum(requests, (_, callback) => fanOut(fanout, io, callback), done);
  },
  skynet: ({ size }, done) => skynet(0, size, done),
  pingpong: ({ pairs, rounds }, done) =>
    joinSum(pairs, (_, callback) => pair(rounds, callback), done),
  chain,
  yield: ({ tasks, yields }, done) =>
    joinSum(tasks, (_, callback) => yielder(yields, callback), done),
  echo,
  connections,
});

/** Starts task(0, cb) … task(n - 1, cb); `done` gets the sum of their results (see join). */
function joinSum(n, task, done) {
  const joined = join(n, done);
  for (let i = 0; i < n; i++) task(i, joined);
}

/**
 * The callback that joins `n` tasks: calls `done` once, with the first error or, when all
 * `n` have called back, with the sum of their results.
 */
function join(n, done) {
  let pending = n;
  let total = 0;
  if (pending === 0) done(null, total);
  return (err, result) => {
    if (pending === 0) return; // an error has ended the join already
    if (err) {
      pending = 0;
      return done(err);
    }
    total += result;
    if (--pending === 0) done(null, total);
  };
}

/** The task of the spawn scenario: returns i, on the next tick. */
function returnAsync(i, callback) {
  process.nextTick(callback, null, i);
}

/** One sleep after another on setTimeout, each timed with the monotonic clock. */
function timer({ stepUs, totalMs }, done) {
  const sleeps = sleepCount(stepUs, totalMs);
  const slept = [];
  const sleepFrom = (start) =>
    setTimeout(() => {
      slept.push(since(start));
      if (slept.length < sleeps) sleepFrom(now());
      else done(null, oversleepOutcome(slept, stepUs));
    }, stepMs(stepUs));
  sleepFrom(now());
}

/** One doxbee upload (PROTOCOL.md §4), nested as the callback baseline is. */
function upload(request, io, callback) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  // 2. put the blob
  io(tx, (err) => {
    if (err) return callback(err);
    // 3. look the file up: it never exists
    io(tx, (err) => {
      if (err) return callback(err);
      upload.buildVersion(); // 4. the version record
      // 5. insert the version
      io(tx, (err) => {
        if (err) return callback(err);
        upload.buildFileQuery(); // 6. the "create file" query, executed
        io(tx, (err) => {
          if (err) return callback(err);
          // 7. insert the file–version link
          io(tx, (err) => {
            if (err) return callback(err);
            // 8. update the file's current version
            io(tx, (err) => {
              if (err) return callback(err);
              io(tx, (err) => callback(err, upload.tx.ios)); // 9. commit
            });
          });
        });
      });
    });
  });
}

/** One madeup-parallel request: `fanout` ops at once, joined by a counter, then a commit. */
function fanOut(fanout, io, callback) {
  const tx = new Transaction();
  let pending = fanout;
  const inserted = (err) => {
    if (pending === 0) return; // an error has ended the request already
    if (err) {
      pending = 0;
      return callback(err);
    }
    if (--pending === 0) io(tx, (err) => callback(err, tx.ios)); // commit
  };
  for (let k = 0; k < fanout; k++) io(tx, inserted);
}

/** A skynet node: a leaf returns its number, an inner node sums its ten children. */
function skynet(num, size, callback) {
  if (size === 1) return returnAsync(num, callback);
  const child = size / 10;
  joinSum(10, (k, joined) => skynet(num + k * child, child, joined), callback);
}

/**
 * One pair of the pingpong scenario. Node has no channel between callbacks; the stand-in
 * for sending a message to a task waiting on one is handing it to the receiver's handler
 * on the next tick. The pinger counts the replies it received.
 */
function pair(rounds, callback) {
  let replies = 0;
  const ponger = (ball) => process.nextTick(pinger, ball); // returns the ball
  const pinger = (ball) => {
    replies += 1;
    if (replies === rounds) callback(null, replies);
    else process.nextTick(ponger, ball + 1);
  };
  process.nextTick(ponger, 0);
}

/**
 * Task k adds k to the sum it was handed and starts task k + 1 with the new sum on the next
 * tick; the last one calls the waiting main back with the sum, length·(length+1)/2.
 */
function chain({ length }, done) {
  const link = (k, sum) =>
    k === length ? done(null, sum + k) : process.nextTick(link, k + 1, sum + k);
  process.nextTick(link, 1, 0);
}

/** A task that yields to the event loop `yields` times and returns its count. */
function yielder(yields, callback) {
  let count = 0;
  const turn = () => {
    if (count === yields) return callback(null, count);
    count += 1;
    setImmediate(turn);
  };
  turn();
}

/**
 * echo (PROTOCOL.md §4) on Node's `net` with its own callbacks: a socket's task is its
 * event handlers, 'data' the read of what has arrived, and a counter per client its state.
 * One join counts every socket's 'close' (a client calls back with its sum, a server
 * socket with 0) and the listener's.
 */
function echo({ connections, rounds, bytes }, done) {
  listen(connections, (server, joined) => {
    const { port } = server.address();
    accept(server, connections, (socket) => echoBack(socket, joined));
    for (let c = 0; c < connections; c++) echoClient(port, c, rounds, bytes, joined);
  }, done);
}

/**
 * connections (PROTOCOL.md §4): a counter of the clients connected and the connections
 * accepted; when it reaches 2 × connections, the main task calls every waiting client's
 * "go" callback.
 */
function connections({ connections }, done) {
  listen(connections, (server, joined) => {
    let unready = 2 * connections;
    const waiting = [];
    const ready = () => {
      if (--unready > 0) return;
      for (const go of waiting) go(); // go
    };
    const { port } = server.address();
    accept(server, connections, (socket) => {
      holdServer(socket, joined);
      ready();
    });
    const connected = (go) => {
      waiting.push(go);
      ready();
    };
    for (let c = 0; c < connections; c++) holdClient(port, c, connected, joined);
  }, done);
}

/**
 * Listens on an ephemeral loopback port, then calls `listening(server, joined)`; `joined`
 * joins the listener's close and every socket's (see join), then calls `done`.
 */
function listen(connections, listening, done) {
  const server = net.createServer();
  const joined = join(2 * connections + 1, done);
  server.on("close", () => joined(null, 0));
  server.listen(listenOptions(connections), () => listening(server, joined));
}

/**
 * The acceptor: serve(socket) for each of `connections` connections as it is accepted;
 * then the listener is closed.
 */
function accept(server, connections, serve) {
  let accepted = 0;
  const onConnection = (socket) => {
    socket.setNoDelay(true);
    serve(socket);
    if (++accepted < connections) return;
    server.off("connection", onConnection);
    server.close();
  };
  if (connections === 0) server.close();
  else server.on("connection", onConnection);
}

/** An echo server task: writes back every chunk until the end of stream, then closes. */
function echoBack(socket, callback) {
  socket.on("data", (chunk) => socket.write(chunk));
  socket.on("end", () => socket.end());
  socket.on("close", () => callback(null, 0));
}

/** Connects to the listener, then calls `connected(socket)` (TCP_NODELAY set). */
function connect(port, connected) {
  const socket = net.connect({ host: LOOPBACK, port }, () => {
    socket.setNoDelay(true);
    connected(socket);
  });
  return socket;
}

/**
 * An echo client task: `rounds` round trips of `bytes` bytes, each written once the last
 * has wholly come back; calls back with the sum it read once its socket has closed.
 */
function echoClient(port, c, rounds, bytes, callback) {
  let round = 0;
  let read = 0;
  let total = 0;
  const socket = connect(port, () => socket.write(request(c, round, bytes)));
  socket.on("data", (chunk) => {
    read += chunk.length;
    total += byteSum(chunk);
    if (read < bytes) return;
    read = 0;
    if (++round < rounds) socket.write(request(c, round, bytes));
    else socket.end();
  });
  socket.on("close", () => callback(null, total));
}

/** A connections server task: one byte back, then the end of stream, then close. */
function holdServer(socket, callback) {
  socket.once("data", (byte) => socket.write(byte));
  socket.on("end", () => socket.end());
  socket.on("close", () => callback(null, 0));
}

/**
 * A connections client task: once connected it hands `connected` its "go", which writes
 * its byte; the byte echoed ends it, and it calls back with that byte once closed.
 */
function holdClient(port, c, connected, callback) {
  let byte = 0;
  const socket = connect(port, () => connected(() => socket.write(request(c, 0, 1))));
  socket.once("data", (chunk) => {
    byte = byteSum(chunk);
    socket.end();
  });
  socket.on("close", () => callback(null, byte));
}
