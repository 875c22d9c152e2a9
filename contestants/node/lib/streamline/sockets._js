// The socket scenarios (echo, connections: PROTOCOL.md §4) in streamline.js's `_` style,
// beside tasks._js and requests._js: the same source of both streamline contestants,
// compiled by build.sh in each one's mode. CommonJS, since that is what streamline 2
// compiles.
//
// Node's `net` with `_` in its callbacks' place: `server.listen(options, _)` waits for
// 'listening'. What a socket delivers goes to a streamline-runtime flows.queue, the
// channel tasks._js uses: each 'data' event is put on it, the end of stream ends it, and a
// task reads it with `chunks.read(_)` (undefined at the end). The acceptor is a task that
// reads `connections` sockets from a queue of the listener's 'connection' events and
// starts a server task for each with `!_`, a future; the main task joins every future. A
// socket's 'close' is a future too, started when the socket is opened, so that a close
// that comes before its task waits for it is not missed.

"use strict";

var EventEmitter = require("events");
var net = require("net");
var flows = require("streamline-runtime").flows;

/**
 * The scenarios, each a streamlined function `(params, _)` that returns the checksum;
 * `sockets` is lib/sockets.js (an ES module, which this compiled CommonJS file cannot
 * require: LOOPBACK, listenOptions, request, byteSum), handed in by
 * lib/streamline/contestant.js.
 */
module.exports = function streamlineSockets(sockets) {
  /** Calls back once `emitter` has emitted `event`. */
  function when(emitter, event, callback) {
    emitter.once(event, function () {
      callback(null);
    });
  }

  /**
   * An open socket: TCP_NODELAY set, the queue of what it reads and the future of its
   * 'close'.
   */
  function opened(socket) {
    socket.setNoDelay(true);
    var chunks = flows.queue();
    socket.on("data", function (chunk) {
      chunks.put(chunk);
    });
    socket.on("end", function () {
      chunks.end();
    });
    return { socket: socket, chunks: chunks, closed: when(socket, "close", !_) };
  }

  /** A listening server on an ephemeral loopback port; its 'close' a future. */
  function listen(connections, _) {
    var server = net.createServer();
    var closed = when(server, "close", !_);
    server.listen(sockets.listenOptions(connections), _);
    return { server: server, port: server.address().port, closed: closed };
  }

  /**
   * The acceptor: reads `connections` sockets off the queue of the listener's
   * 'connection' events, starting serve(socket) as a future for each, then closes the
   * listener; returns the futures.
   */
  function acceptor(server, connections, serve, _) {
    var accepted = flows.queue();
    var onConnection = function (socket) {
      accepted.put(socket);
    };
    server.on("connection", onConnection);
    var servers = new Array(connections);
    for (var k = 0; k < connections; k++) servers[k] = serve(opened(accepted.read(_)), !_);
    server.off("connection", onConnection);
    server.close();
    return servers;
  }

  function connect(port, _) {
    var socket = net.connect({ host: sockets.LOOPBACK, port: port });
    when(socket, "connect", _);
    return opened(socket);
  }

  /** Ends the write side and waits for the socket's close. */
  function close(conn, _) {
    conn.socket.end();
    conn.closed(_);
  }

  /** Reads until `bytes` bytes have come; their sum. */
  function readBytes(chunks, bytes, _) {
    var read = 0;
    var total = 0;
    while (read < bytes) {
      var chunk = chunks.read(_);
      read += chunk.length;
      total += sockets.byteSum(chunk);
    }
    return total;
  }

  /** Waits for every future of `futures`; the sum of their results. */
  function joinSum(futures, _) {
    var total = 0;
    for (var k = 0; k < futures.length; k++) total += futures[k](_);
    return total;
  }

  /** An echo server task: writes back every chunk until the end of stream, then closes. */
  function echoBack(conn, _) {
    var chunk;
    while ((chunk = conn.chunks.read(_)) !== undefined) conn.socket.write(chunk);
    close(conn, _);
    return 0;
  }

  function echo(params, _) {
    var rounds = params.rounds;
    var bytes = params.bytes;
    /** An echo client task: `rounds` round trips of `bytes` bytes; the sum read back. */
    function client(port, c, _) {
      var conn = connect(port, _);
      var total = 0;
      for (var r = 0; r < rounds; r++) {
        conn.socket.write(sockets.request(c, r, bytes));
        total += readBytes(conn.chunks, bytes, _);
      }
      close(conn, _);
      return total;
    }
    var listener = listen(params.connections, _);
    var serving = acceptor(listener.server, params.connections, echoBack, !_);
    var clients = new Array(params.connections);
    for (var c = 0; c < params.connections; c++) clients[c] = client(listener.port, c, !_);
    var total = joinSum(clients, _);
    joinSum(serving(_), _);
    listener.closed(_);
    return total;
  }

  /** A connections server task: one byte back, then the end of stream, then close. */
  function holdServer(conn, _) {
    conn.socket.write(conn.chunks.read(_));
    while (conn.chunks.read(_) !== undefined);
    close(conn, _);
    return 0;
  }

  /**
   * connections: each client puts itself on the `connected` queue, which the main task
   * reads once per client, then waits on one future of the main task's 'go' event, which
   * every client waits on (a flows.handshake wakes only one waiter).
   */
  function connections(params, _) {
    var n = params.connections;
    var connected = flows.queue();
    var starter = new EventEmitter();
    var go = when(starter, "go", !_);
    /** A connections client task: connected, counted, waits for go; its byte, echoed. */
    function client(port, c, _) {
      var conn = connect(port, _);
      connected.put(c);
      go(_);
      conn.socket.write(sockets.request(c, 0, 1));
      var byte = readBytes(conn.chunks, 1, _);
      close(conn, _);
      return byte;
    }
    var listener = listen(n, _);
    var serving = acceptor(listener.server, n, holdServer, !_);
    var clients = new Array(n);
    for (var c = 0; c < n; c++) clients[c] = client(listener.port, c, !_);
    var servers = serving(_);
    for (var k = 0; k < n; k++) connected.read(_);
    starter.emit("go");
    var total = joinSum(clients, _);
    joinSum(servers, _);
    listener.closed(_);
    return total;
  }

  return { echo: echo, connections: connections };
};
