"""The scenarios on gevent's greenlets, for python-gevent: the nine of scenarios.py's, and
the two socket scenarios.

gevent code is plain functions that block their greenlet (in `gevent.sleep`, `Queue.get`,
a join) while gevent's hub runs the others: there is no `await`. scenarios.py's async code,
written once for asyncio and trio, awaits its runtime's primitives, so gevent's cannot be
passed in without wrapping every call in a coroutine gevent code never has; the scenarios
are written here in gevent's own style instead. What is not about waiting is shared: the
doxbee steps and the fake I/O op's query (doxbee.py) and the protocol
(protocol.run_blocking).

Tasks are greenlets started with `gevent.spawn` and joined with `gevent.joinall`
(`raise_error=True`: a greenlet that failed ends the run), their results read from
`.value`; chain's links spawn into one `gevent.pool.Group`, joined at the end. Fake I/O is
`gevent.sleep` (a timer of the hub's event loop), channels are `gevent.queue.Queue`
(unbounded, as python-asyncio's `asyncio.Queue`), and a yield is `gevent.sleep(0)`, which
gevent's docs name as the way to let the other greenlets run.

The sockets are gevent's own cooperative sockets (`gevent.socket`, no monkey-patching): the
listener is a `gevent.server.StreamServer`, as gevent's docs write an echo server, which
accepts on the hub's loop and spawns each connection's handler greenlet into the
scenario's `Group` (it closes the socket when the handler returns); the handler that
counts the last connection closes the listener. Clients are `gevent.socket.socket`s that
`connect` to the numeric address (`gevent.socket.create_connection` would resolve it on
gevent's thread pool). gevent leaves TCP_NODELAY off, so both ends set it. The
"connected" and "go" signals of `connections` are `gevent.event.Event`s.
"""

from collections.abc import Callable
from time import perf_counter_ns
from typing import Any, TypeVar

import gevent
from gevent.event import Event
from gevent.pool import Group
from gevent.queue import Queue
from gevent.server import StreamServer
from gevent.socket import IPPROTO_TCP, TCP_NODELAY, socket

from doxbee import Transaction, Upload
from protocol import Outcome, oversleep_outcome
from sockets import HOST, READ_SIZE, Countdown, request

T = TypeVar("T")


def spawn_all(count: int, task: Callable[[int], T]) -> list[T]:
    """Runs task(0) … task(count − 1) as greenlets, joins them all, returns their results."""
    greenlets = [gevent.spawn(task, i) for i in range(count)]
    gevent.joinall(greenlets, raise_error=True)
    return [greenlet.value for greenlet in greenlets]


def io(tx: Transaction, index: int, seconds: float) -> None:
    """Fake I/O op `index` of the transaction on gevent's timer: the call, with a new query
    let go at once, then the op's completion (the sleep's timer waking this greenlet), which
    counts the op in the transaction."""
    tx.call(index)
    gevent.sleep(seconds)
    tx.complete()


def spawn(tasks: int) -> int:
    def task(i: int) -> int:
        return i

    return sum(spawn_all(tasks, task))


def sleep(tasks: int, delay_ms: int) -> int:
    seconds = delay_ms / 1_000

    def task(i: int) -> int:
        gevent.sleep(seconds)
        return i

    return sum(spawn_all(tasks, task))


def timer(step_us: int, total_ms: int) -> Outcome:
    seconds = step_us / 1_000_000
    slept_ns = []
    for _ in range(total_ms * 1_000 // step_us):
        start = perf_counter_ns()
        gevent.sleep(seconds)
        slept_ns.append(perf_counter_ns() - start)
    return oversleep_outcome(slept_ns, step_us * 1_000)


def doxbee(requests: int, io_ms: int) -> int:
    seconds = io_ms / 1_000

    def upload(request: int) -> int:
        upload = Upload.begin(request)
        tx = upload.tx
        io(tx, 2, seconds)  # put the blob
        io(tx, 3, seconds)  # look the file up: it never exists
        upload.build_version()
        io(tx, 5, seconds)  # insert the version
        upload.build_file_query()
        io(tx, 6, seconds)  # execute the "create file" query
        io(tx, 7, seconds)  # insert the file-version link
        io(tx, 8, seconds)  # update the file's current version
        io(tx, 9, seconds)  # commit
        return tx.ops

    return sum(spawn_all(requests, upload))


def parallel(requests: int, fanout: int, io_ms: int) -> int:
    seconds = io_ms / 1_000

    def request(i: int) -> int:
        tx = Transaction(i)
        spawn_all(fanout, lambda k: io(tx, k, seconds))  # ops 0 … fanout − 1
        io(tx, fanout, seconds)  # commit
        return tx.ops

    return sum(spawn_all(requests, request))


def skynet(size: int) -> int:
    return skynet_node(0, size)


def skynet_node(num: int, size: int) -> int:
    if size == 1:
        return num
    child = size // 10
    return sum(spawn_all(10, lambda k: skynet_node(num + k * child, child)))


def pingpong(pairs: int, rounds: int) -> int:
    return sum(spawn_all(pairs, lambda _: pinger(rounds)))


def pinger(rounds: int) -> int:
    """Spawns its ponger and sends it the round trips so far; the reply counts one more."""
    pings = Queue()
    pongs = Queue()
    partner = gevent.spawn(ponger, pings, pongs, rounds)
    trips = 0
    for _ in range(rounds):
        pings.put(trips)
        trips = pongs.get()
    partner.get()  # joins it, and raises what it raised
    return trips


def ponger(pings: Queue, pongs: Queue, rounds: int) -> None:
    for _ in range(rounds):
        pongs.put(pings.get() + 1)


def chain(length: int) -> int:
    done = Queue()
    group = Group()
    group.spawn(chain_link, 1, 0, length, group, done)
    received = done.get()
    group.join(raise_error=True)
    return received


def chain_link(number: int, total: int, length: int, group: Group, done: Queue) -> None:
    """Adds its number to the sum it was handed and spawns the next link with the new sum
    into the same group, or, as the last, reports the sum."""
    total += number
    if number == length:
        done.put(total)
    else:
        group.spawn(chain_link, number + 1, total, length, group, done)


def yield_(tasks: int, yields: int) -> int:
    def task(_: int) -> int:
        count = 0
        for _ in range(yields):
            gevent.sleep(0)
            count += 1
        return count

    return sum(spawn_all(tasks, task))


def listen(
    connections: int, serve: Callable[[socket], None], handlers: Group, accepted: Event
) -> int:
    """Starts a StreamServer on HOST, an ephemeral port, with a backlog of `connections`,
    which serves each connection on a greenlet of `handlers` (serve(sock), TCP_NODELAY set);
    the handler of the `connections`-th closes the listener and sets `accepted`. Returns the
    port."""
    counted = Countdown(connections, accepted)

    def handle(sock: socket, _address: Any) -> None:
        counted.count_down()
        if counted.left == 0:
            server.close()
        sock.setsockopt(IPPROTO_TCP, TCP_NODELAY, 1)
        serve(sock)

    server = StreamServer((HOST, 0), handle, backlog=connections, spawn=handlers.spawn)
    server.start()
    port = server.server_port
    if connections == 0:
        server.close()
    return port


def connect(port: int) -> socket:
    sock = socket()
    sock.setsockopt(IPPROTO_TCP, TCP_NODELAY, 1)
    sock.connect((HOST, port))
    return sock


def receive_sum(sock: socket, size: int) -> int:
    """Reads until exactly `size` bytes have come back; returns their sum."""
    total = 0
    while size:
        data = sock.recv(size)
        if not data:
            raise EOFError("the server closed the connection before the echo was whole")
        total += sum(data)
        size -= len(data)
    return total


def echo(connections: int, rounds: int, bytes: int) -> int:
    handlers = Group()
    port = listen(connections, echo_back, handlers, Event())
    sums = spawn_all(connections, lambda c: echo_client(port, c, rounds, bytes))
    handlers.join(raise_error=True)
    return sum(sums)


def echo_back(sock: socket) -> None:
    """A connection's handler: writes back what has arrived until end of stream."""
    while data := sock.recv(READ_SIZE):
        sock.sendall(data)


def echo_client(port: int, client: int, rounds: int, size: int) -> int:
    total = 0
    with connect(port) as sock:
        for round_ in range(rounds):
            sock.sendall(request(client, round_, size))
            total += receive_sum(sock, size)
    return total


def connections(connections: int) -> int:
    connected = Countdown(connections, Event())
    accepted, go = Event(), Event()
    handlers = Group()
    port = listen(connections, hold, handlers, accepted)
    clients = [gevent.spawn(held_client, port, c, connected, go) for c in range(connections)]
    connected.event.wait()
    accepted.wait()
    go.set()
    gevent.joinall(clients, raise_error=True)
    handlers.join(raise_error=True)
    return sum(client.value for client in clients)


def hold(sock: socket) -> None:
    """A held connection's handler: waits for one byte, writes it back, waits for end of
    stream."""
    sock.sendall(sock.recv(1))
    while sock.recv(READ_SIZE):  # until end of stream
        pass


def held_client(port: int, client: int, connected: Countdown, go: Event) -> int:
    with connect(port) as sock:
        connected.count_down()
        go.wait()
        sock.sendall(request(client, 0, 1))
        return receive_sum(sock, 1)


SCENARIOS: dict[str, Callable[..., Any]] = {
    "spawn": spawn,
    "sleep": sleep,
    "timer": timer,
    "doxbee": doxbee,
    "parallel": parallel,
    "skynet": skynet,
    "pingpong": pingpong,
    "chain": chain,
    "yield": yield_,
    "echo": echo,
    "connections": connections,
}
