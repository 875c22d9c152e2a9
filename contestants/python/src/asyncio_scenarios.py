"""The scenarios on asyncio, for every asyncio event loop: python-asyncio runs them on
CPython's own loop, python-uvloop on uvloop's. The nine of scenarios.py, and the two socket
scenarios, written here on asyncio's streams.

Tasks are spawned with `asyncio.TaskGroup` (Python 3.11), which the asyncio docs present as
the structured way to create tasks and wait for them all, with stronger guarantees than
`gather` when tasks spawn tasks (skynet, pingpong, chain do). It is also the counterpart of
trio's nursery, which is why the scenarios can be written once for both. Fake I/O is
`asyncio.sleep` (the loop's timer), channels are `asyncio.Queue`, and a yield is
`asyncio.sleep(0)`, the documented way to let other tasks run.

The sockets are asyncio's streams, as its docs write a TCP echo server and client:
`asyncio.start_server` (the loop's server accepts every connection and hands it to a
callback, which starts the connection's server task in the scenario's TaskGroup) and
`asyncio.open_connection`, each end a StreamReader and a StreamWriter over the loop's
transport. TCP_NODELAY is set by the loop itself on every TCP transport, both ends
(CPython since 3.6: `base_events._set_nodelay` in the selector transport's constructor;
uvloop: `uv_tcp_nodelay` in its TCPTransport's), so the scenarios do not set it again. The
"connected" and "go" signals of `connections` are `asyncio.Event`s.
"""

import asyncio
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any, TypeVar

from protocol import Scenario
from scenarios import Receive, Runtime, Send, scenarios
from sockets import HOST, READ_SIZE, Countdown, request

T = TypeVar("T")


async def spawn_all(count: int, task: Callable[[int], Coroutine[Any, Any, T]]) -> list[T]:
    """Runs task(0) … task(count − 1) as tasks of one TaskGroup and returns their results."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(task(i)) for i in range(count)]
    return [t.result() for t in tasks]


def start_soon(
    group: asyncio.TaskGroup, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any
) -> None:
    """Starts fn(*args) as a task of the group."""
    group.create_task(fn(*args))


def channel() -> tuple[Send, Receive]:
    """An unbounded `asyncio.Queue` (the default), the queue asyncio programs pass ints over."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    return queue.put, queue.get


ASYNCIO: Runtime[asyncio.TaskGroup] = Runtime(
    spawn_all=spawn_all,
    sleep=asyncio.sleep,
    yield_=partial(asyncio.sleep, 0),
    open_group=asyncio.TaskGroup,
    start_soon=start_soon,
    channel=channel,
)


Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Coroutine[Any, Any, None]]


async def listen(
    connections: int, group: asyncio.TaskGroup, serve: Serve
) -> tuple[asyncio.Server, int, asyncio.Event]:
    """Listens on HOST, an ephemeral port, with a backlog of `connections`; the server
    accepts `connections` connections, starts serve(reader, writer) for each as a task of
    `group`, then closes its listener. Returns the server, its port and an event set once
    every connection has its task."""
    accepted = Countdown(connections, asyncio.Event())

    def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        group.create_task(serve(reader, writer))
        accepted.count_down()
        if accepted.left == 0:
            server.close()

    server = await asyncio.start_server(accept, HOST, 0, backlog=connections)
    port = server.sockets[0].getsockname()[1]
    if connections == 0:
        server.close()
    return server, port, accepted.event


async def close(writer: asyncio.StreamWriter) -> None:
    writer.close()
    await writer.wait_closed()


async def echo(connections: int, rounds: int, bytes: int) -> int:
    async with asyncio.TaskGroup() as servers:
        server, port, _ = await listen(connections, servers, echo_back)
        sums = await spawn_all(connections, lambda c: echo_client(port, c, rounds, bytes))
    await server.wait_closed()
    return sum(sums)


async def echo_back(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A connection's server task: writes back what has arrived until end of stream."""
    try:
        while data := await reader.read(READ_SIZE):
            writer.write(data)
            await writer.drain()
    finally:
        await close(writer)


async def echo_client(port: int, client: int, rounds: int, size: int) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    total = 0
    try:
        for round_ in range(rounds):
            writer.write(request(client, round_, size))
            await writer.drain()
            total += sum(await reader.readexactly(size))
    finally:
        await close(writer)
    return total


async def connections(connections: int) -> int:
    connected = Countdown(connections, asyncio.Event())
    go = asyncio.Event()
    async with asyncio.TaskGroup() as group:
        server, port, accepted = await listen(connections, group, hold)
        clients = [
            group.create_task(held_client(port, c, connected, go)) for c in range(connections)
        ]
        await connected.event.wait()
        await accepted.wait()
        go.set()
    await server.wait_closed()
    return sum(client.result() for client in clients)


async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A held connection's server task: waits for one byte, writes it back, waits for end of
    stream."""
    try:
        writer.write(await reader.readexactly(1))
        await writer.drain()
        await reader.read()  # until end of stream
    finally:
        await close(writer)


async def held_client(port: int, client: int, connected: Countdown, go: asyncio.Event) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        connected.count_down()
        await go.wait()
        writer.write(request(client, 0, 1))
        await writer.drain()
        return (await reader.readexactly(1))[0]
    finally:
        await close(writer)


SCENARIOS: dict[str, Scenario] = {
    **scenarios(ASYNCIO),
    "echo": echo,
    "connections": connections,
}
