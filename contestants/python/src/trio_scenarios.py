"""The scenarios on trio, the counterparts of asyncio_scenarios.py's: the nine of
scenarios.py, and the two socket scenarios, written here on trio's streams.

Tasks are spawned with `nursery.start_soon`; the nursery's `async with` is the join. A trio
task has no return value, so `spawn_all` has each task hand its result back by appending it
to a list, the usual way to collect results from a nursery. Fake I/O is `trio.sleep` (trio's
timer), channels are `trio.open_memory_channel(0)` (unbuffered, the size trio's docs advise
when in doubt), and a yield is `trio.lowlevel.checkpoint()`, a bare trip to the scheduler.

The sockets are trio's high-level streams: `trio.open_tcp_listeners` and an acceptor task
that calls the listener's `accept` `connections` times, starting each connection's server
task in the scenario's nursery (`trio.serve_listeners` would accept until cancelled), and
`trio.open_tcp_stream` for the clients. Every SocketStream sets TCP_NODELAY itself (and
TCP_NOTSENT_LOWAT at 16 KiB), both ends, so the scenarios do not set it again. The
"connected" and "go" signals of `connections` are `trio.Event`s.
"""

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import trio

from protocol import Scenario
from scenarios import Receive, Runtime, Send, scenarios
from sockets import HOST, Countdown, request

T = TypeVar("T")


async def spawn_all(count: int, task: Callable[[int], Coroutine[Any, Any, T]]) -> list[T]:
    """Runs task(0) … task(count − 1) as tasks of one nursery and returns their results
    (in the order they finish)."""
    results: list[T] = []

    async def run(i: int) -> None:
        results.append(await task(i))

    async with trio.open_nursery() as nursery:
        for i in range(count):
            nursery.start_soon(run, i)
    return results


def channel() -> tuple[Send, Receive]:
    send, receive = trio.open_memory_channel[int](0)
    return send.send, receive.receive


TRIO: Runtime[trio.Nursery] = Runtime(
    spawn_all=spawn_all,
    sleep=trio.sleep,
    yield_=trio.lowlevel.checkpoint,
    open_group=trio.open_nursery,
    start_soon=trio.Nursery.start_soon,
    channel=channel,
)


Serve = Callable[[trio.SocketStream], Coroutine[Any, Any, None]]


async def listen(connections: int) -> tuple[trio.SocketListener, int]:
    """A listener on HOST, an ephemeral port, with a backlog of `connections`, and its port."""
    [listener] = await trio.open_tcp_listeners(0, host=HOST, backlog=connections)
    return listener, listener.socket.getsockname()[1]


async def accept_all(
    listener: trio.SocketListener,
    connections: int,
    nursery: trio.Nursery,
    serve: Serve,
    accepted: trio.Event,
) -> None:
    """The acceptor task: accepts `connections` connections, starts serve(stream) for each
    in the nursery, closes the listener, then sets `accepted`."""
    async with listener:
        for _ in range(connections):
            nursery.start_soon(serve, await listener.accept())
    accepted.set()


async def receive_sum(stream: trio.SocketStream, size: int) -> int:
    """Reads until exactly `size` bytes have come back; returns their sum."""
    total = 0
    while size:
        data = await stream.receive_some(size)
        if not data:
            raise EOFError("the server closed the connection before the echo was whole")
        total += sum(data)
        size -= len(data)
    return total


async def echo(connections: int, rounds: int, bytes: int) -> int:
    async with trio.open_nursery() as servers:
        listener, port = await listen(connections)
        servers.start_soon(accept_all, listener, connections, servers, echo_back, trio.Event())
        sums = await spawn_all(connections, lambda c: echo_client(port, c, rounds, bytes))
    return sum(sums)


async def echo_back(stream: trio.SocketStream) -> None:
    """A connection's server task: writes back what has arrived (reads of up to 64 KiB, the
    stream's default) until end of stream."""
    async with stream:
        async for data in stream:
            await stream.send_all(data)


async def echo_client(port: int, client: int, rounds: int, size: int) -> int:
    total = 0
    async with await trio.open_tcp_stream(HOST, port) as stream:
        for round_ in range(rounds):
            await stream.send_all(request(client, round_, size))
            total += await receive_sum(stream, size)
    return total


async def connections(connections: int) -> int:
    connected = Countdown(connections, trio.Event())
    accepted, go = trio.Event(), trio.Event()
    echoed: list[int] = []
    async with trio.open_nursery() as nursery:
        listener, port = await listen(connections)
        nursery.start_soon(accept_all, listener, connections, nursery, hold, accepted)
        for c in range(connections):
            nursery.start_soon(held_client, port, c, connected, go, echoed)
        await connected.event.wait()
        await accepted.wait()
        go.set()
    return sum(echoed)


async def hold(stream: trio.SocketStream) -> None:
    """A held connection's server task: waits for one byte, writes it back, waits for end of
    stream."""
    async with stream:
        await stream.send_all(await stream.receive_some(1))
        async for _ in stream:  # until end of stream
            pass


async def held_client(
    port: int, client: int, connected: Countdown, go: trio.Event, echoed: list[int]
) -> None:
    """Hands the byte that came back to `echoed` (a trio task has no return value)."""
    async with await trio.open_tcp_stream(HOST, port) as stream:
        connected.count_down()
        await go.wait()
        await stream.send_all(request(client, 0, 1))
        echoed.append(await receive_sum(stream, 1))


SCENARIOS: dict[str, Scenario] = {
    **scenarios(TRIO),
    "echo": echo,
    "connections": connections,
}
