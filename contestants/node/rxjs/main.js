// The `node-rxjs` contestant: doxbee, parallel and sleep as observables of today's RxJS 7,
// in its idiom of pipeable operators: a fake I/O op is bindNodeCallback of
// lib/requests.js's callback op; a request is one pipe of mergeMaps, one per step; fan-outs
// and the joins over requests are forkJoin, the last awaited with lastValueFrom; a sleep is
// timer(). The socket scenarios are observables of Node's socket events (see echo below).
// As in node-rx, the other scenarios have no natural form in observables and are n/a.

import net from "node:net";
import {
  AsyncSubject,
  Subject,
  bindNodeCallback,
  concatMap,
  count,
  defer,
  first,
  forkJoin,
  fromEvent,
  ignoreElements,
  lastValueFrom,
  map,
  mergeMap,
  range,
  reduce,
  scan,
  take,
  takeUntil,
  tap,
  timer,
} from "rxjs";
import { run } from "../lib/protocol.js";
import { Transaction, Upload, fakeIo } from "../lib/requests.js";
import { LOOPBACK, countBytes, listenOptions, request } from "../lib/sockets.js";
import { sum } from "../lib/sum.js";

run({
  sleep: ({ tasks, delayMs }) => joinSum(tasks, (i) => timer(delayMs).pipe(map(() => i))),
  doxbee: ({ requests, ioMs }) => {
    const io = bindNodeCallback(fakeIo(ioMs));
    return joinSum(requests, (i) => upload(i, io));
  },
  parallel: ({ requests, fanout, ioMs }) => {
    const io = bindNodeCallback(fakeIo(ioMs));
    return joinSum(requests, () => fanOut(fanout, io));
  },
  echo: ({ connections, rounds, bytes }) =>
    lastValueFrom(
      onListener(connections, (port, acceptor) =>
        forkJoin([
          acceptor(echoBack),
          joinSum$(connections, (c) => echoClient(port, c, rounds, bytes)),
        ]),
      ),
    ),
  connections: ({ connections }) => {
    const connected = new Subject();
    const accepted = new AsyncSubject();
    const go = new AsyncSubject();
    // go, once every client has said it is connected and every connection is accepted
    forkJoin([connected.pipe(take(connections), count()), accepted]).subscribe(() => {
      go.next(true);
      go.complete();
    });
    return lastValueFrom(
      onListener(connections, (port, acceptor) =>
        forkJoin([
          acceptor(holdServer, accepted),
          joinSum$(connections, (c) => holdClient(port, c, connected, go)),
        ]),
      ),
    );
  },
});

/**
 * Subscribes to task(0) … task(n - 1) with forkJoin: a promise of the sum of their values
 * (0 for no tasks: a forkJoin of none completes without a value).
 */
function joinSum(n, task) {
  const tasks = Array.from({ length: n }, (_, i) => task(i));
  return lastValueFrom(forkJoin(tasks).pipe(map(sum)), { defaultValue: 0 });
}

/** One doxbee upload (PROTOCOL.md §4): every step a mergeMap of one pipe. */
function upload(request, io) {
  const upload = new Upload(request); // 1. create the blob, begin the transaction
  const { tx } = upload;
  // 2. put the blob, then each mergeMap the next step
  return io(tx).pipe(
    mergeMap(() => io(tx)), // 3. look the file up: it never exists
    mergeMap(() => {
      upload.buildVersion(); // 4. the version record
      return io(tx); // 5. insert the version
    }),
    mergeMap(() => {
      upload.buildFileQuery(); // 6. the "create file" query, executed
      return io(tx);
    }),
    mergeMap(() => io(tx)), // 7. insert the file–version link
    mergeMap(() => io(tx)), // 8. update the file's current version
    mergeMap(() => io(tx)), // 9. commit
    map(() => upload.tx.ios),
  );
}

/** One madeup-parallel request: `fanout` ops in one forkJoin, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return forkJoin(Array.from({ length: fanout }, () => io(tx))).pipe(
    mergeMap(() => io(tx)), // commit
    map(() => tx.ios),
  );
}

/** task(0) … task(n - 1) joined with forkJoin: an observable of the sum of their values. */
function joinSum$(n, task) {
  const tasks = Array.from({ length: n }, (_, i) => task(i));
  return n === 0 ? defer(() => [0]) : forkJoin(tasks).pipe(map(sum));
}

/**
 * echo (PROTOCOL.md §4) as observables of Node's `net` events: the listener's 'listening'
 * and 'close', a socket's 'connect', 'data' (what has arrived), 'end' and 'close' are
 * fromEvent. The acceptor is the listener's 'connection' events, take(connections), each
 * served by an inner observable (mergeMap), the listener closed once all are accepted; a
 * client is one observable per connection, its rounds a concatMap over range(rounds), each
 * round a write and the 'data' events scanned until `bytes` bytes have come. The
 * listener's 'close', the acceptor and the clients are joined by forkJoin.
 *
 * `scenario(port, acceptor)` makes the scenario's observable of the clients' sum on the
 * listener (`acceptor(serve, accepted)` serves the connections, then completes
 * `accepted`, if given, once all are accepted).
 */
function onListener(connections, scenario) {
  return defer(() => {
    const server = net.createServer();
    server.listen(listenOptions(connections));
    const acceptor = (serve, accepted) =>
      fromEvent(server, "connection").pipe(
        take(connections),
        tap({
          complete: () => {
            server.close();
            accepted?.next(true);
            accepted?.complete();
          },
        }),
        mergeMap((socket) => {
          socket.setNoDelay(true);
          return serve(socket).pipe(closing(socket));
        }),
        count(),
      );
    return fromEvent(server, "listening").pipe(
      first(),
      mergeMap(() =>
        forkJoin([
          fromEvent(server, "close").pipe(first()),
          scenario(server.address().port, acceptor),
        ]),
      ),
      map(([, [, total]]) => total),
    );
  });
}

/** An operator: once its source completes, ends the socket and waits for its 'close'. */
function closing(socket) {
  return (source) =>
    source.pipe(
      concatMap((value) => {
        socket.end();
        return fromEvent(socket, "close").pipe(
          first(),
          map(() => value),
        );
      }),
    );
}

/** An observable of a connected socket (TCP_NODELAY set). */
function connect(port) {
  return defer(() => {
    const socket = net.connect({ host: LOOPBACK, port });
    return fromEvent(socket, "connect").pipe(
      first(),
      map(() => {
        socket.setNoDelay(true);
        return socket;
      }),
    );
  });
}

/** The sum of the next `bytes` bytes of the socket's 'data' events. */
function readBytes(socket, bytes) {
  return fromEvent(socket, "data").pipe(
    scan(countBytes, { read: 0, total: 0 }),
    first(({ read }) => read >= bytes),
    map(({ total }) => total),
  );
}

/** A server socket's 'data' events until its 'end'. */
function received(socket) {
  return fromEvent(socket, "data").pipe(takeUntil(fromEvent(socket, "end")));
}

/** An echo server: writes back every chunk until the end of stream; emits 0. */
function echoBack(socket) {
  return received(socket).pipe(
    tap((chunk) => socket.write(chunk)),
    ignoreElements(),
    count(),
  );
}

/** An echo client: `rounds` round trips of `bytes` bytes; emits the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  return connect(port).pipe(
    mergeMap((socket) =>
      range(0, rounds).pipe(
        concatMap((r) =>
          defer(() => {
            socket.write(request(c, r, bytes));
            return readBytes(socket, bytes);
          }),
        ),
        reduce((total, sum) => total + sum, 0),
        closing(socket),
      ),
    ),
  );
}

/** A connections server: one byte back, then its events until the end of stream; emits 0. */
function holdServer(socket) {
  return received(socket).pipe(
    first(),
    tap((byte) => socket.write(byte)),
    concatMap(() => fromEvent(socket, "end").pipe(first())),
    count(),
  );
}

/**
 * A connections client: once connected it says so on `connected`, waits for `go`, writes
 * its byte and emits the byte echoed.
 */
function holdClient(port, c, connected, go) {
  return connect(port).pipe(
    mergeMap((socket) => {
      connected.next(c);
      return go.pipe(
        mergeMap(() => {
          socket.write(request(c, 0, 1));
          return readBytes(socket, 1);
        }),
        closing(socket),
      );
    }),
  );
}
