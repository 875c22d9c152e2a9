"""The nine scenarios of scenarios.py on asyncio, for every asyncio event loop: python-asyncio
runs them on CPython's own loop, python-uvloop on uvloop's.

Tasks are spawned with `asyncio.TaskGroup` (Python 3.11), which the asyncio docs present as
the structured way to create tasks and wait for them all, with stronger guarantees than
`gather` when tasks spawn tasks (skynet, pingpong, chain do). It is also the counterpart of
trio's nursery, which is why the scenarios can be written once for both. Fake I/O is
`asyncio.sleep` (the loop's timer), channels are `asyncio.Queue`, and a yield is
`asyncio.sleep(0)`, the documented way to let other tasks run.
"""

import asyncio
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any, TypeVar

from protocol import Scenario
from scenarios import Receive, Runtime, Send, scenarios

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

SCENARIOS: dict[str, Scenario] = scenarios(ASYNCIO)
