"""The python-uvloop contestant: the same asyncio scenarios as python-asyncio, on uvloop's
libuv-based event loop, started with `uvloop.run` as uvloop's docs show since 0.18."""

from collections.abc import Mapping

import uvloop

import protocol
from asyncio_scenarios import SCENARIOS


def whole_ms_steps(name: str, params: Mapping[str, int]) -> str | None:
    """uvloop's timers are libuv's, which count whole milliseconds: `call_later` (under
    `asyncio.sleep`) rounds a delay to the nearest one, and one of 0 runs at once, so a
    500 µs step would not sleep at all and a 2.5 ms one would sleep 2 ms. A step that is not
    a whole millisecond is declined (n/a), as the BEAM and Node contestants decline it,
    rather than measured as a shorter or longer sleep than asked."""
    step_us = params.get("step_us", 0) if name == "timer" else 0
    if step_us % 1000 == 0:
        return None
    return (
        f"uvloop's timers count whole milliseconds: a step of {step_us} µs"
        f" would sleep {round(step_us / 1000)} ms"
    )


protocol.run(SCENARIOS, lambda main: uvloop.run(main()), whole_ms_steps)
