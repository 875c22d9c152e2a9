// The nine task scenarios and the two socket ones written once as generator functions
// driven by a coroutine runner,
// the style of promise code before async/await, for two contestants that differ only in
// the runner and its promises: `node-bluebird-coroutine` (bluebird's Promise.coroutine)
// and `node-co` (co.wrap on the native Promise).
//
// A task is a coroutine: a generator function wrapped by the runner, which returns a
// promise of its result and resumes the generator with each promise it yields once that
// promise settles. Spawning a task is calling it, and a yielded Promise.all joins. Loops
// are plain loops, as in node-async-await. A task with nothing to wait for (spawn's, a
// skynet leaf) first yields a resolved promise, which the runner resumes it from on a
// later turn through its promises' queue, so that it returns once its spawner has moved on
// rather than within the call (lib/tasks.js; TASKBENCH_JS_TASKS=inline leaves that yield
// out, and the runner's promise is settled before the call returns). A yield to the event
// loop is a promise resolved by setImmediate.

import { Channel } from "./channel.js";
import { Transaction, Upload } from "./requests.js";
import { byteSum, promiseSockets, request } from "./sockets.js";
import { sum } from "./sum.js";
import { scheduledTasks } from "./tasks.js";
import { now, oversleepOutcome, since, sleepCount, stepMs } from "./timer.js";

/**
 * The scenarios for one runner: `coroutine(generatorFunction)` returns a function that
 * starts the generator and returns a promise of what it returns; `Promise`, the promises
 * the runner resolves (for Promise.all and the channel); `promiseIo(ioMs)`, the fake I/O
 * op of lib/requests.js wrapped in those promises; `sleep(ms)`, a promise resolved by the
 * runtime's timer; `nextTurn()`, one resolved on the next turn of the event loop.
 */
export function generatorScenarios({ coroutine, Promise, promiseIo, sleep, nextTurn }) {
  const startAll = (n, task) => Promise.all(Array.from({ length: n }, (_, i) => task(i)));

  const joinSum = coroutine(function* (n, task) {
    return sum(yield startAll(n, task));
  });

  const sleeper = coroutine(function* (i, delayMs) {
    yield sleep(delayMs);
    return i;
  });

  /** One sleep after another, each timed with the monotonic clock. */
  const timer = coroutine(function* ({ stepUs, totalMs }) {
    const sleeps = sleepCount(stepUs, totalMs);
    const slept = [];
    while (slept.length < sleeps) {
      const start = now();
      yield sleep(stepMs(stepUs));
      slept.push(since(start));
    }
    return oversleepOutcome(slept, stepUs);
  });

  /** One doxbee upload (PROTOCOL.md §4): every step yielded in turn. */
  const upload = coroutine(function* (request, io) {
    const upload = new Upload(request); // 1. create the blob, begin the transaction
    const { tx } = upload;
    yield io(tx); // 2. put the blob
    yield io(tx); // 3. look the file up: it never exists
    upload.buildVersion(); // 4. the version record
    yield io(tx); // 5. insert the version
    upload.buildFileQuery(); // 6. the "create file" query, executed
    yield io(tx);
    yield io(tx); // 7. insert the file–version link
    yield io(tx); // 8. update the file's current version
    yield io(tx); // 9. commit
    return upload.tx.ios;
  });

  /** One madeup-parallel request: `fanout` ops at once, a yielded Promise.all, a commit. */
  const fanOut = coroutine(function* (fanout, io) {
    const tx = new Transaction();
    yield startAll(fanout, () => io(tx));
    yield io(tx); // commit
    return tx.ios;
  });

  const skynet = coroutine(function* (num, size) {
    if (size === 1) {
      if (scheduledTasks) yield Promise.resolve();
      return num;
    }
    const child = size / 10;
    return sum(yield startAll(10, (k) => skynet(num + k * child, child)));
  });

  const pong = coroutine(function* (pings, pongs, rounds) {
    for (let k = 0; k < rounds; k++) pongs.send(yield pings.receive());
  });

  /** One pair: the ponger returns every ball; the pinger counts the replies it received. */
  const pair = coroutine(function* (rounds) {
    const pings = new Channel(Promise);
    const pongs = new Channel(Promise);
    const ponger = pong(pings, pongs, rounds);
    let replies = 0;
    for (let ball = 0; ball < rounds; ball++) {
      pings.send(ball);
      yield pongs.receive();
      replies += 1;
    }
    yield ponger;
    return replies;
  });

  /**
   * Task k adds k to the sum it was handed and starts task k + 1 with the new sum by
   * calling it without yielding to it. Each task first yields a resolved promise (a runner
   * takes promises only, not the `await null` of async code), so that it runs once its
   * spawner has moved on rather than nested in it. The last one resolves the promise the
   * main task waits on with the sum, length·(length+1)/2.
   */
  const chain = ({ length }) =>
    new Promise((signal) => {
      const link = coroutine(function* (k, sum) {
        yield Promise.resolve();
        const total = sum + k;
        if (k === length) signal(total);
        else link(k + 1, total);
      });
      link(1, 0);
    });

  const yielder = coroutine(function* (yields) {
    let count = 0;
    while (count < yields) {
      yield nextTurn();
      count += 1;
    }
    return count;
  });

  /** Spawn's task, in the form lib/tasks.js chose: returns i after one turn, or at once. */
  const returner = scheduledTasks
    ? coroutine(function* (i) {
        yield Promise.resolve();
        return i;
      })
    : coroutine(function* (i) {
        return i;
      });

  /**
   * The socket scenarios (PROTOCOL.md §4) on lib/sockets.js's socket calls wrapped in the
   * runner's promises: a server or client task is a coroutine that yields each of them.
   */
  const { listen, accept, connect, latch, gate } = promiseSockets(Promise);

  /** Reads until `bytes` bytes have come; their sum. */
  const readBytes = coroutine(function* (chunks, bytes) {
    let read = 0;
    let total = 0;
    while (read < bytes) {
      const chunk = yield chunks.receive();
      read += chunk.length;
      total += byteSum(chunk);
    }
    return total;
  });

  /** An echo server task: writes back every chunk until the end of stream, then closes. */
  const echoBack = coroutine(function* ({ socket, chunks, closed }) {
    for (let chunk = yield chunks.receive(); chunk !== null; chunk = yield chunks.receive()) {
      socket.write(chunk);
    }
    socket.end();
    yield closed;
  });

  /** An echo client task: `rounds` round trips of `bytes` bytes; the sum it read back. */
  const echoClient = coroutine(function* (port, c, rounds, bytes) {
    const { socket, chunks, closed } = yield connect(port);
    let total = 0;
    for (let r = 0; r < rounds; r++) {
      socket.write(request(c, r, bytes));
      total += yield readBytes(chunks, bytes);
    }
    socket.end();
    yield closed;
    return total;
  });

  const echo = coroutine(function* ({ connections, rounds, bytes }) {
    const server = yield listen(connections);
    const { port } = server.address();
    const serving = accept(server, connections, echoBack);
    const sums = yield startAll(connections, (c) => echoClient(port, c, rounds, bytes));
    yield Promise.all(yield serving);
    yield server.closed;
    return sum(sums);
  });

  /** A connections server task: one byte back, then the end of stream, then close. */
  const holdServer = coroutine(function* ({ socket, chunks, closed }) {
    socket.write(yield chunks.receive());
    while ((yield chunks.receive()) !== null);
    socket.end();
    yield closed;
  });

  /** A connections client task: connected, counted, waits for go; its byte, echoed. */
  const holdClient = coroutine(function* (port, c, connected, go) {
    const { socket, chunks, closed } = yield connect(port);
    connected();
    yield go;
    socket.write(request(c, 0, 1));
    const byte = yield readBytes(chunks, 1);
    socket.end();
    yield closed;
    return byte;
  });

  const connectionsScenario = coroutine(function* ({ connections }) {
    const server = yield listen(connections);
    const { port } = server.address();
    const ready = latch(connections);
    const go = gate();
    const serving = accept(server, connections, holdServer);
    const clients = startAll(connections, (c) => holdClient(port, c, ready.countDown, go.opened));
    const servers = yield serving;
    yield ready.done;
    go.open();
    const bytes = yield clients;
    yield Promise.all(servers);
    yield server.closed;
    return sum(bytes);
  });

  return {
    spawn: ({ tasks }) => joinSum(tasks, returner),
    sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => sleeper(i, delayMs)),
    timer,
    doxbee: ({ requests, ioMs }) => {
      const io = promiseIo(ioMs);
      return joinSum(requests, (i) => upload(i, io));
    },
    parallel: ({ requests, fanout, ioMs }) => {
      const io = promiseIo(ioMs);
      return joinSum(requests, () => fanOut(fanout, io));
    },
    skynet: ({ size }) => skynet(0, size),
    pingpong: ({ pairs, rounds }) => joinSum(pairs, () => pair(rounds)),
    chain,
    yield: ({ tasks, yields }) => joinSum(tasks, () => yielder(yields)),
    echo,
    connections: connectionsScenario,
  };
}
