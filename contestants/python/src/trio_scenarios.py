"""The nine scenarios on trio, in the same shape as asyncio_scenarios.py.

Tasks are spawned with `nursery.start_soon`; the nursery's `async with` is the join. A trio
task has no return value, so `spawn_all` has each task hand its result back by appending it
to a list, the usual way to collect results from a nursery. Fake I/O is `trio.sleep` (trio's
timer), channels are `trio.open_memory_channel(0)` (unbuffered, the size trio's docs advise
when in doubt), and a yield is `trio.lowlevel.checkpoint()`, a bare trip to the scheduler.
"""

from collections.abc import Callable, Coroutine
from time import perf_counter_ns
from typing import Any, TypeVar

import trio

from doxbee import Query, Transaction, Upload
from protocol import Outcome, Scenario, oversleep_outcome

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


async def io(tx: Transaction, index: int, seconds: float) -> None:
    """Fake I/O op `index` of the transaction on trio's timer: a new query, alive until the op
    completes (the sleeping task is the op's completion)."""
    query = Query.start(tx, index)
    await trio.sleep(seconds)
    query.complete()


async def spawn(tasks: int) -> int:
    async def task(i: int) -> int:
        return i

    return sum(await spawn_all(tasks, task))


async def sleep(tasks: int, delay_ms: int) -> int:
    seconds = delay_ms / 1_000

    async def task(i: int) -> int:
        await trio.sleep(seconds)
        return i

    return sum(await spawn_all(tasks, task))


async def timer(step_us: int, total_ms: int) -> Outcome:
    seconds = step_us / 1_000_000
    slept_ns = []
    for _ in range(total_ms * 1_000 // step_us):
        start = perf_counter_ns()
        await trio.sleep(seconds)
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
    ping_send, ping_receive = trio.open_memory_channel[int](0)
    pong_send, pong_receive = trio.open_memory_channel[int](0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(ponger, ping_receive, pong_send, rounds)
        trips = 0
        for _ in range(rounds):
            await ping_send.send(trips)
            trips = await pong_receive.receive()
    return trips


async def ponger(
    pings: trio.MemoryReceiveChannel[int], pongs: trio.MemorySendChannel[int], rounds: int
) -> None:
    for _ in range(rounds):
        await pongs.send(await pings.receive() + 1)


async def chain(length: int) -> int:
    done_send, done_receive = trio.open_memory_channel[int](0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(chain_link, 1, length, nursery, done_send)
        return await done_receive.receive()


async def chain_link(
    number: int, length: int, nursery: trio.Nursery, done: trio.MemorySendChannel[int]
) -> None:
    """Spawns the next link into the same nursery, or, as the last, reports its number."""
    if number == length:
        await done.send(number)
    else:
        nursery.start_soon(chain_link, number + 1, length, nursery, done)


async def yield_(tasks: int, yields: int) -> int:
    async def task(_: int) -> int:
        count = 0
        for _ in range(yields):
            await trio.lowlevel.checkpoint()
            count += 1
        return count

    return sum(await spawn_all(tasks, task))


SCENARIOS: dict[str, Scenario] = {
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
