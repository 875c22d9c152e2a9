// The `node-effect` contestant: the nine task scenarios and the two socket ones (see echo
// below) as programs of the npm `effect` package
// (Effect 4) on its fiber runtime, inside Node's event loop, written as Effect's docs write
// them: Effect.gen for steps in sequence; Effect.all with `concurrency: "unbounded"` to run
// every task in a fiber of its own and join them (Effect 4 has no forkAll); Effect.sleep,
// Effect's clock (a setTimeout); a Queue.unbounded each way for pingpong; a Deferred for
// chain's signal; Effect.yieldNow. Fake I/O is lib/requests.js's op wrapped in
// Effect.callback, the docs' way to bring a callback API in, so its completion is the
// `resume` closure made for the call. Each iteration is one Effect.runPromise.
//
// Effect.all starts each task's fiber at once and takes the result of one that ends within
// that first run without ever scheduling it, so a task with nothing to wait for (spawn's, a
// skynet leaf) first yields to Effect's scheduler, Effect.yieldNow, and returns its number
// from there (lib/tasks.js; TASKBENCH_JS_TASKS=inline returns `Effect.sync(() => i)`, run to
// its end in the fork). chain's links need none: Effect.forkDetach already schedules the
// new fiber rather than running it at once.

import { Deferred, Duration, Effect, Fiber, Latch, Queue } from "effect";
import net from "node:net";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { LOOPBACK, byteSum, listenOptions, request } from "../lib/sockets.js";
import { sum } from "../lib/sum.js";
import { scheduledTasks } from "../lib/tasks.js";
import { now, oversleepOutcome, since, sleepCount } from "../lib/timer.js";

/**
 * A task with nothing to wait for, in the form lib/tasks.js chose: one turn through Effect's
 * scheduler, then its value; or `Effect.sync(() => i)`, which ends in the call that forks it.
 */
const returner = scheduledTasks
  ? (i) => Effect.as(Effect.yieldNow, i)
  : (i) => Effect.sync(() => i);

const scenarios = {
  spawn: ({ tasks }) => joinSum(tasks, returner),
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => Effect.as(Effect.sleep(delayMs), i)),
  timer,
  doxbee: ({ requests, ioMs }) => {
    const io = effectIo(ioMs);
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = effectIo(ioMs);
    return joinSum(requests, () => fanOut(fanout, io));
  },
  skynet: ({ size }) => skynet(0, size),
  pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
  chain,
  yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
  echo,
  connections,
};

// Effect.sleep takes a Duration, which states any step; Effect's clock hands setTimeout
// its milliseconds, fraction and all, and Node's rounding shows as oversleep.
run(
  Object.fromEntries(
    Object.entries(scenarios).map(([name, program]) => [
      name,
      (params) => Effect.runPromise(program(params)),
    ]),
  ),
  { subMsTimer: true },
);

/**
 * task(0) … task(n - 1), each in a fiber of its own, joined: their results in order. A task
 * that only returns a value is never `Effect.succeed(i)` (see returner): in Effect 4 a
 * succeed is already its own exit, which Effect.all takes as a result without forking a
 * fiber, so no task would exist (skynet 1M took 199 ms that way, 22 B a task).
 */
function startAll(n, task) {
  return Effect.all(
    Array.from({ length: n }, (_, i) => task(i)),
    { concurrency: "unbounded" },
  );
}

function joinSum(n, task) {
  return Effect.map(startAll(n, task), sum);
}

/** lib/requests.js's fake I/O op as an effect: `io(tx)` makes the call when it runs. */
function effectIo(ioMs) {
  const io = fakeIo(ioMs);
  return (tx) => Effect.callback((resume) => io(tx, () => resume(Effect.void)));
}

/** One sleep after another, each timed with the monotonic clock. */
function timer({ stepUs, totalMs }) {
  return Effect.gen(function* () {
    const sleeps = sleepCount(stepUs, totalMs);
    const slept = [];
    while (slept.length < sleeps) {
      const start = now();
      yield* Effect.sleep(Duration.micros(BigInt(stepUs)));
      slept.push(since(start));
    }
    return oversleepOutcome(slept, stepUs);
  });
}

/** One doxbee upload (PROTOCOL.md §4): every step in turn. */
function upload(request, io) {
  return Effect.gen(function* () {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    yield* io(tx); // 2. put the blob
    yield* io(tx); // 3. look the file up: it never exists
    upload.buildVersion(); // 4. the version record
    yield* io(tx); // 5. insert the version
    upload.buildFileQuery(); // 6. the "create file" query, executed
    yield* io(tx);
    yield* io(tx); // 7. insert the file–version link
    yield* io(tx); // 8. update the file's current version
    yield* io(tx); // 9. commit
    return upload.tx.ios;
  });
}

/** One madeup-parallel request: `fanout` ops in fibers of their own, joined, then a commit. */
function fanOut(fanout, io) {
  return Effect.gen(function* () {
    const tx = new Transaction();
    yield* startAll(fanout, () => io(tx));
    yield* io(tx); // commit
    return tx.ios;
  });
}

/** A node's children are made when it runs (Effect.suspend), not all up front. */
function skynet(num, size) {
  if (size === 1) return returner(num);
  const child = size / 10;
  return Effect.suspend(() => joinSum(10, (k) => skynet(num + k * child, child)));
}

/** One pair: the pinger forks its ponger, counts the replies, then joins it. */
function pair(rounds) {
  return Effect.gen(function* () {
    const pings = yield* Queue.unbounded();
    const pongs = yield* Queue.unbounded();
    const ponger = yield* Effect.forkChild(pong(pings, pongs, rounds));
    let replies = 0;
    for (let ball = 0; ball < rounds; ball++) {
      yield* Queue.offer(pings, ball);
      yield* Queue.take(pongs);
      replies += 1;
    }
    yield* Fiber.join(ponger);
    return replies;
  });
}

function pong(pings, pongs, rounds) {
  return Effect.gen(function* () {
    for (let k = 0; k < rounds; k++) yield* Queue.offer(pongs, yield* Queue.take(pings));
  });
}

/**
 * Link k adds k to the sum it was handed, forks link k + 1 with the new sum and ends; the
 * last completes the Deferred the main fiber awaits with the sum, length·(length+1)/2.
 * A link is forked detached (forkDetach): a child fiber (forkChild) is interrupted when its
 * parent ends, and here every link ends right after starting the next.
 */
function chain({ length }) {
  return Effect.gen(function* () {
    const done = yield* Deferred.make();
    const link = (k, sum) =>
      Effect.suspend(() =>
        k === length
          ? Deferred.succeed(done, sum + k)
          : Effect.forkDetach(link(k + 1, sum + k)),
      );
    yield* Effect.forkDetach(link(1, 0));
    return yield* Deferred.await(done);
  });
}

function yielder(yields) {
  return Effect.gen(function* () {
    let count = 0;
    while (count < yields) {
      yield* Effect.yieldNow;
      count += 1;
    }
    return count;
  });
}

/**
 * echo (PROTOCOL.md §4) on Node's `net` in Effect's primitives (the `effect` package's own
 * Socket module has its Node implementation in @effect/platform-node, not installed
 * here): listening and connecting are Effect.callback; what a socket reads goes to a
 * Queue.unbounded (its 'data' events, `null` at the end of stream) that its fiber takes
 * from; a socket's 'close' opens a Latch; each connection is Effect.acquireUseRelease,
 * its release the end of the write side and the wait for the close. The acceptor is a
 * fiber that takes `connections` sockets from the Queue of the listener's 'connection'
 * events and forks a server fiber for each, then joins them; the clients are Effect.all
 * with unbounded concurrency, a fiber each.
 */
function echo({ connections, rounds, bytes }) {
  return Effect.gen(function* () {
    const listener = yield* listen(connections);
    const serving = yield* Effect.forkChild(acceptor(listener, connections, echoBack));
    const sums = yield* startAll(connections, (c) => echoClient(listener.port, c, rounds, bytes));
    yield* Fiber.join(serving);
    yield* listener.closed.await;
    return sum(sums);
  });
}

/**
 * connections (PROTOCOL.md §4): each client offers itself to the `connected` Queue, which
 * the main fiber takes from once per client; the acceptor opens the `accepted` Latch once
 * every server fiber is forked; then the main fiber opens the `go` Latch every client
 * awaits.
 */
function connections({ connections }) {
  return Effect.gen(function* () {
    const listener = yield* listen(connections);
    const connected = yield* Queue.unbounded();
    const accepted = yield* Latch.make();
    const go = yield* Latch.make();
    const serving = yield* Effect.forkChild(acceptor(listener, connections, holdServer, accepted));
    const clients = yield* Effect.forkChild(
      startAll(connections, (c) => holdClient(listener.port, c, connected, go)),
    );
    for (let k = 0; k < connections; k++) yield* Queue.take(connected);
    yield* accepted.await;
    yield* go.open;
    const bytes = yield* Fiber.join(clients);
    yield* Fiber.join(serving);
    yield* listener.closed.await;
    return sum(bytes);
  });
}

/**
 * A listening server on an ephemeral loopback port: its port, the Queue of the sockets it
 * accepts (its 'connection' events, from the start, so none is missed) and a Latch its
 * 'close' opens.
 */
function listen(connections) {
  return Effect.gen(function* () {
    const sockets = yield* Queue.unbounded();
    const closed = yield* Latch.make();
    const server = net.createServer((socket) => Queue.offerUnsafe(sockets, socket));
    server.once("close", () => closed.openUnsafe());
    yield* Effect.callback((resume) => {
      server.listen(listenOptions(connections), () => resume(Effect.void));
    });
    return { server, port: server.address().port, sockets, closed };
  });
}

/**
 * The acceptor: takes `connections` sockets, forking serve(connection) for each, closes
 * the listener, opens `accepted` (if given), then joins its server fibers.
 */
function acceptor(listener, connections, serve, accepted) {
  return Effect.gen(function* () {
    const servers = [];
    for (let k = 0; k < connections; k++) {
      const socket = yield* Queue.take(listener.sockets);
      servers.push(yield* Effect.forkChild(Effect.acquireUseRelease(opened(socket), serve, close)));
    }
    listener.server.close();
    if (accepted) yield* accepted.open;
    yield* Fiber.joinAll(servers);
  });
}

/**
 * An open socket: TCP_NODELAY set, the Queue of what it reads (`null` at the end of
 * stream) and a Latch its 'close' opens.
 */
function opened(socket) {
  return Effect.gen(function* () {
    socket.setNoDelay(true);
    const chunks = yield* Queue.unbounded();
    const closed = yield* Latch.make();
    socket.on("data", (chunk) => Queue.offerUnsafe(chunks, chunk));
    socket.on("end", () => Queue.offerUnsafe(chunks, null));
    socket.once("close", () => closed.openUnsafe());
    return { socket, chunks, closed };
  });
}

/** The release of a connection: ends the write side, waits for the socket's close. */
function close({ socket, closed }) {
  return Effect.suspend(() => {
    socket.end();
    return closed.await;
  });
}

/** A client connection, for Effect.acquireUseRelease. */
function connect(port) {
  return Effect.flatMap(
    Effect.callback((resume) => {
      const socket = net.connect({ host: LOOPBACK, port }, () => resume(Effect.succeed(socket)));
    }),
    opened,
  );
}

/** Reads until `bytes` bytes have come; their sum. */
function readBytes(chunks, bytes) {
  return Effect.gen(function* () {
    let read = 0;
    let total = 0;
    while (read < bytes) {
      const chunk = yield* Queue.take(chunks);
      read += chunk.length;
      total += byteSum(chunk);
    }
    return total;
  });
}

/** An echo server fiber: writes back every chunk until the end of stream. */
function echoBack({ socket, chunks }) {
  return Effect.gen(function* () {
    for (let chunk = yield* Queue.take(chunks); chunk !== null; chunk = yield* Queue.take(chunks)) {
      socket.write(chunk);
    }
  });
}

/** An echo client fiber: `rounds` round trips of `bytes` bytes; the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  const roundTrips = ({ socket, chunks }) =>
    Effect.gen(function* () {
      let total = 0;
      for (let r = 0; r < rounds; r++) {
        socket.write(request(c, r, bytes));
        total += yield* readBytes(chunks, bytes);
      }
      return total;
    });
  return Effect.acquireUseRelease(connect(port), roundTrips, close);
}

/** A connections server fiber: one byte back, then the end of stream. */
function holdServer({ socket, chunks }) {
  return Effect.gen(function* () {
    socket.write(yield* Queue.take(chunks));
    while ((yield* Queue.take(chunks)) !== null);
  });
}

/** A connections client fiber: connected, counted, waits for go; its byte, echoed. */
function holdClient(port, c, connected, go) {
  const exchange = ({ socket, chunks }) =>
    Effect.gen(function* () {
      yield* Queue.offer(connected, c);
      yield* go.await;
      socket.write(request(c, 0, 1));
      return yield* readBytes(chunks, 1);
    });
  return Effect.acquireUseRelease(connect(port), exchange, close);
}
