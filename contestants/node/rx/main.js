// The `node-rx` contestant: doxbee, parallel and sleep as RxJS 4 observables (the `rx`
// package, the version bluebird's benchmark measured), in Rx 4's own idiom of chained
// operators. A fake I/O op is Observable.fromNodeCallback of lib/requests.js's callback op;
// a request is one chain of flatMaps, one per step; fan-outs and the joins over requests
// are forkJoin (a merge of 10,000 observables overflows Rx 4's immediate scheduler); a
// sleep is Observable.timer. The socket scenarios are observables of Node's socket events
// (see echo below). The other scenarios have no natural Rx form (observables are not
// tasks, and Rx has no channel), so they are n/a.

import net from "node:net";
import Rx from "rx";
import { run } from "../lib/protocol.js";
import { flatMapUpload } from "../lib/flatmap-upload.js";
import { Transaction, fakeIo } from "../lib/requests.js";
import { LOOPBACK, countBytes, listenOptions, request } from "../lib/sockets.js";
import { sum } from "../lib/sum.js";

const { Observable } = Rx;

run({
  sleep: ({ tasks, delayMs }, done) =>
    joinSum(tasks, (i) => Observable.timer(delayMs).map(() => i), done),
  doxbee: ({ requests, ioMs }, done) => {
    const io = Observable.fromNodeCallback(fakeIo(ioMs));
    joinSum(requests, (i) => flatMapUpload(i, io), done);
  },
  parallel: ({ requests, fanout, ioMs }, done) => {
    const io = Observable.fromNodeCallback(fakeIo(ioMs));
    joinSum(requests, () => fanOut(fanout, io), done);
  },
  echo: ({ connections, rounds, bytes }, done) =>
    subscribe(
      onListener(connections, (port, acceptor) =>
        Observable.forkJoin([
          acceptor(echoBack),
          joinSum$(connections, (c) => echoClient(port, c, rounds, bytes)),
        ]),
      ),
      done,
    ),
  connections: ({ connections }, done) => {
    const connected = new Rx.Subject();
    const accepted = new Rx.AsyncSubject();
    const go = new Rx.AsyncSubject();
    // go, once every client has said it is connected and every connection is accepted
    Observable.forkJoin([connected.take(connections).count(), accepted]).subscribe(() => {
      go.onNext(true);
      go.onCompleted();
    });
    subscribe(
      onListener(connections, (port, acceptor) =>
        Observable.forkJoin([
          acceptor(holdServer, accepted),
          joinSum$(connections, (c) => holdClient(port, c, connected, go)),
        ]),
      ),
      done,
    );
  },
});

/**
 * Subscribes to task(0) … task(n - 1) with forkJoin; `done` gets the sum of their values
 * (0 for no tasks: a forkJoin of none completes without a value).
 */
function joinSum(n, task, done) {
  Observable.forkJoin(Array.from({ length: n }, (_, i) => task(i)))
    .map(sum)
    .defaultIfEmpty(0)
    .subscribe(
      (total) => done(null, total),
      (err) => done(err),
    );
}

/** One madeup-parallel request: `fanout` ops in one forkJoin, then a commit. */
function fanOut(fanout, io) {
  const tx = new Transaction();
  return Observable.forkJoin(Array.from({ length: fanout }, () => io(tx)))
    .flatMap(() => io(tx)) // commit
    .map(() => tx.ios);
}

/** Subscribes to `observable`; `done` gets its one value. */
function subscribe(observable, done) {
  observable.subscribe(
    (value) => done(null, value),
    (err) => done(err),
  );
}

/** task(0) … task(n - 1) joined with forkJoin: an observable of the sum of their values. */
function joinSum$(n, task) {
  return Observable.forkJoin(Array.from({ length: n }, (_, i) => task(i)))
    .map(sum)
    .defaultIfEmpty(0);
}

/**
 * echo (PROTOCOL.md §4) as observables of Node's `net` events: the listener's 'listening'
 * and 'close', a socket's 'connect', 'data' (what has arrived), 'end' and 'close' are
 * Observable.fromEvent. The acceptor is the listener's 'connection' events, take(connections),
 * each served by an inner observable (flatMap), the listener closed once all are
 * accepted; a client is one observable per connection, its rounds a concatMap over
 * range(rounds), each round a write and the 'data' events scanned until `bytes` bytes
 * have come. The listener's 'close', the acceptor and the clients are joined by forkJoin.
 *
 * `scenario(port, acceptor)` makes the scenario's observable of the clients' sum on the
 * listener (`acceptor(serve, accepted)` serves the connections, then completes
 * `accepted`, if given, once all are accepted).
 */
function onListener(connections, scenario) {
  return Observable.defer(() => {
    const server = net.createServer();
    server.listen(listenOptions(connections));
    const acceptor = (serve, accepted) =>
      Observable.fromEvent(server, "connection")
        .take(connections)
        .tapOnCompleted(() => {
          server.close();
          if (accepted) {
            accepted.onNext(true);
            accepted.onCompleted();
          }
        })
        .flatMap((socket) => {
          socket.setNoDelay(true);
          return closing(socket, serve(socket));
        })
        .count();
    return Observable.fromEvent(server, "listening")
      .first()
      .flatMap(() =>
        Observable.forkJoin([
          Observable.fromEvent(server, "close").first(),
          scenario(server.address().port, acceptor),
        ]),
      )
      .map(([, [, total]]) => total);
  });
}

/** `source`, then the socket's end: its last value once the socket has closed. */
function closing(socket, source) {
  return source.concatMap((value) => {
    socket.end();
    return Observable.fromEvent(socket, "close")
      .first()
      .map(() => value);
  });
}

/** An observable of a connected socket (TCP_NODELAY set). */
function connect(port) {
  return Observable.defer(() => {
    const socket = net.connect({ host: LOOPBACK, port });
    return Observable.fromEvent(socket, "connect")
      .first()
      .map(() => {
        socket.setNoDelay(true);
        return socket;
      });
  });
}

/** The sum of the next `bytes` bytes of the socket's 'data' events. */
function readBytes(socket, bytes) {
  return Observable.fromEvent(socket, "data")
    .scan(countBytes, { read: 0, total: 0 })
    .first(({ read }) => read >= bytes)
    .map(({ total }) => total);
}

/** A server socket's 'data' events until its 'end'. */
function received(socket) {
  return Observable.fromEvent(socket, "data").takeUntil(Observable.fromEvent(socket, "end"));
}

/** An echo server: writes back every chunk until the end of stream; emits 0. */
function echoBack(socket) {
  return received(socket)
    .tap((chunk) => socket.write(chunk))
    .ignoreElements()
    .count();
}

/** An echo client: `rounds` round trips of `bytes` bytes; emits the sum it read back. */
function echoClient(port, c, rounds, bytes) {
  return connect(port).flatMap((socket) =>
    closing(
      socket,
      Observable.range(0, rounds)
        .concatMap((r) =>
          Observable.defer(() => {
            socket.write(request(c, r, bytes));
            return readBytes(socket, bytes);
          }),
        )
        .reduce((total, sum) => total + sum, 0),
    ),
  );
}

/** A connections server: one byte back, then its events until the end of stream; emits 0. */
function holdServer(socket) {
  return received(socket)
    .first()
    .tap((byte) => socket.write(byte))
    .concatMap(() => Observable.fromEvent(socket, "end").first())
    .count();
}

/**
 * A connections client: once connected it says so on `connected`, waits for `go`, writes
 * its byte and emits the byte echoed.
 */
function holdClient(port, c, connected, go) {
  return connect(port).flatMap((socket) => {
    connected.onNext(c);
    return closing(
      socket,
      go.flatMap(() => {
        socket.write(request(c, 0, 1));
        return readBytes(socket, 1);
      }),
    );
  });
}
