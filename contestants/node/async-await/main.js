// The `node-async-await` contestant: the nine task scenarios as async functions on the
// native Promise, with Node's own promise timers (node:timers/promises), and the two
// socket scenarios on Node's `net` with its own promise APIs (see echo below).
//
// A task is an async function; spawning one is calling it, and Promise.all joins. An async
// function runs at once until its first await and its caller sees the result on a later
// turn, through the promise it returned. A task with nothing to wait for (spawn's, a skynet
// leaf) awaits null once, so that it returns from the microtask queue, not within its
// spawner's call (lib/tasks.js; TASKBENCH_JS_TASKS=inline drops that await). Fake I/O is
// lib/requests.js's op in a `new Promise`, as in node-promises. A yield awaits
// setImmediate, a turn of the event loop.

import { on, once } from "node:events";
import net from "node:net";
import { setImmediate, setTimeout as sleep } from "node:timers/promises";
import { Channel } from "../lib/channel.js";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, nativePromiseIo } from "../lib/requests.js";
import { LOOPBACK, byteSum, listenOptions, request } from "../lib/sockets.js";
import { sum } from "../lib/sum.js";
import { scheduledTasks } from "../lib/tasks.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "../lib/timer.js";

run({
  spawn: ({ tasks }) => joinSum(tasks, scheduledTasks ? returnLater : async (i) => i),
  sleep: ({ tasks, delayMs }) =>
    joinSum(tasks, async (i) => {
      await sleep(delayMs);
      return i;
    }),
  timer,
  doxbee: ({ requests, ioMs }) => {
    const io = nativePromiseIo(ioMs);
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = nativePromiseIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
  skynet: ({ size }) => skynet(0, size),
  pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
  chain,
  yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
  echo,
  connections,
});

/** Calls task(0) … task(n - 1) and awaits them all. */
function startAll(n, task) {
  return Promise.all(Array.from({ length: n }, (_, i) => task(i)));
}

async function joinSum(n, task) {
  return sum(await startAll(n, task));
}

/** One sleep after another, each timed with the monotonic clock. */
async function timer({ stepUs, totalMs }) {
  const sleeps = sleepCount(stepUs, totalMs);
  const slept = [];
  while (slept.length < sleeps) {
    const start = now();
    await sleep(stepMs(stepUs));
    slept.push(since(start));
  }
  return oversleepOutcome(slept, stepUs);
}

/** One doxbee upload (PROTOCOL.md §4): every step awaited in turn. */
async function upload(request, io) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  await io(tx); // 2. put the blob
  await io(tx); // 3. look the file up: it never exists
  upload.buildVersion(); // 4. the version record
  await io(tx); // 5. insert the version
  upload.buildFileQuery(); // 6. the "create file" query, executed
  await io(tx);
  await io(tx); // 7. insert the file–version link
  await io(tx); // 8. update the file's current version
  await io(tx); // 9. commit
  return upload.tx.ios;
}

/** One madeup-parallel request: `fanout` ops at once, Promise.all, then a commit. */
async function fanOut(fanout, io) {
  const tx = new Transaction();
  await startAll(fanout, () => io(tx));
  await io(tx); // commit
  return tx.ios;
}

/** Spawn's task: returns i from the microtask queue, once its spawner has moved on. */
async function returnLater(i) {
  await null;
  return i;
}

/**
 * A skynet node: a leaf returns its number, from the microtask queue; an inner node sums
 * its ten children's.
 */
async function skynet(num, size) {
  if (size === 1) {
    if (scheduledTasks) await null;
    return num;
  }
  const child = size / 10;
  return sum(await startAll(10, (k) => skynet(num + k * child, child)));
}

/** One pair: the ponger returns every ball; the pinger counts the replies it received. */
async function pair(rounds) {
  const pings = new Channel(Promise);
  const pongs = new Channel(Promise);
  const ponger = pong(pings, pongs, rounds);
  let replies = 0;
  for (let ball = 0; ball < rounds; ball++) {
    pings.send(ball);
    await pongs.receive();
    replies += 1;
  }
  await ponger;
  return replies;
}

async function pong(pings, pongs, rounds) {
  for (let k = 0; k < rounds; k++) pongs.send(await pings.receive());
}

/**
 * Task k adds k to the sum it was handed and starts task k + 1 with the new sum by calling
 * it without awaiting it, as async code starts a task. Each task awaits first, so that it
 * runs once its spawner has moved on rather than nested in it (10,000 nested calls would
 * overflow the stack). The last one resolves the promise the main task awaits with the sum,
 * length·(length+1)/2.
 */
function chain({ length }) {
  return new Promise((signal) => {
    const link = async (k, sum) => {
      await null;
      const total = sum + k;
      if (k === length) signal(total);
      else link(k + 1, total);
    };
    link(1, 0);
  });
}

async function yielder(yields) {
  let count = 0;
  while (count < yields) {
    await setImmediate();
    count += 1;
  }
  return count;
}

/**
 * echo (PROTOCOL.md §4) in Node's own promise APIs over `net`: the listener's
 * 'listening', each socket's 'connect' and 'close' are events.once; the acceptor is a
 * `for await` over events.on(server, 'connection'), an async function started for each
 * socket as it comes; a read is the next chunk of the socket's async iterator (a
 * stream.read() of what has arrived, done at the end of stream). Every socket's 'close',
 * and the listener's, is awaited before the iteration ends.
 */
async function echo({ connections, rounds, bytes }) {
  const server = await listen(connections);
  const { port } = server.address();
  const serving = acceptor(server, connections, echoBack);
  const sums = await startAll(connections, (c) => echoClient(port, c, rounds, bytes));
  await Promise.all(await serving);
  await server.closed;
  return sum(sums);
}

/**
 * connections (PROTOCOL.md §4): each client counts itself connected on a counter whose
 * promise the main task awaits, with the acceptor's, then awaits the one "go" promise.
 */
async function connections({ connections }) {
  const server = await listen(connections);
  const { port } = server.address();
  let pending = connections;
  let allConnected;
  const connected = new Promise((resolve) => {
    allConnected = resolve;
  });
  if (pending === 0) allConnected();
  const countConnected = () => {
    if (--pending === 0) allConnected();
  };
  let go;
  const started = new Promise((resolve) => {
    go = resolve;
  });
  const serving = acceptor(server, connections, holdServer);
  const clients = startAll(connections, (c) => holdClient(port, c, countConnected, started));
  const servers = await serving;
  await connected;
  go();
  const bytes = await clients;
  await Promise.all(servers);
  await server.closed;
  return sum(bytes);
}

/** A listening server on an ephemeral loopback port; `closed`, its 'close'. */
async function listen(connections) {
  const server = net.createServer();
  server.closed = once(server, "close");
  server.listen(listenOptions(connections));
  await once(server, "listening");
  return server;
}

/**
 * The acceptor: starts serve(socket) for each of `connections` connections as it is
 * accepted, closes the listener once all are, and returns the tasks it started.
 */
async function acceptor(server, connections, serve) {
  const tasks = [];
  if (connections > 0) {
    for await (const [socket] of on(server, "connection")) {
      tasks.push(serve(socket));
      if (tasks.length === connections) break;
    }
  }
  server.close();
  return tasks;
}

/**
 * A connected socket: TCP_NODELAY set, the promise of its 'close' made at once (it comes
 * after the end of stream, whenever the task gets there), and its reader.
 */
function opened(socket) {
  socket.setNoDelay(true);
  return { closed: once(socket, "close"), chunks: socket[Symbol.asyncIterator]() };
}

/** Reads until `bytes` bytes have come; their sum. */
async function readBytes(chunks, bytes) {
  let read = 0;
  let total = 0;
  while (read < bytes) {
    const { value: chunk } = await chunks.next();
    read += chunk.length;
    total += byteSum(chunk);
  }
  return total;
}

/**
 * An echo server task: writes back every chunk until the end of stream, then closes (the
 * `for await` over a stream destroys it when the stream ends).
 */
async function echoBack(socket) {
  socket.setNoDelay(true);
  const closed = once(socket, "close");
  for await (const chunk of socket) socket.write(chunk);
  await closed;
}

async function connect(port) {
  const socket = net.connect({ host: LOOPBACK, port });
  await once(socket, "connect");
  return { socket, ...opened(socket) };
}

/** An echo client task: `rounds` round trips of `bytes` bytes; the sum it read back. */
async function echoClient(port, c, rounds, bytes) {
  const { socket, closed, chunks } = await connect(port);
  let total = 0;
  for (let r = 0; r < rounds; r++) {
    socket.write(request(c, r, bytes));
    total += await readBytes(chunks, bytes);
  }
  socket.end();
  await closed;
  return total;
}

/** A connections server task: one byte back, then the end of stream, then close. */
async function holdServer(socket) {
  const { closed, chunks } = opened(socket);
  const { value: byte } = await chunks.next();
  socket.write(byte);
  while (!(await chunks.next()).done);
  socket.end();
  await closed;
}

/** A connections client task: connected, counted, waits for go; its byte, echoed. */
async function holdClient(port, c, countConnected, go) {
  const { socket, closed, chunks } = await connect(port);
  countConnected();
  await go;
  socket.write(request(c, 0, 1));
  const byte = await readBytes(chunks, 1);
  socket.end();
  await closed;
  return byte;
}
