"""The nine scenarios written once for every structured-concurrency runtime of the Python
contestants: asyncio (python-asyncio on CPython's loop, python-uvloop on uvloop's) and trio
(python-trio). They differ only in the primitives a `Runtime` names — how tasks are spawned
into a group and joined, the timer's sleep, a channel, a bare yield — which
asyncio_scenarios.py and trio_scenarios.py pass in, as node/lib/promise-chains.js is written
once for the promise libraries.
"""

from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from time import perf_counter_ns
from typing import Any, Generic, TypeVar

from doxbee import Transaction, Upload
from protocol import Outcome, Scenario, oversleep_outcome

T = TypeVar("T")
Group = TypeVar("Group")

Task = Callable[[int], Coroutine[Any, Any, T]]
"""A task of `spawn_all`: task(i) is the coroutine of the i-th."""

Send = Callable[[int], Awaitable[None]]
Receive = Callable[[], Awaitable[int]]


@dataclass(frozen=True)
class Runtime(Generic[Group]):
    """The primitives of one runtime that the scenarios use."""

    spawn_all: Callable[[int, Task[Any]], Awaitable[list[Any]]]
    """Runs task(0) … task(count − 1) as tasks of one group, joins them, returns their results."""
    sleep: Callable[[float], Awaitable[None]]
    """The runtime's timer: a sleep of that many seconds."""
    yield_: Callable[[], Awaitable[None]]
    """One trip to the scheduler, letting other tasks run."""
    open_group: Callable[[], AbstractAsyncContextManager[Group]]
    """A task group whose `async with` joins the tasks started in it."""
    start_soon: Callable[..., None]
    """start_soon(group, fn, *args) starts fn(*args) as a task of the group."""
    channel: Callable[[], tuple[Send, Receive]]
    """A new channel of ints: its send and its receive."""


def scenarios(runtime: Runtime[Group]) -> dict[str, Scenario]:
    """The nine scenarios on the runtime, by name."""
    spawn_all, sleep_for = runtime.spawn_all, runtime.sleep
    open_group, start_soon, channel = runtime.open_group, runtime.start_soon, runtime.channel

    async def io(tx: Transaction, index: int, seconds: float) -> None:
        """Fake I/O op `index` of the transaction on the runtime's timer: the call, with a
        new query let go at once, then the op's completion (the sleep, its timer and its
        task), which counts the op in the transaction."""
        tx.call(index)
        await sleep_for(seconds)
        tx.complete()

    async def spawn(tasks: int) -> int:
        async def task(i: int) -> int:
            return i

        return sum(await spawn_all(tasks, task))

    async def sleep(tasks: int, delay_ms: int) -> int:
        seconds = delay_ms / 1_000

        async def task(i: int) -> int:
            await sleep_for(seconds)
            return i

        return sum(await spawn_all(tasks, task))

    async def timer(step_us: int, total_ms: int) -> Outcome:
        seconds = step_us / 1_000_000
        slept_ns = []
        for _ in range(total_ms * 1_000 // step_us):
            start = perf_counter_ns()
            await sleep_for(seconds)
            slept_ns.append(perf_counter_ns() - start)
        return oversleep_outcome(slept_ns, step_us * 1_000)

    async def doxbee(requests: int, io_ms: int) -> int:
        seconds = io_ms / 1_000

        async def upload(request: int) -> int:
            upload = Upload.begin(request)
            tx = upload.tx
            await io(tx, 2, seconds)  # put the blob
            await io(tx, 3, seconds)  # look the file up: it never exists
            upload.build_version()
            await io(tx, 5, seconds)  # insert the version
            upload.build_file_query()
            await io(tx, 6, seconds)  # execute the "create file" query
            await io(tx, 7, seconds)  # insert the file-version link
            await io(tx, 8, seconds)  # update the file's current version
            await io(tx, 9, seconds)  # commit
            return tx.ops

        return sum(await spawn_all(requests, upload))

    async def parallel(requests: int, fanout: int, io_ms: int) -> int:
        seconds = io_ms / 1_000

        async def request(i: int) -> int:
            tx = Transaction(i)
            await spawn_all(fanout, lambda k: io(tx, k, seconds))  # ops 0 … fanout − 1
            await io(tx, fanout, seconds)  # commit
            return tx.ops

        return sum(await spawn_all(requests, request))

    async def skynet(size: int) -> int:
        return await skynet_node(0, size)

    async def skynet_node(num: int, size: int) -> int:
        if size == 1:
            return num
        child = size // 10
        return sum(await spawn_all(10, lambda k: skynet_node(num + k * child, child)))

    async def pingpong(pairs: int, rounds: int) -> int:
        return sum(await spawn_all(pairs, lambda _: pinger(rounds)))

    async def pinger(rounds: int) -> int:
        """Spawns its ponger and sends it the round trips so far; the reply counts one more."""
        ping_send, ping_receive = channel()
        pong_send, pong_receive = channel()
        async with open_group() as group:
            start_soon(group, ponger, ping_receive, pong_send, rounds)
            trips = 0
            for _ in range(rounds):
                await ping_send(trips)
                trips = await pong_receive()
        return trips

    async def ponger(pings: Receive, pongs: Send, rounds: int) -> None:
        for _ in range(rounds):
            await pongs(await pings() + 1)

    async def chain(length: int) -> int:
        done_send, done_receive = channel()
        async with open_group() as group:
            start_soon(group, chain_link, 1, 0, length, group, done_send)
            return await done_receive()

    async def chain_link(number: int, total: int, length: int, group: Group, done: Send) -> None:
        """Adds its number to the sum it was handed and spawns the next link with the new sum
        into the same group, or, as the last, reports the sum."""
        total += number
        if number == length:
            await done(total)
        else:
            start_soon(group, chain_link, number + 1, total, length, group, done)

    async def yield_(tasks: int, yields: int) -> int:
        yield_once = runtime.yield_

        async def task(_: int) -> int:
            count = 0
            for _ in range(yields):
                await yield_once()
                count += 1
            return count

        return sum(await spawn_all(tasks, task))

    return {
        "spawn": spawn,
        "sleep": sleep,
        "timer": timer,
        "doxbee": doxbee,
        "parallel": parallel,
        "skynet": skynet,
        "pingpong": pingpong,
        "chain": chain,
        "yield": yield_,
    }
