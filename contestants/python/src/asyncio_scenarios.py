"""The nine scenarios on asyncio, written once for every asyncio event loop: python-asyncio
runs them on CPython's own loop, python-uvloop on uvloop's.

Tasks are spawned with `asyncio.TaskGroup` (Python 3.11), which the asyncio docs present as
the structured way to create tasks and wait for them all, with stronger guarantees than
`gather` when tasks spawn tasks (skynet, pingpong, chain do). It is also the counterpart of
trio's nursery, so trio_scenarios.py reads side by side with this file. Fake I/O is
`asyncio.sleep` (the loop's timer), channels are `asyncio.Queue`, and a yield is
`asyncio.sleep(0)`, the documented way to let other tasks run.
"""

import asyncio
from collections.abc import Callable, Coroutine
from time import perf_counter_ns
from typing import Any, TypeVar

from doxbee import Query, Transaction, Upload
from protocol import Outcome, Scenario, oversleep_outcome

T = TypeVar("T")


async def spawn_all(count: int, task: Callable[[int], Coroutine[Any, Any, T]]) -> list[T]:
    """Runs task(0) … task(count − 1) as tasks of one TaskGroup and returns their results."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(task(i)) for i in range(count)]
    return [t.result() for t in tasks]


async def io(tx: Transaction, index: int, seconds: float) -> None:
    """Fake I/O op `index` of the transaction on the loop's timer: a new query, alive until the op
    completes (`asyncio.sleep`'s future and timer handle are the op's completion)."""
    query = Query.start(tx, index)
    await asyncio.sleep(seconds)
    query.complete()


async def spawn(tasks: int) -> int:
    async def task(i: int) -> int:
        return i

    return sum(await spawn_all(tasks, task))


async def sleep(tasks: int, delay_ms: int) -> int:
    seconds = delay_ms / 1_000

    async def task(i: int) -> int:
        await asyncio.sleep(seconds)
        return i

    return sum(await spawn_all(tasks, task))


async def timer(step_us: int, total_ms: int) -> Outcome:
    seconds = step_us / 1_000_000
    slept_ns = []
    for _ in range(total_ms * 1_000 // step_us):
        start = perf_counter_ns()
        await asyncio.sleep(seconds)
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
    pings: asyncio.Queue[int] = asyncio.Queue()
    pongs: asyncio.Queue[int] = asyncio.Queue()
    async with asyncio.TaskGroup() as group:
        group.create_task(ponger(pings, pongs, rounds))
        trips = 0
        for _ in range(rounds):
            await pings.put(trips)
            trips = await pongs.get()
    return trips


async def ponger(pings: asyncio.Queue[int], pongs: asyncio.Queue[int], rounds: int) -> None:
    for _ in range(rounds):
        await pongs.put(await pings.get() + 1)


async def chain(length: int) -> int:
    done: asyncio.Queue[int] = asyncio.Queue()
    async with asyncio.TaskGroup() as group:
        group.create_task(chain_link(1, length, group, done))
        return await done.get()


async def chain_link(
    number: int, length: int, group: asyncio.TaskGroup, done: asyncio.Queue[int]
) -> None:
    """Spawns the next link into the same group, or, as the last, reports its number."""
    if number == length:
        await done.put(number)
    else:
        group.create_task(chain_link(number + 1, length, group, done))


async def yield_(tasks: int, yields: int) -> int:
    async def task(_: int) -> int:
        count = 0
        for _ in range(yields):
            await asyncio.sleep(0)
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
