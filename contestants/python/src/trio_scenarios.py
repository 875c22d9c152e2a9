"""The nine scenarios of scenarios.py on trio, the counterparts of asyncio_scenarios.py's.

Tasks are spawned with `nursery.start_soon`; the nursery's `async with` is the join. A trio
task has no return value, so `spawn_all` has each task hand its result back by appending it
to a list, the usual way to collect results from a nursery. Fake I/O is `trio.sleep` (trio's
timer), channels are `trio.open_memory_channel(0)` (unbuffered, the size trio's docs advise
when in doubt), and a yield is `trio.lowlevel.checkpoint()`, a bare trip to the scheduler.
"""

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import trio

from protocol import Scenario
from scenarios import Receive, Runtime, Send, scenarios

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

SCENARIOS: dict[str, Scenario] = scenarios(TRIO)
